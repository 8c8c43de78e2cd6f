"""Issue 36: naming an account into a club is an invitation it accepts, and no membership moves
an account's tournaments to another club: the club is chosen when a tournament is created
(default: the one chosen last, shown)."""

import pytest
from django.urls import reverse

from tests.club_helpers import join_club
from tests.tournament.clubs.test_club_members import FORM, accept_invitation
from tournament.models import ClubInvitation, ClubMember, Player, Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_admins(django_user_model):
    """Club A's administrator (club named "Aaa", first by name) and club B's."""
    a = django_user_model.objects.create_user("admin-a")
    b = django_user_model.objects.create_user("admin-b")
    return a, join_club(a, "Aaa club", "admin"), b, join_club(b, "Bbb club", "admin")


def test_an_administrator_enrols_nobody_without_consent(client, two_admins):
    """The reproduction: A's administrator named B's into A; B's next tournament and its
    players became A's, found in A's arbiters' roster search. Now: an invitation, nothing else."""
    admin_a, club_a, admin_b, club_b = two_admins
    client.force_login(admin_a)
    named = client.post(
        reverse("club-members", args=[club_a.pk]), {"username": "admin-b", "role": "arbiter"}
    )
    assert named.status_code == 302
    assert not ClubMember.objects.filter(club=club_a, user=admin_b).exists()
    assert ClubInvitation.objects.filter(club=club_a, user=admin_b).exists()
    # B's next tournament is B's, and its new player is not in A's roster search.
    client.force_login(admin_b)
    assert client.post(reverse("tournament-create"), FORM).status_code == 302
    tournament = Tournament.objects.get(owner=admin_b)
    assert tournament.host_club == club_b
    client.post(
        reverse("player-register", args=[tournament.pk]),
        {"last_name": "Zebulon", "first_name": "Bprive", "licence": "", "club": ""},
    )
    assert Player.objects.get(last_name="Zebulon").origin_club == club_b
    client.force_login(admin_a)
    search = client.get(reverse("player-search"), {"q": "zebul"})
    assert "ZEBULON" not in search.content.decode()
    # Nobody but the invited account answers the invitation.
    invitation = ClubInvitation.objects.get(user=admin_b)
    refused = client.post(reverse("club-invitation-answer", args=[invitation.pk]), {"accept": "1"})
    assert refused.status_code == 404
    assert not ClubMember.objects.filter(club=club_a, user=admin_b).exists()


def test_an_accepted_invitation_moves_no_tournament_and_the_club_is_chosen(client, two_admins):
    admin_a, club_a, admin_b, club_b = two_admins
    client.force_login(admin_b)
    assert client.post(reverse("tournament-create"), FORM).status_code == 302
    client.force_login(admin_a)
    client.post(
        reverse("club-members", args=[club_a.pk]), {"username": "admin-b", "role": "arbiter"}
    )
    home = client.get(reverse("home"))
    assert reverse("club-invitations") not in home.content.decode()  # A's admin has none
    client.force_login(admin_b)
    assert reverse("club-invitations") in client.get(reverse("home")).content.decode()
    accept_invitation(client, admin_b)
    assert ClubMember.objects.get(club=club_a, user=admin_b).role == "arbiter"
    assert set(Tournament.objects.values_list("host_club__name", flat=True)) == {"Bbb club"}
    # Two clubs now: the form shows the choice, B's club (chosen last) selected.
    page = client.get(reverse("tournament-create")).content.decode()
    assert f'<option value="{club_b.pk}" selected>' in page
    assert f'<option value="{club_a.pk}">' in page
    # Left out, a member of two clubs is asked which, in French, naming the field.
    missing = client.post(reverse("tournament-create"), FORM)
    assert missing.status_code == 200 and "Choisissez le club du tournoi." in missing.text
    chosen = client.post(reverse("tournament-create"), FORM | {"host_club": club_a.pk})
    assert chosen.status_code == 302
    assert Tournament.objects.filter(owner=admin_b, host_club=club_a).count() == 1
    # The default follows the last choice.
    page = client.get(reverse("tournament-create")).content.decode()
    assert f'<option value="{club_a.pk}" selected>' in page
    # Another club than one's own is refused.
    stranger = join_club(admin_a, "Ccc club", "admin")
    other = client.post(reverse("tournament-create"), FORM | {"host_club": stranger.pk})
    assert other.status_code == 200
    assert not Tournament.objects.filter(host_club=stranger).exists()


def test_a_declined_invitation_leaves_no_membership(client, two_admins):
    admin_a, club_a, admin_b, _club_b = two_admins
    client.force_login(admin_a)
    client.post(reverse("club-members", args=[club_a.pk]), {"username": "admin-b", "role": "admin"})
    accept_invitation(client, admin_b, accept=False)
    assert not ClubMember.objects.filter(club=club_a, user=admin_b).exists()
    assert not ClubInvitation.objects.exists()
    assert Registration.objects.count() == 0
