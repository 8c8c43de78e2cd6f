"""Reads the deal rows the statistics count (scoring.core.statistics) in a fixed number of queries.

What counts is what the rankings count: the sheets given (scoring.live.counted's: for the public,
only sheets of published or closed positions, validated ones when the organiser asked for it;
for the arbiter, every sheet), and of them only the deals scoring.counting's one rule counts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence

from django.db.models import Q, QuerySet

from scoring.core.engine_fields import ENGINE_FIELDS
from scoring.core.statistics import DealRecord, PenaltyRecord
from scoring.live.counted import FREE_SHEETS
from scoring.models import Deal, Incident, ScoreSheet, SheetPlayer
from tournament.models import Tournament

# How a deal's players are keyed: by registration (one tournament) or by roster player.
BY_REGISTRATION = "registration_id"
BY_PLAYER = "registration__player_id"

DEAL_FIELDS = (
    "sheet_id",
    "sheet__tournament_id",
    "sheet__table__position__number",
    "passed",
    "cancelled",
    *ENGINE_FIELDS,
    "rule_set",
    "scores",
)
# What a DealRecord takes as stored: the flags, the rule set and the engine's inputs but those
# converted on the way (and the table size, which the record's seats say).
CONVERTED = ("players", "points", "poignees", "petit_au_bout", "chelem")
AS_STORED = (
    "passed",
    "cancelled",
    "rule_set",
    *(name for name in ENGINE_FIELDS if name not in CONVERTED),
)


def deal_records(sheets: QuerySet[ScoreSheet], *, key: str = BY_REGISTRATION) -> list[DealRecord]:
    """Every counted deal of these sheets, its round being (tournament id, position number);
    two queries whatever the number of sheets."""
    seats: dict[int, dict[int, Hashable]] = defaultdict(dict)
    for sheet_id, seat, player in SheetPlayer.objects.filter(sheet__in=sheets).values_list(
        "sheet_id", "seat", key
    ):
        seats[sheet_id][seat] = player
    records = []
    for values in (
        Deal.objects.counted()
        .filter(sheet__in=sheets)
        .order_by(
            "sheet__tournament__date",
            "sheet__tournament_id",
            "sheet__table__position__number",
            "sheet_id",
            "number",
        )
        .values_list(*DEAL_FIELDS)
    ):
        row = dict(zip(DEAL_FIELDS, values, strict=True))
        at_table = seats.get(row["sheet_id"], {})
        position = row["sheet__table__position__number"]
        records.append(
            DealRecord(
                seats=tuple(at_table.get(seat) for seat in range(row["players"])),
                scores=tuple(row["scores"] or ()),
                round=(row["sheet__tournament_id"], FREE_SHEETS if position is None else position),
                points=float(row["points"]) if row["points"] is not None else None,
                poignees=tuple((seat, size) for seat, size in row["poignees"] or ()),
                petit_au_bout=row["petit_au_bout"] or None,
                chelem=row["chelem"] or None,
                **{name: row[name] for name in AS_STORED},
            )
        )
    return records


def penalty_records(
    tournaments: Sequence[Tournament],
    sheets: QuerySet[ScoreSheet],
    *,
    key: str = BY_REGISTRATION,
    player: int | None = None,
) -> dict[int, list[PenaltyRecord]]:
    """Penalty points charged on the counted sheets (or on no sheet), by tournament id; only
    one roster player's when `player` is given. One query."""
    incidents = Incident.objects.filter(
        tournament_id__in=[t.pk for t in tournaments],
        penalty_points__gt=0,
        registration__isnull=False,
    ).filter(Q(sheet__isnull=True) | Q(sheet__in=sheets))
    if player is not None:
        incidents = incidents.filter(registration__player_id=player)
    found: dict[int, list[PenaltyRecord]] = defaultdict(list)
    for tournament_id, who, points in incidents.values_list("tournament_id", key, "penalty_points"):
        found[tournament_id].append(PenaltyRecord(player=who, points=points))
    return found
