"""Issue 26, phone entry across an event's brackets: a player repêché from the consolante into
the qualified bracket leaves the consolante's tables; who may replace a withdrawal is asked of
every bracket the replacement writes to."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Deal
from scoring.sheets.table_entry import links_for_position
from tests.scoring.events.venue_helpers import cut_event
from tournament.evening.positions import position_publish
from tournament.models import Registration, Tournament, TournamentRole

pytestmark = pytest.mark.django_db

DEAL = {"players": 4, "taker": 0, "contract": "prise", "oudlers": 2, "points": 46}


def consolante_in_play(result):
    """The consolante's position 1 published, its one table's link and seats (by index)."""
    Tournament.objects.filter(event=result.event).update(entry_mode="phones")
    position = result.consolante.positions.get(number=1)
    position_publish(position=position, unfinished_confirmed=True)
    link = links_for_position(position)[0]
    seats = sorted(link.table.seats.select_related("registration__player"), key=lambda s: s.index)
    return link, seats


def test_a_started_consolante_keeps_its_players_no_repechage_to_two_tables(arbiter, arbiter_client):
    result = cut_event(arbiter)
    link, seats = consolante_in_play(result)
    p3 = next(s for s in seats if s.registration.player.last_name == "P3")  # next in line
    gone = result.main.registrations.get(player__last_name="P7")
    response = arbiter_client.post(
        reverse("event-replace", args=[result.main.pk]), {"registration": gone.pk}, follow=True
    )
    assert "La consolante a commencé" in response.text
    # Nothing moved: P7 still qualified, P3 still at the consolante's table, and nowhere else.
    assert result.main.registrations.get(pk=gone.pk).status == Registration.Status.ACTIVE
    assert not result.main.registrations.filter(player__last_name="P3").exists()
    assert Registration.objects.get(pk=p3.registration_id).status == Registration.Status.ACTIVE
    # P3 keeps playing the consolante's table with their code.
    response = Client().post(
        reverse("table-deal-create", args=[link.token]),
        json.dumps(
            {
                "client_id": "repeche-1",
                "version": 0,
                "deal": DEAL,
                "entered_by": p3.index,
                "pin": p3.registration.pin,
            }
        ),
        content_type="application/json",
    )
    assert response.status_code == 201
    assert list(
        Deal.objects.filter(sheet__table=link.table).values_list("entered_by_player_id", flat=True)
    ) == [p3.registration_id]


def test_a_co_arbiter_of_the_qualified_bracket_alone_may_not_take_a_player_from_the_consolante(
    arbiter, client, django_user_model
):
    result = cut_event(arbiter)
    helper = django_user_model.objects.create_user("co-main", password="pw-co-main-1")
    TournamentRole.objects.create(
        tournament=result.main, user=helper, role=TournamentRole.Role.ARBITER
    )
    client.force_login(helper)
    gone = result.main.registrations.get(player__last_name="P7")
    response = client.post(
        reverse("event-replace", args=[result.main.pk]), {"registration": gone.pk}
    )
    assert response.status_code == 403
    # The consolante, not theirs, is untouched: P3 still plays there, P7 still qualified.
    p3 = result.consolante.registrations.get(player__last_name="P3")
    assert p3.status == Registration.Status.ACTIVE
    assert result.main.registrations.get(pk=gone.pk).status == Registration.Status.ACTIVE
    # The owner of both brackets may.
    client.force_login(arbiter)
    client.post(reverse("event-replace", args=[result.main.pk]), {"registration": gone.pk})
    p3.refresh_from_db()
    assert p3.status == Registration.Status.WITHDRAWN


def test_a_player_of_the_qualified_bracket_is_not_registered_in_the_consolante_too(
    arbiter, arbiter_client
):
    result = cut_event(arbiter)
    p7 = result.main.registrations.get(player__last_name="P7")
    response = arbiter_client.post(
        reverse("player-register", args=[result.consolante.pk]),
        {"player": p7.player_id},
        follow=True,
    )
    assert "joue déjà dans un autre tableau de cette séance" in response.text
    assert not result.consolante.registrations.filter(player_id=p7.player_id).exists()
    # Withdrawn from the qualified bracket, they may play the consolante.
    p7.status = Registration.Status.WITHDRAWN
    p7.save(update_fields=["status"])
    arbiter_client.post(
        reverse("player-register", args=[result.consolante.pk]), {"player": p7.player_id}
    )
    assert result.consolante.registrations.filter(player_id=p7.player_id).exists()


def test_a_repeched_player_is_not_reinstated_in_the_consolante_they_left(arbiter, arbiter_client):
    result = cut_event(arbiter)
    gone = result.main.registrations.get(player__last_name="P7")
    arbiter_client.post(reverse("event-replace", args=[result.main.pk]), {"registration": gone.pk})
    left = result.consolante.registrations.get(player__last_name="P3")
    assert left.status == Registration.Status.WITHDRAWN
    response = arbiter_client.post(
        reverse("registration-reinstate", args=[result.consolante.pk, left.pk]), follow=True
    )
    assert "joue déjà dans un autre tableau de cette séance" in response.text
    left.refresh_from_db()
    assert left.status == Registration.Status.WITHDRAWN
