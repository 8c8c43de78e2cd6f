"""Pure ranking of players, teams and clubs: criteria as data, shared ranks on full ties.

Nothing here touches Django or the database; `scoring.live.standings` loads the rows and calls it.

Ranking
    Total points (deal points plus the signed penalty adjustment), highest first. Rows whose
    values are equal on *every* configured criterion share a rank (1, 2, 2, 4 …). The organiser
    may add tie-break criteria after the total, from `TIE_BREAKS`, applied in the given order.

Normalisation of tables of 3 and 5 (optional, off by default)
    A table of 3 or 5 does not expose its players to the same stakes as a table of 4, so a
    player's bilan there is put on the 4-player scale. For a deal of value V the points changing
    hands at the table are 2 × (attack's share) × V, spread over the players seated:

    * 4 players: taker 3V, three defenders −V → 6V over 4 seats = 3/2 V per seat;
    * 3 players: taker 2V, two defenders −V → 4V over 3 seats = 4/3 V per seat;
    * 5 players: taker 2V + partner V, or taker alone 4V, or a mort and a 4-player deal
      → 6V or 8V over 5 seats; we take the usual 6V → 6/5 V per seat.

    The organiser also sets a number of deals per table size. The factor applied to a player's
    bilan for the position is therefore (3/2 × deals at 4) / (stake per seat × deals at that
    size), e.g. with the defaults 5 / 6 / 5 deals: ×15/16 at a table of 3, ×5/4 at a table of 5.
    Each position's bilan is scaled and rounded to the nearest point (halves away from zero);
    penalty points are never scaled. Rankings computed this way say so ("classement normalisé").
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Protocol, overload

from tournament.core.collation import name_key
from tournament.core.i18n import gettext_noop as _


class Rankable(Protocol):
    """What a criterion may read: a player or a group of players."""

    @property
    def total(self) -> int: ...
    @property
    def penalties_charged(self) -> int: ...
    @property
    def position_points(self) -> Mapping[int, int]: ...
    @property
    def tables_won(self) -> int: ...


@dataclass(frozen=True)
class PositionResult:
    """A player's bilan at one position (one table, one score sheet)."""

    position: int
    table: int | None
    table_size: int
    points: int  # the bilan used for ranking (normalised when normalisation is on)
    raw_points: int  # the bilan as written on the sheet
    deals: int = 0
    won_table: bool = False  # best bilan at the table (shared when equal)
    penalty: int = 0  # signed penalty adjustment at this position
    penalty_charged: int = 0  # points charged to the player as the culprit at this position
    in_play: bool = False  # the table still has deals to play (its sheet is not finished)


@dataclass
class PlayerRow:
    """One player's standing: the input of `rank`."""

    key: Hashable
    name: str
    number: int = 0
    club: str = ""
    team: str = ""
    team_key: Hashable | None = None
    licence: str = ""  # FFT licence: with the number, tells homonyms apart in exports
    results: dict[int, PositionResult] = field(default_factory=dict)
    penalty: int = 0  # signed: negative when charged, positive when a shared penalty is received
    penalties_charged: int = 0  # points charged to this player as the culprit (never negative)

    @property
    def deal_points(self) -> int:
        return sum(r.points for r in self.results.values())

    @property
    def total(self) -> int:
        return self.deal_points + self.penalty

    @property
    def position_points(self) -> dict[int, int]:
        return {number: r.points for number, r in self.results.items()}

    @property
    def tables_won(self) -> int:
        return sum(1 for r in self.results.values() if r.won_table)

    @property
    def deals(self) -> int:
        return sum(r.deals for r in self.results.values())


class _MembersSum:
    """A group's figure: the sum of its members' same figure (read-only, like a property)."""

    def __init__(self, figure: Callable[[PlayerRow], int]) -> None:
        self.figure = figure

    @overload
    def __get__(self, group: None, owner: type[GroupRow]) -> _MembersSum: ...
    @overload
    def __get__(self, group: GroupRow, owner: type[GroupRow] | None = None) -> int: ...
    def __get__(
        self, group: GroupRow | None, owner: type[GroupRow] | None = None
    ) -> int | _MembersSum:
        if group is None:
            return self
        return sum(self.figure(m) for m in group.members)

    def __set__(self, group: GroupRow, value: int) -> None:
        raise AttributeError("a group's figure is the sum of its members'")


@dataclass
class GroupRow:
    """A team or a club: the sum of its members."""

    key: Hashable
    name: str
    members: list[PlayerRow] = field(default_factory=list)

    deal_points = _MembersSum(lambda m: m.deal_points)
    penalty = _MembersSum(lambda m: m.penalty)
    total = _MembersSum(lambda m: m.total)
    penalties_charged = _MembersSum(lambda m: m.penalties_charged)
    tables_won = _MembersSum(lambda m: m.tables_won)

    @property
    def position_points(self) -> dict[int, int]:
        points: dict[int, int] = {}
        for member in self.members:
            for number, value in member.position_points.items():
                points[number] = points.get(number, 0) + value
        return points


@dataclass(frozen=True)
class Criterion:
    """A named ranking criterion; `value` returns something where higher ranks first."""

    key: str
    label: str
    # Reads one row: a Rankable in tournament standings, a ChampionshipRow in championships.
    value: Callable[[Any], Any]


def _best_position(row: Rankable) -> int:
    points = row.position_points
    return max(points.values()) if points else 0


TOTAL = Criterion("total", _("Total des points"), lambda row: row.total)
BEST_POSITION = Criterion("best_position", _("Meilleur bilan sur une position"), _best_position)
FEWEST_PENALTIES = Criterion(
    "fewest_penalties", _("Moins de points de pénalité"), lambda row: -row.penalties_charged
)
TABLES_WON = Criterion("tables_won", _("Plus de tables gagnées"), lambda row: row.tables_won)
POSITIVE_POSITIONS = Criterion(
    "positive_positions",
    _("Plus de positions positives"),
    lambda row: sum(1 for value in row.position_points.values() if value > 0),
)

# The tie-breaks an organiser may pick, in the order offered.
TIE_BREAKS: Mapping[str, Criterion] = {
    c.key: c for c in (BEST_POSITION, FEWEST_PENALTIES, TABLES_WON, POSITIVE_POSITIONS)
}
TIE_BREAK_CHOICES: list[tuple[str, str]] = [(c.key, c.label) for c in TIE_BREAKS.values()]


def chosen_criteria(
    first: Criterion,
    offered: Mapping[str, Criterion],
    keys: Iterable[str],
    *,
    what: str = "tie-break criterion",
) -> tuple[Criterion, ...]:
    """`first`, then the chosen tie-breaks in order, each once (an unknown key is an error)."""
    criteria = [first]
    for key in keys:
        if key not in offered:
            raise ValueError(f"unknown {what}: {key!r}")
        if offered[key] not in criteria:
            criteria.append(offered[key])
    return tuple(criteria)


def criteria_for(tie_breaks: Iterable[str]) -> tuple[Criterion, ...]:
    """The total first, then the configured tie-breaks in order (unknown keys are an error)."""
    return chosen_criteria(TOTAL, TIE_BREAKS, tie_breaks)


@dataclass(frozen=True)
class Ranked:
    """A row with its rank; `tied` when another row shares the rank."""

    rank: int
    row: Any
    tied: bool = False


def rank(
    rows: Iterable[Any],
    criteria: Sequence[Criterion] = (TOTAL,),
    name: Callable[[Any], Any] = lambda row: name_key(row.name),
) -> list[Ranked]:
    """Rank rows by the criteria's values (higher first); equal on all of them shares a rank.

    Rows sharing a rank are listed by `name` (French alphabetical order by default), which
    never decides a rank.
    """

    def sort_key(row: Any) -> tuple[Any, ...]:
        return tuple(c.value(row) for c in criteria)

    keyed = [(sort_key(row), row) for row in rows]
    keyed.sort(key=lambda pair: name(pair[1]))
    keyed.sort(key=lambda pair: pair[0], reverse=True)
    counts: dict[tuple[Any, ...], int] = {}
    for key, _row in keyed:
        counts[key] = counts.get(key, 0) + 1
    ranked: list[Ranked] = []
    previous: tuple[Any, ...] | None = None
    current = 0
    for index, (key, row) in enumerate(keyed, start=1):
        if key != previous:
            current, previous = index, key
        ranked.append(Ranked(rank=current, row=row, tied=counts[key] > 1))
    return ranked


def group(
    rows: Iterable[PlayerRow],
    key: Callable[[PlayerRow], Hashable | None],
    label: Callable[[PlayerRow], str],
) -> list[GroupRow]:
    """Gather players into groups (team, club); players whose key is None are left out."""
    groups: dict[Hashable, GroupRow] = {}
    for row in rows:
        group_key = key(row)
        if group_key is None:
            continue
        if group_key not in groups:
            groups[group_key] = GroupRow(key=group_key, name=label(row))
        groups[group_key].members.append(row)
    return list(groups.values())


# --- results at one position and normalisation ------------------------------------------------

# Mean points changing hands per seat and per deal of value V, by players at the table.
STAKE_PER_SEAT: Mapping[int, Fraction] = {
    3: Fraction(4, 3),
    4: Fraction(3, 2),
    5: Fraction(6, 5),
}


def normalisation_factor(table_size: int, deals_by_size: Mapping[int, int]) -> Fraction:
    """The factor putting a bilan at a table of `table_size` on the 4-player scale."""
    if table_size == 4 or table_size not in STAKE_PER_SEAT:
        return Fraction(1)
    deals_here = deals_by_size.get(table_size) or deals_by_size.get(4) or 1
    deals_at_four = deals_by_size.get(4) or deals_here
    return (STAKE_PER_SEAT[4] * deals_at_four) / (STAKE_PER_SEAT[table_size] * deals_here)


def scale(points: int, factor: Fraction) -> int:
    """Scale a bilan and round to the nearest point, halves away from zero."""
    exact = points * factor
    rounded = (abs(exact.numerator) * 2 + exact.denominator) // (2 * exact.denominator)
    return rounded if exact >= 0 else -rounded


def position_rows(rows: Iterable[PlayerRow], number: int) -> list[PlayerRow]:
    """The same players restricted to one position (for the per-position ranking)."""
    restricted = []
    for row in rows:
        result = row.results.get(number)
        if result is None:
            continue
        restricted.append(
            replace(
                row,
                results={number: result},
                penalty=result.penalty,
                penalties_charged=result.penalty_charged,
            )
        )
    return restricted


def mark_table_winners(
    bilans: Mapping[Hashable, Mapping[Hashable, int]],
) -> set[tuple[Hashable, Hashable]]:
    """(table, player) pairs holding the best bilan at their table, ties included."""
    winners: set[tuple[Hashable, Hashable]] = set()
    for table, players in bilans.items():
        if not players:
            continue
        best = max(players.values())
        winners.update((table, player) for player, value in players.items() if value == best)
    return winners
