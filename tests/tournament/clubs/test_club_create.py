"""Superusers create clubs and invite their first administrator, who joins by accepting (issue
36): the command (an account it creates is the administrator at once), the admin, and the
laptop's arbiter who administers its one club."""

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from django.urls import reverse

from tournament.clubs.selectors import home_club
from tournament.clubs.services import club_create, invitation_answer, member_remove
from tournament.models import ChangeLog, Club, ClubInvitation, ClubMember, Player, Tournament

pytestmark = pytest.mark.django_db


def test_create_club_makes_the_club_and_its_first_administrator(django_user_model):
    out = io.StringIO()
    call_command(
        "create_club", "TC Dijon", admin="lea", code="0212345", password="pw-lea-long-1", stdout=out
    )
    club = Club.objects.get()
    assert (club.name, club.code) == ("TC Dijon", "0212345")
    member = ClubMember.objects.get()
    assert (member.user.username, member.role) == ("lea", "admin")
    assert member.user.check_password("pw-lea-long-1")
    # Recorded in the club's own history, the club then its administrator.
    assert list(ChangeLog.objects.filter(club=club).values_list("object_type", flat=True)) == [
        "clubmember",
        "club",
    ]


def test_create_club_refuses_an_unknown_account_without_password_and_a_taken_name(
    django_user_model,
):
    with pytest.raises(CommandError, match="give --password"):
        call_command("create_club", "TC Dijon", admin="nobody", stdout=io.StringIO())
    django_user_model.objects.create_user("lea")
    call_command("create_club", "TC Dijon", admin="lea", stdout=io.StringIO())
    with pytest.raises(CommandError):
        call_command("create_club", "TC Dijon", admin="lea", stdout=io.StringIO())
    assert Club.objects.count() == 1


def test_a_club_code_is_unique_when_given(django_user_model):
    lea = django_user_model.objects.create_user("lea")
    club_create(name="A", code="0212345", admin=lea)
    club_create(name="B", code="", admin=lea)
    club_create(name="C", code="  ", admin=lea)  # blank twice: no code, no clash
    assert list(Club.objects.order_by("name").values_list("code", flat=True)) == [
        "0212345",
        None,
        None,
    ]
    with pytest.raises(ValidationError):
        club_create(name="D", code="0212345", admin=lea)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Club.objects.create(name="E", code="0212345")


def test_the_last_administrator_stays(django_user_model):
    lea = django_user_model.objects.create_user("lea")
    club = club_create(name="A", admin=lea, user=lea)
    with pytest.raises(ValidationError):
        member_remove(entry=ClubMember.objects.get(club=club, user=lea))
    assert ClubMember.objects.filter(club=club).count() == 1


def test_superusers_create_clubs_in_the_admin_and_invite_their_administrator(
    client, django_user_model
):
    boss = django_user_model.objects.create_superuser("boss", password="pw-boss-1")
    lea = django_user_model.objects.create_user("lea")
    client.force_login(boss)
    response = client.post(
        reverse("admin:tournament_club_add"),
        {
            "name": "TC Dijon",
            "code": "",
            "members-TOTAL_FORMS": "0",
            "members-INITIAL_FORMS": "0",
            "invitations-TOTAL_FORMS": "1",
            "invitations-INITIAL_FORMS": "0",
            "invitations-0-user": lea.pk,
            "invitations-0-role": "admin",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert not ClubMember.objects.exists()  # nobody joins without accepting (issue 36)
    invitation = ClubInvitation.objects.get()
    assert (invitation.user, invitation.role, invitation.invited_by) == (lea, "admin", boss)
    assert ChangeLog.objects.filter(club=invitation.club, object_type="clubinvitation").exists()
    invitation_answer(invitation=invitation, user=lea, accept=True)
    assert ClubMember.objects.get().role == "admin"


def test_the_admin_adds_no_member_directly(client, django_user_model):
    boss = django_user_model.objects.create_superuser("boss", password="pw-boss-1")
    lea = django_user_model.objects.create_user("lea")
    client.force_login(boss)
    client.post(
        reverse("admin:tournament_club_add"),
        {
            "name": "TC Dijon",
            "members-TOTAL_FORMS": "1",
            "members-INITIAL_FORMS": "0",
            "members-0-user": lea.pk,
            "members-0-role": "admin",
            "invitations-TOTAL_FORMS": "0",
            "invitations-INITIAL_FORMS": "0",
        },
    )
    assert not ClubMember.objects.exists()


def test_a_superusers_club_invites_an_existing_account_whose_next_tournament_stays_in_its_club(
    django_user_model,
):
    boss = django_user_model.objects.create_superuser("boss")
    lea = django_user_model.objects.create_user("lea")
    own = club_create(name="B", admin=lea, user=lea)
    Tournament.objects.create(name="Soirée", date="2026-11-28", owner=lea, host_club=own)
    club = club_create(name="A", admin=lea, user=boss)
    assert list(ClubMember.objects.filter(user=lea).values_list("club", flat=True)) == [own.pk]
    assert ClubInvitation.objects.get(user=lea).club == club
    assert home_club(lea) == own  # the club of its next tournament, by default


def test_create_club_invites_an_existing_account(django_user_model):
    django_user_model.objects.create_user("lea")
    out = io.StringIO()
    call_command("create_club", "TC Dijon", admin="lea", stdout=out)
    assert not ClubMember.objects.exists()
    assert ClubInvitation.objects.get().user.username == "lea"
    assert "invited" in out.getvalue()


def test_the_laptop_arbiter_administers_its_club(django_user_model):
    call_command(
        "ensure_arbiter", username="arbitre", password="pw-arbitre-1", stdout=io.StringIO()
    )
    member = ClubMember.objects.get()
    assert (member.club.name, member.user.username, member.role) == ("Mon club", "arbitre", "admin")
    call_command(
        "ensure_arbiter", username="arbitre", password="pw-arbitre-2", stdout=io.StringIO()
    )
    assert ClubMember.objects.count() == 1 and Club.objects.count() == 1


def test_the_laptops_one_club_gets_the_demo_loaded_before_it(django_user_model):
    call_command("load_demo", stdout=io.StringIO())
    assert Tournament.objects.filter(host_club=None).exists()
    call_command(
        "ensure_arbiter", username="arbitre", password="pw-arbitre-1", stdout=io.StringIO()
    )
    club = Club.objects.get()
    assert not Tournament.objects.exclude(host_club=club).exists()
    assert Player.objects.exists() and not Player.objects.exclude(origin_club=club).exists()
