"""Deals entered at the table: previewed, recorded, corrected by their enterer, confirmed by the
other side, contested by any other player of the table, and the sheet signed by each player."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from scoring.core import bodies
from scoring.models import Deal, ScoreSheet, TableLink
from scoring.sheets import table_entry
from scoring.sheets.services import compute_scores, deal_input_check
from scoring.sheets.views.table.common import (
    bound,
    client,
    code_sent,
    queue_reported,
    table_write,
    who_acts,
)


@table_write(bodies.PHONE_PREVIEW)
def table_preview(request: HttpRequest, link: TableLink, payload: dict[str, Any]) -> JsonResponse:
    """The row the deal would add, computed by the engine, before anything is saved."""
    sheet = table_entry.table_sheet(link) or ScoreSheet(
        tournament=link.table.position.tournament, table=link.table
    )
    if sheet.pk is None:
        sheet._players_count = link.table.seats.count()
    data = deal_input_check(payload.get("deal"), sheet)
    scores = compute_scores(data, link.table.position.tournament.rule_set)
    return JsonResponse({"scores": scores})


def _enterer(request: HttpRequest, link: TableLink, payload: dict[str, Any]):
    """Who enters or corrects: a code sent with the request (its seat and pin), else the
    player this phone was bound to. Never a seat alone."""
    if "pin" in payload:
        return table_entry.code_check(
            link=link,
            seat=payload.get("entered_by"),
            pin=payload.get("pin"),
            client=client(request),
        )
    registration = bound(request, link)
    if registration is None:
        raise table_entry.CodeRefused(
            _("Identifiez-vous d'abord : votre nom et votre code personnel, en haut de la page."),
            field="entered_by",
        )
    return registration


def _deal_answer(deal: Deal, *, status: int, replayed: bool = False) -> JsonResponse:
    sheet_version = ScoreSheet.objects.values_list("version", flat=True).get(pk=deal.sheet_id)
    return JsonResponse(
        {
            "deal": deal.pk,
            "number": deal.number,
            "scores": deal.scores,
            "pending": deal.pending,
            "version": sheet_version,
            "replayed": replayed,
        },
        status=status,
    )


def _late_deal(request: HttpRequest, link: TableLink, payload: dict[str, Any]) -> JsonResponse:
    """A deal a phone sends once its position closed: kept for the arbiter, who accepts or
    rejects it (202); one recorded before the close answers as any resend."""
    client_id = table_entry.check_client_id(payload.get("client_id"))
    recorded = table_entry.replayed_deal(link, client_id)
    if recorded is not None:
        return _deal_answer(recorded, status=200, replayed=True)
    # Kept only from a player the server recognised, as any deal typed at the table.
    late, replayed = table_entry.late_deal_keep(
        link=link,
        client_id=client_id,
        data=payload.get("deal"),
        enterer=_enterer(request, link, payload),
        number=payload.get("number"),
    )
    return JsonResponse(
        {
            "late": True,
            "late_deal": late.pk,
            "replayed": replayed,
            "message": _("Donne reçue après la clôture : l'arbitre décidera."),
        },
        status=202,
    )


@table_write(bodies.PHONE_DEAL, after_close=_late_deal)
def table_deal_create(
    request: HttpRequest, link: TableLink, payload: dict[str, Any]
) -> JsonResponse:
    """Record a deal typed at the table under the number it was typed with (a taken number is
    a conflict with both versions, never a renumbered copy); a resend of the same client id
    answers the original. The body's `queued` (the deals the phone holds, this one included)
    is kept for the desk."""
    queue_reported(request, link, payload.get("queued"))
    client_id = table_entry.check_client_id(payload.get("client_id"))
    earlier = table_entry.replayed_deal(link, client_id)
    if earlier is not None:
        return _deal_answer(earlier, status=200, replayed=True)
    deal, replayed = table_entry.phone_deal_record(
        link=link,
        client_id=client_id,
        data=payload.get("deal"),
        version=payload.get("version"),
        enterer=_enterer(request, link, payload),
        number=payload.get("number"),
    )
    return _deal_answer(deal, status=200 if replayed else 201, replayed=replayed)


@table_write(bodies.PHONE_CORRECT)
def table_deal_correct(
    request: HttpRequest, link: TableLink, payload: dict[str, Any], number: int
) -> JsonResponse:
    """The player who entered a waiting deal corrects it; it waits for a new confirmation."""
    deal = table_entry.phone_deal_correct(
        link=link,
        number=number,
        data=payload.get("deal"),
        version=payload.get("version"),
        enterer=_enterer(request, link, payload),
    )
    return _deal_answer(deal, status=200)


@table_write(bodies.PHONE_CONFIRM)
def table_confirm(request: HttpRequest, link: TableLink, payload: dict[str, Any]) -> JsonResponse:
    """A player of the other side confirms, with their personal code or from the phone bound
    to them, the waiting deals their phone listed (`deals`, at the sheet's `version`); the
    answer says who may confirm the listed deals left waiting."""
    outcome = table_entry.deals_confirm(
        link=link,
        version=payload.get("version"),
        deals=payload.get("deals"),
        **who_acts(request, link, payload),
    )
    return JsonResponse(
        {
            "confirmed": [deal.number for deal in outcome.confirmed],
            "left": outcome.left_text(),
        }
    )


@table_write(bodies.PHONE_CONTEST)
def table_contest(request: HttpRequest, link: TableLink, payload: dict[str, Any]) -> JsonResponse:
    """A player of the table other than the enterer contests a deal, with their code (or from
    their bound phone) and a word: a waiting deal goes back to its enterer, a confirmed one to
    the arbiter."""
    deal = table_entry.deal_contest(
        link=link,
        number=payload.get("number"),
        note=payload.get("note"),
        **who_acts(request, link, payload),
    )
    return JsonResponse({"contested": deal.number, "referred": table_entry.referred(deal)})


@table_write(bodies.PHONE_FINISH)
def table_finish(request: HttpRequest, link: TableLink, payload: dict[str, Any]) -> JsonResponse:
    """A player vouches for the table's sheet, with their code or from their own bound phone;
    the last player's signature finishes it (the arbiter still validates it)."""
    if "pin" in payload:
        signer = table_entry.code_check(link=link, **code_sent(request, payload))
        via = table_entry.VIA_CODE
    else:
        signer, via = bound(request, link), table_entry.VIA_PHONE
        if signer is None:
            raise table_entry.CodeRefused(
                _(
                    "Identifiez-vous d'abord : votre nom et votre code personnel, en haut de "
                    "la page."
                ),
                field="seat",
            )
    sheet = table_entry.sheet_sign(link=link, registration=signer, via=via)
    missing = [
        player.registration.player.full_name
        for player in sheet.players.select_related("registration__player").order_by("seat")
        if player.seat not in table_entry.signed_seats(sheet)
    ]
    return JsonResponse({"status": sheet.status, "missing": missing})
