"""The laptop's club is named on a page, not only in /admin/ (issue 40): `ensure_arbiter`
creates "Mon club"; its administrator gives it the comité's name and FFT number, checked and
recorded in the club's history; nobody else may."""

from __future__ import annotations

import html
import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from tournament.models import ChangeLog, Club

pytestmark = pytest.mark.django_db


def laptop_club(client, django_user_model) -> Club:
    call_command(
        "ensure_arbiter", username="arbitre", password="pw-arbitre-1", stdout=io.StringIO()
    )
    client.force_login(django_user_model.objects.get(username="arbitre"))
    return Club.objects.get(name="Mon club")


def test_the_administrator_names_the_club_as_on_the_server(client, django_user_model):
    club = laptop_club(client, django_user_model)
    members = client.get(reverse("club-members", args=[club.pk])).content.decode()
    page = reverse("club-identity", args=[club.pk])
    assert page in members
    answer = client.post(page, {"name": "  Tarot Club   de Mâcon ", "code": " 0712 "})
    assert answer.status_code == 302
    club.refresh_from_db()
    assert (club.name, club.code) == ("Tarot Club de Mâcon", "0712")
    record = ChangeLog.objects.filter(club=club, action="update").get()
    assert record.before == {"name": "Mon club", "code": None}
    assert record.after == {"name": "Tarot Club de Mâcon", "code": "0712"}
    assert record.user.username == "arbitre"


def test_a_name_or_number_another_club_has_is_refused_naming_the_field(client, django_user_model):
    club = laptop_club(client, django_user_model)
    Club.objects.create(name="Club voisin", code="0999")
    page = reverse("club-identity", args=[club.pk])
    said = html.unescape(client.post(page, {"name": "club voisin", "code": ""}).content.decode())
    assert "Nom du club : un autre club porte déjà ce nom." in said
    said = html.unescape(client.post(page, {"name": "Mon club", "code": "0999"}).content.decode())
    assert "Numéro de club FFT : un autre club a déjà ce numéro." in said
    said = html.unescape(client.post(page, {"name": "", "code": ""}).content.decode())
    assert "Ce champ est obligatoire" in said
    club.refresh_from_db()
    assert (club.name, club.code) == ("Mon club", None)
    assert not ChangeLog.objects.filter(club=club, action="update").exists()


def test_only_the_clubs_administrator_names_it(client, django_user_model):
    club = laptop_club(client, django_user_model)
    client.force_login(django_user_model.objects.create_user("passant", password="pw-passant-1"))
    page = reverse("club-identity", args=[club.pk])
    assert client.post(page, {"name": "Pris", "code": ""}).status_code in (403, 404)
    club.refresh_from_db()
    assert club.name == "Mon club"
