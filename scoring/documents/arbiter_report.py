"""The arbiter's report of a tournament: what the desk recorded, read in a fixed number of queries
and laid out as plain lines that its PDF (printing.arbiter_report_pdf) and its CSV
(exports.arbiter_report_csv) both print, so that the two always say the same.

Built from any tournament's rows (running, finished or restored from a backup); the ranking is
the arbiter's standings (scoring.live.standings.standings_for), whose rule says which deals count.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.core.penalties import RULE_PENALTY_DEFAULTS
from scoring.counting import waiting_rule
from scoring.documents.report_records import (
    CallLine,
    StaffLine,
    desk_calls,
    received_records,
    with_authors,
)
from scoring.live.provisional import mark_provisional
from scoring.live.standings import Standings, standings_for
from scoring.models import Deal, Incident, SheetPlayer, TableCall
from tournament.models import Position, Registration, Tournament, TournamentRole
from tournament.tournaments.vocabulary import RULE_SET_CHOICES

# The sanction the FFT rules (004, 000) themselves state for a fault, besides any points.
RULE_SANCTIONS = {
    "fausse_donne": gettext_lazy(
        "Règlement FFT : le même donneur redistribue, le fautif ne peut pas enchérir"
    ),
    "renonce_defence": gettext_lazy(
        "Règlement FFT : le fautif ne peut pas enchérir à la donne suivante ; en cas de chute, "
        "le preneur choisit de marquer ou non le score"
    ),
    "petit_sec": gettext_lazy("Règlement FFT : la donne est annulée et redistribuée"),
}


@dataclass(frozen=True)
class FieldLine:
    """A player of the field: who came, with their licence, club and any arrival or withdrawal."""

    number: int
    name: str
    licence: str
    club: str
    team: str
    first_position: int
    withdrawn_after: int | None


@dataclass(frozen=True)
class PositionLine:
    number: int
    status: str
    tables: int
    deals: int  # every deal row recorded, passed and cancelled ones included
    passed: int
    cancelled: int
    adjusted: int
    pending: int  # entered on a phone, not (yet) confirmed by the other side


@dataclass(frozen=True)
class IncidentLine:
    position: int | None
    table: int | None
    deal: int | None
    player: str
    licence: str
    kind: str
    rule: str
    decision: str
    note: str
    penalty: int
    shared: bool
    arbiter: str
    recorded_at: datetime


@dataclass(frozen=True)
class AdjustedScore:
    """One seat of an adjusted deal: the engine's score and the arbiter's."""

    position: int | None
    table: int | None
    deal: int
    player: str
    licence: str
    computed: int | None
    adjusted: int
    reason: str


@dataclass(frozen=True)
class RankLine:
    rank: int
    tied: bool
    number: int
    name: str
    licence: str
    club: str
    deal_points: int
    penalty: int
    total: int


@dataclass(frozen=True)
class ArbiterReport:
    tournament: Tournament
    club: str
    staff: list[StaffLine]
    format: str
    rule_set: str
    remainder: str
    deals_per_table: str
    field: list[FieldLine]
    positions: list[PositionLine]
    incidents: list[IncidentLine]
    adjusted: list[AdjustedScore]
    calls: list[CallLine]
    ranking: list[RankLine]
    provisional: str

    @property
    def signatories(self) -> list[StaffLine]:
        return [line for line in self.staff if line.signs]

    @property
    def withdrawals(self) -> list[FieldLine]:
        return [line for line in self.field if line.withdrawn_after is not None]

    @property
    def late_arrivals(self) -> list[FieldLine]:
        return [line for line in self.field if line.first_position > 1]

    @property
    def penalty_total(self) -> int:
        return sum(line.penalty for line in self.incidents)


def arbiter_report(tournament: Tournament) -> ArbiterReport:
    """Everything the report prints, whatever the tournament's size in the same queries."""
    standings = mark_provisional(standings_for(tournament))
    registrations: Mapping[Any, Registration] = standings.registrations
    sent = received_records(tournament)  # a tournament a club sent: the laptop's own records
    return ArbiterReport(
        tournament=tournament,
        club=tournament.club or (tournament.host_club.name if tournament.host_club else ""),
        staff=sent.staff if sent else staff_lines(tournament),
        format=tournament.get_format_display(),
        rule_set=str(dict(RULE_SET_CHOICES).get(tournament.rule_set, tournament.rule_set)),
        remainder=tournament.get_remainder_display(),
        deals_per_table=_(
            "%(four)s donnes par table de 4, %(five)s par table de 5, %(three)s par table de 3"
        )
        % {
            "four": tournament.deals_per_table_4,
            "five": tournament.deals_per_table_5,
            "three": tournament.deals_per_table_3,
        },
        field=field_lines(registrations),
        positions=position_lines(tournament),
        incidents=with_authors(incident_lines(tournament), sent),
        adjusted=adjusted_scores(tournament, registrations),
        calls=sent.calls if sent else call_lines(tournament),
        ranking=rank_lines(standings),
        provisional=standings.provisional,
    )


def person(user: Any) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def staff_lines(tournament: Tournament) -> list[StaffLine]:
    """The owner (the arbiter in charge), then the co-arbiters and the scorers (two queries)."""
    lines = []
    if tournament.owner is not None:
        lines.append(
            StaffLine(name=person(tournament.owner), role=_("Arbitre responsable"), signs=True)
        )
    roles = TournamentRole.objects.filter(tournament=tournament).select_related("user")
    for role in sorted(roles, key=lambda r: (r.role != TournamentRole.Role.ARBITER, r.pk)):
        signs = role.role == TournamentRole.Role.ARBITER
        lines.append(StaffLine(name=person(role.user), role=role.get_role_display(), signs=signs))
    return lines


def field_lines(registrations: Mapping[Any, Registration]) -> list[FieldLine]:
    """The players who came (those pre-registered online and never checked in did not), by
    number: the standings' registrations, read with them."""
    return [
        FieldLine(
            number=registration.number,
            name=registration.player.full_name,
            licence=registration.player.licence or "",
            club=registration.player.club,
            team=registration.team.name if registration.team else "",
            first_position=registration.first_position,
            withdrawn_after=registration.withdrawn_after
            if registration.status == Registration.Status.WITHDRAWN
            else None,
        )
        for registration in sorted(registrations.values(), key=lambda r: r.number)
    ]


def position_lines(tournament: Tournament) -> list[PositionLine]:
    """Each position with its tables and the deals recorded on them (two queries)."""
    positions = Position.objects.filter(tournament=tournament).annotate(
        table_count=Count("tables", distinct=True)
    )
    figures: dict[int, dict[str, int]] = {
        row["sheet__table__position__number"]: row
        for row in Deal.objects.filter(sheet__tournament=tournament, sheet__table__isnull=False)
        .values("sheet__table__position__number")
        .annotate(
            deals=Count("pk"),
            passed=Count("pk", filter=Q(passed=True)),
            cancelled=Count("pk", filter=Q(cancelled=True)),
            adjusted=Count("pk", filter=Q(adjusted=True)),
            pending=Count("pk", filter=waiting_rule()),
        )
        .order_by()
    }
    lines = []
    for position in positions.order_by("number"):
        row = figures.get(position.number, {})
        lines.append(
            PositionLine(
                number=position.number,
                status=position.get_status_display(),
                tables=position.table_count,
                **{
                    key: row.get(key, 0)
                    for key in ("deals", "passed", "cancelled", "adjusted", "pending")
                },
            )
        )
    return lines


def rule_applied(kind: str, points: int, shared: bool, organiser: Mapping[str, int]) -> str:
    """What an incident's sanction rests on: the rules' own sanction, the organiser's scale or
    the arbiter's amount, and who bears the points."""
    if kind in RULE_SANCTIONS:
        basis = str(RULE_SANCTIONS[kind])
        if points and points != RULE_PENALTY_DEFAULTS.get(kind):
            basis += " ; " + _("%(points)s points fixés par l'arbitre") % {"points": points}
    elif organiser.get(kind) is not None and int(organiser[kind]) == points:
        basis = _("Barème du tournoi : %(points)s points") % {"points": points}
    else:
        basis = _("Code d'arbitrage FFT : montant fixé par l'arbitre")
    if points:
        basis += " — " + (
            _("répartie entre les autres joueurs de la table")
            if shared
            else _("à la charge du fautif")
        )
    return basis


def incident_lines(tournament: Tournament) -> list[IncidentLine]:
    """Every incident, in the order it was recorded (one query)."""
    incidents = (
        Incident.objects.filter(tournament=tournament)
        .select_related("registration__player", "sheet__table__position", "created_by")
        .order_by("created_at", "pk")
    )
    organiser = tournament.penalty_defaults or {}
    lines = []
    for incident in incidents:
        table = incident.sheet.table if incident.sheet is not None else None
        player = incident.registration.player if incident.registration is not None else None
        lines.append(
            IncidentLine(
                position=table.position.number if table else None,
                table=table.number if table else None,
                deal=incident.deal_number,
                player=player.full_name if player else "",
                licence=(player.licence or "") if player else "",
                kind=incident.get_kind_display(),
                rule=rule_applied(
                    incident.kind, incident.penalty_points, incident.shared, organiser
                ),
                decision=incident.decision,
                note=incident.note,
                penalty=incident.penalty_points,
                shared=incident.shared,
                arbiter=person(incident.created_by),
                recorded_at=incident.created_at,
            )
        )
    return lines


def adjusted_scores(
    tournament: Tournament, registrations: Mapping[Any, Registration]
) -> list[AdjustedScore]:
    """Each seat of every deal given an arbiter's score, with the reason (two queries)."""
    deals = list(
        Deal.objects.filter(sheet__tournament=tournament, adjusted=True)
        .select_related("sheet__table__position")
        .order_by("sheet__table__position__number", "sheet__table__number", "sheet_id", "number")
    )
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    # Joined rather than by the deals' sheet ids: one query even when no deal was adjusted.
    for sheet_id, seat, registration_id in (
        SheetPlayer.objects.filter(sheet__tournament=tournament, sheet__deals__adjusted=True)
        .distinct()
        .values_list("sheet_id", "seat", "registration_id")
    ):
        seats[sheet_id][seat] = registration_id
    lines = []
    for deal in deals:
        table = deal.sheet.table
        for seat, points in enumerate(deal.scores):
            registration = registrations.get(seats[deal.sheet_id].get(seat))
            computed = deal.computed_scores
            lines.append(
                AdjustedScore(
                    position=table.position.number if table else None,
                    table=table.number if table else None,
                    deal=deal.number,
                    player=registration.player.full_name if registration else "",
                    licence=(registration.player.licence or "") if registration else "",
                    computed=computed[seat] if seat < len(computed) else None,
                    adjusted=points,
                    reason=deal.adjustment_reason,
                )
            )
    return lines


def call_lines(tournament: Tournament) -> list[CallLine]:
    """Every call for the arbiter, from a table's phone or a deal the desk marked, in order of
    time (two queries)."""
    calls = TableCall.objects.filter(table__position__tournament=tournament).select_related(
        "table__position", "taken_by"
    )
    phones = [
        CallLine(
            position=call.table.position.number,
            table=call.table.number,
            deal=call.deal_number,
            note=call.note,
            called_at=call.created_at,
            taken_at=call.taken_at,
            taken_by=person(call.taken_by),
        )
        for call in calls.order_by("created_at", "pk")
    ]
    return sorted(phones + desk_calls(tournament), key=lambda line: line.called_at)


def rank_lines(standings: Standings) -> list[RankLine]:
    """The individual ranking as the arbiter's standings rank it."""
    return [
        RankLine(
            rank=entry.rank,
            tied=entry.tied,
            number=entry.row.number,
            name=entry.row.name,
            licence=entry.row.licence,
            club=entry.row.club,
            deal_points=entry.row.deal_points,
            penalty=entry.row.penalty,
            total=entry.row.total,
        )
        for entry in standings.players
    ]
