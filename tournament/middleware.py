"""Project middleware: NUL characters refused in addresses, query strings and cookies, gzip for
what is not partial, and no opener policy where the browser would only log it.

PostgreSQL refuses NUL in text (a 500 from any filter on a GET parameter, on a secret link read
from the address: a hall screen's, a table phone's, or on the session cookie, looked up on every
page); nothing a person types contains one, so a query string holding one is answered 400,
naming the parameter, an address 404 (no page has it), and a cookie is dropped as if not sent
(a quoted cookie's octal escape, "\\000", reads as NUL).
"""

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.http.request import split_domain_port
from django.middleware import gzip
from django.utils.translation import gettext as _


class DropNulCookiesMiddleware:
    """Before the session's: a session cookie holding NUL reads as no session."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        for name, value in list(request.COOKIES.items()):
            if "\x00" in name or "\x00" in value:
                del request.COOKIES[name]
        return self.get_response(request)


class RejectNulQueryMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        if "\x00" in request.path:
            raise Http404
        for name, values in request.GET.lists():
            if "\x00" in name or any("\x00" in value for value in values):
                message = _("Paramètre %(name)s : caractère nul interdit.") % {
                    "name": name.replace("\x00", "")[:40]
                }
                return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


class GZipMiddleware(gzip.GZipMiddleware):
    """Django's gzip, except for a 206 (a byte range of a static file must stay those bytes).
    A live page stored gzipped is sent as stored (scoring.live.versioned sets its encoding).

    Compressing makes a response's ETag weak (W/"…"), and browsers send it back so. If-None-Match
    compares weakly (RFC 9110, 13.1.2), as Django's views do, but WhiteNoise (serving static
    files under `make run`) compares exactly and would answer 200 again: it gets the tags back
    as it made them.
    """

    def process_request(self, request):
        tags = request.META.get("HTTP_IF_NONE_MATCH", "")
        if 'W/"' in tags:
            request.META["HTTP_IF_NONE_MATCH"] = tags.replace('W/"', '"')

    def process_response(self, request, response):
        if response.status_code == 206:
            return response
        return super().process_response(request, response)


# The hosts a browser treats as secure over plain http (a laptop's own browser).
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")


class OpenerPolicyWhereTrustworthyMiddleware:
    """Before SecurityMiddleware, so it sees its answer: over plain http on a club's LAN a
    browser ignores Cross-Origin-Opener-Policy and logs an error on every page a phone opens
    (issue 38), so the header goes on https and loopback only, where it does something."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # The raw header: a disallowed host was already answered 400, asking again would raise.
        host, _port = split_domain_port(request.META.get("HTTP_HOST", ""))
        if not request.is_secure() and host not in LOOPBACK_HOSTS:
            del response["Cross-Origin-Opener-Policy"]
        return response
