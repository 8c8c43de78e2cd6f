"""Pure ranking of a season championship over several tournaments: results in, ranked rows out.

Nothing here touches Django or the database; `scoring.season.championships` loads each finished
tournament's final standings and calls `championship_rank`.

Points a tournament gives
    ``sum``: the player's total in that tournament's final standings (deal points plus penalty
    adjustments), so a bad evening can give negative points.
    ``rank``: the points of the player's final rank on the organiser's scale (25, 20, 16 …);
    players sharing a rank each get that rank's points; every rank beyond the scale gets the
    organiser's ``floor`` (0 by default, a "participation point" if they want one).

Who played a tournament
    A player with at least one result (a position played) in its final standings. A player who
    withdrew during a tournament keeps the points of the rank that tournament's standings give
    them (their positions played, nothing for the others); registered but never seated, they
    did not play it: no points, not counted for attendance, and no place taken from the others
    (the service ranks each tournament among those who played).

Best N of M
    Only the player's N best results count (all when N is not set); a tournament they missed
    takes no slot. Among equal results, the earlier tournament is the one kept.

Minimum attendance
    Players who played fewer tournaments than the minimum are listed apart, unranked, with their
    points (they still see where they stand).

Ranking
    Counted points, highest first, then the organiser's tie-breaks in order (`TIE_BREAKS`);
    players equal on every criterion share a rank (1, 2, 2, 4 …).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from scoring.core.ranking import Criterion, Ranked, chosen_criteria, rank
from tournament.core.i18n import gettext_noop as _


class Method(StrEnum):
    SUM = "sum"  # the tournament's total score
    RANK = "rank"  # points by final rank, from the scale


@dataclass(frozen=True)
class Rules:
    method: Method = Method.RANK
    scale: tuple[int, ...] = ()
    floor: int = 0  # points for a rank beyond the scale (rank method)
    best_of: int | None = None  # N: how many results count; None: all of them
    min_attendance: int = 0
    tie_breaks: tuple[str, ...] = ()


@dataclass(frozen=True)
class TournamentResult:
    """A player's line in one tournament's final standings."""

    tournament: Hashable
    rank: int
    total: int  # the tournament's total (deal points and penalties)
    tied: bool = False
    withdrawn: bool = False


@dataclass
class PlayerResults:
    """One person across the season: the input of `championship_rank`."""

    key: Hashable
    name: str
    club: str = ""
    licence: str = ""
    results: list[TournamentResult] = field(default_factory=list)


@dataclass(frozen=True)
class Scored:
    """A result with the championship points it gives and whether it counts."""

    result: TournamentResult
    points: int
    counted: bool


@dataclass
class ChampionshipRow:
    """A player's season: every result scored, the counted ones adding up to `total`."""

    key: Hashable
    name: str
    club: str
    licence: str
    scored: list[Scored]  # in the championship's tournament order

    @property
    def total(self) -> int:
        return sum(s.points for s in self.scored if s.counted)

    @property
    def played(self) -> int:
        return len(self.scored)

    @property
    def best_result(self) -> int:
        return max((s.points for s in self.scored), default=0)

    @property
    def all_results(self) -> int:
        return sum(s.points for s in self.scored)

    @property
    def best_rank(self) -> int | None:
        return min((s.result.rank for s in self.scored), default=None)

    def by_tournament(self) -> dict[Hashable, Scored]:
        return {s.result.tournament: s for s in self.scored}


@dataclass(frozen=True)
class ChampionshipRanking:
    ranked: list[Ranked]  # rows are ChampionshipRow
    below_attendance: list[ChampionshipRow]  # listed apart, unranked
    criteria: tuple[Criterion, ...]


TOTAL = Criterion("total", _("Points retenus"), lambda row: row.total)
PLAYED = Criterion("played", _("Plus de tournois joués"), lambda row: row.played)
BEST_RESULT = Criterion("best_result", _("Meilleur résultat"), lambda row: row.best_result)
ALL_RESULTS = Criterion(
    "all_results", _("Total de tous les résultats (écartés compris)"), lambda row: row.all_results
)
BEST_RANK = Criterion(
    "best_rank",
    _("Meilleure place dans un tournoi"),
    lambda row: -row.best_rank if row.best_rank is not None else float("-inf"),
)

# The tie-breaks an organiser may pick, in the order offered.
TIE_BREAKS: Mapping[str, Criterion] = {
    c.key: c for c in (PLAYED, BEST_RESULT, ALL_RESULTS, BEST_RANK)
}
TIE_BREAK_CHOICES: list[tuple[str, str]] = [(c.key, c.label) for c in TIE_BREAKS.values()]


def criteria_for(tie_breaks: Iterable[str]) -> tuple[Criterion, ...]:
    """The counted points first, then the configured tie-breaks (unknown keys are an error)."""
    return chosen_criteria(TOTAL, TIE_BREAKS, tie_breaks, what="championship tie-break")


def parse_scale(text: str) -> tuple[int, ...]:
    """ "25, 20,16 ; 13" → (25, 20, 16, 13); a ValueError names the faulty item."""
    items = [item.strip() for item in text.replace(";", ",").replace("-", ",").split(",")]
    scale = []
    for item in items:
        if not item:
            continue
        if not item.isascii() or not item.isdigit() or len(item) > 6:
            raise ValueError(item)
        scale.append(int(item))
    return tuple(scale)


def points_for(result: TournamentResult, rules: Rules) -> int:
    """The championship points one tournament result gives."""
    if rules.method == Method.SUM:
        return result.total
    if 1 <= result.rank <= len(rules.scale):
        return rules.scale[result.rank - 1]
    return rules.floor


def score_player(
    player: PlayerResults, rules: Rules, order: Mapping[Hashable, int]
) -> ChampionshipRow:
    """Score every result of one player and mark the best N as counted."""
    results = sorted(player.results, key=lambda r: order.get(r.tournament, len(order)))
    points = [points_for(r, rules) for r in results]
    # Best first; among equal points the earlier tournament is kept (stable sort).
    best = sorted(range(len(results)), key=lambda i: -points[i])
    keep = set(best if rules.best_of is None else best[: rules.best_of])
    return ChampionshipRow(
        key=player.key,
        name=player.name,
        club=player.club,
        licence=player.licence,
        scored=[
            Scored(result=r, points=p, counted=i in keep)
            for i, (r, p) in enumerate(zip(results, points, strict=True))
        ],
    )


def championship_rank(
    players: Iterable[PlayerResults], tournaments: Sequence[Hashable], rules: Rules
) -> ChampionshipRanking:
    """Rank the season: players who played at least `min_attendance` tournaments, by counted
    points then the tie-breaks; the others apart, by counted points and name, unranked."""
    order = {key: index for index, key in enumerate(tournaments)}
    criteria = criteria_for(rules.tie_breaks)
    rows = [score_player(p, rules, order) for p in players if p.results]
    eligible = [row for row in rows if row.played >= rules.min_attendance]
    apart = [row for row in rows if row.played < rules.min_attendance]
    below = [r.row for r in rank(apart, criteria)]
    return ChampionshipRanking(
        ranked=rank(eligible, criteria), below_attendance=below, criteria=criteria
    )
