"""Players' game in numbers, from plain deal records: takes, contracts and their success, average
scores by role, poignées, petits au bout, chelems and penalties. Pure Python, no Django.

The records are deals, not per-player rows: each names the player at every seat (`seats`), so
one pass counts everybody at the table. A player's key is whatever the caller identifies people
by (a registration id for one tournament, a roster Player id across a season).

What counts for a player on a deal:

- a *cancelled* deal counts nowhere; the *mort* of a table of five sits the deal out;
- every other deal is a deal played, *tous passent* included (takes per deal = takes / deals);
- a contract is made when the attack's counted points reach the target for its oudlers, or,
  for a deal typed from the FFT sheet's figures (no card points), when the taker's figure is
  positive;
- the petit au bout and chelems are the player's side's (attack: taker and partner), made when
  their side brought it home, lost or conceded when the other side did;
- poignées are those the player showed.
"""

from __future__ import annotations

import datetime
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

from scoring.core.deal import ATTACK, CONTRACTS, DEFENSE, POIGNEE_SIZES
from scoring.core.rules import FFT, RULE_SETS

TAKER = "taker"
PARTNER = "partner"
DEFENDER = "defender"
ROLES = (TAKER, PARTNER, DEFENDER)


@dataclass(frozen=True)
class DealRecord:
    """One deal as stored: who sat where, the engine's inputs and the per-seat scores."""

    seats: tuple[Hashable | None, ...]  # the player key at each seat (None: nobody we count)
    scores: tuple[int, ...]
    round: Hashable = 0  # where a points-per-round chart puts it, e.g. (tournament, position)
    passed: bool = False
    cancelled: bool = False
    taker: int | None = None
    partner: int | None = None
    dead: int | None = None
    contract: str = ""
    oudlers: int | None = None
    points: float | None = None
    poignees: tuple[tuple[int, str], ...] = ()
    petit_au_bout: str | None = None
    chelem_announced: bool = False
    chelem: str | None = None
    rule_set: str = FFT.name


@dataclass(frozen=True)
class PenaltyRecord:
    """Penalty points an arbiter charged to a player."""

    player: Hashable
    points: int


def _ratio(part: int, whole: int) -> float | None:
    """part / whole, or None when there is nothing to divide by (no deal, no contract taken)."""
    return part / whole if whole else None


@dataclass
class ContractCount:
    """One contract as a player took it: how often, and how often it was made."""

    taken: int = 0
    won: int = 0

    @property
    def lost(self) -> int:
        return self.taken - self.won

    @property
    def success_rate(self) -> float | None:
        """Share of the contracts taken that were made, in [0, 1]; None when none was taken."""
        return _ratio(self.won, self.taken)


@dataclass
class RoleScore:
    """A role (taker, partner, defender): the deals played in it and the points they brought."""

    deals: int = 0
    total: int = 0

    @property
    def average(self) -> float | None:
        return _ratio(self.total, self.deals)


@dataclass
class PlayerStats:
    """Everything counted for one player (or, added up, for a club or a tournament)."""

    deals: int = 0
    passed: int = 0
    points: int = 0
    contracts: dict[str, ContractCount] = field(
        default_factory=lambda: {c: ContractCount() for c in CONTRACTS}
    )
    roles: dict[str, RoleScore] = field(default_factory=lambda: {r: RoleScore() for r in ROLES})
    poignees: dict[str, int] = field(default_factory=lambda: dict.fromkeys(POIGNEE_SIZES, 0))
    petit_made: int = 0
    petit_lost: int = 0
    chelems_made: int = 0
    chelems_conceded: int = 0
    chelems_announced: int = 0
    penalties: int = 0
    penalty_points: int = 0
    rounds: dict[Hashable, int] = field(default_factory=dict)  # deal points by round, in order

    @property
    def takes(self) -> int:
        return sum(count.taken for count in self.contracts.values())

    @property
    def won(self) -> int:
        return sum(count.won for count in self.contracts.values())

    @property
    def takes_per_deal(self) -> float | None:
        return _ratio(self.takes, self.deals)

    @property
    def success_rate(self) -> float | None:
        return _ratio(self.won, self.takes)

    def add(self, other: PlayerStats) -> None:
        """Add another player's counts to these (totals of a club or a tournament)."""
        self.deals += other.deals
        self.passed += other.passed
        self.points += other.points
        for contract, count in other.contracts.items():
            mine = self.contracts.setdefault(contract, ContractCount())
            mine.taken += count.taken
            mine.won += count.won
        for role, score in other.roles.items():
            mine_role = self.roles.setdefault(role, RoleScore())
            mine_role.deals += score.deals
            mine_role.total += score.total
        for size, times in other.poignees.items():
            self.poignees[size] = self.poignees.get(size, 0) + times
        self.petit_made += other.petit_made
        self.petit_lost += other.petit_lost
        self.chelems_made += other.chelems_made
        self.chelems_conceded += other.chelems_conceded
        self.chelems_announced += other.chelems_announced
        self.penalties += other.penalties
        self.penalty_points += other.penalty_points
        for key, points in other.rounds.items():
            self.rounds[key] = self.rounds.get(key, 0) + points


def contract_won(deal: DealRecord) -> bool:
    """Did the attack make its contract? From the card points when known, else the figure."""
    rules = RULE_SETS.get(deal.rule_set, FFT)
    if deal.points is not None and deal.oudlers is not None:
        counted = deal.points
        if rules.petit_au_bout_in_points and deal.petit_au_bout in (ATTACK, DEFENSE):
            sign = 1 if deal.petit_au_bout == ATTACK else -1
            counted += sign * rules.petit_au_bout_base
        return counted >= rules.targets[deal.oudlers]
    return deal.taker is not None and deal.scores[deal.taker] > 0


def role_of(deal: DealRecord, seat: int) -> str | None:
    """The seat's role on a played deal; None for the mort and on a passed or cancelled deal."""
    if deal.passed or deal.cancelled or deal.taker is None or seat == deal.dead:
        return None
    if seat == deal.taker:
        return TAKER
    if seat == deal.partner and deal.partner != deal.taker:
        return PARTNER
    return DEFENDER


def statistics_by_player(
    deals: Iterable[DealRecord], penalties: Iterable[PenaltyRecord] = ()
) -> dict[Hashable, PlayerStats]:
    """Every player's counts, by player key, in one pass over the deals."""
    stats: dict[Hashable, PlayerStats] = {}

    def of(player: Hashable) -> PlayerStats:
        found = stats.get(player)
        if found is None:
            found = stats[player] = PlayerStats()
        return found

    for deal in deals:
        if deal.cancelled:
            continue
        won = None
        if not deal.passed and deal.taker is not None:
            won = contract_won(deal)
        shown = {seat: size for seat, size in deal.poignees}
        for seat, player in enumerate(deal.seats):
            if player is None or seat == deal.dead:
                continue
            mine = of(player)
            score = deal.scores[seat] if seat < len(deal.scores) else 0
            mine.deals += 1
            mine.points += score
            mine.rounds[deal.round] = mine.rounds.get(deal.round, 0) + score
            role = role_of(deal, seat)
            if role is None:
                mine.passed += deal.passed
                continue
            mine.roles[role].deals += 1
            mine.roles[role].total += score
            if role == TAKER:
                count = mine.contracts.setdefault(deal.contract, ContractCount())
                count.taken += 1
                count.won += bool(won)
            if seat in shown:
                mine.poignees[shown[seat]] = mine.poignees.get(shown[seat], 0) + 1
            side = DEFENSE if role == DEFENDER else ATTACK
            if deal.petit_au_bout:
                if deal.petit_au_bout == side:
                    mine.petit_made += 1
                else:
                    mine.petit_lost += 1
            if deal.chelem:
                if deal.chelem == side:
                    mine.chelems_made += 1
                else:
                    mine.chelems_conceded += 1
            if deal.chelem_announced and side == ATTACK:
                mine.chelems_announced += 1
    for penalty in penalties:
        mine = of(penalty.player)
        mine.penalties += 1
        mine.penalty_points += penalty.points
    return stats


def player_statistics(
    deals: Iterable[DealRecord], player: Hashable, penalties: Iterable[PenaltyRecord] = ()
) -> PlayerStats:
    """One player's counts (empty counts when they played no deal)."""
    mine = [p for p in penalties if p.player == player]
    return statistics_by_player((deal for deal in deals if player in deal.seats), mine).get(
        player, PlayerStats()
    )


def totals(stats: Iterable[PlayerStats]) -> PlayerStats:
    """The counts of several players added up (a club, a tournament)."""
    total = PlayerStats()
    for one in stats:
        total.add(one)
    return total


def totals_by(
    stats: Mapping[Hashable, PlayerStats], group: Mapping[Hashable, Hashable]
) -> dict[Hashable, PlayerStats]:
    """Players' counts added up by group (e.g. registration → club); players without a group
    are left out."""
    grouped: dict[Hashable, PlayerStats] = {}
    for player, one in stats.items():
        key = group.get(player)
        if key is None:
            continue
        grouped.setdefault(key, PlayerStats()).add(one)
    return grouped


def season_of(day: datetime.date) -> tuple[datetime.date, datetime.date]:
    """The club season holding `day`: September 1st to August 31st, both included."""
    start_year = day.year if day.month >= 9 else day.year - 1
    return datetime.date(start_year, 9, 1), datetime.date(start_year + 1, 8, 31)
