"""The online sign-up follows the club's licence rules, as the desk does (issue 27): a new entry
is the tournament's club's; a typed licence is matched on that club's roster only; a licence
only another club's entry holds registers a new entry of this club and flags a licence conflict,
with the answer a brand-new licence gets; a tournament of no club keeps the old behaviour."""

import re
import time

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.club_helpers import join_club
from tests.tournament.signup.test_signup_services import sign
from tournament.models import ChangeLog, LicenceConflict, Player, Tournament
from tournament.signup import services as signup

pytestmark = pytest.mark.django_db

LICENCE = "0412345"


@pytest.fixture
def clubs(django_user_model):
    people = {}
    for name, club in (("arbitre-a", "Club A"), ("arbitre-b", "Club B")):
        people[name] = django_user_model.objects.create_user(name, password=f"pw-{name}-1")
        people[club] = join_club(people[name], club, "arbiter")
    # Club B's private entry (never registered in one of club A's tournaments).
    people["b-entry"] = Player.objects.create(
        last_name="Faussaire", first_name="Gaston", licence=LICENCE, club="Tarot B",
        origin_club=people["Club B"],
    )  # fmt: skip
    people["tonight"] = Tournament.objects.create(
        name="Soirée du club A", date="2026-11-26", signup_open=True,
        host_club=people["Club A"], owner=people["arbitre-a"],
    )  # fmt: skip
    return people


def post(client, tournament, **fields):
    data = {"last_name": "Vrai", "first_name": "Jean", "licence": "", "club": "", "website": "",
            "stamp": signup.form_stamp(now=time.time() - 30), **fields}  # fmt: skip
    return client.post(reverse("signup", args=[tournament.pk]), data)


def test_a_new_entry_is_the_tournament_clubs(clubs):
    registration = sign(clubs["tonight"], "Neuf", licence="0777777")
    assert registration.player.origin_club == clubs["Club A"]
    assert registration.player.licence == "0777777"
    assert not LicenceConflict.objects.exists()


def test_a_licence_on_the_clubs_roster_with_the_same_name_is_that_entry(clubs):
    mine = Player.objects.create(
        last_name="Klein", first_name="Anne", licence="0123456", origin_club=clubs["Club A"]
    )
    registration = sign(clubs["tonight"], "KLEIN", "anne", licence="0123456")
    assert registration.player == mine
    assert Player.objects.filter(licence="0123456").count() == 1
    assert not LicenceConflict.objects.exists()


def test_a_licence_on_the_clubs_roster_under_another_name_is_left_out_for_the_arbiter(clubs):
    mine = Player.objects.create(
        last_name="Isnard", first_name="Paul", licence="0999999", origin_club=clubs["Club A"]
    )
    registration = sign(clubs["tonight"], "Jacquet", "Marc", licence="0999999")
    assert registration.player != mine and not registration.player.licence
    assert registration.player.origin_club == clubs["Club A"]
    [conflict] = signup.licence_conflicts(clubs["tonight"])
    assert conflict == {"registration": registration, "licence": "0999999", "holder": mine}
    assert not LicenceConflict.objects.exists()


def test_another_clubs_entry_is_not_attached_a_new_one_is_made_and_a_conflict_flagged(
    client, clubs
):
    response = post(client, clubs["tonight"], last_name="Vrai", licence=LICENCE)
    assert response.status_code == 302
    registration = clubs["tonight"].registrations.get()
    new = registration.player
    assert new != clubs["b-entry"]
    assert (new.last_name, new.licence, new.origin_club) == ("Vrai", LICENCE, clubs["Club A"])
    conflict = LicenceConflict.objects.get()
    assert (conflict.existing, conflict.newcomer) == (clubs["b-entry"], new)
    assert (conflict.existing_club, conflict.newcomer_club) == (clubs["Club B"], clubs["Club A"])
    assert conflict.status == LicenceConflict.Status.OPEN
    # Logged in the holding club's history (naming no one): A is told nothing (issue 36);
    # the sign-up's own record as ever.
    logs = ChangeLog.objects.filter(object_type="licenceconflict", action="create")
    assert list(logs.values_list("club__name", flat=True)) == ["Club B"]
    record = ChangeLog.objects.get(object_type="registration", object_id=registration.pk)
    assert record.after["online"] is True and signup.CONFLICT_KEY not in record.after
    # The holding club's arbiters see it on their conflicts page; A's do not (yet).
    for who, club, shown in (("arbitre-a", "Club A", False), ("arbitre-b", "Club B", True)):
        client.force_login(clubs[who])
        page = client.get(reverse("licence-conflicts", args=[clubs[club].pk]))
        assert page.status_code == 200
        assert (reverse("licence-conflict", args=[conflict.pk]) in page.text) is shown
    # Club A's check-in page works and shows nothing of B's entry.
    client.force_login(clubs["arbitre-a"])
    door = client.get(reverse("checkin", args=[clubs["tonight"].pk]))
    assert door.status_code == 200
    assert "VRAI Jean" in door.text and "FAUSSAIRE" not in door.text.upper()


def _answer(client, tournament, last_name: str, licence: str) -> tuple[int, str]:
    """The visitor's answer: the status, and the page it leads to without their own name,
    number and code."""
    response = post(client, tournament, last_name=last_name, licence=licence)
    registration = tournament.registrations.get(player__last_name=last_name)
    page = client.get(response["Location"]).text
    code = registration.signup_code
    for own in (registration.player.full_name, signup.format_code(code), code, code.lower()):
        page = page.replace(own, "…")
    page = page.replace(f'id="signup-number">{registration.number}<', 'id="signup-number">…<')
    # The CSRF token is masked afresh for each page, whoever the visitor.
    page = re.sub(r'"X-CSRFToken": "[^"]*"|name="csrfmiddlewaretoken" value="[^"]*"', "", page)
    return response.status_code, page


def test_the_visitor_gets_the_answer_of_a_brand_new_licence(client, clubs):
    tournament = clubs["tonight"]
    held_elsewhere = _answer(client, tournament, "Vrai", LICENCE)
    brand_new = _answer(client, tournament, "Autre", "0888888")
    assert LicenceConflict.objects.count() == 1  # the first one did hit B's entry
    assert held_elsewhere[0] == brand_new[0] == 302
    assert held_elsewhere[1] == brand_new[1]
    assert "FAUSSAIRE" not in held_elsewhere[1].upper() and "Club B" not in held_elsewhere[1]


def test_a_same_name_entry_of_another_club_is_not_matched_by_name(clubs):
    theirs = Player.objects.create(
        last_name="Martin", first_name="Léa", club="Tarot B", origin_club=clubs["Club B"]
    )
    registration = sign(clubs["tonight"], "Martin", "Léa", club="Tarot B")
    assert registration.player != theirs
    assert registration.player.origin_club == clubs["Club A"]


def test_the_duplicate_refusal_is_unchanged(clubs):
    sign(clubs["tonight"], "Vrai", licence=LICENCE)
    with pytest.raises(ValidationError, match="déjà inscrit"):
        sign(clubs["tonight"], "Vrai", licence=LICENCE)
    assert clubs["tonight"].registrations.count() == 1


def test_a_tournament_of_no_club_keeps_the_whole_roster(clubs):
    tournament = Tournament.objects.create(name="Open", date="2026-11-27", signup_open=True)
    new = sign(tournament, "Neuf", licence="0777777").player
    assert new.origin_club is None
    # The whole roster is its roster: B's entry with the same name is that entry, no conflict.
    same = sign(tournament, "Faussaire", "Gaston", licence=LICENCE)
    assert same.player == clubs["b-entry"]
    assert not LicenceConflict.objects.exists()
