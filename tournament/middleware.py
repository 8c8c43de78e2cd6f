"""Project middleware: NUL characters refused in query strings, and gzip for what is not partial.

PostgreSQL refuses NUL in text (a 500 from any filter on a GET parameter); nothing a person
types contains one, so the request is answered 400, naming the parameter.
"""

from functools import lru_cache

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.middleware import gzip
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string
from django.utils.translation import gettext as _

# Compressed bodies of shared renders kept per process: the pages every viewer gets alike.
SHARED_BODIES = 64


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
        if getattr(response, "shared_body", False) and self._accepts_gzip(request, response):
            return self._shared(response)
        return super().process_response(request, response)

    def _accepts_gzip(self, request, response: HttpResponse) -> bool:
        if response.streaming or response.has_header("Content-Encoding"):
            return False
        return bool(gzip.re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))

    def _shared(self, response: HttpResponse) -> HttpResponse:
        """A body every viewer gets alike (scoring.live.rendered marks it: it holds no one's
        secret) is compressed once per process, its random padding with it, not per poll."""
        compressed = _compressed(response.content, self.max_random_bytes)
        if len(compressed) >= len(response.content):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        response.content = compressed
        response.headers["Content-Length"] = str(len(compressed))
        etag = response.get("ETag")
        if etag and etag.startswith('"'):
            response.headers["ETag"] = "W/" + etag
        response.headers["Content-Encoding"] = "gzip"
        return response


@lru_cache(maxsize=SHARED_BODIES)
def _compressed(content: bytes, max_random_bytes: int) -> bytes:
    return compress_string(content, max_random_bytes=max_random_bytes)
