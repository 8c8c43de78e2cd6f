"""A sheet's summary: its state (missing, in progress, complete, checked, waiting, disagreement)
and the flags an arbiter should look at, as the sheet's screen, a position's overview, the
phone page and the cockpit show them.
"""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class State:
    MISSING = "missing"
    IN_PROGRESS = "in_progress"
    COMPLETE = "complete"
    CHECKED = "checked"
    WAITING = "waiting"
    DISAGREEMENT = "disagreement"

    LABELS = {
        MISSING: _("Manquante"),
        IN_PROGRESS: _("En cours"),
        COMPLETE: _("Complète"),
        CHECKED: _("Vérifiée"),
        WAITING: _("À confirmer"),
        DISAGREEMENT: _("Désaccord papier / téléphones"),
    }


def sheet_state(
    played: int, expected: int, paper_ok: bool | None, *, pending: int = 0, disagree: bool = False
) -> str:
    if disagree:
        return State.DISAGREEMENT
    if pending:
        return State.WAITING
    if played == 0:
        return State.MISSING
    if played < expected:
        return State.IN_PROGRESS
    return State.CHECKED if paper_ok else State.COMPLETE


def sheet_flags(crosscheck_failed: bool, adjusted: bool, incidents: int) -> list[str]:
    """What the arbiter should look at on a sheet, on its screen and in the position's overview."""
    flags = []
    if crosscheck_failed:
        flags.append(gettext("Bilans papier différents"))
    if adjusted:
        flags.append(gettext("Score arbitral"))
    if incidents:
        flags.append(gettext("%(count)s incident(s)") % {"count": incidents})
    return flags
