"""The thin layer joining the scoring engine to the database: every write of a sheet goes here.

Each write runs in one transaction, checks the sheet's version (optimistic concurrency: two
people editing the same sheet never silently overwrite each other), stores the per-seat result
and leaves a ChangeLog record with the state before and after.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from scoring.engine import Deal as EngineDeal
from scoring.engine import DealError, score_deal
from scoring.figures import FIGURE, figure_scores
from scoring.models import Deal, DealScore, ScoreSheet, SheetPlayer
from scoring.penalties import default_penalty
from scoring.rules import RULE_SETS
from tournament.audit import change_record
from tournament.lifecycle import Locked, ensure_position_open, ensure_tournament_open
from tournament.models import (
    DIRECTIONS,
    ChangeLog,
    Position,
    Registration,
    Table,
    Tournament,
    seat_code,
)

# The engine's Deal fields are the contract: read them from it rather than listing them again.
ENGINE_FIELDS = tuple(field.name for field in dataclasses.fields(EngineDeal))


class StaleSheetError(Exception):
    """The sheet changed since the editor loaded it; nothing was written."""

    def __init__(self, sheet: ScoreSheet, expected: int | None):
        self.sheet = sheet
        self.expected = expected
        super().__init__(
            _("La feuille a été modifiée par quelqu'un d'autre (version %(current)s).")
            % {"current": sheet.version}
        )


def deal_snapshot(deal: Deal) -> dict[str, Any]:
    """A JSON-ready picture of a deal for the history."""
    data = deal.engine_input()
    data.update(
        number=deal.number,
        dealer=deal.dealer,
        passed=deal.passed,
        cancelled=deal.cancelled,
        arbiter_called=deal.arbiter_called,
        scores=list(deal.scores),
        adjusted=deal.adjusted,
        adjustment_reason=deal.adjustment_reason,
        score_not_recorded=deal.score_not_recorded,
    )
    if deal.alone:
        # Only when known: older pictures have no such key, and "" would read as a change.
        data["alone"] = deal.alone
    if deal.is_figure_only:
        data[FIGURE] = deal_figure(deal)
    if deal.client_id:
        data.update(
            pending=deal.pending,
            entered_by_player=deal.entered_by_player_id,
            confirmed_by_player=deal.confirmed_by_player_id,
        )
    return data


def sheet_for_table(*, table: Table) -> ScoreSheet:
    """The table's sheet, created on first use with the players in their seats."""
    sheet = ScoreSheet.objects.filter(table=table).first()
    if sheet is not None:
        return sheet
    with transaction.atomic():
        sheet, created = ScoreSheet.objects.get_or_create(
            table=table, defaults={"tournament_id": table.position.tournament_id}
        )
        if created:
            seats = sorted(table.seats.select_related("registration"), key=lambda s: s.index)
            SheetPlayer.objects.bulk_create(
                SheetPlayer(
                    sheet=sheet,
                    registration=seat.registration,
                    seat=index,
                    direction=seat.direction,
                    start_label=start_label(seat.registration),
                )
                for index, seat in enumerate(seats)
            )
    return sheet


def start_label(registration: Registration) -> str:
    """How FFT sheets name a player: table and direction at the first position played.

    Stored in no language (`seat_code`); pages print it with `start_display`.
    """
    first = (
        registration.seats.select_related("table__position")
        .order_by("table__position__number")
        .first()
    )
    if first is None:
        return str(registration.number)
    return seat_code(first.table.number, first.direction)


def sheet_create_free(
    *,
    tournament: Tournament,
    registrations: Sequence[Registration],
    title: str = "",
    user=None,
) -> ScoreSheet:
    """A sheet without a seating plan: any 3 to 5 registered players (a club evening)."""
    ensure_tournament_open(tournament)
    if not 3 <= len(registrations) <= 5:
        raise ValueError("a sheet needs 3 to 5 players")
    if len({r.pk for r in registrations}) != len(registrations):
        raise ValueError("a player appears twice on the sheet")
    with transaction.atomic():
        sheet = ScoreSheet.objects.create(tournament=tournament, title=title)
        SheetPlayer.objects.bulk_create(
            SheetPlayer(
                sheet=sheet,
                registration=registration,
                seat=index,
                direction=DIRECTIONS[index],
                start_label=str(registration.number),
            )
            for index, registration in enumerate(registrations)
        )
        change_record(
            tournament=tournament,
            obj=sheet,
            kind=ChangeLog.ObjectType.SHEET,
            sheet=sheet,
            action=ChangeLog.Action.CREATE,
            after={"title": title, "players": [r.pk for r in registrations]},
            user=user,
        )
    return sheet


def deal_figure(deal: Deal) -> int | None:
    """The taker's figure of a deal typed from the FFT sheet (as computed, before adjustments)."""
    if not deal.is_figure_only:
        return None
    row = deal.computed_scores or deal.scores
    return row[deal.taker] if deal.taker < len(row) else None


def compute_scores(data: dict[str, Any], rule_set: str = "fft") -> list[int]:
    """Score a deal's inputs with the engine (raises DealError on impossible input).

    A deal typed from the FFT sheet carries the taker's figure instead of the card fields: its
    row follows from the figure, once the engine agrees a real deal of that contract gives it.
    """
    if data.get("passed") or data.get("cancelled"):
        return [0] * data["players"]
    if data.get(FIGURE) is not None:
        return list(
            figure_scores(
                players=data["players"],
                taker=data.get("taker"),
                partner=data.get("partner"),
                dead=data.get("dead"),
                contract=data.get("contract"),
                figure=data[FIGURE],
                rules=RULE_SETS[rule_set],
            )
        )
    obj = {name: data.get(name) for name in ENGINE_FIELDS}
    obj["poignees"] = [list(p) for p in obj.get("poignees") or []]
    obj["chelem_announced"] = bool(obj.get("chelem_announced"))
    if isinstance(obj.get("points"), Decimal):
        obj["points"] = float(obj["points"])
    result = score_deal(EngineDeal(**obj), rules=RULE_SETS[rule_set])
    return list(result.scores)


def _bump_version(sheet: ScoreSheet, expected: int | None, *, validating: bool = False) -> None:
    """Compare-and-swap on the sheet's version, refused on a locked sheet.

    The UPDATE's conditions are on the sheet row itself (version, status), so that a database
    re-checks them after waiting for a concurrent writer's row lock (PostgreSQL does not
    re-check a subquery). Closing a position or finishing a tournament bumps the versions of
    their sheets, so a save racing with them fails the version check; the position and
    tournament are then read under this row lock. Raises Locked or StaleSheetError;
    `validating` lets the arbiter's (un)validation through a validated sheet.
    """
    rows = ScoreSheet.objects.filter(pk=sheet.pk)
    if expected is not None:
        rows = rows.filter(version=expected)
    if not validating:
        rows = rows.exclude(status=ScoreSheet.Status.VALIDATED)
    if rows.update(version=F("version") + 1) != 1:
        sheet.refresh_from_db(fields=["version", "status"])
        ensure_sheet_writable(sheet, validating=validating)
        raise StaleSheetError(sheet, expected)
    # Raises Locked inside the caller's transaction, which then rolls the bump back.
    ensure_sheet_writable(sheet, validating=True)
    sheet.version = (expected if expected is not None else sheet.version) + 1


def ensure_sheet_writable(sheet: ScoreSheet, *, validating: bool = False) -> None:
    """Raise Locked when the sheet, its position or its tournament refuses changes."""
    tournament = Tournament.objects.get(pk=sheet.tournament_id)
    ensure_tournament_open(tournament)
    if sheet.table_id is not None:
        position = Position.objects.select_related("tournament").get(tables__pk=sheet.table_id)
        ensure_position_open(position)
    if not validating and sheet.status == ScoreSheet.Status.VALIDATED:
        raise Locked(
            _("Cette feuille est validée : un arbitre doit la dévalider avant toute modification."),
            code="validated",
        )


# Desk fields of a deal besides the engine's; any other key is refused. "alone" says why a
# taker at 5 with a called king has no partner (Deal.Alone); the engine does not need it.
DESK_FIELDS = ("dealer", "passed", "cancelled", "arbiter_called", "alone")
# A deal typed from the FFT sheet gives the taker's figure instead of the card fields.
FIGURE_FIELDS = (FIGURE,)
CARD_FIELDS = ("oudlers", "points", "poignees", "petit_au_bout", "chelem_announced", "chelem")
MAX_DEAL_KEYS = len(ENGINE_FIELDS) + len(DESK_FIELDS) + len(FIGURE_FIELDS)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def deal_input_check(data: Any, sheet: ScoreSheet) -> dict[str, Any]:
    """The desk's checks on a deal's input before the engine's: shape, types, the sheet's seats.

    The number of players always comes from the sheet. Raises DealError naming the field; the
    form, the API and the restore all pass here, then through the engine.
    """
    if not isinstance(data, dict):
        raise DealError("deal", _("Donne : un objet est attendu."))
    for key in data:
        if key not in ENGINE_FIELDS and key not in DESK_FIELDS and key not in FIGURE_FIELDS:
            raise DealError(str(key)[:40], _("Champ inconnu : %(name)s."), {"name": str(key)[:40]})
    players = sheet_players_count(sheet)
    given = data.get("players", players)
    if not _is_int(given) or given != players:
        raise DealError(
            "players",
            _("Cette feuille compte %(players)s joueurs."),
            {"players": players},
        )
    for key in ("passed", "cancelled", "arbiter_called"):
        if key in data and not isinstance(data[key], bool):
            raise DealError(key, _("%(name)s : vrai ou faux attendu."), {"name": key})
    dealer = data.get("dealer")
    if dealer is not None and (not _is_int(dealer) or not 0 <= dealer < players):
        raise DealError(
            "dealer",
            _("Le donneur doit être une place de la table (0 à %(last)s)."),
            {"last": players - 1},
        )
    _check_figure_input(data)
    clean = dict(data, players=players)
    game = _table_game(sheet)
    clean["alone"] = _check_alone(data, players, game)
    if game == Table.Game.FIVE_DEAD:
        # The dealer sits out: the mort is the dealer, whatever the body says.
        if dealer is None:
            raise DealError("dealer", _("À une table de 5 avec un mort, indiquez le donneur."))
        clean["dead"] = dealer
    elif data.get("dead") is not None:
        raise DealError("dead", _("Il n'y a pas de mort à cette table."))
    return clean


def _check_alone(data: dict[str, Any], players: int, game: str | None) -> str:
    """Why the taker plays alone: only at a table of 5 with a called king, and without partner.

    Left out or blank, the reason is not known (as on deals typed before it was recorded).
    """
    alone = data.get("alone")
    if alone is None or alone == "":
        return ""
    if not isinstance(alone, str) or alone not in Deal.Alone.values:
        raise DealError(
            "alone",
            _(
                "Seul : %(value)s n'est pas une réponse possible (« dog » : roi au chien, "
                "« self » : appelé soi-même, ou vide)."
            ),
            {"value": str(alone)[:40]},
        )
    if data.get("passed") or data.get("cancelled"):
        return ""  # no taker: nothing to say, as for the other fields of such a deal
    if players != 5 or game == Table.Game.FIVE_DEAD:
        raise DealError(
            "alone",
            _("Seul (roi au chien, appelé soi-même) : seulement à une table de 5 avec roi appelé."),
        )
    if data.get("partner") is not None:
        raise DealError(
            "alone",
            _(
                "Seul (roi au chien, appelé soi-même) : le preneur a un partenaire ; laisser ce "
                "champ vide, ou ne pas indiquer de partenaire."
            ),
        )
    return alone


def _check_figure_input(data: dict[str, Any]) -> None:
    """A figure stands for the card fields: a deal gives one or the other, never both."""
    figure = data.get(FIGURE)
    if figure is None:
        return
    if not _is_int(figure):
        raise DealError(
            FIGURE,
            _("Chiffre du preneur : %(value)s n'est pas un nombre entier."),
            {"value": str(figure)[:40]},
        )
    if data.get("passed") or data.get("cancelled"):
        raise DealError(FIGURE, _("Chiffre du preneur : une donne passée ou annulée n'en a pas."))
    for key in CARD_FIELDS:
        value = data.get(key)
        if value is not None and (key in ("oudlers", "points") or value):
            raise DealError(
                key,
                _(
                    "Une donne saisie par le chiffre du preneur (feuille FFT) ne porte ni bouts, "
                    "ni points, ni primes : %(name)s est en trop."
                ),
                {"name": key},
            )


def sheet_players_count(sheet: ScoreSheet) -> int:
    count = getattr(sheet, "_players_count", None)
    if count is None:
        count = sheet.players.count()
        sheet._players_count = count
    return count


def _table_game(sheet: ScoreSheet) -> str | None:
    if sheet.table_id is None:
        return None
    return Table.objects.filter(pk=sheet.table_id).values_list("game", flat=True).first()


def _check_room(sheet: ScoreSheet) -> None:
    """A table's sheet holds its deals per table, plus the extras the arbiter allowed."""
    if sheet.table_id is None:
        return
    row = ScoreSheet.objects.filter(pk=sheet.pk).values("extra_deals").first() or {}
    tournament = Tournament.objects.get(pk=sheet.tournament_id)
    allowed = tournament.deals_for_table_size(sheet_players_count(sheet)) + row.get(
        "extra_deals", 0
    )
    if sheet.deals.count() >= allowed:
        raise DealError(
            "number",
            _(
                "Cette feuille a déjà ses %(allowed)s donnes. Un arbitre peut autoriser une "
                "donne supplémentaire."
            ),
            {"allowed": allowed},
        )


def _apply_inputs(deal: Deal, data: dict[str, Any]) -> None:
    passed = bool(data.get("passed"))
    cancelled = bool(data.get("cancelled"))
    deal.passed = passed
    deal.cancelled = cancelled
    deal.players = data["players"]
    deal.dealer = data.get("dealer")
    deal.arbiter_called = bool(data.get("arbiter_called"))
    deal.dead = data.get("dead")
    if passed or cancelled:
        deal.taker = deal.partner = deal.oudlers = deal.points = None
        deal.contract = deal.petit_au_bout = deal.chelem = deal.alone = ""
        deal.poignees = []
        deal.chelem_announced = False
        return
    deal.taker = data["taker"]
    deal.partner = data.get("partner")
    deal.alone = data.get("alone") or ""
    deal.contract = data["contract"]
    if data.get(FIGURE) is not None:
        # Typed from the FFT sheet: the card fields stay unknown, the row holds the figures.
        deal.oudlers = deal.points = None
        deal.poignees = []
        deal.petit_au_bout = deal.chelem = ""
        deal.chelem_announced = False
        return
    deal.oudlers = data["oudlers"]
    deal.points = Decimal(str(data["points"]))
    deal.poignees = [list(p) for p in data.get("poignees") or []]
    deal.petit_au_bout = data.get("petit_au_bout") or ""
    deal.chelem_announced = bool(data.get("chelem_announced"))
    deal.chelem = data.get("chelem") or ""


def _deal_write(deal: Deal, *, action: str, before: dict | None, user) -> None:
    """Save a deal, its per-player scores and the history record of the change (in the
    caller's transaction)."""
    deal.save()
    _store_scores(deal, _seat_registrations(deal.sheet))
    change_record(
        tournament=deal.sheet.tournament_id,
        obj=deal,
        sheet=deal.sheet_id,
        action=action,
        before=before,
        after=deal_snapshot(deal),
        user=user,
    )


def _store_scores(deal: Deal, seat_registrations: dict[int, int]) -> None:
    DealScore.objects.filter(deal=deal).delete()
    DealScore.objects.bulk_create(
        DealScore(deal=deal, registration_id=seat_registrations[seat], seat=seat, points=points)
        for seat, points in enumerate(deal.scores)
    )


def _seat_registrations(sheet: ScoreSheet) -> dict[int, int]:
    return dict(SheetPlayer.objects.filter(sheet=sheet).values_list("seat", "registration_id"))


# FFT (004): the culprit of a fausse donne may not bid on that deal (the same dealer deals it
# again); a defender who revoked ("renonce consommée") may not bid on the next deal.
BARRED_FAUSSE_DONNE = _(
    "%(name)s a fait une fausse donne : il ne peut pas enchérir sur cette donne."
)
BARRED_RENONCE = _(
    "%(name)s a fait une renonce en défense à la donne %(number)s : "
    "il ne peut pas enchérir sur cette donne."
)


def barring_incident(sheet: ScoreSheet, number: int, seat: int):
    """The incident that bars the player of `seat` from bidding on deal `number`, or None."""
    from django.db.models import Q

    from scoring.models import Incident

    return (
        Incident.objects.filter(
            sheet=sheet,
            registration__in=SheetPlayer.objects.filter(sheet=sheet, seat=seat).values(
                "registration_id"
            ),
        )
        .filter(
            Q(kind=Incident.Kind.FAUSSE_DONNE, deal_number=number)
            | Q(kind=Incident.Kind.RENONCE_DEFENCE, deal_number=number - 1)
        )
        .select_related("registration__player")
        .order_by("pk")
        .first()
    )


def barred_message(incident, number: int) -> tuple[str, dict[str, Any]]:
    """Why the incident's player may not bid on deal `number` (a template and its params)."""
    from scoring.models import Incident

    name = str(incident.registration.player)
    if incident.kind == Incident.Kind.FAUSSE_DONNE:
        return BARRED_FAUSSE_DONNE, {"name": name}
    return BARRED_RENONCE, {"name": name, "number": number - 1}


def _refuse_barred_taker(sheet: ScoreSheet, number: int, data: dict[str, Any]) -> None:
    """A barred player recorded as taker is refused on every path (desk, API, phones)."""
    taker = data.get("taker")
    if data.get("passed") or data.get("cancelled") or not _is_int(taker):
        return
    incident = barring_incident(sheet, number, taker)
    if incident is not None:
        raise DealError("taker", *barred_message(incident, number))


def incident_barred_taker(incident) -> Deal | None:
    """A deal already typed whose taker this new incident bars from bidding (to correct)."""
    from scoring.models import Incident

    if incident.sheet_id is None or incident.deal_number is None:
        return None
    if incident.kind == Incident.Kind.FAUSSE_DONNE:
        number = incident.deal_number
    elif incident.kind == Incident.Kind.RENONCE_DEFENCE:
        number = incident.deal_number + 1
    else:
        return None
    seat = (
        SheetPlayer.objects.filter(
            sheet_id=incident.sheet_id, registration=incident.registration_id
        )
        .values_list("seat", flat=True)
        .first()
    )
    if seat is None:
        return None
    return Deal.objects.filter(sheet_id=incident.sheet_id, number=number, taker=seat).first()


def deal_record(
    *,
    sheet: ScoreSheet,
    data: dict[str, Any],
    user=None,
    expected_version: int | None = None,
    rule_set: str | None = None,
    entered_at_table: dict[str, Any] | None = None,
) -> Deal:
    """Score and append a deal to a sheet.

    `entered_at_table` (client_id, entered_by_player) marks a deal typed on a player's phone:
    it waits for an opponent's confirmation before it counts publicly.
    """
    rule_set = rule_set or sheet.tournament.rule_set
    data = deal_input_check(data, sheet)
    scores = compute_scores(data, rule_set)
    with transaction.atomic():
        _bump_version(sheet, expected_version)
        _check_room(sheet)
        last = sheet.deals.order_by("-number").values_list("number", flat=True).first()
        _refuse_barred_taker(sheet, (last or 0) + 1, data)
        deal = Deal(sheet=sheet, number=(last or 0) + 1, rule_set=rule_set, created_by=user)
        if entered_at_table:
            deal.pending = True
            deal.client_id = entered_at_table["client_id"]
            deal.entered_by_player = entered_at_table["entered_by_player"]
        _apply_inputs(deal, data)
        deal.scores = scores
        deal.computed_scores = scores
        _deal_write(deal, action=ChangeLog.Action.CREATE, before=None, user=user)
    return deal


def deal_update(
    *, deal: Deal, data: dict[str, Any], user=None, expected_version: int | None = None
) -> Deal:
    """Correct a deal's inputs; its score is recomputed and the change recorded."""
    data = deal_input_check(data, deal.sheet)
    scores = compute_scores(data, deal.rule_set)
    with transaction.atomic():
        _bump_version(deal.sheet, expected_version)
        _refuse_barred_taker(deal.sheet, deal.number, data)
        before = deal_snapshot(deal)
        _apply_inputs(deal, data)
        deal.computed_scores = scores
        if not deal.adjusted:
            deal.scores = [0] * len(scores) if deal.score_not_recorded else scores
        _deal_write(deal, action=ChangeLog.Action.UPDATE, before=before, user=user)
    return deal


def deal_delete(*, deal: Deal, user=None, expected_version: int | None = None) -> None:
    """Remove a deal; later deals keep their numbers' order (renumbered to stay contiguous)."""
    with transaction.atomic():
        sheet = deal.sheet
        _bump_version(sheet, expected_version)
        before = deal_snapshot(deal)
        number = deal.number
        change_record(
            tournament=deal.sheet.tournament_id,
            obj=deal,
            sheet=deal.sheet_id,
            action=ChangeLog.Action.DELETE,
            before=before,
            after=None,
            user=user,
        )
        deal.delete()
        # Two-step shift avoids a transient clash on the (sheet, number) unique constraint.
        later = sheet.deals.filter(number__gt=number)
        later.update(number=F("number") + 1000)
        sheet.deals.filter(number__gt=number + 1000).update(number=F("number") - 1001)


def deal_adjust(
    *,
    deal: Deal,
    scores: Iterable[int] | None,
    reason: str,
    user=None,
    expected_version: int | None = None,
) -> Deal:
    """Replace a deal's computed row by an arbiter's score (zero-sum, reason mandatory).

    Passing scores=None removes the adjustment and restores the computed row.
    """
    with transaction.atomic():
        _bump_version(deal.sheet, expected_version)
        before = deal_snapshot(deal)
        if scores is None:
            deal.adjusted = False
            deal.adjustment_reason = ""
            deal.scores = list(deal.computed_scores)
        else:
            scores = [int(s) for s in scores]
            if len(scores) != deal.players or sum(scores) != 0:
                raise ValueError("an adjusted score must give every seat a figure summing to 0")
            if not reason.strip():
                raise ValueError("an adjusted score needs a reason")
            deal.adjusted = True
            deal.adjustment_reason = reason.strip()
            deal.scores = scores
        _deal_write(deal, action=ChangeLog.Action.UPDATE, before=before, user=user)
    return deal


def next_dealer(previous: int | None, players: int, first: int = 0) -> int:
    """The dealer of the next deal: the seat to the right of the previous dealer."""
    if previous is None:
        return first
    return (previous - 1) % players


def conflict_record(
    *, sheet: ScoreSheet, data: dict[str, Any], expected_version: int | None, user=None
) -> ChangeLog:
    """Keep a refused input (its sheet moved meanwhile) beside the state that won."""
    deals = Deal.objects.filter(sheet=sheet).order_by("number")
    return change_record(
        tournament=sheet.tournament_id,
        obj=sheet,
        kind=ChangeLog.ObjectType.SHEET,
        sheet=sheet,
        action=ChangeLog.Action.CONFLICT,
        before={
            "version": sheet.version,
            "deals": [deal_snapshot(deal) for deal in deals],
        },
        after={"expected_version": expected_version, "input": _json_ready(data)},
        user=user,
    )


def _json_ready(data: dict[str, Any]) -> dict[str, Any]:
    ready = {}
    for key, value in data.items():
        if isinstance(value, Decimal):
            value = float(value)
        ready[key] = value
    return ready


def deal_set_not_recorded(
    *, deal: Deal, not_recorded: bool, user=None, expected_version: int | None = None
) -> Deal:
    """The taker's choice after a defender's revoke and a failed contract: mark the score or not.

    Raises ValueError when the deal had no revoke in defence or the contract did not fail.
    """
    from scoring.models import Incident

    if not_recorded:
        revoke = Incident.objects.filter(
            sheet_id=deal.sheet_id,
            deal_number=deal.number,
            kind=Incident.Kind.RENONCE_DEFENCE,
        ).exists()
        failed = deal.taker is not None and deal.computed_scores[deal.taker] < 0
        if not (revoke and failed):
            raise ValueError("only a failed contract after a revoke in defence may go unrecorded")
    with transaction.atomic():
        _bump_version(deal.sheet, expected_version)
        before = deal_snapshot(deal)
        deal.score_not_recorded = not_recorded
        if not deal.adjusted:
            deal.scores = [0] * deal.players if not_recorded else list(deal.computed_scores)
        _deal_write(deal, action=ChangeLog.Action.UPDATE, before=before, user=user)
    return deal


def sheet_set_paper_bilans(
    *, sheet: ScoreSheet, bilans: Sequence[int | None] | None, user=None, expected_version=None
) -> ScoreSheet:
    """Store the bilans written on the paper sheet (by seat) for the cross-check."""
    with transaction.atomic():
        _bump_version(sheet, expected_version)
        before = sheet.paper_bilans
        sheet.paper_bilans = list(bilans) if bilans is not None else None
        ScoreSheet.objects.filter(pk=sheet.pk).update(paper_bilans=sheet.paper_bilans)
        change_record(
            tournament=sheet.tournament_id,
            obj=sheet,
            kind=ChangeLog.ObjectType.PAPER_BILANS,
            sheet=sheet,
            action=ChangeLog.Action.UPDATE,
            before={"paper_bilans": before},
            after={"paper_bilans": sheet.paper_bilans},
            user=user,
        )
    return sheet


def incident_record(
    *,
    tournament: Tournament,
    kind: str,
    registration: Registration | None,
    sheet: ScoreSheet | None = None,
    deal_number: int | None = None,
    decision: str = "",
    note: str = "",
    penalty_points: int | None = None,
    user=None,
):
    """Record a fault; default penalty from the organiser's settings; a petit sec cancels."""
    from scoring.models import Incident

    if sheet is not None:
        ensure_sheet_writable(sheet)
    else:
        ensure_tournament_open(tournament)
    if penalty_points is None:
        penalty_points = default_penalty(kind, tournament.penalty_defaults)
        if penalty_points is None:
            # Neither the organiser nor the rules give an amount: charging 0 silently would
            # hide a forgotten penalty, so the arbiter is asked for it.
            raise ValidationError({"penalty_points": missing_penalty_message(kind)})
    with transaction.atomic():
        deal = None
        if sheet is not None and deal_number is not None:
            deal = Deal.objects.filter(sheet=sheet, number=deal_number).first()
        incident = Incident.objects.create(
            tournament=tournament,
            sheet=sheet,
            deal=deal,
            deal_number=deal_number,
            registration=registration,
            kind=kind,
            decision=decision,
            note=note,
            penalty_points=penalty_points,
            shared=tournament.share_penalties and sheet is not None,
            created_by=user,
        )
        change_record(
            tournament=tournament,
            obj=incident,
            kind=ChangeLog.ObjectType.INCIDENT,
            sheet=sheet,
            action=ChangeLog.Action.CREATE,
            after=incident_snapshot(incident),
            user=user,
        )
        if kind == Incident.Kind.PETIT_SEC and deal is not None and not deal.cancelled:
            kept = (*ENGINE_FIELDS, *DESK_FIELDS)
            data = {k: v for k, v in deal_snapshot(deal).items() if k in kept}
            data["cancelled"] = True
            deal_update(deal=deal, data=data, user=user)
        elif sheet is not None:
            # Penalties change the sheet's totals: editors holding the old page must reload.
            _bump_version(sheet, None)
    return incident


def missing_penalty_message(kind: str) -> str:
    from scoring.models import Incident

    label = Incident.Kind(kind).label if kind in Incident.Kind.values else kind
    return _(
        "Points de pénalité : ni le tournoi ni le règlement ne donnent de montant pour "
        "« %(kind)s ». Indiquez le montant (0 s'il n'y a pas de pénalité)."
    ) % {"kind": label}


def incident_snapshot(incident) -> dict[str, Any]:
    return {
        "kind": incident.kind,
        "registration": incident.registration_id,
        "deal_number": incident.deal_number,
        "decision": incident.decision,
        "note": incident.note,
        "penalty_points": incident.penalty_points,
        "shared": incident.shared,
    }


def penalty_defaults_set(
    *, tournament: Tournament, defaults: dict[str, int], share: bool, user=None
) -> Tournament:
    """The organiser's default penalty per incident type, and whether penalties are shared."""
    ensure_tournament_open(tournament)
    with transaction.atomic():
        before = {
            "penalty_defaults": tournament.penalty_defaults,
            "share": tournament.share_penalties,
        }
        tournament.penalty_defaults = dict(defaults)
        tournament.share_penalties = share
        tournament.save(update_fields=["penalty_defaults", "share_penalties", "updated_at"])
        change_record(
            tournament=tournament,
            obj=tournament,
            kind=ChangeLog.ObjectType.PENALTY_DEFAULTS,
            action=ChangeLog.Action.UPDATE,
            before=before,
            after={"penalty_defaults": tournament.penalty_defaults, "share": share},
            user=user,
        )
    return tournament


def penalties_for(incidents, table_players: dict[int, list[int]]) -> list:
    """Pure-layer Penalty objects for incidents; table_players maps sheet id → registration ids."""
    from scoring.penalties import Penalty

    return [
        Penalty(
            culprit=incident.registration_id,
            points=incident.penalty_points,
            shared=incident.shared,
            table=table_players.get(incident.sheet_id, ()),
        )
        for incident in incidents
        if incident.registration_id is not None and incident.penalty_points
    ]


def penalty_totals(tournament: Tournament) -> dict[int, int]:
    """Penalty adjustment per registration id (negative for culprits), for the rankings.

    Charged penalties only take points from the culprit; shared ones (tournament setting at the
    time of the incident) give them to the other players of the culprit's sheet, zero-sum.
    """
    from scoring.models import Incident
    from scoring.penalties import penalty_adjustments

    incidents = list(
        Incident.objects.filter(tournament=tournament, penalty_points__gt=0).only(
            "registration_id", "penalty_points", "shared", "sheet_id"
        )
    )
    sheet_ids = {i.sheet_id for i in incidents if i.shared and i.sheet_id}
    table_players: dict[int, list[int]] = {}
    for sheet_id, registration_id in (
        SheetPlayer.objects.filter(sheet_id__in=sheet_ids)
        .order_by("sheet_id", "seat")
        .values_list("sheet_id", "registration_id")
    ):
        table_players.setdefault(sheet_id, []).append(registration_id)
    return penalty_adjustments(penalties_for(incidents, table_players))


def lost_by_margin_scores(deal: Deal, margin: int) -> list[int]:
    """The row of a contract the arbiter declares lost by `margin` points (e.g. taker's revoke)."""
    from scoring.engine import split_value

    if deal.taker is None or not deal.contract:
        raise ValueError("only a played deal can be declared lost")
    rules = RULE_SETS[deal.rule_set]
    value = -(rules.contract_base + margin) * rules.multipliers[deal.contract]
    shape = EngineDeal(
        players=deal.players,
        taker=deal.taker,
        contract=deal.contract,
        oudlers=0,
        points=0,
        partner=deal.partner,
        dead=deal.dead,
    )
    return list(split_value(shape, value))


def sheet_validate(
    *,
    sheet: ScoreSheet,
    validated: bool = True,
    reason: str = "",
    user=None,
    expected_version: int | None = None,
) -> ScoreSheet:
    """The arbiter accepts the sheet, or takes the acceptance back (with a reason, logged).

    A validated sheet refuses every change until it is un-validated. When the organiser
    publishes only validated sheets, validating is what puts them on the public standings.
    """
    status = ScoreSheet.Status.VALIDATED if validated else ScoreSheet.Status.IN_PROGRESS
    reason = (reason or "").strip()[:500]
    if not validated and not reason:
        raise ValidationError({"reason": _("Indiquez pourquoi vous dévalidez la feuille.")})
    with transaction.atomic():
        _bump_version(sheet, expected_version, validating=True)
        before = sheet.status
        sheet.status = status
        ScoreSheet.objects.filter(pk=sheet.pk).update(status=status)
        after: dict[str, Any] = {"status": status}
        if reason:
            after["reason"] = reason
        reopening = not validated and before == ScoreSheet.Status.VALIDATED
        change_record(
            tournament=sheet.tournament_id,
            obj=sheet,
            kind=ChangeLog.ObjectType.SHEET_STATUS,
            sheet=sheet,
            action=ChangeLog.Action.REOPEN if reopening else ChangeLog.Action.UPDATE,
            before={"status": before},
            after=after,
            user=user,
        )
    return sheet


def sheet_allow_extra_deal(
    *, sheet: ScoreSheet, user=None, expected_version: int | None = None
) -> ScoreSheet:
    """The arbiter lets a table's sheet hold one deal more than the tournament's count."""
    with transaction.atomic():
        _bump_version(sheet, expected_version)
        before = ScoreSheet.objects.values_list("extra_deals", flat=True).get(pk=sheet.pk)
        sheet.extra_deals = before + 1
        ScoreSheet.objects.filter(pk=sheet.pk).update(extra_deals=sheet.extra_deals)
        change_record(
            tournament=sheet.tournament_id,
            obj=sheet,
            kind=ChangeLog.ObjectType.SHEET_EXTRA_DEALS,
            sheet=sheet,
            action=ChangeLog.Action.UPDATE,
            before={"extra_deals": before},
            after={"extra_deals": sheet.extra_deals},
            user=user,
        )
    return sheet


def sheet_lock_message(sheet: ScoreSheet) -> str:
    """Why the sheet refuses changes, or "" (from the loaded objects: no query)."""
    try:
        ensure_tournament_open(sheet.tournament)
        if sheet.table_id is not None:
            position = sheet.table.position
            position.tournament = sheet.tournament
            ensure_position_open(position)
    except Locked as err:
        return " ".join(err.messages)
    if sheet.status == ScoreSheet.Status.VALIDATED:
        return str(_("Feuille validée : elle ne peut plus changer tant qu'un arbitre ne l'a pas "
                     "dévalidée."))  # fmt: skip
    return ""


def sheet_is_full(view) -> bool:
    """A table's sheet holding all its deals (and the extras the arbiter allowed)."""
    if view.sheet.table_id is None:
        return False
    return len(view.lines) >= view.expected_deals + view.sheet.extra_deals
