"""A sheet's summary, built in one place: deals played and expected, bilans against the paper
ones, its state (missing, in progress, complete, checked, waiting, disagreement) and the flags an
arbiter should look at. The sheet's screen (`scoring.sheets.screen`: the desk, the phone page,
the completed sheets) and a position's overview (`scoring.sheets.position_overview`: the desk's
overview, the cockpit, the bulk validation) load their rows their own way, in a fixed number of
queries, and both summarise them here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _


class State:
    MISSING = "missing"
    IN_PROGRESS = "in_progress"
    COMPLETE = "complete"
    CHECKED = "checked"
    WAITING = "waiting"
    DISAGREEMENT = "disagreement"
    # Shown on top of a finished sheet's state once an arbiter validated it (TableRow.shown_state).
    VALIDATED = "validated"

    LABELS = {
        MISSING: _("Manquante"),
        IN_PROGRESS: _("En cours"),
        COMPLETE: _("Complète"),
        CHECKED: _("Vérifiée"),
        WAITING: _("À confirmer"),
        DISAGREEMENT: _("Désaccord papier / téléphones"),
        VALIDATED: _("Validée"),
    }
    # Badge colour per state: done, under way, needs the arbiter.
    TONES = {
        MISSING: "err",
        IN_PROGRESS: "warn",
        COMPLETE: "ok",
        CHECKED: "ok",
        VALIDATED: "ok",
        WAITING: "warn",
        DISAGREEMENT: "err",
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
        flags.append(
            ngettext("%(count)s incident", "%(count)s incidents", incidents) % {"count": incidents}
        )
    return flags


@dataclass(frozen=True)
class DealFacts:
    """What a sheet's summary reads of one stored deal."""

    scores: Sequence[int]  # by seat
    cancelled: bool = False
    pending: bool = False
    adjusted: bool = False
    phone: bool = False  # entered on a table's phone, not at the desk
    disputed: bool = False  # contested at the table (pending too): the arbiter rules


@dataclass(frozen=True)
class SheetSummary:
    played: int  # deals not cancelled
    expected: int  # the tournament's count for the table's size
    pending: int  # deals waiting for a confirmation (contested ones aside)
    bilans: list[int]  # by seat
    paper: list[int | None] | None  # the paper sheet's bilans by seat, when typed
    paper_diffs: list[bool]  # by seat: a paper bilan typed that differs from the deals'
    zero_sum: bool
    state: str
    flags: list[str]
    disputed: int = 0  # deals contested at the table

    @property
    def paper_failed(self) -> bool:
        return any(self.paper_diffs)


def sheet_summary(
    *,
    players: int,
    expected: int,
    deals: Iterable[DealFacts],
    paper_bilans: Any,
    incidents: int,
    conflicts: int = 0,
    both_entries: bool = False,
) -> SheetSummary:
    """Summarise a sheet of `players` seats from its deals, its paper bilans (as stored) and its
    counts of incidents and refused inputs (conflicts); `both_entries`: the tournament takes
    deals on paper and on phones, so paper bilans that differ from deals phones entered are a
    disagreement to settle. A sheet typed at the desk whose paper bilans differ is no such
    disagreement: it keeps its state and the flag "Bilans papier différents" says what it is."""
    deals = list(deals)
    bilans = [0] * players
    for deal in deals:
        for seat, points in enumerate(deal.scores[:players]):
            bilans[seat] += points
    zero_sum = sum(bilans) == 0 and all(sum(deal.scores) == 0 for deal in deals)
    paper = _paper_by_seat(paper_bilans, players)
    paper_diffs = [
        p is not None and p != b for p, b in zip(paper or [None] * players, bilans, strict=True)
    ]
    paper_ok = paper is not None and None not in paper and not any(paper_diffs)
    played = sum(1 for deal in deals if not deal.cancelled)
    disputed = sum(1 for deal in deals if deal.disputed)
    pending = sum(1 for deal in deals if deal.pending and not deal.disputed)
    flags = sheet_flags(any(paper_diffs), any(deal.adjusted for deal in deals), incidents)
    if conflicts:
        flags.append(
            ngettext("%(count)s conflit de saisie", "%(count)s conflits de saisie", conflicts)
            % {"count": conflicts}
        )
    state = sheet_state(
        played,
        expected,
        paper_ok,
        pending=pending + disputed,
        disagree=any(paper_diffs) and both_entries and any(deal.phone for deal in deals),
    )
    return SheetSummary(
        played=played,
        expected=expected,
        pending=pending,
        disputed=disputed,
        bilans=bilans,
        paper=paper,
        paper_diffs=paper_diffs,
        zero_sum=zero_sum,
        state=state,
        flags=flags,
    )


def _paper_by_seat(paper_bilans: Any, players: int) -> list[int | None] | None:
    if not paper_bilans:
        return None
    by_seat = list(paper_bilans)
    return [by_seat[seat] if seat < len(by_seat) else None for seat in range(players)]
