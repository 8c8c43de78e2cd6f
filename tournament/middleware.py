"""Refuse a query string carrying NUL characters before any view can put one in a query.

PostgreSQL refuses NUL in text (a 500 from any filter on a GET parameter); nothing a person
types contains one, so the request is answered 400, naming the parameter.
"""

from django.http import HttpRequest, HttpResponseBadRequest
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
