"""A club's administrator names its arbiters; creating a tournament needs a club, and the
tournament is that club's."""

import pytest
from django.urls import reverse

from tests.club_helpers import join_club
from tests.tournament.players.test_registration_tournament import SETTINGS as CHALON
from tournament.models import ChangeLog, ClubInvitation, ClubMember, Tournament

pytestmark = pytest.mark.django_db

FORM = CHALON | dict(format="individual", positions_count="4", remainder="five", rule_set="fft")


def accept_invitation(client, account, *, accept: bool = True):
    """`account` opens its invitations and answers the one waiting."""
    client.force_login(account)
    page = client.get(reverse("club-invitations"))
    assert page.status_code == 200
    invitation = ClubInvitation.objects.get(user=account)
    response = client.post(
        reverse("club-invitation-answer", args=[invitation.pk]), {"accept": "1" if accept else "0"}
    )
    assert response.status_code == 302
    return response


def test_the_administrator_names_and_removes_an_arbiter(client, django_user_model):
    admin = django_user_model.objects.create_user("admin-a")
    club = join_club(admin, "Club A", "admin")
    newcomer = django_user_model.objects.create_user("lea")
    client.force_login(admin)
    url = reverse("club-members", args=[club.pk])
    assert client.post(url, {"username": "lea", "role": "arbiter"}).status_code == 302
    # An invitation: lea is a member only once she accepts (issue 36).
    assert not ClubMember.objects.filter(user=newcomer).exists()
    assert "lea" in client.get(url).content.decode()
    accept_invitation(client, newcomer)
    member = ClubMember.objects.get(user=newcomer)
    assert (member.club, member.role) == (club, "arbiter")
    client.force_login(admin)
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


def test_a_club_administrator_cannot_confirm_a_site_administrators_name(client, django_user_model):
    """As on the staff page: a superuser's username is refused exactly like an unknown one (a
    club administrator could otherwise probe which accounts run the site)."""
    admin = django_user_model.objects.create_user("admin-a")
    club = join_club(admin, "Club A", "admin")
    django_user_model.objects.create_superuser("racine", password="x")
    client.force_login(admin)
    url = reverse("club-members", args=[club.pk])
    root = client.post(url, {"username": "racine", "role": "arbiter"})
    unknown = client.post(url, {"username": "personne", "role": "arbiter"})
    assert root.status_code == unknown.status_code == 400
    assert "Aucun compte actif" in root.content.decode()
    assert not ClubMember.objects.filter(user__username="racine").exists()


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


def test_an_administrator_cannot_guess_usernames_for_long(client, django_user_model):
    """The members page names accounts by exact username like the tournament staff page, and
    shares its allowance per account: past it, even an existing account is refused (429) and
    the page says nothing of it; the count is one database row (tournament.access.throttle)."""
    from tournament.access import staff
    from tournament.models.limits import Counter

    admin = django_user_model.objects.create_user("admin-a")
    club = join_club(admin, "Club A", "admin")
    django_user_model.objects.create_user("lea")
    client.force_login(admin)
    url = reverse("club-members", args=[club.pk])
    for attempt in range(staff.NAMING_ATTEMPTS):
        refused = client.post(url, {"username": f"essai-{attempt}", "role": "arbiter"})
        assert refused.status_code == 400
    throttled = client.post(url, {"username": "lea", "role": "arbiter"})
    assert throttled.status_code == 429
    assert "Trop de noms essayés" in throttled.content.decode()
    assert "lea" not in throttled.content.decode()
    assert not ClubMember.objects.filter(user__username="lea").exists()
    assert Counter.objects.get(key=f"staff-naming:{admin.pk}").hits == staff.NAMING_ATTEMPTS + 1


def test_the_two_naming_pages_share_one_allowance(client, django_user_model):
    """Guesses on a tournament's staff page count on the club's members page too."""
    from tournament.access import staff
    from tournament.models.limits import Counter

    admin = django_user_model.objects.create_user("admin-a")
    club = join_club(admin, "Club A", "admin")
    Counter.objects.create(
        key=f"staff-naming:{admin.pk}", hits=staff.NAMING_ATTEMPTS, window_end=2e9
    )
    django_user_model.objects.create_user("lea")
    client.force_login(admin)
    response = client.post(
        reverse("club-members", args=[club.pk]), {"username": "lea", "role": "arbiter"}
    )
    assert response.status_code == 429
    assert ClubMember.objects.count() == 1


def test_a_superuser_names_members_without_a_count(client, django_user_model):
    from tournament.access import staff
    from tournament.models.limits import Counter

    root = django_user_model.objects.create_superuser("root", password="pw-root-1")
    club = join_club(django_user_model.objects.create_user("admin-a"), "Club A", "admin")
    django_user_model.objects.create_user("lea")
    client.force_login(root)
    url = reverse("club-members", args=[club.pk])
    for attempt in range(staff.NAMING_ATTEMPTS + 1):
        client.post(url, {"username": f"essai-{attempt}", "role": "arbiter"})
    assert client.post(url, {"username": "lea", "role": "arbiter"}).status_code == 302
    assert ClubInvitation.objects.filter(user__username="lea", club=club).exists()
    assert not Counter.objects.filter(key__startswith="staff-naming:").exists()
