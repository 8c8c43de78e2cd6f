"""The arbiter called to the table from the phone page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse

from scoring.core import bodies
from scoring.models import TableLink
from scoring.sheets import table_entry
from scoring.sheets.views.table.common import table_write


@table_write(bodies.PHONE_CALL)
def table_call(request: HttpRequest, link: TableLink, payload: dict[str, Any]) -> JsonResponse:
    """Any player calls the arbiter to the table (the link is the credential; one open call
    a table, and a bounded number an hour)."""
    call = table_entry.arbiter_call(
        link=link, deal_number=payload.get("number"), note=payload.get("note")
    )
    return JsonResponse({"call": call.pk, "since": call.created_at.isoformat()})
