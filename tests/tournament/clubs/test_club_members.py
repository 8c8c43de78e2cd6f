"""A club's administrator names its arbiters; creating a tournament needs a club, and the
tournament is that club's."""

import pytest
from django.urls import reverse

from tests.club_helpers import join_club
from tests.tournament.players.test_registration_tournament import SETTINGS as CHALON
from tournament.models import ChangeLog, ClubMember, Tournament

pytestmark = pytest.mark.django_db

FORM = CHALON | dict(format="individual", positions_count="4", remainder="five", rule_set="fft")


def test_the_administrator_names_and_removes_an_arbiter(client, django_user_model):
    admin = django_user_model.objects.create_user("admin-a")
    club = join_club(admin, "Club A", "admin")
    newcomer = django_user_model.objects.create_user("lea")
    client.force_login(admin)
    url = reverse("club-members", args=[club.pk])
    assert client.post(url, {"username": "lea", "role": "arbiter"}).status_code == 302
    member = ClubMember.objects.get(user=newcomer)
    assert (member.club, member.role) == (club, "arbiter")
    assert "lea" in client.get(url).content.decode()
    client.post(reverse("club-member-remove", args=[club.pk, member.pk]))
    assert not ClubMember.objects.filter(user=newcomer).exists()
    assert list(
        ChangeLog.objects.filter(club=club, object_type="clubmember").values_list(
            "action", flat=True
        )
    ) == ["delete", "create"]
    assert client.post(url, {"username": "nobody", "role": "arbiter"}).status_code == 400
    # A NUL byte is refused like an unknown name (PostgreSQL would refuse it in the query).
    refused = client.post(url, {"username": "le\x00a", "role": "arbiter"})
    assert refused.status_code == 400
    assert "Aucun compte actif" in refused.content.decode()


def test_an_arbiter_names_nobody(client, django_user_model):
    arbiter = django_user_model.objects.create_user("arbitre-a")
    club = join_club(arbiter, "Club A", "arbiter")
    django_user_model.objects.create_user("lea")
    client.force_login(arbiter)
    response = client.post(reverse("club-members", args=[club.pk]), {"username": "lea"})
    assert response.status_code == 403
    assert ClubMember.objects.count() == 1


def test_creating_a_tournament_needs_a_club_and_gives_it_the_tournament(client, django_user_model):
    loner = django_user_model.objects.create_user("seul")
    client.force_login(loner)
    assert client.post(reverse("tournament-create"), FORM).status_code == 403
    club = join_club(loner, "Club A", "arbiter")
    client.force_login(loner)
    assert client.post(reverse("tournament-create"), FORM).status_code == 302
    tournament = Tournament.objects.get()
    assert (tournament.owner, tournament.host_club) == (loner, club)
