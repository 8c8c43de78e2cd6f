"""The request a scoring view receives, typed with what the middleware and decorators add, and
the reading of a JSON body posted to the deal API or from a table's phone.

django-htmx's middleware puts `request.htmx` on every request; `tournament.access`'s decorators
leave the tournament the URL points at on `request.tournament` (their `TournamentRequest`, the one
type for such requests, re-exported here for scoring's views).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext
from django_htmx.middleware import HtmxDetails

from scoring.engine import DealError
from tournament.access import TournamentRequest
from tournament.safe_json import JSONTooDeep, loads_bounded

__all__ = ["HtmxRequest", "TournamentRequest", "json_object", "MAX_BODY_BYTES"]


class HtmxRequest(HttpRequest):
    """Any request once django-htmx's middleware ran (the table and hall pages, unguarded)."""

    htmx: HtmxDetails


# A deal is a few hundred bytes.
MAX_BODY_BYTES = 16_384


def json_object(body: bytes, *, field: str, unreadable: str) -> dict[str, Any]:
    """The posted body as a JSON object, small and shallow; else DealError on `field` (too long,
    too deeply nested, or `unreadable`: not JSON, or not an object)."""
    if len(body) > MAX_BODY_BYTES:
        raise DealError(field, gettext("Corps trop long."))
    try:
        payload = loads_bounded(body, max_depth=8)
    except JSONTooDeep:
        raise DealError(field, gettext("Corps JSON trop imbriqué.")) from None
    except ValueError:
        raise DealError(field, unreadable) from None
    if not isinstance(payload, dict):
        raise DealError(field, unreadable)
    return payload
