"""The check-in page: arbiters only, constant queries, JSON toggles, search without JavaScript."""

import pytest
from django.urls import reverse

from tests.tournament.evening.positions_helpers import make_tournament
from tournament.models import ChangeLog, Registration, Tournament
from tournament.signup import services as signup

pytestmark = pytest.mark.django_db


def with_sign_ups(players: int, online: list[tuple[str, str]]) -> Tournament:
    tournament = make_tournament(players=players, signup_open=True)
    for last_name, first_name in online:
        signup.signup_register(tournament=tournament, last_name=last_name, first_name=first_name)
    return tournament


def test_only_the_tournaments_arbiters_check_in(client, scorer, django_user_model):
    tournament = with_sign_ups(0, [("Noël", "Océane")])
    registration = tournament.registrations.get()
    toggle = reverse("checkin-toggle", args=[tournament.pk, registration.pk])
    client.force_login(scorer)
    assert client.get(reverse("checkin", args=[tournament.pk])).status_code == 403
    assert client.post(toggle, {"present": "1"}).status_code == 403
    registration.refresh_from_db()
    assert registration.status == Registration.Status.EXPECTED


def test_the_page_answers_in_a_constant_number_of_queries(
    arbiter_client, django_assert_max_num_queries
):
    small = with_sign_ups(4, [("Côté", "François")])
    big = with_sign_ups(20, [(f"Attendu{i}", "Al") for i in range(40)])
    for tournament in (small, big):
        with django_assert_max_num_queries(8):
            page = arbiter_client.get(reverse("checkin", args=[tournament.pk]))
        assert page.status_code == 200
    assert page.text.count('role="row"') == 60


def test_enter_on_a_row_posts_a_json_toggle_and_counts_come_back(arbiter_client, arbiter):
    tournament = with_sign_ups(2, [("Lefèvre", "Hélène")])
    registration = tournament.registrations.get(status=Registration.Status.EXPECTED)
    url = reverse("checkin-toggle", args=[tournament.pk, registration.pk])
    answer = arbiter_client.post(url, {"present": "1"}, HTTP_ACCEPT="application/json")
    assert answer.status_code == 200
    assert answer.json() == {
        "present": True,
        "status": "Présent",
        "present_count": 3,
        "expected_count": 0,
    }
    assert ChangeLog.objects.filter(object_id=registration.pk, user=arbiter).count() == 1
    back = arbiter_client.post(url, {"present": "0"}, HTTP_ACCEPT="application/json").json()
    assert back["present"] is False and back["status"] == "Pré-inscrit"
    bad = arbiter_client.post(url, {"present": "peut-être"}, HTTP_ACCEPT="application/json")
    assert bad.status_code == 400 and "Présent" in bad.json()["error"]
    # Without JavaScript: a plain form post, back to the list with a message.
    plain = arbiter_client.post(url, {"present": "1"})
    assert plain.status_code == 302 and plain["Location"] == reverse(
        "checkin", args=[tournament.pk]
    )


def test_the_search_ignores_accents_and_case_without_javascript(arbiter_client):
    tournament = with_sign_ups(0, [("Lefèvre", "Hélène"), ("Lefebvre", "Marc"), ("Côté", "Noël")])
    page = arbiter_client.get(reverse("checkin", args=[tournament.pk]), {"q": "lefe"}).text
    assert "LEFÈVRE Hélène" in page and "LEFEBVRE Marc" in page and "CÔTÉ" not in page
    page = arbiter_client.get(reverse("checkin", args=[tournament.pk]), {"q": "cote noel"}).text
    assert "CÔTÉ Noël" in page and "LEFÈVRE" not in page
    code = tournament.registrations.get(player__last_name="Côté").signup_code
    page = arbiter_client.get(reverse("checkin", args=[tournament.pk]), {"q": code.lower()}).text
    assert "CÔTÉ Noël" in page and "LEFÈVRE" not in page


def test_a_walk_in_is_added_present_from_the_check_in_page(arbiter_client):
    tournament = with_sign_ups(0, [])
    url = reverse("checkin-walkin", args=[tournament.pk])
    response = arbiter_client.post(url, {"last_name": "Vidal", "first_name": "Rose"})
    assert response.status_code == 302
    assert tournament.registrations.get().status == Registration.Status.ACTIVE
    again = arbiter_client.post(url, {"last_name": "VIDAL", "first_name": "rose"})
    assert again.status_code == 400 and "a déjà une inscription" in again.text
    empty = arbiter_client.post(url, {"last_name": ""})
    assert empty.status_code == 400 and "Nom : à remplir." in empty.text


def test_the_player_list_offers_to_check_in_a_pre_registered_player(arbiter_client):
    tournament = with_sign_ups(1, [("Noël", "Océane")])
    registration = tournament.registrations.get(status=Registration.Status.EXPECTED)
    page = arbiter_client.get(reverse("player-list", args=[tournament.pk])).text
    assert "Pré-inscrit" in page
    assert reverse("checkin-toggle", args=[tournament.pk, registration.pk]) in page
    # It does not offer to cancel a withdrawal that never was.
    assert reverse("registration-reinstate", args=[tournament.pk, registration.pk]) not in page
