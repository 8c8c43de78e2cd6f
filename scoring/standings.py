"""Loads a tournament's scores with a fixed number of queries and ranks them (scoring.ranking).

What counts: the deals of the tournament's score sheets. For the public pages, only sheets of
positions that are not drafts count, and only validated sheets when the organiser chose
`public_requires_validation`. Penalty points come from the incidents of the counted sheets
(and incidents attached to no sheet), through `scoring.penalties`.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Count, Max, OuterRef, Q, QuerySet, Subquery, Sum

from scoring import ranking
from scoring.models import Deal, DealScore, Incident, ScoreSheet, SheetPlayer
from scoring.penalties import Penalty, penalty_adjustments
from tournament.models import Position, Registration, Tournament

# Sheets outside the seating plan (a club evening) have no position; they are ranked as this.
FREE_SHEETS = 0


@dataclass
class Standings:
    """Everything a ranking page or export shows; rows are `ranking.Ranked`."""

    tournament: Tournament
    criteria: tuple[ranking.Criterion, ...]
    normalised: bool
    public: bool
    positions: list[int]
    players: list[ranking.Ranked]
    teams: list[ranking.Ranked]
    clubs: list[ranking.Ranked]
    rows_by_key: dict[int, ranking.PlayerRow] = field(default_factory=dict)
    factors: dict[int, Fraction] = field(default_factory=dict)
    registrations: dict[int, Registration] = field(default_factory=dict)  # by registration id

    def by_position(self, number: int) -> list[ranking.Ranked]:
        """The ranking of one position: each player's bilan there, penalties of that position."""
        rows = ranking.position_rows((r.row for r in self.players), number)
        return ranking.rank(rows, self.criteria)

    def rank_of(self, key: int) -> ranking.Ranked | None:
        for ranked in self.players:
            if ranked.row.key == key:
                return ranked
        return None

    @property
    def has_teams(self) -> bool:
        return bool(self.teams)


def visible_sheets(tournament: Tournament, *, public: bool) -> QuerySet[ScoreSheet]:
    """The sheets whose deals count: all for the arbiter, only published ones for the public."""
    return visible_sheets_of([tournament], public=public)


def visible_sheets_of(tournaments: Sequence[Tournament], *, public: bool) -> QuerySet[ScoreSheet]:
    """The same rule over several tournaments: for the public, sheets of published positions,
    and only validated ones where the organiser asked for that."""
    sheets = ScoreSheet.objects.filter(tournament_id__in=[t.pk for t in tournaments])
    if public:
        sheets = sheets.filter(table__isnull=False).exclude(
            table__position__status=Position.Status.DRAFT
        )
        validated_only = [t.pk for t in tournaments if t.public_requires_validation]
        if validated_only:
            sheets = sheets.exclude(
                Q(tournament_id__in=validated_only) & ~Q(status=ScoreSheet.Status.VALIDATED)
            )
    return sheets


def visible_incidents(tournament: Tournament, sheets: QuerySet[ScoreSheet]) -> QuerySet[Incident]:
    return Incident.objects.filter(tournament=tournament, penalty_points__gt=0).filter(
        Q(sheet__isnull=True) | Q(sheet__in=sheets)
    )


def counted_scores(
    sheets: QuerySet[ScoreSheet] | Sequence[int], *, public: bool
) -> QuerySet[DealScore]:
    """The per-player scores that count: deals entered at a table and not yet confirmed by an
    opponent (or an arbiter) count nowhere public."""
    scores = DealScore.objects.filter(deal__sheet__in=sheets)
    return scores.filter(deal__pending=False) if public else scores


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
    sheets = visible_sheets_of(tournaments, public=public)
    sheet_info = {
        row["id"]: row
        for row in sheets.values(
            "id", "tournament_id", "table__number", "table__position__number"
        ).annotate(size=Count("players"))
    }
    # The sheets' ids as a list rather than a subquery: inside a test transaction PostgreSQL
    # has no statistics, guessed one row and nested-looped the subquery per seat (34 s for a
    # season of 12 tournaments); a list of ids is planned as an index lookup whatever the stats.
    sheet_ids = list(sheet_info)
    seats: dict[int, list[int]] = defaultdict(list)
    for sheet_id, registration_id in (
        SheetPlayer.objects.filter(sheet_id__in=sheet_ids)
        .order_by("sheet_id", "seat")
        .values_list("sheet_id", "registration_id")
    ):
        seats[sheet_id].append(registration_id)
    bilans: dict[tuple[int, int], tuple[int, int]] = {
        (row["deal__sheet_id"], row["registration_id"]): (row["points"], row["deals"])
        for row in counted_scores(sheet_ids, public=public)
        .values("deal__sheet_id", "registration_id")
        .annotate(points=Sum("points"), deals=Count("id"))
        .order_by()
    }
    incidents: dict[int, list[dict]] = defaultdict(list)
    for incident in (
        Incident.objects.filter(tournament_id__in=by_id, penalty_points__gt=0)
        .filter(Q(sheet__isnull=True) | Q(sheet_id__in=sheet_ids))
        .values("tournament_id", "registration_id", "sheet_id", "penalty_points", "shared")
    ):
        incidents[incident["tournament_id"]].append(incident)
    registrations: dict[int, list[Registration]] = defaultdict(list)
    # Pre-registered online but never checked in: they did not come, so they are not ranked.
    for registration in (
        Registration.objects.filter(tournament_id__in=by_id)
        .exclude(status=Registration.Status.EXPECTED)
        .select_related("player", "team")
    ):
        registrations[registration.tournament_id].append(registration)
    sheets_of: dict[int, dict[int, list[int]]] = defaultdict(dict)
    for sheet_id, players in seats.items():
        info = sheet_info.get(sheet_id)
        if info is not None:
            sheets_of[info["tournament_id"]][sheet_id] = players
    return {
        pk: _assemble(
            tournament,
            public=public,
            sheet_info=sheet_info,
            seats=sheets_of.get(pk, {}),
            bilans=bilans,
            incidents=incidents.get(pk, []),
            registrations=registrations.get(pk, []),
        )
        for pk, tournament in by_id.items()
    }


def _assemble(
    tournament: Tournament,
    *,
    public: bool,
    sheet_info: dict[int, dict],
    seats: dict[int, list[int]],
    bilans: dict[tuple[int, int], tuple[int, int]],
    incidents: list[dict],
    registrations: list[Registration],
) -> Standings:
    """One tournament's standings from the rows loaded for it (no query)."""
    normalised = tournament.normalise_tables
    deals_by_size = {
        3: tournament.deals_per_table_3,
        4: tournament.deals_per_table_4,
        5: tournament.deals_per_table_5,
    }
    factors = {size: ranking.normalisation_factor(size, deals_by_size) for size in (3, 4, 5)}

    penalties_by_position: dict[int | None, list[Penalty]] = defaultdict(list)
    charged: dict[tuple[int | None, int], int] = defaultdict(int)
    for incident in incidents:
        if incident["registration_id"] is None:
            continue
        sheet_id = incident["sheet_id"]
        number = _position_number(sheet_info.get(sheet_id)) if sheet_id else None
        penalties_by_position[number].append(
            Penalty(
                culprit=incident["registration_id"],
                points=incident["penalty_points"],
                shared=incident["shared"],
                table=tuple(seats.get(sheet_id, ())),
            )
        )
        charged[(number, incident["registration_id"])] += incident["penalty_points"]
    adjustments = {
        number: penalty_adjustments(penalties)
        for number, penalties in penalties_by_position.items()
    }

    rows: dict[int, ranking.PlayerRow] = {}
    for registration in registrations:
        rows[registration.pk] = ranking.PlayerRow(
            key=registration.pk,
            name=registration.player.full_name,
            number=registration.number,
            club=registration.player.club,
            licence=registration.player.licence or "",
            team=registration.team.name if registration.team else "",
            team_key=registration.team_id,
        )

    table_bilans: dict[int, dict[int, int]] = {
        sheet_id: {reg: bilans.get((sheet_id, reg), (0, 0))[0] for reg in players}
        for sheet_id, players in seats.items()
    }
    # A table with no deal yet has no winner (everybody would tie at zero).
    played = {sheet_id for sheet_id, _registration in bilans if sheet_id in seats}
    winners = ranking.mark_table_winners(
        {sheet_id: b for sheet_id, b in table_bilans.items() if sheet_id in played}
    )
    positions: set[int] = set()
    for sheet_id, players in seats.items():
        info = sheet_info.get(sheet_id)
        if info is None:
            continue
        number = _position_number(info)
        positions.add(number)
        size = info["size"]
        for registration_id in players:
            row = rows.get(registration_id)
            if row is None:
                continue
            raw, deals = bilans.get((sheet_id, registration_id), (0, 0))
            points = ranking.scale(raw, factors[size]) if normalised and size in factors else raw
            result = ranking.PositionResult(
                position=number,
                table=info["table__number"],
                table_size=size,
                points=points,
                raw_points=raw,
                deals=deals,
                won_table=(sheet_id, registration_id) in winners,
                penalty=adjustments.get(number, {}).get(registration_id, 0),
                penalty_charged=charged.get((number, registration_id), 0),
            )
            previous = row.results.get(number)
            row.results[number] = _merge(previous, result) if previous else result

    for deltas in adjustments.values():
        for registration_id, delta in deltas.items():
            if registration_id in rows:
                rows[registration_id].penalty += delta
    for (_number, registration_id), points in charged.items():
        if registration_id in rows:
            rows[registration_id].penalties_charged += points

    criteria = ranking.criteria_for(tournament.tie_breaks or ())
    players = ranking.rank(rows.values(), criteria)
    teams = ranking.rank(
        ranking.group(rows.values(), key=lambda r: r.team_key, label=lambda r: r.team),
        criteria,
    )
    clubs = ranking.rank(
        ranking.group(rows.values(), key=lambda r: r.club or None, label=lambda r: r.club),
        criteria,
    )
    return Standings(
        tournament=tournament,
        criteria=criteria,
        normalised=normalised,
        public=public,
        positions=sorted(positions),
        players=players,
        teams=teams,
        clubs=clubs,
        rows_by_key=rows,
        factors=factors if normalised else {},
        registrations={registration.pk: registration for registration in registrations},
    )


def _position_number(info: dict | None) -> int:
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
    )


def standings_fingerprint(tournament: Tournament) -> str:
    """A token that changes whenever a public ranking could change, in one cheap query.

    Deal writes bump their sheet's version (without touching `updated_at`), so the sum of
    versions moves on every record, correction and delete.
    """

    def sub(queryset: QuerySet, expression) -> Subquery:
        return Subquery(
            queryset.filter(tournament=OuterRef("pk"))
            .order_by()
            .values("tournament")
            .annotate(value=expression)
            .values("value")[:1]
        )

    row = (
        Tournament.objects.filter(pk=tournament.pk)
        .annotate(
            fp_sheets=sub(ScoreSheet.objects.all(), Count("id")),
            fp_versions=sub(ScoreSheet.objects.all(), Sum("version")),
            fp_sheets_at=sub(ScoreSheet.objects.all(), Max("updated_at")),
            fp_incidents=sub(Incident.objects.all(), Count("id")),
            fp_penalties=sub(Incident.objects.all(), Sum("penalty_points")),
            fp_last_incident=sub(Incident.objects.all(), Max("id")),
            fp_positions=sub(Position.objects.exclude(status=Position.Status.DRAFT), Count("id")),
            fp_published_at=sub(Position.objects.all(), Max("published_at")),
            fp_registrations=sub(Registration.objects.all(), Count("id")),
        )
        .values(
            "updated_at",
            "fp_sheets",
            "fp_versions",
            "fp_sheets_at",
            "fp_incidents",
            "fp_penalties",
            "fp_last_incident",
            "fp_positions",
            "fp_published_at",
            "fp_registrations",
        )
        .first()
    )
    digest = hashlib.sha256(repr(row).encode()).hexdigest()[:20]
    return digest


def player_deals(tournament: Tournament, registration: Registration, *, public: bool) -> dict:
    """Every deal a player played, by position, with the running total and their penalties."""
    sheets = visible_sheets(tournament, public=public)
    scores = list(
        counted_scores(sheets, public=public)
        .filter(registration=registration)
        .select_related("deal__sheet__table__position")
        .order_by("deal__sheet__table__position__number", "deal__sheet_id", "deal__number")
    )
    sheet_ids = {score.deal.sheet_id for score in scores}
    names: dict[tuple[int, int], str] = {
        (sp.sheet_id, sp.seat): sp.registration.player.full_name
        for sp in SheetPlayer.objects.filter(sheet_id__in=sheet_ids).select_related(
            "registration__player"
        )
    }
    incidents = list(
        visible_incidents(tournament, sheets)
        .filter(registration=registration)
        .select_related("sheet__table__position")
        .order_by("created_at")
    )
    running = 0
    lines = []
    for score in scores:
        deal: Deal = score.deal
        running += score.points
        table = deal.sheet.table
        lines.append(
            {
                "position": table.position.number if table else FREE_SHEETS,
                "table": table.number if table else None,
                "deal": deal,
                "role": _role(deal, score.seat),
                "taker": names.get((deal.sheet_id, deal.taker), "")
                if deal.taker is not None
                else "",
                "partner": (
                    names.get((deal.sheet_id, deal.partner), "") if deal.partner is not None else ""
                ),
                "points": score.points,
                "running": running,
            }
        )
    return {"lines": lines, "incidents": incidents, "deal_total": running}


def _role(deal: Deal, seat: int) -> str:
    if deal.passed or deal.cancelled:
        return ""
    if seat == deal.taker:
        return "taker"
    if seat == deal.partner:
        return "partner"
    if seat == deal.dead:
        return "dead"
    return "defence"
