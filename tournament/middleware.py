"""Project middleware: NUL characters refused in query strings, and gzip for what is not partial.

PostgreSQL refuses NUL in text (a 500 from any filter on a GET parameter); nothing a person
types contains one, so the request is answered 400, naming the parameter.
"""

from django.http import HttpRequest, HttpResponseBadRequest
from django.middleware import gzip
from django.utils.translation import gettext as _


class RejectNulQueryMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        for name, values in request.GET.lists():
            if "\x00" in name or any("\x00" in value for value in values):
                message = _("Paramètre %(name)s : caractère nul interdit.") % {
                    "name": name.replace("\x00", "")[:40]
                }
                return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


class GZipMiddleware(gzip.GZipMiddleware):
    """Django's gzip, except for a 206: a byte range of a static file must stay those bytes.

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
