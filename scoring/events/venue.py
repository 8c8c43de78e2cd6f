"""The venue: every bracket of one session at once — the desk's cockpits side by side, and the
standings (session and cumulative) the hall screen, the public page and the documents show.

A bracket's cockpit is scoring.live.cockpit's (a fixed number of queries per bracket, whatever
its number of tables and players); its standings are `cumulative_standings` with the bracket's
own ranking beside them (the session's rank).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import cast

from scoring.core import ranking
from scoring.events.brackets import event_brackets
from scoring.events.standings import EventStandings, cumulative_standings
from scoring.live.cockpit import STATE_LABELS, VALIDATED, Cockpit, cockpit_load
from scoring.live.counted import public_tournaments
from scoring.live.hall import HallContent, hall_content
from scoring.live.standings import Standings, standings_for
from scoring.sheets.summary import State
from tournament.core.collation import fold as normalise
from tournament.models import Event, Position, Tournament

DONE = (State.COMPLETE, State.CHECKED, VALIDATED)
IN_PLAY = (State.IN_PROGRESS, State.WAITING, State.DISAGREEMENT)
TO_VALIDATE = (State.COMPLETE, State.CHECKED)


def session_brackets(event: Event, session: int | None = None) -> tuple[int, list[Tournament]]:
    """The session asked (the latest one by default: a cut creates the next session, which the
    venue then prepares and plays) and its brackets, the main one first. Two queries."""
    sessions = event_brackets(event)
    if not sessions:
        return 1, []
    if session not in sessions:
        session = max(sessions)
    brackets = sessions[session]
    for bracket in brackets:
        bracket.event = event  # read by the cumulative standings and the pages: no query
    return session, brackets


def bracket_revisions(event: Event) -> list[tuple[int, int, int]]:
    """(id, session, live revision) of every bracket of the event, by id: one statement."""
    rows = Tournament.objects.filter(event_id=event.pk).order_by("pk")
    return [
        (pk, session or 0, number or 0)
        for pk, session, number in rows.values_list("pk", "session", "revision__number")
    ]


def hall_holder(event: Event, brackets: list[Tournament]) -> Tournament | None:
    """The bracket holding the venue's hall link: whichever bracket of the event it was made on
    (the screen follows the event to its latest session), the session's own first; else None."""
    holder = next((b for b in brackets if b.hall_token), None)
    if holder is None:
        holder = event.brackets.filter(hall_token__isnull=False).order_by("-session").first()
    return holder


def sessions_of(event: Event) -> list[int]:
    return sorted(event_brackets(event))


@dataclass
class DeskBracket:
    """One bracket on the venue's desk: its cockpit and what the summary counts."""

    cockpit: Cockpit

    @property
    def tournament(self) -> Tournament:
        return self.cockpit.tournament

    def _count(self, states: tuple[str, ...]) -> int:
        return sum(1 for table in self.cockpit.tables if table.state in states)

    @property
    def done(self) -> int:
        return self._count(DONE)

    @property
    def in_play(self) -> int:
        return self._count(IN_PLAY)

    @property
    def not_started(self) -> int:
        return self._count((State.MISSING,))

    @property
    def to_validate(self) -> int:
        return self._count(TO_VALIDATE)

    @property
    def played_positions(self) -> int:
        return sum(1 for p in self.cockpit.positions if p.status != Position.Status.DRAFT)

    @property
    def table_numbers(self) -> tuple[int, int] | None:
        """The first and last table numbers of the position shown (unique across the venue)."""
        numbers = [t.row.table.number for t in self.cockpit.tables]
        return (min(numbers), max(numbers)) if numbers else None

    @property
    def validated_label(self) -> str:
        return str(STATE_LABELS[VALIDATED])


def venue_desk(brackets: list[Tournament]) -> list[DeskBracket]:
    """Each bracket's cockpit (scoring.live.cockpit: its fixed number of queries each)."""
    return [DeskBracket(cockpit_load(bracket)) for bracket in brackets]


@dataclass
class BracketStandings:
    """A bracket's cumulative standings and, beside them, its own (the session's) ranking."""

    tournament: Tournament
    cumulative: EventStandings
    session: Standings

    def session_rank(self, key: Hashable) -> ranking.Ranked | None:
        return self.session.rank_of(cast(int, key))

    @cached_property
    def lines(self) -> list[StandingLine]:
        """Every player, best cumulative first, with their session rank and figures (built
        once: the session's order below sorts the same lines)."""
        lines = []
        for ranked in self.cumulative.players:
            row = ranked.row
            own = self.session_rank(row.key)
            lines.append(
                StandingLine(
                    rank=ranked.rank,
                    tied=ranked.tied,
                    session_rank=own.rank if own is not None else None,
                    number=row.row.number,
                    name=row.name,
                    club=row.row.club,
                    team=row.row.team,
                    session_total=row.session_total,
                    carried=row.carried,
                    total=row.total,
                )
            )
        return lines

    @property
    def session_lines(self) -> list[StandingLine]:
        """The same lines, in the session's own order."""
        return sorted(
            self.lines, key=lambda line: (line.session_rank or 10**9, line.number, line.name)
        )

    @property
    def carries(self) -> bool:
        return self.cumulative.session > 1


@dataclass(frozen=True)
class StandingLine:
    rank: int
    tied: bool
    session_rank: int | None
    number: int
    name: str
    club: str
    team: str
    session_total: int
    carried: Fraction
    total: Fraction


def bracket_standings(bracket: Tournament, *, public: bool = False) -> BracketStandings:
    return BracketStandings(
        tournament=bracket,
        cumulative=cumulative_standings(bracket, public=public),
        session=standings_for(bracket, public=public),
    )


def venue_standings(brackets: list[Tournament], *, public: bool) -> list[BracketStandings]:
    """Each bracket's standings; for the public only the public brackets (counted's rule), and
    only what the public may count."""
    shown = public_tournaments(brackets) if public else brackets
    return [bracket_standings(bracket, public=public) for bracket in shown]


@dataclass
class HallBracket:
    """One bracket on the venue's hall screen: what its own hall shows, and its cumulative
    public standings (only the seated, once a deal counts, as on a tournament's hall)."""

    content: HallContent
    standings: list[ranking.Ranked]
    carries: bool

    @property
    def tournament(self) -> Tournament:
        return self.content.tournament


@dataclass
class VenueHall:
    brackets: list[HallBracket]
    who: list[dict]  # every bracket's seated players, alphabetical, with their bracket

    @property
    def announcement(self) -> str:
        return self.brackets[0].tournament.hall_announcement if self.brackets else ""

    @property
    def has_standings(self) -> bool:
        return any(b.standings for b in self.brackets)

    @property
    def position(self) -> Position | None:
        """The main bracket's position shown (the clock's)."""
        return self.brackets[0].content.position if self.brackets else None


def venue_hall(brackets: list[Tournament], standings: list[Standings] | None = None) -> VenueHall:
    """Published data only (scoring.live.hall's rule for each bracket, from its public
    standings given, or else computed); the cumulative standings count only what the public
    may see."""
    shown = []
    who: list[dict] = []
    for index, bracket in enumerate(brackets):
        content = hall_content(bracket, standings[index] if standings else None)
        seated = {r.row.key for r in content.standings}
        cumulative = cumulative_standings(bracket, public=True).players if seated else []
        shown.append(
            HallBracket(
                content=content,
                standings=[r for r in cumulative if r.row.key in seated],
                carries=(bracket.session or 1) > 1,
            )
        )
        who += [{**row, "bracket": bracket} for row in content.who]
    who.sort(key=lambda row: (normalise(row["name"]), row["table"]))
    return VenueHall(brackets=shown, who=who)
