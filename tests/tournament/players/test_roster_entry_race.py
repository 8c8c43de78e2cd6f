"""Two tournaments of one club adding the same new licence at the same moment (a sign-up or a
desk in each): the licence is unique in a club, so the second save fails once the first
commits; it looks again and takes that entry (same name), or goes on as when the roster held
the licence already (another name: the sign-up registers without it, the desk refuses it,
naming the field). Never a 500. Here the other transaction's entry is saved between this one's
look-up and its save (the race's window, on both databases); tests/load's version races two
real transactions on PostgreSQL."""

from unittest import mock

import pytest
from django.core.exceptions import ValidationError

from tests.club_helpers import join_club
from tests.tournament.signup.test_signup_services import sign
from tournament.models import Player, Tournament
from tournament.players import identity, registrations
from tournament.signup import services as signup

pytestmark = pytest.mark.django_db

LICENCE = "0455555"


@pytest.fixture
def club_evenings(django_user_model):
    owner = django_user_model.objects.create_user("arbitre", password="pw-arbitre-1")
    club = join_club(owner, "Club A")
    evenings = [
        Tournament.objects.create(
            name=name, date="2026-11-26", signup_open=True, host_club=club, owner=owner
        )
        for name in ("Soirée du jeudi", "Open du samedi")
    ]
    return club, evenings


def saved_meanwhile(club, last_name: str, first_name: str):
    """The other tournament's entry of LICENCE saved just before this one's save (its
    transaction committing after this one looked the licence up): the save then fails."""
    real = identity.roster_entry_save
    saves = []

    def racing_save(player):
        if not saves:
            Player.objects.create(
                last_name=last_name, first_name=first_name, licence=LICENCE, origin_club=club
            )
        saves.append(player)
        return real(player)

    return mock.patch.object(identity, "roster_entry_save", side_effect=racing_save), saves


def test_a_sign_up_takes_the_entry_saved_meanwhile_with_the_same_name(club_evenings):
    club, (thursday, _saturday) = club_evenings
    race, saves = saved_meanwhile(club, "Dupont", "Jean")
    with race:
        registration = sign(thursday, "DUPONT", "jean", licence=LICENCE)
    assert len(saves) == 1  # one save tried, refused; the retry found the entry
    (entry,) = Player.objects.filter(licence=LICENCE)
    assert registration.player == entry and entry.origin_club == club
    assert (entry.last_name, entry.first_name) == ("Dupont", "Jean")
    assert thursday.registrations.count() == 1 and Player.objects.count() == 1


def test_a_sign_up_under_another_name_registers_without_the_licence(club_evenings):
    club, (thursday, _saturday) = club_evenings
    race, saves = saved_meanwhile(club, "Martin", "Paul")
    with race:
        registration = sign(thursday, "Dupont", "Jean", licence=LICENCE)
    assert len(saves) == 2  # refused, then the entry of the sign-up saved without the licence
    assert registration.player.last_name == "Dupont" and registration.player.licence is None
    assert Player.objects.get(licence=LICENCE).last_name == "Martin"
    # As if the roster had held it before: the arbiter sees it at the door.
    (conflict,) = signup.licence_conflicts(thursday)
    assert conflict["licence"] == LICENCE and conflict["holder"].last_name == "Martin"


def test_the_desk_takes_the_entry_saved_meanwhile_with_the_same_name(club_evenings):
    club, (_thursday, saturday) = club_evenings
    race, saves = saved_meanwhile(club, "Dupont", "Jean")
    with race:
        registration = registrations.player_register(
            tournament=saturday, last_name="DUPONT", first_name="Jean", licence=LICENCE
        )
    assert len(saves) == 1
    assert registration.player == Player.objects.get(licence=LICENCE)
    assert Player.objects.count() == 1


def test_the_desk_refuses_a_licence_saved_meanwhile_under_another_name(club_evenings):
    club, (_thursday, saturday) = club_evenings
    race, _saves = saved_meanwhile(club, "Martin", "Paul")
    with race, pytest.raises(ValidationError) as refused:
        registrations.player_register(
            tournament=saturday, last_name="Durand", first_name="Luc", licence=LICENCE
        )
    assert refused.value.message_dict == {
        "licence": [f"La licence {LICENCE} est déjà celle de MARTIN Paul."]
    }
    assert not saturday.registrations.exists()
