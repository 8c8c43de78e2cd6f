"""Big events in plain arithmetic: cumulative standings over sessions, and the cut.

Nothing here touches Django; `scoring.events` loads the brackets' standings and calls it.

Cumulative score
    A player's cumulative score after session s is the share of their cumulative score after
    session s − 1 the organiser carries into session s (`carry_over_percent` of the session's
    bracket: 100 the whole of it, 0 nothing, 50 half), plus what session s gave them:
    ``cumulative(s) = percent / 100 × cumulative(s − 1) + score(s)``, kept as an exact Fraction
    (never rounded: 50 % of 37 is 37/2, and ranks compare exact values; pages show it to the
    hundredth). Session 1's cumulative score is its own score.

Ranking
    The tournament's criteria (`scoring.core.ranking`: the total first, then its tie-breaks)
    rank the cumulative rows, the total being the cumulative score. The FFT rules rank by
    total points and name no tie-break; the organiser's tie-breaks read every position of the
    sessions whose score is carried (each position's bilan as played, unscaled by the carry),
    so a final carrying nothing is decided on the final alone.

The cut
    Withdrawn players (and, by team, every team one of whose members withdrew, and players of
    no team) are set aside first and named in the report. Of the others, ranked, the cut keeps
    the top N, or the top P % rounded *up* (P % of 25 players at 50 % is 13: at least P % of
    the field goes on). A tie at the line on the total is settled by the tie-break criteria,
    and the report names the criterion that did; rows tied on *every* criterion all qualify
    (the cut takes one or more extra rows, and the report says so): nothing but the game
    separates players, never their names. A cut taking more than the eligible field is refused
    with a French message (CutError), as is a value of 0 or a percentage over 100.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from scoring.core import ranking
from tournament.core.i18n import TranslatableError
from tournament.core.i18n import gettext_noop as _

# A position's key in a cumulative row's position points: 1000 × session + position number.
SESSION_STRIDE = 1000


class CutRule(StrEnum):
    """How many go on (the values of tournament.models.Cut.Rule)."""

    TOP_N = "top_n"
    TOP_PERCENT = "top_percent"
    ALL = "all"  # no cut: every player (or team) in contention goes on


class CutError(TranslatableError):
    """A cut that cannot be applied, meant for the arbiter (a French message template)."""


class CutValueError(CutError):
    """A cut its rule's value cannot give (0, a percentage over 100, more than the field)."""


@dataclass(frozen=True)
class SessionFigures:
    """What one session's bracket gave a player: the figures the criteria read."""

    session: int
    total: int
    penalties_charged: int = 0
    position_points: Mapping[int, int] = field(default_factory=dict)
    tables_won: int = 0


@dataclass(frozen=True)
class SessionRow:
    """A player's row in one session's bracket, as its standings give it."""

    key: Hashable  # the registration in this bracket
    person: Hashable  # the player across sessions (the roster's Player)
    name: str
    figures: SessionFigures
    number: int = 0
    club: str = ""
    team: str = ""
    team_key: Hashable | None = None


@dataclass(frozen=True)
class CumulativeRow:
    """A player's cumulative standing: `carried` from earlier sessions plus this session."""

    row: SessionRow
    carried: Fraction = Fraction(0)
    # The sessions carried in (share > 0), whose positions the tie-breaks read too.
    earlier: tuple[SessionFigures, ...] = ()

    @property
    def key(self) -> Hashable:
        return self.row.key

    @property
    def name(self) -> str:
        return self.row.name

    @property
    def team_key(self) -> Hashable | None:
        return self.row.team_key

    @property
    def session_total(self) -> int:
        return self.row.figures.total

    @property
    def total(self) -> Fraction:
        return self.carried + self.row.figures.total

    @property
    def sessions(self) -> tuple[SessionFigures, ...]:
        return (*self.earlier, self.row.figures)

    @property
    def penalties_charged(self) -> int:
        return sum(s.penalties_charged for s in self.sessions)

    @property
    def position_points(self) -> dict[int, int]:
        return {
            SESSION_STRIDE * s.session + number: points
            for s in self.sessions
            for number, points in s.position_points.items()
        }

    @property
    def tables_won(self) -> int:
        return sum(s.tables_won for s in self.sessions)


def carried_share(previous: Fraction | int, percent: int) -> Fraction:
    """`percent` % of a cumulative score, exactly."""
    if not 0 <= percent <= 100:
        raise ValueError(f"a carry-over is a percentage from 0 to 100, not {percent}")
    return Fraction(percent, 100) * previous


def cumulative_rows(
    rows: Iterable[SessionRow],
    previous: Mapping[Hashable, CumulativeRow],
    percent: int,
) -> list[CumulativeRow]:
    """This session's rows with each player's carried share of their previous cumulative
    standing (`previous`, by person; a player absent from it carries nothing)."""
    cumulative = []
    for row in rows:
        before = previous.get(row.person)
        if before is None:
            cumulative.append(CumulativeRow(row=row))
            continue
        carried = carried_share(before.total, percent)
        earlier = before.sessions if percent > 0 else ()
        cumulative.append(CumulativeRow(row=row, carried=carried, earlier=earlier))
    return cumulative


@dataclass
class TeamRow:
    """A team's cumulative standing: the sum of its members' (FFT: teammates' scores add up)."""

    key: Hashable
    name: str
    members: list[CumulativeRow] = field(default_factory=list)

    @property
    def total(self) -> Fraction:
        return sum((m.total for m in self.members), Fraction(0))

    @property
    def penalties_charged(self) -> int:
        return sum(m.penalties_charged for m in self.members)

    @property
    def position_points(self) -> dict[int, int]:
        points: dict[int, int] = {}
        for member in self.members:
            for number, value in member.position_points.items():
                points[number] = points.get(number, 0) + value
        return points

    @property
    def tables_won(self) -> int:
        return sum(m.tables_won for m in self.members)


def team_rows(rows: Iterable[CumulativeRow]) -> tuple[list[TeamRow], list[CumulativeRow]]:
    """The teams of these rows, and the rows of players in no team."""
    teams: dict[Hashable, TeamRow] = {}
    alone = []
    for row in rows:
        if row.team_key is None:
            alone.append(row)
            continue
        if row.team_key not in teams:
            teams[row.team_key] = TeamRow(key=row.team_key, name=row.row.team)
        teams[row.team_key].members.append(row)
    return list(teams.values()), alone


@dataclass(frozen=True)
class TieAtLine:
    """Rows equal on the total at the cut's line, and how they were separated."""

    keys: tuple[Hashable, ...]  # in rank order
    qualified: tuple[Hashable, ...]
    decided_by: str | None  # the criterion's key; None when equal on every criterion

    @property
    def all_qualify(self) -> bool:
        return self.decided_by is None


@dataclass(frozen=True)
class CutResult:
    """Who goes on: the eligible rows split at the line, in rank order."""

    asked: int  # places the rule gives
    eligible: int
    qualified: list[ranking.Ranked]
    others: list[ranking.Ranked]  # the next in line, in order
    withdrawn: list[Hashable]
    tie: TieAtLine | None = None

    @property
    def extra(self) -> int:
        """Rows taken beyond `asked` because they were tied with the last one on everything."""
        return len(self.qualified) - self.asked


def cut_size(rule: str, value: int, eligible: int) -> int:
    """The number of places the rule gives out of `eligible` (P % rounded up; all of them
    when the rule is ALL, whatever the value)."""
    if rule == CutRule.ALL:
        return eligible
    if value < 1:
        raise CutValueError(_("La coupe doit retenir au moins un joueur ou une équipe."))
    if rule == CutRule.TOP_N:
        return value
    if rule == CutRule.TOP_PERCENT:
        if value > 100:
            raise CutValueError(
                _("Un pourcentage va de 1 à 100 (%(value)s demandé)."), {"value": value}
            )
        return -(-value * eligible // 100)
    raise ValueError(f"unknown cut rule: {rule!r}")


def cut(
    rows: Iterable[Any],
    *,
    rule: str,
    value: int,
    criteria: Sequence[ranking.Criterion],
    withdrawn: Callable[[Any], bool] = lambda row: False,
    by_team: bool = False,
) -> CutResult:
    """Split `rows` (players, or teams when `by_team`) at the line the rule draws."""
    rows = list(rows)
    eligible = [row for row in rows if not withdrawn(row)]
    excluded = [row.key for row in rows if withdrawn(row)]
    asked = cut_size(rule, value, len(eligible))
    if not eligible:
        raise CutError(_("Personne n'est en lice pour la coupe (tous forfaits)."))
    if asked > len(eligible):
        template = (
            _(
                "La coupe retient %(asked)s équipes, mais %(eligible)s seulement sont en lice "
                "(forfaits et équipes incomplètes exclus)."
            )
            if by_team
            else _(
                "La coupe retient %(asked)s joueurs, mais %(eligible)s seulement sont en lice "
                "(forfaits exclus)."
            )
        )
        raise CutValueError(template, {"asked": asked, "eligible": len(eligible)})
    ranked = ranking.rank(eligible, criteria)
    line = asked
    if line < len(ranked) and ranked[line].rank == ranked[line - 1].rank:
        # Equal on every criterion with the last place: they all go on.
        line = max(i for i, r in enumerate(ranked) if r.rank == ranked[asked - 1].rank) + 1
    return CutResult(
        asked=asked,
        eligible=len(eligible),
        qualified=ranked[:line],
        others=ranked[line:],
        withdrawn=excluded,
        tie=_tie_at_line(ranked, asked, line, criteria),
    )


def _tie_at_line(
    ranked: list[ranking.Ranked], asked: int, line: int, criteria: Sequence[ranking.Criterion]
) -> TieAtLine | None:
    """The rows equal on the total with the last place asked, when some fall on either side
    of the line the rule drew (`asked`)."""
    if asked >= len(ranked):
        return None
    last, first_out = ranked[asked - 1], ranked[asked]
    total = criteria[0].value
    if total(last.row) != total(first_out.row):
        return None
    decided_by = None
    for criterion in criteria[1:]:
        if criterion.value(last.row) != criterion.value(first_out.row):
            decided_by = criterion.key
            break
    tied = [(i, r) for i, r in enumerate(ranked) if total(r.row) == total(last.row)]
    return TieAtLine(
        keys=tuple(r.row.key for _i, r in tied),
        qualified=tuple(r.row.key for i, r in tied if i < line),
        decided_by=decided_by,
    )
