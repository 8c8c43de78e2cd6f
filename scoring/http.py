"""The reading of a JSON body posted to the deal API or from a table's phone."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from scoring.core.bodies import body_check
from scoring.core.deal import DealError
from tournament.core.safe_json import JSONTooDeep, loads_bounded
from tournament.core.schema import Shape

# A deal is a few hundred bytes.
MAX_BODY_BYTES = 16_384


def json_object(body: bytes, *, field: str, unreadable: str) -> dict[str, Any]:
    """The posted body as a JSON object, small and shallow; else DealError on `field` (too long,
    too deeply nested, or `unreadable`: not JSON, or not an object)."""
    if len(body) > MAX_BODY_BYTES:
        raise DealError(field, gettext("Corps trop long."))
    try:
        # Every value then goes through the endpoint's schema: a too long integer is refused
        # there, naming its field.
        payload = loads_bounded(body, max_depth=8, mark_long_integers=True)
    except JSONTooDeep:
        raise DealError(field, gettext("Corps JSON trop imbriqué.")) from None
    except ValueError:
        raise DealError(field, unreadable) from None
    if not isinstance(payload, dict):
        raise DealError(field, unreadable)
    return payload


def json_body(body: bytes, schema: Shape, *, field: str, unreadable: str) -> dict[str, Any]:
    """The posted body read (`json_object`) and checked against the endpoint's schema: DealError
    naming the field at fault, before any service sees it."""
    return body_check(schema, json_object(body, field=field, unreadable=unreadable))


def body_schema(schema: Shape):
    """Mark a view with the schema of the JSON body it reads (`json_body`): the fuzz tests build
    its bodies from it, and fail on a view that reads JSON without one."""

    def mark(view):
        view.body_schema = schema
        return view

    return mark
