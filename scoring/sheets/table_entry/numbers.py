"""The number a phone typed its deal under: the one the table played, never changed by the server.

A phone keeps its deals while the Wi-Fi is down, each with the number and sheet version it was
typed against. Meanwhile a tablemate's phone or the desk may have recorded that number; the
queued deal then answers a conflict carrying both versions (the stored one, the phone's one)
for the table to choose, and nothing is stored. Appending it under the next free number would
store the same deal twice and push the table's real last deal past its count.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.core.deal import DealError
from scoring.models import Deal, ScoreSheet, SheetPlayer
from scoring.sheets.services import compute_scores, deal_input_check
from scoring.sheets.services.sheets import sheet_players_count
from tournament.models import Registration


class DealNumberTaken(Exception):
    """A phone's deal typed under a number that is not the sheet's next one: taken by another
    deal (`stored`), or following a deal the sheet doesn't have (`stored` is None)."""

    def __init__(
        self, message: str, *, number: int, stored: Deal | None, mine: dict[str, Any], sheet
    ) -> None:
        super().__init__(message)
        self.number = number
        self.stored = stored
        self.mine = mine
        self.sheet = sheet


def deals_allowed(sheet: ScoreSheet) -> int:
    """How many deals the table's sheet holds: its deals per table and the arbiter's extras."""
    extra = ScoreSheet.objects.filter(pk=sheet.pk).values_list("extra_deals", flat=True).first()
    return sheet.tournament.deals_for_table_size(sheet_players_count(sheet)) + (extra or 0)


def number_check(
    *, sheet: ScoreSheet, number: int, data: Any, version: int, enterer: Registration
) -> None:
    """Under the sheet's lock: `number` is the sheet's next deal, or the deal is refused. Beyond
    the table's count: a 400 saying the sheet is full. Taken, or after a missing deal: a
    conflict (DealNumberTaken) with both versions; nothing is stored and nothing renumbered."""
    allowed = deals_allowed(sheet)
    if number > allowed:
        raise DealError(
            "number",
            gettext_noop(
                "La feuille est complète : la table a déjà ses %(allowed)s donnes, la donne "
                "%(number)s n'existe pas. Un arbitre peut autoriser une donne supplémentaire."
            ),
            {"allowed": allowed, "number": number},
        )
    count = sheet.deals.count()
    if number == count + 1:
        return
    checked = deal_input_check(data, sheet)
    mine = {
        "number": number,
        "typed_version": version,
        "inputs": checked,
        "scores": compute_scores(checked, sheet.tournament.rule_set),
        "entered_by": enterer.player.full_name,
    }
    stored = Deal.objects.filter(sheet=sheet, number=number).first()
    if stored is not None:
        message = _(
            "La donne %(number)s est déjà sur la feuille (saisie ailleurs pendant la coupure). "
            "Comparez les deux versions et choisissez."
        ) % {"number": number}
    else:
        message = _(
            "La feuille n'a que %(count)s donnes : la donne %(number)s ne peut pas encore "
            "être enregistrée."
        ) % {"count": count, "number": number}
    raise DealNumberTaken(message, number=number, stored=stored, mine=mine, sheet=sheet)


def stored_version(deal: Deal) -> dict[str, Any]:
    """The stored deal as the phone compares it: its inputs, scores, who entered it (a player
    of the table, or the desk) and whether it still waits."""
    enterer = None
    seat = None
    if deal.entered_by_player_id is not None:
        row = (
            SheetPlayer.objects.filter(
                sheet_id=deal.sheet_id, registration_id=deal.entered_by_player_id
            )
            .select_related("registration__player")
            .first()
        )
        if row is not None:
            enterer, seat = row.registration.player.full_name, row.seat
    return {
        "number": deal.number,
        "inputs": deal.engine_input(),
        "scores": deal.scores,
        "entered_by": enterer or "",
        "entered_by_seat": seat,
        "by_desk": deal.entered_by_player_id is None,
        "pending": deal.pending,
        "disputed": deal.disputed,
    }


def conflict_answer(err: DealNumberTaken) -> dict[str, Any]:
    """The 409's body besides its field and message: both versions, and the sheet as it is."""
    sheet = err.sheet
    version = ScoreSheet.objects.values_list("version", flat=True).get(pk=sheet.pk)
    return {
        "number": err.number,
        "version": version,
        "next_number": sheet.deals.count() + 1,
        "stored": stored_version(err.stored) if err.stored is not None else None,
        "mine": err.mine,
    }
