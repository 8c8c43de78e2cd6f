"""A small JSON API to record deals: for outside tools and the load script.

POST /api/feuilles/<sheet>/donnes/ with a JSON body {"version": n, "deal": {engine fields…}}
(or {"deal": {"players": 4, "passed": true}}). Answers 201 with the stored scores and the sheet's
new version, 400 with {"field", "error"} for an impossible deal, 409 with the current version
when the sheet changed meanwhile. Session authentication and CSRF, like the rest of the desk.
"""

from __future__ import annotations

import json

from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring.engine import DealError
from scoring.models import ScoreSheet
from scoring.services import StaleSheetError, deal_record
from tournament.roles import scorer_required


def _sheet_state(sheet: ScoreSheet) -> dict:
    return {
        "sheet": sheet.pk,
        "version": sheet.version,
        "players": list(sheet.players.values_list("seat", "registration__player__last_name")),
        "deals": [
            {"number": number, "scores": scores}
            for number, scores in sheet.deals.values_list("number", "scores")
        ],
    }


@scorer_required
@require_GET
def sheet_state(request: HttpRequest, pk: int) -> JsonResponse:
    return JsonResponse(_sheet_state(get_object_or_404(ScoreSheet, pk=pk)))


@scorer_required
@require_POST
def deal_create(request: HttpRequest, pk: int) -> JsonResponse:
    sheet = get_object_or_404(ScoreSheet, pk=pk)
    try:
        body = json.loads(request.body)
        data = dict(body["deal"])
        version = body.get("version")
        version = None if version is None else int(version)
    except (ValueError, KeyError, TypeError):
        return JsonResponse(
            {"field": None, "error": _('Corps JSON attendu : {"deal": {…}}.')}, status=400
        )
    data.setdefault("players", sheet.players.count())
    try:
        deal = deal_record(sheet=sheet, data=data, user=request.user, expected_version=version)
    except DealError as err:
        return JsonResponse({"field": err.field, "error": _(err.template) % err.params}, status=400)
    except StaleSheetError as err:
        return JsonResponse(
            {"field": "version", "error": str(err), "version": err.sheet.version}, status=409
        )
    return JsonResponse(
        {"deal": deal.pk, "number": deal.number, "scores": deal.scores, "version": sheet.version},
        status=201,
    )
