"""A tournament with every kind of incident, for the arbiter's report's tests: the report
builders' nine players (tests/report_builders.py) with licences, one incident of each kind
(charged, shared, the organiser's scale, the rules' own sanctions, one of no table), an adjusted
deal with its reason, a withdrawal, a late arrival, a co-arbiter and a scorer, and two calls for
the arbiter (one taken). Everything is recorded through the desk's services."""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth import get_user_model

from scoring.models import Deal, DealScore, Incident, SheetPlayer
from scoring.sheets.services import deal_adjust, incident_record
from scoring.sheets.table_entry.calls import arbiter_call, call_take
from scoring.sheets.table_entry.links import links_for_position
from tests.report_builders import build_tournament
from tournament.models import Player, Position, Registration, Tournament, TournamentRole
from tournament.players.registrations import player_register, registration_withdraw

# Text a spreadsheet would run as a formula: the CSV must keep it inert.
FORMULA_CLUB = '=HYPERLINK("http://evil.example")'
FORMULA_DECISION = "-50 points et avertissement"
# (kind, sheet (position, table) or None, player letter, deal number, points or None, shared)
# None points: the default (the organiser's scale, or the rules' 0 for their own sanctions).
INCIDENTS = [
    ("renonce_taker", (1, 1), "A", 1, 50, False),
    ("renonce_partner", (1, 2), "F", 1, 40, False),
    ("renonce_defence", (1, 1), "C", 2, None, False),
    ("fausse_donne", (1, 1), "B", 3, None, False),
    ("faux_ecart", (2, 1), "G", 1, 60, False),
    ("petit_sec", (2, 2), "H", 1, None, False),
    ("hors_tour", (2, 2), "D", None, None, False),  # the organiser's scale: 20
    ("ethics", None, "B", None, 100, False),  # of the tournament, no table
    ("lateness", None, "J", None, 10, False),
    ("poignee", (2, 1), "E", 2, 30, True),  # 10 to each of the 3 others
    ("carte_exposee", (2, 2), "I", 2, 40, True),  # 10 to each of the 4 others
    ("other", (2, 1), "A", None, 30, True),
]
ORGANISER_DEFAULTS = {"hors_tour": 20}
ADJUSTED = {"at": (1, 2), "deal": 1, "scores": [100, 0, -40, -30, -30]}
ADJUSTMENT_REASON = "Erreur de marque constatée par l'arbitre"


def licence_of(letter: str) -> str:
    return f"07{ord(letter):05d}"


def build_report_tournament(owner) -> dict:
    """The tournament (finished at the end), with the handles the tests read."""
    built = build_tournament(venue="Salle Jean Moulin", club="Club de Tarot de Chalon")
    tournament: Tournament = built["tournament"]
    Tournament.objects.filter(pk=tournament.pk).update(
        positions_count=3, penalty_defaults=ORGANISER_DEFAULTS
    )
    tournament.refresh_from_db()
    registrations = built["registrations"]
    for letter, registration in registrations.items():
        Player.objects.filter(pk=registration.player_id).update(licence=licence_of(letter))
    Player.objects.filter(pk=registrations["D"].player_id).update(club=FORMULA_CLUB)
    # Arrived after the second position: registered now, from position 3.
    registrations["J"] = player_register(
        tournament=tournament,
        last_name="JoueurJ",
        first_name="J",
        licence=licence_of("J"),
        club="Dijon",
        user=owner,
    )
    _staff(tournament)
    sheet = built["sheets"][ADJUSTED["at"]]
    deal_adjust(
        deal=Deal.objects.get(sheet=sheet, number=ADJUSTED["deal"]),
        scores=ADJUSTED["scores"],
        reason=ADJUSTMENT_REASON,
        user=owner,
    )
    _incidents(built, owner)
    withdrawn = registration_withdraw(registration=registrations["G"], user=owner)
    calls = _calls(built, owner)
    # Closed and finished, as the evening ends (the report is final: no position in play).
    tournament.positions.update(status=Position.Status.CLOSED)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    tournament.refresh_from_db()
    return {**built, "tournament": tournament, "withdrawn": withdrawn, "calls": calls}


def _staff(tournament: Tournament) -> None:
    users = get_user_model().objects
    co_arbiter = users.create_user("co-arbitre", first_name="Claude", last_name="VIGNAL")
    scorer = users.create_user("marqueuse", first_name="Lise", last_name="ROCHE")
    TournamentRole.objects.create(
        tournament=tournament, user=co_arbiter, role=TournamentRole.Role.ARBITER
    )
    TournamentRole.objects.create(
        tournament=tournament, user=scorer, role=TournamentRole.Role.SCORER
    )


def _incidents(built: dict, owner) -> None:
    tournament: Tournament = built["tournament"]
    registrations: dict[str, Registration] = built["registrations"]
    for kind, at, letter, deal_number, points, shared in INCIDENTS:
        tournament.share_penalties = shared  # read by the service when it records the incident
        decision = FORMULA_DECISION if kind == "renonce_taker" else f"Décision ({kind})"
        incident_record(
            tournament=tournament,
            kind=kind,
            registration=registrations[letter],
            sheet=built["sheets"][at] if at else None,
            deal_number=deal_number,
            decision=decision,
            note=f"Note {kind}",
            penalty_points=points,
            user=owner,
        )
    tournament.share_penalties = False


def _calls(built: dict, owner) -> list:
    links = links_for_position(built["positions"][2])
    taken = arbiter_call(link=links[0], deal_number=2, note="Poignée contestée")
    call_take(call=taken, user=owner)
    waiting = arbiter_call(link=links[1], note="Question sur une renonce")
    return [taken, waiting]


# --- the desk's records, read straight from the tables (not through the standings) ----------


def desk_totals(tournament: Tournament) -> dict[int, int]:
    """Registration id → the points of its deal rows, less the penalties it was charged, plus
    its share of the shared penalties of its table (split evenly in this tournament)."""
    totals: dict[int, int] = defaultdict(int)
    for score in DealScore.objects.filter(deal__sheet__tournament=tournament):
        totals[score.registration_id] += score.points
    for incident in Incident.objects.filter(tournament=tournament):
        totals[incident.registration_id] -= incident.penalty_points
        if incident.shared:
            others = list(
                SheetPlayer.objects.filter(sheet=incident.sheet)
                .exclude(registration_id=incident.registration_id)
                .values_list("registration_id", flat=True)
            )
            assert incident.penalty_points % len(others) == 0  # the fixture's choice
            for other in others:
                totals[other] += incident.penalty_points // len(others)
    return {
        registration.pk: totals.get(registration.pk, 0)
        for registration in tournament.registrations.all()
    }


def competition_ranks(totals: dict) -> dict:
    """1, 2, 2, 4: equal totals share a rank."""
    ordered = sorted(totals.values(), reverse=True)
    return {key: ordered.index(total) + 1 for key, total in totals.items()}


def adjusted_seats(tournament: Tournament) -> list[tuple[str, int, int, str]]:
    """(licence, computed, adjusted, reason) of each seat of each adjusted deal."""
    rows = []
    for deal in Deal.objects.filter(sheet__tournament=tournament, adjusted=True):
        players = {
            sp.seat: sp.registration.player.licence
            for sp in SheetPlayer.objects.filter(sheet=deal.sheet).select_related(
                "registration__player"
            )
        }
        for seat, points in enumerate(deal.scores):
            rows.append((players[seat], deal.computed_scores[seat], points, deal.adjustment_reason))
    return rows


def recorded_incidents(tournament: Tournament) -> list[Incident]:
    return list(
        Incident.objects.filter(tournament=tournament)
        .select_related("registration__player", "sheet__table__position")
        .order_by("created_at", "pk")
    )
