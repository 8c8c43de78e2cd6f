"""The statistics agree with counts made another way: from the deal log (donnes.xlsx) of a
generated tournament, read back with openpyxl and counted with plain loops."""

import io
from collections import Counter, defaultdict

import openpyxl
import pytest
from django.utils import translation

from scoring.core.statistics import DEFENDER, PARTNER, TAKER, statistics_by_player
from scoring.documents.exports import deals_xlsx
from scoring.live.standings import visible_sheets_of
from scoring.models import Deal, Incident, ScoreSheet
from scoring.season.statistics_loader import deal_records, penalty_records
from scoring.sheets.generate import GenerateOptions, tournament_generate
from tournament.models import Player, Registration, Tournament

pytestmark = pytest.mark.django_db

# FFT: the points the attack needs with 0, 1, 2 or 3 oudlers.
TARGETS = {0: 56, 1: 51, 2: 41, 3: 36}


def generated(remainder: str) -> Tournament:
    tournament = tournament_generate(
        options=GenerateOptions(players=22, positions=3, deals=5, seed=7, remainder=remainder)
    )
    # Names made unique, and none a part of another, so that a name cell tells who it is.
    for registration in Registration.objects.filter(tournament=tournament):
        Player.objects.filter(pk=registration.player_id).update(
            first_name=f"Joueur-{registration.number:03d}"
        )
    return tournament


def log_rows(tournament: Tournament) -> list[dict]:
    with translation.override("fr"):
        content = deals_xlsx.build(tournament)
    rows = list(openpyxl.load_workbook(io.BytesIO(content))["Donnes"].iter_rows(values_only=True))
    header = rows[1]
    return [dict(zip(header, row, strict=True)) for row in rows[2:]]


def who(cell, names: dict[str, int]) -> int | None:
    """The registration whose unique name the cell holds."""
    if not cell:
        return None
    found = [registration for name, registration in names.items() if name in str(cell)]
    assert len(found) == 1, cell
    return found[0]


def count_from_log(rows: list[dict], names: dict[str, int]) -> dict:
    contracts = {str(label): value for value, label in Deal.Contract.choices}
    deals, passed = Counter(), Counter()
    taken, won = defaultdict(Counter), defaultdict(Counter)
    role_points, role_deals = defaultdict(Counter), defaultdict(Counter)
    poignees = defaultdict(Counter)
    petit_made, petit_lost = Counter(), Counter()
    for row in rows:
        if row["Annulée"] or row["Incident"]:  # an incident's own row is no deal
            continue
        dead = who(row["Mort"], names)
        taker = who(row["Preneur"], names)
        partner = who(row["Associé"], names)
        seated = []
        for seat in range(1, 6):
            player = who(row[f"Joueur {seat}"], names)
            if player is not None and player != dead:
                seated.append((player, row[f"Score {seat}"]))
        for player, _score in seated:
            deals[player] += 1
            if row["Tous passent"]:
                passed[player] += 1
        if row["Tous passent"]:
            continue
        contract = contracts[row["Contrat"]]
        taken[taker][contract] += 1
        if row["Points"] >= TARGETS[row["Bouts"]]:
            won[taker][contract] += 1
        for player, score in seated:
            role = TAKER if player == taker else PARTNER if player == partner else DEFENDER
            role_points[player][role] += score
            role_deals[player][role] += 1
            attack = role != DEFENDER
            if row["Petit au bout"]:
                ours = (row["Petit au bout"] == "Attaque") == attack
                (petit_made if ours else petit_lost)[player] += 1
        for shown in (row["Poignées"] or "").split(", "):
            if shown:
                name, size = shown.rsplit(" (", 1)
                poignees[who(name, names)][size.rstrip(")")] += 1
    return {
        "deals": deals,
        "passed": passed,
        "taken": taken,
        "won": won,
        "role_points": role_points,
        "role_deals": role_deals,
        "poignees": poignees,
        "petit_made": petit_made,
        "petit_lost": petit_lost,
    }


@pytest.mark.parametrize("remainder", [Tournament.Remainder.FIVE, Tournament.Remainder.FIVE_DEAD])
def test_statistics_match_the_deal_log_counted_by_hand(remainder):
    tournament = generated(remainder)
    registrations = list(
        Registration.objects.filter(tournament=tournament).select_related("player")
    )
    names = {r.player.full_name: r.pk for r in registrations}
    first = registrations[0]
    Incident.objects.create(
        tournament=tournament,
        sheet=ScoreSheet.objects.filter(tournament=tournament).first(),
        registration=first,
        kind=Incident.Kind.LATENESS,
        penalty_points=20,
    )
    Incident.objects.create(
        tournament=tournament, registration=first, kind=Incident.Kind.ETHICS, penalty_points=50
    )

    expected = count_from_log(log_rows(tournament), names)
    sheets = visible_sheets_of([tournament], public=False)
    stats = statistics_by_player(
        deal_records(sheets),
        penalty_records([tournament], sheets).get(tournament.pk, ()),
    )

    assert sum(expected["deals"].values()) > 100
    assert sum(sum(c.values()) for c in expected["taken"].values()) > 40
    assert sum(sum(c.values()) for c in expected["poignees"].values()) > 0
    assert sum(expected["petit_made"].values()) > 0
    if remainder == Tournament.Remainder.FIVE:
        assert sum(c[PARTNER] for c in expected["role_deals"].values()) > 0
    for registration in registrations:
        key = registration.pk
        mine = stats[key]
        assert mine.deals == expected["deals"][key]
        assert mine.passed == expected["passed"][key]
        for contract, count in mine.contracts.items():
            assert count.taken == expected["taken"][key][contract], (key, contract)
            assert count.won == expected["won"][key][contract], (key, contract)
        for role in (TAKER, PARTNER, DEFENDER):
            assert mine.roles[role].deals == expected["role_deals"][key][role], (key, role)
            assert mine.roles[role].total == expected["role_points"][key][role], (key, role)
        assert {s: n for s, n in mine.poignees.items() if n} == dict(expected["poignees"][key])
        assert mine.petit_made == expected["petit_made"][key]
        assert mine.petit_lost == expected["petit_lost"][key]
    assert (stats[first.pk].penalties, stats[first.pk].penalty_points) == (2, 70)
    assert sum(one.penalties for one in stats.values()) == 2
