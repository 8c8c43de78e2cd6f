"""A small JSON API to record deals: for outside tools and the load script.

POST /api/feuilles/<sheet>/donnes/ with a JSON body {"version": n, "deal": {engine fields…}}
(or {"version": n, "deal": {"passed": true}}). The number of players comes from the sheet.
At a table of 5 with a called king, a taker without partner may say why: "alone": "dog" (the
king in the chien) or "self" (called themself); left out, the reason is unknown.
Answers 201 with the stored scores and the sheet's new version; 400 with {"field", "error"}
for anything malformed or impossible; 409 with the current version when the sheet changed
meanwhile or is locked (validated, position closed, tournament finished). Session
authentication and CSRF, like the rest of the desk; refusals in JSON too: 401 not logged in,
403 without a role on the tournament, 404 unknown sheet.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring.core.bodies import API_DEAL
from scoring.core.deal import DealError
from scoring.http import body_schema, json_body
from scoring.models import ScoreSheet
from scoring.sheets.services import StaleSheetError, deal_record
from tournament.access.lifecycle import Locked
from tournament.access.permissions import Permission, json_error, permission_required


def _sheet_state(sheet: ScoreSheet) -> dict:
    return {
        "sheet": sheet.pk,
        "version": sheet.version,
        "status": sheet.status,
        "players": list(sheet.players.values_list("seat", "registration__player__last_name")),
        "deals": [
            {"number": number, "scores": scores}
            for number, scores in sheet.deals.values_list("number", "scores")
        ],
    }


@permission_required(Permission.VIEW, "sheets__pk", api=True)
@require_GET
def sheet_state(request: HttpRequest, pk: int) -> JsonResponse:
    return JsonResponse(_sheet_state(get_object_or_404(ScoreSheet, pk=pk)))


def _parse(body: bytes) -> tuple[int, dict[str, Any]]:
    """The body's version and deal, or DealError naming what is wrong with it."""
    payload = json_body(
        body,
        API_DEAL,
        field="deal",
        unreadable=_('Corps JSON attendu : {"version": n, "deal": {…}}.'),
    )
    return payload["version"], payload["deal"]


@permission_required(Permission.SCORE, "sheets__pk", api=True)
@require_POST
@body_schema(API_DEAL)
def deal_create(request: HttpRequest, pk: int) -> JsonResponse:
    sheet = get_object_or_404(ScoreSheet.objects.select_related("tournament"), pk=pk)
    try:
        version, data = _parse(request.body)
        deal = deal_record(sheet=sheet, data=data, user=request.user, expected_version=version)
    except DealError as err:
        return json_error(err.field, _(err.template) % err.params)
    except Locked as err:
        return json_error("sheet", " ".join(err.messages), 409, version=sheet.version)
    except StaleSheetError as err:
        return json_error("version", str(err), 409, version=err.sheet.version)
    return JsonResponse(
        {"deal": deal.pk, "number": deal.number, "scores": deal.scores, "version": sheet.version},
        status=201,
    )
