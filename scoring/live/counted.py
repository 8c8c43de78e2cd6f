"""What the rankings and statistics read: the visible sheets, the counted incidents, one
player's counted deals.

Which deals count is scoring.counting's one rule (`Deal.objects.counted()`, `counted_sql` in the
plain reads here), the same for every audience. Which tournaments and sheets the public sees is
answered here and nowhere else, for every public read (pages, hall screen, championships, PDF
and XLSX, statistics): public tournaments only (`public_tournaments`, `PUBLIC_TOURNAMENTS`
re-exported), sheets of positions that are not drafts, validated ones only where the organiser
chose `public_requires_validation` (`visible_sheets_of`). The arbiter sees every sheet.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Model, Q, QuerySet

from scoring.models import Deal, DealScore, Incident, ScoreSheet, SheetPlayer
from tournament.access.permissions import PUBLIC_TOURNAMENTS as PUBLIC_TOURNAMENTS
from tournament.models import Player, Position, Registration, Table, Tournament

# Sheets outside the seating plan (a club evening) have no position; they are ranked as this.
FREE_SHEETS = 0


def public_tournaments(tournaments: Iterable[Tournament]) -> list[Tournament]:
    """The tournaments among these whose results the public may see (PUBLIC_TOURNAMENTS, the
    access module's rule, for tournaments already read)."""
    return [t for t in tournaments if t.is_public]


def visible_sheets(tournament: Tournament, *, public: bool) -> QuerySet[ScoreSheet]:
    """The sheets whose deals count: all for the arbiter, only published ones for the public."""
    return visible_sheets_of([tournament], public=public)


def visible_sheets_of(tournaments: Sequence[Tournament], *, public: bool) -> QuerySet[ScoreSheet]:
    """The same rule over several tournaments: for the public, sheets of published positions,
    and only validated ones where the organiser asked for that."""
    sheets = ScoreSheet.objects.filter(tournament_id__in=[t.pk for t in tournaments])
    return sheets.filter(visible_sheet_rule(tournaments, public=public)) if public else sheets


def visible_sheet_rule(tournaments: Sequence[Tournament], *, public: bool) -> Q:
    """visible_sheets_of's rule as a condition on a sheet: for the public, a table's sheet of a
    position that is not a draft, validated where the organiser asked for that. The card's
    plain SQL reads ask the same rule as _visible_sheet_sql (tests assert both agree)."""
    if not public:
        return Q()
    rule = Q(table__isnull=False) & ~Q(table__position__status=Position.Status.DRAFT)
    validated_only = [t.pk for t in tournaments if t.public_requires_validation]
    if validated_only:
        rule &= ~(Q(tournament_id__in=validated_only) & ~Q(status=ScoreSheet.Status.VALIDATED))
    return rule


def _visible_sheet_sql(tournament: Tournament) -> tuple[str, list[Any]]:
    """visible_sheet_rule for the public, in plain SQL over the aliases `s` (the sheet) and `p`
    (its table's position): with its parameters. A sheet of no table has no position, so it
    fails `p.status <> %s` (NULL) even where `p` is left joined."""
    q = connection.ops.quote_name
    sql = f"p.{q('status')} <> %s"
    params: list[Any] = [Position.Status.DRAFT.value]
    if tournament.public_requires_validation:
        sql += f" AND s.{q('status')} = %s"
        params.append(ScoreSheet.Status.VALIDATED.value)
    return sql, params


def visible_incidents(tournament: Tournament, sheets: QuerySet[ScoreSheet]) -> QuerySet[Incident]:
    return Incident.objects.filter(tournament=tournament, penalty_points__gt=0).filter(
        Q(sheet__isnull=True) | Q(sheet__in=sheets)
    )


# What player_counted_deals reads, in order: each column as `alias.column`, and after a colon
# the name it is read under (PLAYER_DEAL_COLUMNS) where that is not the column's own.
_PLAYER_DEAL_SELECT = (
    "ds.points ds.seat d.sheet_id:sheet d.number d.passed d.cancelled d.taker d.partner d.dead "
    "d.contract d.oudlers d.points:deal_points d.adjusted d.adjustment_reason tb.number:table "
    "p.number:position tkp.last_name:taker_last tkp.first_name:taker_first "
    "ptp.last_name:partner_last ptp.first_name:partner_first"
).split()
PLAYER_DEAL_COLUMNS = tuple(c.split(":")[-1].split(".")[-1] for c in _PLAYER_DEAL_SELECT)


def player_counted_deals(tournament: Tournament, registration_id: int) -> list[tuple[Any, ...]]:
    """One player's deals that the public sees (the counted rule and visible_sheets': a
    confirmed deal, on a table's sheet of a position that is not a draft, validated if the
    organiser asked for that), by position, sheet and number, with the taker's and partner's
    names: PLAYER_DEAL_COLUMNS. Read through the player's own rows only, in one plain SQL
    statement (a player's card asks it at every change of the standings: through the ORM,
    building its joins cost more than running them)."""
    visible, params = _visible_sheet_sql(tournament)
    counted, counted_params = Deal.objects.counted_sql("d")
    sql = _player_deals_sql(f"{counted} AND {visible}")
    with connection.cursor() as cursor:
        cursor.execute(sql, [registration_id, tournament.pk, *counted_params, *params])
        return cursor.fetchall()


def _player_deals_sql(condition: str) -> str:
    q = connection.ops.quote_name

    def table(model: type[Model]) -> str:
        return q(model._meta.db_table)

    def named(alias: str, seat: str) -> str:
        """Joins to the name of whoever sat at `seat` of the deal's sheet."""
        return (
            f"LEFT JOIN {table(SheetPlayer)} {alias} ON {alias}.{q('sheet_id')} = d.{q('sheet_id')}"
            f" AND {alias}.{q('seat')} = d.{q(seat)} "
            f"LEFT JOIN {table(Registration)} {alias}r ON {alias}r.{q('id')} = "
            f"{alias}.{q('registration_id')} "
            f"LEFT JOIN {table(Player)} {alias}p ON {alias}p.{q('id')} = "
            f"{alias}r.{q('player_id')} "
        )

    columns = (c.split(":")[0].split(".") for c in _PLAYER_DEAL_SELECT)
    return (
        f"SELECT {', '.join(f'{alias}.{q(column)}' for alias, column in columns)} "
        f"FROM {table(DealScore)} ds "
        f"JOIN {table(Deal)} d ON d.{q('id')} = ds.{q('deal_id')} "
        f"JOIN {table(ScoreSheet)} s ON s.{q('id')} = d.{q('sheet_id')} "
        f"JOIN {table(Table)} tb ON tb.{q('id')} = s.{q('table_id')} "
        f"JOIN {table(Position)} p ON p.{q('id')} = tb.{q('position_id')} "
        f"{named('tk', 'taker')}{named('pt', 'partner')}"
        f"WHERE ds.{q('registration_id')} = %s AND s.{q('tournament_id')} = %s "
        f"AND {condition} "
        f"ORDER BY p.{q('number')}, d.{q('sheet_id')}, d.{q('number')}"
    )


def player_counted_penalties(tournament: Tournament, registration_id: int) -> list[tuple[Any, ...]]:
    """One player's penalties that the public sees (visible_incidents' rule: of no sheet, or of
    a visible one), in order of entry: (id, kind, points, shared, decision, position, table)
    (both None for a penalty of no table). In one plain SQL statement, as player_counted_deals."""
    q = connection.ops.quote_name
    i, s, tb, p = (f"{q(m._meta.db_table)}" for m in (Incident, ScoreSheet, Table, Position))
    visible, params = _visible_sheet_sql(tournament)
    sql = (
        f"SELECT i.{q('id')}, i.{q('kind')}, i.{q('penalty_points')}, i.{q('shared')}, "
        f"i.{q('decision')}, p.{q('number')}, tb.{q('number')} FROM {i} i "
        f"LEFT JOIN {s} s ON s.{q('id')} = i.{q('sheet_id')} "
        f"LEFT JOIN {tb} tb ON tb.{q('id')} = s.{q('table_id')} "
        f"LEFT JOIN {p} p ON p.{q('id')} = tb.{q('position_id')} "
        f"WHERE i.{q('tournament_id')} = %s AND i.{q('registration_id')} = %s "
        f"AND i.{q('penalty_points')} > 0 "
        f"AND (i.{q('sheet_id')} IS NULL OR ({visible})) "
        f"ORDER BY i.{q('created_at')}, i.{q('id')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament.pk, registration_id, *params])
        return cursor.fetchall()


def player_deals(
    tournament: Tournament, registration: Registration, *, public: bool
) -> dict[str, Any]:
    """Every deal a player played, by position, with the running total and their penalties."""
    sheets = visible_sheets(tournament, public=public)
    scores = list(
        DealScore.objects.counted()
        .filter(deal__sheet__in=sheets, registration=registration)
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
                "role": deal_role(
                    score.seat,
                    (deal.taker, deal.partner, deal.dead),
                    played=not (deal.passed or deal.cancelled),
                ),
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


def deal_role(seat: int, roles: tuple[int | None, int | None, int | None], *, played: bool) -> str:
    """The seat's role on a deal, from its (taker, partner, dead) seats: "taker", "partner",
    "dead" or "defence"; "" on a deal not played (passed or cancelled). Takes seat numbers, not
    a Deal, so that the card's plain rows ask it as player_deals' models do."""
    if not played:
        return ""
    taker, partner, dead = roles
    if seat == taker:
        return "taker"
    if seat == partner:
        return "partner"
    if seat == dead:
        return "dead"
    return "defence"
