"""Loads tournaments' scores with a fixed number of queries and ranks them (scoring.core.ranking).

Which deals count is scoring.counting's one rule, the arbiter's as the public's; which sheets
each sees, scoring.live.counted's. Penalty points come from the incidents of the counted
sheets (and incidents attached to no sheet), through `scoring.core.penalties`. `standings_for_many`
reads five queries whatever the number of tournaments, then assembles each tournament's
standings from the rows read, in named steps and without a query.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

from django.db.models import Count, Q, QuerySet, Sum

from scoring.core import ranking
from scoring.core.penalties import Penalty, penalty_adjustments
from scoring.live.counted import (
    FREE_SHEETS,
    player_deals,
    visible_sheets_of,
)
from scoring.live.provisional import finished_sheets, played_deals, table_winners
from scoring.models import DealScore, Incident, ScoreSheet, SheetPlayer
from tournament.models import Registration, Tournament

__all__ = [
    "FREE_SHEETS",
    "Standings",
    "player_deals",
    "standings_for",
    "standings_for_many",
    "visible_sheets_of",
]

# A sheet as read for the standings: id, tournament_id, status, table__number,
# table__position__number, table__position__status, size (its number of players) and played
# (its counted deals, cancelled ones aside).
SheetInfo = Mapping[str, Any]
# An incident as read: tournament_id, registration_id, sheet_id, penalty_points, shared.
IncidentRow = Mapping[str, Any]
# (sheet id, registration id) -> (points, deals) of the counted deals.
Bilans = dict[tuple[int, int], tuple[int, int]]


@dataclass
class Standings:
    """Everything a ranking page or export shows; rows are `ranking.Ranked`."""

    tournament: Tournament
    criteria: tuple[ranking.Criterion, ...]
    normalised: bool
    public: bool
    positions: list[int]
    players: Sequence[ranking.Ranked]
    teams: Sequence[ranking.Ranked]
    clubs: Sequence[ranking.Ranked]
    rows_by_key: dict[int, ranking.PlayerRow] = field(default_factory=dict)
    factors: dict[int, Fraction] = field(default_factory=dict)
    # By registration id, which is the ranking rows' key.
    registrations: dict[Hashable, Registration] = field(default_factory=dict)
    # Counted positions still being played (scoring.live.provisional.mark_provisional fills it).
    partial: list[Any] = field(default_factory=list)
    # The players' keys in rank order, when read back from a snapshot (scoring.live.snapshot).
    keys: list[Hashable] | None = None

    @property
    def partial_numbers(self) -> set[int]:
        return {p.number for p in self.partial}

    @property
    def provisional(self) -> str:
        """ "Classement provisoire — position 2 en cours (7/12 tables)", or "" when final."""
        from scoring.live.provisional import provisional_text

        return provisional_text(self.partial)

    def by_position(self, number: int) -> list[ranking.Ranked]:
        """The ranking of one position: each player's bilan there, penalties of that position."""
        rows = ranking.position_rows((r.row for r in self.players), number)
        return ranking.rank(rows, self.criteria)

    def rank_of(self, key: int) -> ranking.Ranked | None:
        if self.keys is not None:  # a stored ranking: decode only that row
            return self.players[self.keys.index(key)] if key in self.keys else None
        for ranked in self.players:
            if ranked.row.key == key:
                return ranked
        return None

    @property
    def has_teams(self) -> bool:
        return bool(self.teams)


@dataclass
class _Loaded:
    """The rows read for one tournament: its counted sheets and what was played on them."""

    sheet_info: dict[int, SheetInfo]
    seats: dict[int, list[int]]  # sheet id -> registration ids in seat order
    bilans: Bilans
    incidents: list[IncidentRow]
    registrations: list[Registration]


@dataclass
class _PenaltyPoints:
    """Penalties by position: the adjustment of each player (signed, shared ones spread) and the
    points charged to each culprit."""

    adjustments: dict[int | None, dict[int, int]]  # by position number (None: on no sheet)
    charged: dict[tuple[int | None, int], int]  # by (position number, registration id)


def standings_for(tournament: Tournament, *, public: bool = False) -> Standings:
    """Rank every registered player, team and club of the tournament (five queries)."""
    return standings_for_many([tournament], public=public)[tournament.pk]


def standings_for_many(
    tournaments: Sequence[Tournament], *, public: bool = False
) -> dict[int, Standings]:
    """The standings of several tournaments at once, by tournament id: the same five queries
    whatever their number (a season championship reads a dozen finished tournaments)."""
    by_id = {t.pk: t for t in tournaments}
    if not by_id:
        return {}
    sheet_info = _read_sheets(visible_sheets_of(tournaments, public=public))
    # The sheets' ids as a list rather than a subquery: inside a test transaction PostgreSQL
    # has no statistics, guessed one row and nested-looped the subquery per seat (34 s for a
    # season of 12 tournaments); a list of ids is planned as an index lookup whatever the stats.
    sheet_ids = list(sheet_info)
    seats = _split_by_tournament(_read_seats(sheet_ids), sheet_info)
    bilans = _read_bilans(sheet_ids)
    incidents = _read_incidents(by_id, sheet_ids)
    registrations = _read_ranked_registrations(by_id)
    return {
        pk: _assemble(
            tournament,
            public=public,
            loaded=_Loaded(
                sheet_info=sheet_info,
                seats=seats.get(pk, {}),
                bilans=bilans,
                incidents=incidents.get(pk, []),
                registrations=registrations.get(pk, []),
            ),
        )
        for pk, tournament in by_id.items()
    }


def _read_sheets(sheets: QuerySet[ScoreSheet]) -> dict[int, SheetInfo]:
    """The counted sheets by id, with their table, position and size (one query)."""
    return {
        row["id"]: row
        for row in sheets.values(
            "id",
            "tournament_id",
            "status",
            "table__number",
            "table__position__number",
            "table__position__status",
        ).annotate(size=Count("players"), played=played_deals())
    }


def _read_seats(sheet_ids: list[int]) -> dict[int, list[int]]:
    """Each sheet's registrations in seat order (one query)."""
    seats: dict[int, list[int]] = defaultdict(list)
    for sheet_id, registration_id in (
        SheetPlayer.objects.filter(sheet_id__in=sheet_ids)
        .order_by("sheet_id", "seat")
        .values_list("sheet_id", "registration_id")
    ):
        seats[sheet_id].append(registration_id)
    return seats


def _split_by_tournament(
    seats: dict[int, list[int]], sheet_info: dict[int, SheetInfo]
) -> dict[int, dict[int, list[int]]]:
    """The seats of each tournament's sheets, by tournament id (no query)."""
    by_tournament: dict[int, dict[int, list[int]]] = defaultdict(dict)
    for sheet_id, players in seats.items():
        info = sheet_info.get(sheet_id)
        if info is not None:
            by_tournament[info["tournament_id"]][sheet_id] = players
    return by_tournament


def _read_bilans(sheet_ids: list[int]) -> Bilans:
    """Each player's points and number of counted deals on each sheet (one query)."""
    return {
        (row["deal__sheet_id"], row["registration_id"]): (row["points"], row["deals"])
        for row in DealScore.objects.counted()
        .filter(deal__sheet__in=sheet_ids)
        .values("deal__sheet_id", "registration_id")
        .annotate(points=Sum("points"), deals=Count("id"))
        .order_by()
    }


def _read_incidents(
    tournament_ids: Iterable[int], sheet_ids: list[int]
) -> dict[int, list[IncidentRow]]:
    """The penalties of the counted sheets and those on no sheet, by tournament id (one query)."""
    incidents: dict[int, list[IncidentRow]] = defaultdict(list)
    for incident in (
        Incident.objects.filter(tournament_id__in=tournament_ids, penalty_points__gt=0)
        .filter(Q(sheet__isnull=True) | Q(sheet_id__in=sheet_ids))
        .values("tournament_id", "registration_id", "sheet_id", "penalty_points", "shared")
    ):
        incidents[incident["tournament_id"]].append(incident)
    return incidents


def _read_ranked_registrations(tournament_ids: Iterable[int]) -> dict[int, list[Registration]]:
    """The registrations to rank, by tournament id (one query).

    Pre-registered online but never checked in: they did not come, so they are not ranked.
    """
    registrations: dict[int, list[Registration]] = defaultdict(list)
    for registration in (
        Registration.objects.filter(tournament_id__in=tournament_ids)
        .exclude(status=Registration.Status.EXPECTED)
        .select_related("player", "team")
    ):
        registrations[registration.tournament_id].append(registration)
    return registrations


def _assemble(tournament: Tournament, *, public: bool, loaded: _Loaded) -> Standings:
    """One tournament's standings from the rows loaded for it (no query)."""
    normalised = tournament.normalise_tables
    factors = normalisation_factors(tournament)
    penalties = _penalty_points(loaded)
    rows = _player_rows(loaded.registrations)
    positions = _add_position_results(
        tournament, rows, loaded, penalties, factors if normalised else {}
    )
    _add_penalties(rows, penalties)
    criteria = ranking.criteria_for(tournament.tie_breaks or ())
    return Standings(
        tournament=tournament,
        criteria=criteria,
        normalised=normalised,
        public=public,
        positions=sorted(positions),
        players=ranking.rank(rows.values(), criteria),
        teams=ranking.rank(
            ranking.group(rows.values(), key=lambda r: r.team_key, label=lambda r: r.team),
            criteria,
        ),
        clubs=ranking.rank(
            ranking.group(rows.values(), key=lambda r: r.club or None, label=lambda r: r.club),
            criteria,
        ),
        rows_by_key=rows,
        factors=factors if normalised else {},
        registrations={registration.pk: registration for registration in loaded.registrations},
    )


def normalisation_factors(tournament: Tournament) -> dict[int, Fraction]:
    """The factor putting a bilan at a table of 3, 4 or 5 on the 4-player scale."""
    deals_by_size = {
        3: tournament.deals_per_table_3,
        4: tournament.deals_per_table_4,
        5: tournament.deals_per_table_5,
    }
    return {size: ranking.normalisation_factor(size, deals_by_size) for size in (3, 4, 5)}


def _penalty_points(loaded: _Loaded) -> _PenaltyPoints:
    """Each incident's penalty, counted at the position of its sheet (free ones at none)."""
    by_position: dict[int | None, list[Penalty]] = defaultdict(list)
    charged: dict[tuple[int | None, int], int] = defaultdict(int)
    for incident in loaded.incidents:
        if incident["registration_id"] is None:
            continue
        sheet_id = incident["sheet_id"]
        number = _position_number(loaded.sheet_info.get(sheet_id)) if sheet_id else None
        by_position[number].append(
            Penalty(
                culprit=incident["registration_id"],
                points=incident["penalty_points"],
                shared=incident["shared"],
                table=tuple(loaded.seats.get(sheet_id, ())),
            )
        )
        charged[(number, incident["registration_id"])] += incident["penalty_points"]
    # The culprits and their tables are registration ids: so are the adjustments' keys.
    adjustments = {
        number: cast(dict[int, int], penalty_adjustments(penalties))
        for number, penalties in by_position.items()
    }
    return _PenaltyPoints(adjustments=adjustments, charged=charged)


def _player_rows(registrations: list[Registration]) -> dict[int, ranking.PlayerRow]:
    """An empty ranking row per registration, by registration id."""
    return {
        registration.pk: ranking.PlayerRow(
            key=registration.pk,
            name=registration.player.full_name,
            number=registration.number,
            club=registration.player.club,
            licence=registration.player.licence or "",
            team=registration.team.name if registration.team else "",
            team_key=registration.team_id,
        )
        for registration in registrations
    }


def _add_position_results(
    tournament: Tournament,
    rows: dict[int, ranking.PlayerRow],
    loaded: _Loaded,
    penalties: _PenaltyPoints,
    factors: dict[int, Fraction],
) -> set[int]:
    """Each player's bilan at each position they played (scaled by `factors` when the
    tournament normalises tables); returns the positions played."""
    finished = finished_sheets(tournament, loaded.sheet_info)
    # A table with no deal yet has no winner (everybody would tie at zero).
    played = {sheet_id for sheet_id, _registration in loaded.bilans}
    winners = table_winners(loaded.seats, loaded.bilans, played)
    positions: set[int] = set()
    for sheet_id, players in loaded.seats.items():
        info = loaded.sheet_info.get(sheet_id)
        if info is None:
            continue
        number = _position_number(info)
        positions.add(number)
        size = info["size"]
        for registration_id in players:
            row = rows.get(registration_id)
            if row is None:
                continue
            raw, deals = loaded.bilans.get((sheet_id, registration_id), (0, 0))
            result = ranking.PositionResult(
                position=number,
                table=info["table__number"],
                table_size=size,
                points=ranking.scale(raw, factors[size]) if size in factors else raw,
                raw_points=raw,
                deals=deals,
                won_table=(sheet_id, registration_id) in winners,
                in_play=sheet_id not in finished,
                penalty=penalties.adjustments.get(number, {}).get(registration_id, 0),
                penalty_charged=penalties.charged.get((number, registration_id), 0),
            )
            previous = row.results.get(number)
            row.results[number] = _merge(previous, result) if previous else result
    return positions


def _add_penalties(rows: dict[int, ranking.PlayerRow], penalties: _PenaltyPoints) -> None:
    """Each player's penalty total: received and charged, over every position."""
    for deltas in penalties.adjustments.values():
        for registration_id, delta in deltas.items():
            if registration_id in rows:
                rows[registration_id].penalty += delta
    for (_number, registration_id), points in penalties.charged.items():
        if registration_id in rows:
            rows[registration_id].penalties_charged += points


def _position_number(info: SheetInfo | None) -> int:
    if info is None or info["table__position__number"] is None:
        return FREE_SHEETS
    return info["table__position__number"]


def _merge(a: ranking.PositionResult, b: ranking.PositionResult) -> ranking.PositionResult:
    """Two free sheets ranked under the same heading add up."""
    return ranking.PositionResult(
        position=a.position,
        table=None,
        table_size=a.table_size,
        points=a.points + b.points,
        raw_points=a.raw_points + b.raw_points,
        deals=a.deals + b.deals,
        won_table=a.won_table or b.won_table,
        penalty=a.penalty,
        penalty_charged=a.penalty_charged,
        in_play=a.in_play or b.in_play,
    )
