"""The public sign-up page: 404 unless open, spam traps, throttle, confirmation, settings page."""

import time

import pytest
from django.urls import reverse

from tournament.models import Player, Registration, Tournament
from tournament.signup import services as signup

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return Tournament.objects.create(name="Open de Mâcon", date="2026-05-09", signup_open=True)


def stamp(seconds_ago: float = 30) -> str:
    return signup.form_stamp(now=time.time() - seconds_ago)


def form(**fields) -> dict:
    data = {
        "last_name": "Lefèvre",
        "first_name": "Hélène",
        "licence": "",
        "club": "",
        "website": "",
        "stamp": stamp(),
    }
    data.update(fields)
    return data


def post(client, tournament, **fields):
    return client.post(reverse("signup", args=[tournament.pk]), form(**fields))


def test_the_page_is_404_until_the_arbiter_opens_it(client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(signup_open=False)
    url = reverse("signup", args=[tournament.pk])
    assert client.get(url).status_code == 404
    assert client.post(url, form()).status_code == 404
    Tournament.objects.filter(pk=tournament.pk).update(signup_open=True)
    page = client.get(url)
    assert page.status_code == 200
    assert "Pré-inscription" in page.text and 'name="website"' in page.text
    assert client.get(reverse("signup", args=[999_999])).status_code == 404


def test_a_sign_up_leads_to_a_confirmation_with_number_and_code(client, tournament):
    response = post(client, tournament)
    registration = Registration.objects.get(tournament=tournament)
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "signup-confirmation", args=[tournament.pk, registration.signup_code.lower()]
    )
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert signup.format_code(registration.signup_code) in page.text
    assert "LEFÈVRE Hélène" in page.text and "pré-inscrit" in page.text
    # The code in capitals works too; another code, or another tournament's, does not.
    upper = reverse("signup-confirmation", args=[tournament.pk, registration.signup_code])
    assert client.get(upper).status_code == 200
    assert (
        client.get(reverse("signup-confirmation", args=[tournament.pk, "ZZZZ2222"])).status_code
        == 404
    )
    other = Tournament.objects.create(name="Autre", date="2026-05-10")
    url = reverse("signup-confirmation", args=[other.pk, registration.signup_code])
    assert client.get(url).status_code == 404


def test_the_honeypot_refuses_the_sign_up(client, tournament):
    response = post(client, tournament, website="http://spam.example")
    assert response.status_code == 400
    assert "Inscription refusée" in response.text
    assert not Registration.objects.exists()


def test_a_form_sent_back_too_fast_or_without_its_stamp_is_refused(client, tournament):
    fast = post(client, tournament, stamp=stamp(seconds_ago=0.5))
    assert fast.status_code == 400 and "trop vite" in fast.text
    forged = post(client, tournament, stamp="1700000000")
    assert forged.status_code == 400 and "expiré" in forged.text
    stale = post(client, tournament, stamp=stamp(seconds_ago=signup.MAX_FORM_SECONDS + 60))
    assert stale.status_code == 400 and "expiré" in stale.text
    assert not Registration.objects.exists()


def test_too_many_attempts_from_one_address_are_throttled(client, tournament):
    for i in range(signup.THROTTLE_ATTEMPTS):
        assert post(client, tournament, last_name=f"Joueur{i}").status_code == 302
    response = post(client, tournament, last_name="Encore")
    assert response.status_code == 429
    assert "Trop de tentatives" in response.text
    assert tournament.registrations.count() == signup.THROTTLE_ATTEMPTS
    # Another address is not concerned.
    other = client.post(
        reverse("signup", args=[tournament.pk]),
        form(last_name="Ailleurs"),
        REMOTE_ADDR="192.0.2.7",
    )
    assert other.status_code == 302


def test_a_double_sign_up_gets_a_clear_french_message(client, tournament):
    assert post(client, tournament, club="Mâcon").status_code == 302
    again = post(client, tournament, last_name="LEFEVRE", first_name="helene", club="macon")
    assert again.status_code == 400
    assert "déjà inscrit" in again.text
    assert tournament.registrations.count() == 1


def test_field_errors_name_the_field_and_lengths_are_bounded(client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(signup_licence_required=True)
    response = post(client, tournament, last_name="", first_name="é" * 81, licence="")
    assert response.status_code == 400
    assert "Nom : à remplir." in response.text
    assert "Prénom : 80 caractères au plus." in response.text
    assert "Licence FFT : elle est obligatoire pour ce tournoi." in response.text
    response = post(client, tournament, licence="<script>")
    assert "Licence FFT : chiffres et lettres seulement." in response.text
    assert not Registration.objects.exists()


def test_a_full_or_closed_page_says_why_instead_of_the_form(client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(signup_capacity=1)
    assert post(client, tournament).status_code == 302
    page = client.get(reverse("signup", args=[tournament.pk]))
    assert page.status_code == 200
    assert "Complet" in page.text and 'id="signup-form"' not in page.text
    refused = post(client, tournament, last_name="Dernier")
    assert refused.status_code == 400 and "Complet" in refused.text
    assert tournament.registrations.count() == 1


def test_the_public_page_answers_in_a_constant_number_of_queries(
    client, tournament, django_assert_max_num_queries
):
    for i in range(30):
        tournament.registrations.create(
            player=Player.objects.create(last_name=f"P{i}"),
            number=i + 1,
        )
    Tournament.objects.filter(pk=tournament.pk).update(signup_capacity=100)
    with django_assert_max_num_queries(6):
        assert client.get(reverse("signup", args=[tournament.pk])).status_code == 200


def test_the_arbiter_opens_the_page_and_scorers_may_not(client, arbiter, scorer):
    tournament = Tournament.objects.create(name="Open", date="2026-05-09")
    url = reverse("signup-settings", args=[tournament.pk])
    client.force_login(scorer)
    assert client.post(url, {"signup_open": "on"}).status_code == 403
    client.force_login(arbiter)
    response = client.post(
        url,
        {"signup_open": "on", "signup_capacity": "40", "signup_closes_at": "2026-05-08T20:00"},
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.signup_open and tournament.signup_capacity == 40
    assert tournament.signup_closes_at.isoformat() == "2026-05-08T18:00:00+00:00"  # Paris time
    page = client.get(url)
    assert reverse("signup", args=[tournament.pk]) in page.text
    bad = client.post(url, {"signup_capacity": "0", "signup_closes_at": "demain"})
    assert bad.status_code == 400
    assert "Nombre maximum d&#x27;inscrits : au moins 1." in bad.text
    assert "Clôture des inscriptions : une date et une heure." in bad.text
