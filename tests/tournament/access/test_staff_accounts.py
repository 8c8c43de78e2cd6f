"""Only superusers create accounts; an owner names staff among existing accounts by their exact
username, and learns nothing more about the accounts of the site than a successful naming says.
"""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from tests.club_helpers import join_club
from tournament.access import staff
from tournament.access.roles import ARBITER
from tournament.models import Tournament, TournamentRole

pytestmark = pytest.mark.django_db


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def owner(django_user_model):
    user = django_user_model.objects.create_user("proprio", password="pw-proprio-1")
    user.groups.add(Group.objects.get_or_create(name=ARBITER)[0])
    join_club(user)
    return user


@pytest.fixture
def tournament(owner):
    return Tournament.objects.create(name="Open", date="2026-11-21", owner=owner)


def name(client: Client, tournament: Tournament, **data):
    response = client.post(
        reverse("tournament-staff", args=[tournament.pk]), {"role": "scorer", **data}
    )
    return response, [str(message) for message in get_messages(response.wsgi_request)]


def test_an_owner_cannot_create_an_account(owner, tournament):
    response, _messages = name(
        login(owner), tournament, username="marqueuse", password="soiree-du-club-42"
    )
    assert response.status_code == 400
    assert not get_user_model().objects.filter(username="marqueuse").exists()
    assert not TournamentRole.objects.exists()


def test_the_owner_page_offers_no_password_field(owner, tournament):
    page = login(owner).get(reverse("tournament-staff", args=[tournament.pk])).text
    assert 'name="username"' in page
    assert 'name="password"' not in page


def test_a_superuser_creates_a_scorer_account_for_the_evening(tournament, django_user_model):
    root = django_user_model.objects.create_superuser("root", password="pw-root-1")
    page = login(root).get(reverse("tournament-staff", args=[tournament.pk])).text
    assert 'name="password"' in page
    weak, _messages = name(login(root), tournament, username="marqueuse", password="123")
    assert weak.status_code == 400
    response, _messages = name(
        login(root), tournament, username="marqueuse", password="soiree-du-club-42"
    )
    assert response.status_code == 302
    account = get_user_model().objects.get(username="marqueuse")
    assert not account.is_superuser and not account.groups.exists()
    assert TournamentRole.objects.get(tournament=tournament, user=account).role == "scorer"


def test_unknown_and_unnameable_accounts_get_the_same_answer(owner, tournament, django_user_model):
    """An owner probing names can't tell a missing account from an inactive one or an
    administrator's: one message, which does not even repeat the name."""
    django_user_model.objects.create_user("dormant", password="pw-dormant-1", is_active=False)
    django_user_model.objects.create_superuser("admin-du-site", password="pw-admin-1")
    answers = []
    for username in ("personne", "dormant", "admin-du-site"):
        response, messages = name(login(owner), tournament, username=username)
        assert response.status_code == 400, username
        answers.append(messages)
    assert answers[0] == answers[1] == answers[2]
    assert len(answers[0]) == 1 and "personne" not in answers[0][0]
    assert not TournamentRole.objects.exists()


def test_an_owner_names_an_existing_account(owner, tournament, django_user_model):
    colleague = django_user_model.objects.create_user("collegue", password="pw-collegue-1")
    response, _messages = name(login(owner), tournament, username="collegue")
    assert response.status_code == 302
    assert TournamentRole.objects.get(tournament=tournament).user == colleague


def test_an_owner_cannot_guess_usernames_for_long(owner, tournament, django_user_model):
    django_user_model.objects.create_user("collegue", password="pw-collegue-1")
    client = login(owner)
    for attempt in range(staff.NAMING_ATTEMPTS):
        response, _messages = name(client, tournament, username=f"essai-{attempt}")
        assert response.status_code == 400
    # Past the allowance even an existing account is refused, and nothing says it exists.
    response, messages = name(client, tournament, username="collegue")
    assert response.status_code == 429
    assert not TournamentRole.objects.exists()
    assert all("collegue" not in message for message in messages)
