"""Validating a position's sheets in one action: those complete and verified, the rest listed
with the reason each is left (every sheet validated through `sheet_validate`, logged per sheet)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, ngettext

from scoring.models import ScoreSheet
from scoring.sheets.position_overview import TableRow, position_overview
from scoring.sheets.services.sheets import StaleSheetError, sheet_validate
from scoring.sheets.summary import State
from tournament.models import Position


@dataclass
class BulkValidation:
    validated: list[int] = field(default_factory=list)  # table numbers
    already: list[int] = field(default_factory=list)
    left: list[tuple[int, str]] = field(default_factory=list)  # table number, why

    @property
    def summary(self) -> str:
        """ "5 feuilles validées. Restent : table 3 (manquante), table 4 (3/5 donnes)." """
        count = len(self.validated)
        parts = [
            ngettext("%(count)s feuille validée.", "%(count)s feuilles validées.", count)
            % {"count": count}
        ]
        if self.already:
            count = len(self.already)
            parts.append(
                ngettext("%(count)s déjà validée.", "%(count)s déjà validées.", count)
                % {"count": count}
            )
        if self.left:
            parts.append(
                gettext("Restent : %(tables)s.")
                % {
                    "tables": ", ".join(
                        gettext("table %(number)s (%(why)s)") % {"number": n, "why": why}
                        for n, why in self.left
                    )
                }
            )
        return " ".join(parts)


def not_ready_reason(row: TableRow) -> str:
    """Why a table's sheet is not complete and verified, or "" when it may be validated."""
    if row.sheet is None or row.state == State.MISSING:
        return gettext("aucune donne")
    if row.disputed:
        return ngettext(
            "%(count)s donne contestée", "%(count)s donnes contestées", row.disputed
        ) % {"count": row.disputed}
    if row.pending:
        return ngettext(
            "%(count)s donne à confirmer", "%(count)s donnes à confirmer", row.pending
        ) % {"count": row.pending}
    if row.state == State.IN_PROGRESS:
        return gettext("%(played)s/%(expected)s donnes") % {
            "played": row.played,
            "expected": row.expected,
        }
    if row.paper_failed or row.state == State.DISAGREEMENT:
        return gettext("bilans papier différents")
    if not row.zero_sum:
        return gettext("bilans dont la somme n'est pas nulle")
    return ""


def position_validate_ready(*, position: Position, user: Any = None) -> BulkValidation:
    """Validate every sheet of the position that is complete and verified (all its deals, none
    waiting for a confirmation, paper bilans agreeing when typed, zero-sum); say why the others
    are left. Each sheet goes through `sheet_validate`: the same locks, one history entry each."""
    result = BulkValidation()
    for row in position_overview(position):
        number = row.table.number
        if row.sheet is not None and row.sheet.status == ScoreSheet.Status.VALIDATED:
            result.already.append(number)
            continue
        why = not_ready_reason(row)
        if why:
            result.left.append((number, why))
            continue
        assert row.sheet is not None  # not_ready_reason answers for a missing sheet
        sheet = ScoreSheet.objects.select_related("table__position__tournament").get(
            pk=row.sheet.pk
        )
        try:
            sheet_validate(sheet=sheet, user=user, expected_version=row.sheet.version)
        except StaleSheetError:
            result.left.append((number, gettext("modifiée entre-temps")))
        except ValidationError as err:  # a lock (closed position, finished tournament)
            result.left.append((number, " ".join(err.messages)))
        else:
            result.validated.append(number)
    return result
