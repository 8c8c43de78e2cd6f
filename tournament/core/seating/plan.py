"""The plan's vocabulary: players, tables, positions, the plan itself, table sizes, refusals.

A *position* is a round: every table plays its deals once. A *table* is a tuple of player ids in
seat order N, E, S, W and, at tables of five, a fifth seat "X" (shown "5e" on sheets). Tables of
three use N, E, S. Requests that cannot be seated raise `SeatingError`, for the arbiter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from tournament.core.i18n import TranslatableError, gettext_noop

# Seat letters in table order: a seat's index in this tuple is the engine's seat number stored
# on sheets and deals, and the dealer passes to the previous index. The fifth seat at tables of
# five has no compass name, so it is "X", shown as "5e". Never reorder: stored data means it.
# (tournament.seats, the app's seat vocabulary, serves it to the rest of the app.)
DIRECTIONS = ("N", "E", "S", "W", "X")
POLICIES = ("five", "three")
# The Django model also knows "five_dead" (tables of 5 with a rotating dummy): same seating.
POLICY_ALIASES = {"five_dead": "five"}
MAX_POSITIONS = 60

Table = tuple[int, ...]
Position = tuple[Table, ...]


class SeatingError(TranslatableError):
    """A request that cannot be seated, meant for the arbiter.

    Like scoring.core.deal.DealError, it carries a French message template with named params,
    marked for the catalogue; the Django layer translates the template when it shows it
    (`gettext(error.template) % error.params`). str() gives the French message.
    """


class PlayerLike(Protocol):
    """What the generator reads of a player (read-only: a frozen SeatingPlayer qualifies)."""

    @property
    def id(self) -> int: ...

    @property
    def team(self) -> int | None: ...


@dataclass(frozen=True)
class SeatingPlayer:
    """A player to seat: their number and their team (None when playing alone)."""

    id: int
    team: int | None = None


@dataclass(frozen=True)
class PlanNote:
    """Something a plan could not reach, for the arbiter: a French template and its params.

    Like SeatingError, the template is marked for the catalogue and translated where the note
    is shown (`note.message(gettext)`); str() gives the French text.
    """

    template: str
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def message(self, translate: Callable[[str], str] | None = None) -> str:
        """The note, its template passed through `translate` (gettext) first when given."""
        template = translate(self.template) if translate is not None else self.template
        return template % self.params

    def __str__(self) -> str:
        return self.message()


@dataclass(frozen=True)
class Plan:
    """Every position's tables; each table lists player ids in seat order N, E, S, W[, X].

    `notes` (for the arbiter, see `seating.notes`) say what the plan could not reach and why:
    repeated meetings with their lower bound, an odd-table spread that played positions impose.
    `repeats_floor` is the best lower bound on repeats the generator knows for the whole plan
    (the counts of `bounds`, or the exact solver's proof); None for a plan not generated.
    """

    positions: tuple[Position, ...]
    notes: tuple[PlanNote, ...] = field(default=(), compare=False)
    repeats_floor: int | None = field(default=None, compare=False)

    def to_lists(self) -> list[list[list[int]]]:
        return [[list(table) for table in position] for position in self.positions]


def numbered_field(players: int, team_size: int | None = None) -> list[SeatingPlayer]:
    """Players 1..N; with team_size K, players 1..K form team 1, K+1..2K team 2, and so on."""
    return [
        SeatingPlayer(i, (i - 1) // team_size + 1 if team_size else None)
        for i in range(1, players + 1)
    ]


def table_sizes(players: int, policy: str = "five") -> list[int]:
    """Table sizes for one position: tables of 4, then the remainder at tables of 5 or 3."""
    policy = check_policy(policy)
    if players < 3:
        raise SeatingError(gettext_noop("Il faut au moins 3 joueurs pour former une table."))
    rest = players % 4
    if rest == 0:
        return [4] * (players // 4)
    # Each table of 5 seats one player more than a table of 4, each table of 3 one fewer.
    odd, other, odd_tables = (5, 3, rest) if policy == "five" else (3, 5, 4 - rest)
    if players < odd * odd_tables:
        raise SeatingError(
            gettext_noop(
                "Impossible de placer %(players)s joueurs à des tables de 4 et de %(odd)s : "
                "choisissez des tables de %(other)s."
            ),
            {"players": players, "odd": odd, "other": other},
        )
    return [4] * ((players - odd * odd_tables) // 4) + [odd] * odd_tables


# --- Checking the request -------------------------------------------------------------------


def check_policy(policy: str) -> str:
    policy = POLICY_ALIASES.get(policy, policy)
    if policy not in POLICIES:
        raise SeatingError(
            gettext_noop("Formule de tables inconnue : « %(policy)s » (five ou three)."),
            {"policy": policy},
        )
    return policy


def check_players(players: Iterable[PlayerLike]) -> list[SeatingPlayer]:
    roster = [SeatingPlayer(int(p.id), getattr(p, "team", None)) for p in players]
    ids = [p.id for p in roster]
    if len(set(ids)) != len(ids):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        raise SeatingError(
            gettext_noop("Joueurs en double : %(players)s."),
            {"players": ", ".join(map(str, twice))},
        )
    if len(roster) < 3:
        raise SeatingError(gettext_noop("Il faut au moins 3 joueurs pour former une table."))
    return roster


def check_fixed(fixed: Sequence[Sequence[Sequence[int]]], positions: int) -> tuple[Position, ...]:
    if positions < 1 or positions > MAX_POSITIONS:
        raise SeatingError(
            gettext_noop("Le nombre de positions doit être entre 1 et %(max)s."),
            {"max": MAX_POSITIONS},
        )
    if len(fixed) > positions:
        raise SeatingError(gettext_noop("Plus de positions jouées que de positions prévues."))
    out = []
    for number, position in enumerate(fixed, start=1):
        tables = tuple(tuple(int(p) for p in table) for table in position)
        seated = [p for table in tables for p in table]
        if len(set(seated)) != len(seated):
            raise SeatingError(
                gettext_noop("Position %(number)s : un joueur y est assis deux fois."),
                {"number": number},
            )
        if any(not 3 <= len(table) <= 5 for table in tables):
            raise SeatingError(
                gettext_noop("Position %(number)s : une table n'a pas 3 à 5 joueurs."),
                {"number": number},
            )
        out.append(tables)
    return tuple(out)


def check_teams_fit(roster: list[SeatingPlayer], sizes: list[int]) -> None:
    """Refuse teams that cannot be spread one member per table (Gale-Ryser condition)."""
    team_sizes: dict[int, int] = {}
    for p in roster:
        if p.team is not None:
            team_sizes[p.team] = team_sizes.get(p.team, 0) + 1
    if not team_sizes:
        return
    largest = max(team_sizes.values())
    if largest > len(sizes) == 1:
        raise SeatingError(
            gettext_noop(
                "Une équipe de %(size)s joueurs ne peut pas jouer à une seule table sans que "
                "deux coéquipiers se rencontrent."
            ),
            {"size": largest},
        )
    if largest > len(sizes):
        raise SeatingError(
            gettext_noop(
                "Une équipe de %(size)s joueurs ne peut pas être répartie sur %(tables)s "
                "tables sans que deux coéquipiers se rencontrent."
            ),
            {"size": largest, "tables": len(sizes)},
        )
    groups = list(team_sizes.values()) + [1] * sum(1 for p in roster if p.team is None)
    ordered = sorted(sizes, reverse=True)
    for k in range(1, len(ordered) + 1):
        if sum(ordered[:k]) > sum(min(g, k) for g in groups):
            raise SeatingError(
                gettext_noop("Les équipes sont trop grandes pour séparer tous les coéquipiers.")
            )


def positions_of(
    plan: Plan | Sequence[Sequence[Sequence[int]]],
) -> Sequence[Sequence[Sequence[int]]]:
    return plan.positions if isinstance(plan, Plan) else plan
