"""A phone bound to its player: identified once with a name and personal code, forgotten when
the phone changes hands."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from scoring.core import bodies
from scoring.models import TableLink
from scoring.sheets import table_entry
from scoring.sheets.views.table.common import code_sent, table_link, table_write


def _table_path(link: TableLink) -> str:
    return reverse("table-entry", args=[link.token])


@table_write(bodies.PHONE_IDENTIFY)
def table_identify(request: HttpRequest, link: TableLink, payload: dict[str, Any]) -> JsonResponse:
    """A player proves who they are once (name and personal code): this phone then enters the
    table's deals in their name, until the position ends or they leave it."""
    registration = table_entry.code_check(link=link, **code_sent(request, payload))
    response = JsonResponse({"name": registration.player.full_name})
    response.set_cookie(
        table_entry.BINDING_COOKIE,
        table_entry.binding_value(link, registration),
        max_age=table_entry.codes.BINDING_MAX_AGE,
        path=_table_path(link),
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


@require_POST
@table_link(page=False)
def table_forget(request: HttpRequest, link: TableLink) -> JsonResponse:
    """This phone stops entering in its player's name (the phone changes hands)."""
    response = JsonResponse({"name": None})
    response.delete_cookie(table_entry.BINDING_COOKIE, path=_table_path(link), samesite="Lax")
    return response
