"""An event's rankings as the documents read them: one session's brackets (or one bracket), in
the session's order (`seance`) or the cumulative one (`cumul`), each bracket with its carry-over
and its cut named (scoring.documents: XLSX, CSV and PDF)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from scoring.events.venue import BracketStandings, StandingLine, bracket_standings
from scoring.events.wording import carry_text, cut_text
from scoring.live.waiting import WaitingDeals, waiting_deals
from tournament.models import Event, Tournament

SESSION, CUMULATIVE = "seance", "cumul"
KINDS = (SESSION, CUMULATIVE)


@dataclass
class BracketPart:
    standings: BracketStandings
    carry: str
    cut: str
    # By bracket id: the deals left out (to confirm, contested) of it and of its chain.
    waiting: dict[int, WaitingDeals] = field(default_factory=dict)
    # The cumulative ranks before this bracket's in the session: the consolante ranks after the
    # main bracket (13 to 24 after 12 qualified), as the event's final standings read.
    offset: int = 0

    @property
    def tournament(self) -> Tournament:
        return self.standings.tournament

    @property
    def label(self) -> str:
        return str(self.tournament.get_bracket_display())

    def lines(self, kind: str) -> list[StandingLine]:
        if kind == SESSION:
            return self.standings.session_lines
        if not self.offset:
            return self.standings.lines
        return [replace(line, rank=line.rank + self.offset) for line in self.standings.lines]


@dataclass
class EventDocument:
    event: Event
    session: int
    kind: str
    parts: list[BracketPart]

    @property
    def subject(self) -> str:
        if self.kind == SESSION:
            return _("Classement de la séance %(session)s") % {"session": self.session}
        return _("Classement cumulé après la séance %(session)s") % {"session": self.session}

    @property
    def title(self) -> str:
        return f"{self.event.name} — {self.event.date:%d/%m/%Y} — {self.subject}"

    def notes(self, part: BracketPart) -> list[str]:
        """What the bracket's figures mean: its carry-over and its cut, and the deals they
        leave out while they wait (the bracket's, and for the cumulative ranking those of the
        sessions it carries)."""
        notes = [text for text in (part.cut, part.carry) if text]
        counted = part.standings.cumulative.chain if self.kind == CUMULATIVE else []
        for bracket in [*counted[:-1], part.tournament]:
            summary = part.waiting.get(bracket.pk, WaitingDeals()).summary
            if summary and bracket.pk != part.tournament.pk:
                summary = f"{_session_label(bracket)} — {summary}"
            if summary:
                notes.append(summary)
        return notes


def _session_label(bracket: Tournament) -> str:
    return _("Séance %(session)s, %(bracket)s") % {
        "session": bracket.session or 1,
        "bracket": bracket.get_bracket_display(),
    }


def event_document(
    event: Event,
    session: int,
    brackets: list[Tournament],
    kind: str,
    *,
    only: Tournament | None = None,
):
    """The rankings of these brackets (the arbiter's: every sheet, its confirmed deals); with
    `only`, that bracket's alone, its cumulative ranks still after those of the brackets before
    it in the session (a consolante's document says 13 to 24, as the session's does)."""
    if kind not in KINDS:
        raise ValueError(f"unknown ranking kind: {kind!r}")
    parts = []
    for bracket in brackets:
        standings = bracket_standings(bracket)
        parts.append(
            BracketPart(
                standings=standings,
                carry=carry_text(bracket),
                cut=cut_text(standings.cumulative.cut, bracket),
            )
        )
    waiting = waiting_deals({t.pk for part in parts for t in part.standings.cumulative.chain})
    before = 0
    for part in parts:
        part.waiting = waiting
        part.offset = before
        before += len(part.standings.lines)
    if only is not None:
        parts = [part for part in parts if part.tournament.pk == only.pk]
    return EventDocument(event=event, session=session, kind=kind, parts=parts)


def number(value: Fraction | int) -> int | float:
    """A score as a spreadsheet stores it: whole, or to the hundredth (pages show the same)."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else round(float(value), 2)


def header(kind: str) -> list[str]:
    ranks = (_("Rang séance"), _("Rang cumulé"))
    first, other = ranks if kind == SESSION else ranks[::-1]
    return [
        first,
        other,
        _("N°"),
        _("Joueur"),
        _("Club"),
        _("Équipe"),
        _("Séance"),
        _("Report"),
        _("Cumul"),
    ]


def row(line: StandingLine, kind: str) -> list[Any]:
    ranks = [line.session_rank, line.rank] if kind == SESSION else [line.rank, line.session_rank]
    return [
        *ranks,
        line.number,
        line.name,
        line.club,
        line.team,
        line.session_total,
        number(line.carried),
        number(line.total),
    ]
