"""Swapping two players by hand: the repeated meetings are shown before anything changes."""

import pytest
from django.urls import reverse

from tests.tournament.evening.positions_helpers import make_tournament
from tournament.evening.positions import position_generate
from tournament.evening.selectors import tournament_plan
from tournament.evening.swaps import seat_swap_preview
from tournament.models import ChangeLog, Seat, Team

pytestmark = pytest.mark.django_db


def seat_of(registration, number):
    return Seat.objects.select_related("table").get(
        registration=registration, table__position__number=number
    )


def setup_two_positions(client):
    tournament = make_tournament(players=8, positions=2)
    client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 2})
    client.post(reverse("position-publish", args=[tournament.pk, 1]))
    # Two players who sat at different tables at position 1 and do too at position 2.
    first = tournament.registrations.get(number=1)
    table1 = seat_of(first, 1).table
    table2 = seat_of(first, 2).table
    elsewhere = Seat.objects.filter(
        table__position__number=2, table__position__tournament=tournament
    ).exclude(table=table2)
    second = next(
        s.registration
        for s in elsewhere.select_related("registration")
        if not Seat.objects.filter(table=table1, registration=s.registration).exists()
    )
    return tournament, first, second


def test_preview_shows_e_before_and_after_and_changes_nothing(arbiter_client):
    tournament, first, second = setup_two_positions(arbiter_client)
    plan = tournament_plan(tournament)
    expected = seat_swap_preview(
        position=tournament.positions.get(number=2), first=first, second=second
    )
    response = arbiter_client.get(
        reverse("seat-swap", args=[tournament.pk, 2]),
        {"first": first.pk, "second": second.pk},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    text = response.text
    assert "<html" not in text
    assert f"<strong>{expected.repeats_before}</strong>" in text
    assert f">{expected.repeats_after}</strong>" in text
    assert expected.repeats_after != expected.repeats_before
    assert "Confirmer l'échange" in text
    assert tournament_plan(tournament) == plan


def test_confirmed_swap_exchanges_the_seats_and_is_logged(arbiter_client, arbiter):
    tournament, first, second = setup_two_positions(arbiter_client)
    a, b = seat_of(first, 2), seat_of(second, 2)
    preview = seat_swap_preview(
        position=tournament.positions.get(number=2), first=first, second=second
    )
    response = arbiter_client.post(
        reverse("seat-swap", args=[tournament.pk, 2]), {"first": first.pk, "second": second.pk}
    )
    assert response.status_code == 302
    assert (seat_of(first, 2).table_id, seat_of(first, 2).direction) == (b.table_id, b.direction)
    assert (seat_of(second, 2).table_id, seat_of(second, 2).direction) == (
        a.table_id,
        a.direction,
    )
    log = ChangeLog.objects.filter(object_type="position").first()
    assert log.user == arbiter
    assert log.before["swap"]["repeated_meetings"] == preview.repeats_before
    assert log.after["swap"]["repeated_meetings"] == preview.repeats_after


def test_swap_that_seats_teammates_together_is_refused(arbiter_client):
    tournament = make_tournament(players=8, positions=1, format="duo")
    regs = list(tournament.registrations.order_by("number"))
    for index in range(4):
        team = Team.objects.create(tournament=tournament, name=f"Duo {index}")
        for reg in regs[2 * index : 2 * index + 2]:
            reg.team = team
            reg.save()
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 4})
    first = regs[0]
    mate = regs[1]
    # Moving `first` to the mate's table: swap with one of the mate's tablemates.
    mate_table = seat_of(mate, 1).table
    other = next(s.registration for s in mate_table.seats.exclude(registration=mate))
    plan = tournament_plan(tournament)
    response = arbiter_client.post(
        reverse("seat-swap", args=[tournament.pk, 1]), {"first": first.pk, "second": other.pk}
    )
    assert response.status_code == 200
    assert "se retrouverait à la table d&#x27;un coéquipier" in response.text
    assert tournament_plan(tournament) == plan


def test_scorer_cannot_swap(client, scorer):
    tournament = make_tournament(players=8, positions=1)
    position_generate(tournament=tournament, seed=1)
    plan = tournament_plan(tournament)
    client.force_login(scorer)
    regs = list(tournament.registrations.all()[:2])
    url = reverse("seat-swap", args=[tournament.pk, 1])
    assert client.post(url, {"first": regs[0].pk, "second": regs[1].pk}).status_code == 403
    for name in ("position-publish", "position-regenerate"):
        assert client.post(reverse(name, args=[tournament.pk, 1])).status_code == 403
    assert client.post(reverse("position-generate", args=[tournament.pk])).status_code == 403
    assert tournament_plan(tournament) == plan
    assert tournament.positions.get().status == "draft"


def test_the_preview_shows_every_fairness_measure_and_says_what_gets_worse(arbiter_client):
    """Issue 23: a swap that puts a player at the table of 5 once more reads, before anything
    changes, every measure of the positions page and the player's name in words."""
    tournament = make_tournament(players=13, positions=3)
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 3})
    plan = tournament_plan(tournament)
    odd = {}
    for position in plan[:2]:
        for table in position:
            for p in table:
                odd[p] = odd.get(p, 0) + (len(table) == 5)
    last = plan[2]
    five = next(t for t in last if len(t) == 5)
    # A player at a table of 4 now, who already sat at the table of 5 before.
    mover = next(p for t in last if len(t) == 4 for p in t if odd.get(p, 0) >= 1)
    # Someone at the table of 5 now, who is not the mover's tablemate anywhere that matters.
    other = five[0]
    first = tournament.registrations.get(pk=mover)
    second = tournament.registrations.get(pk=other)
    preview = seat_swap_preview(
        position=tournament.positions.get(number=3), first=first, second=second
    )
    keys = [m.key for m in preview.measures]
    assert keys == ["repeats", "thrice", "odd", "directions", "teammates"]
    nth = odd[mover] + 1
    expected = f"{first.player.full_name} serait à la table de 5 pour la {nth}e fois"
    assert expected in preview.warnings
    response = arbiter_client.get(
        reverse("seat-swap", args=[tournament.pk, 3]),
        {"first": first.pk, "second": second.pk},
        headers={"HX-Request": "true"},
    )
    text = response.text
    assert expected in text
    assert "Écart des tables de 3 ou 5" in text and "Écart des directions" in text
    assert "Paires qui se rencontrent 3 fois ou plus" in text
