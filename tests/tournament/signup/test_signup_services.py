"""Online pre-registration services: capacity, closing time, duplicates, licence rule."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from tournament.models import ChangeLog, Player, Position, Registration, Tournament
from tournament.signup import services as signup

pytestmark = pytest.mark.django_db


def open_tournament(**fields) -> Tournament:
    return Tournament.objects.create(
        name="Open de printemps", date="2026-04-18", signup_open=True, **fields
    )


def sign(tournament, last_name, first_name="Jo", licence="", club="", **kw) -> Registration:
    return signup.signup_register(
        tournament=tournament,
        last_name=last_name,
        first_name=first_name,
        licence=licence,
        club=club,
        **kw,
    )


def refused(call) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        call()
    return caught.value


def test_a_sign_up_registers_a_pre_registered_player_with_a_code_and_logs_it():
    tournament = open_tournament()
    registration = sign(tournament, "Lefèvre", "Hélène", club="Tarot Club de Lyon")
    assert registration.status == Registration.Status.EXPECTED
    assert registration.number == 1
    assert len(registration.signup_code) == 8
    assert set(registration.signup_code) <= set(signup.CODE_ALPHABET)
    assert registration.signed_up_at is not None and registration.checked_in_at is None
    assert registration.player.club == "Tarot Club de Lyon"
    log = ChangeLog.objects.get(object_type="registration", object_id=registration.pk)
    assert log.action == "create" and log.after["status"] == "expected" and log.user is None


def test_capacity_refuses_the_sign_up_after_the_last_place_and_a_withdrawal_frees_one():
    tournament = open_tournament(signup_capacity=2)
    first = sign(tournament, "Arnaud")
    sign(tournament, "Blanc")
    error = refused(lambda: sign(tournament, "Carpentier"))
    assert "Complet" in error.messages[0] and "2 places" in error.messages[0]
    assert tournament.registrations.count() == 2
    first.status = Registration.Status.WITHDRAWN
    first.save()
    assert sign(tournament, "Carpentier").number == 3


def test_capacity_counts_the_players_the_arbiter_registered_too():
    tournament = open_tournament(signup_capacity=1)
    tournament.registrations.create(player=Player.objects.create(last_name="Dubois"), number=1)
    assert signup.places_left(tournament) == 0
    assert "Complet" in refused(lambda: sign(tournament, "Escoffier")).messages[0]


def test_no_sign_up_after_the_closing_time_nor_once_closed_or_started():
    tournament = open_tournament(signup_closes_at=timezone.now() - timedelta(minutes=1))
    assert "closes depuis" in refused(lambda: sign(tournament, "Faure")).messages[0]
    tournament.signup_closes_at = timezone.now() + timedelta(days=1)
    tournament.save()
    assert sign(tournament, "Faure").pk
    Position.objects.create(tournament=tournament, number=1, status="published")
    assert "a commencé" in refused(lambda: sign(tournament, "Girard")).messages[0]
    tournament.positions.all().delete()
    tournament.signup_open = False
    tournament.save()
    assert "fermées" in refused(lambda: sign(tournament, "Girard")).messages[0]
    assert tournament.registrations.count() == 1


# (last name, first name, fields) signed up, then the same person as typed again.
SAME_PERSON = {
    "the same licence": (
        ("Hubert", "Léa", {"licence": "0412345"}),
        ("Hubert", "Lea", {"licence": "041 2345"}),
    ),
    "the same name and club, ignoring accents and case": (
        ("Côté", "François", {"club": "Club de Saint-Étienne"}),
        ("COTE", "francois", {"club": "club de saint etienne"}),
    ),
}


@pytest.mark.parametrize(("signed", "again"), SAME_PERSON.values(), ids=list(SAME_PERSON))
def test_the_same_person_twice_is_refused(signed, again):
    tournament = open_tournament()
    sign(tournament, *signed[:2], **signed[2])
    error = refused(lambda: sign(tournament, *again[:2], **again[2]))
    assert "déjà inscrit" in error.messages[0]
    assert tournament.registrations.count() == 1


def test_the_same_name_in_another_club_is_another_person():
    tournament = open_tournament()
    sign(tournament, "Côté", "François", club="Club de Saint-Étienne")
    assert sign(tournament, "Côté", "François", club="Tarot Lyonnais").number == 2


def test_homonyms_with_two_licences_are_two_people():
    tournament = open_tournament()
    sign(tournament, "Garcia", "Valérie", licence="1000001", club="Nîmes")
    assert sign(tournament, "Garcia", "Valérie", licence="1000002", club="Nîmes").number == 2


def test_a_licence_on_the_roster_under_another_name_is_left_out_and_flagged_for_the_arbiter():
    """Not refused: a refusal would tell a stranger the licence is known (the public page
    answers the same either way; tests/tournament/signup/test_signup_hardening.py)."""
    holder = Player.objects.create(last_name="Isnard", first_name="Paul", licence="0999999")
    tournament = open_tournament()
    registration = sign(tournament, "Jacquet", "Marc", licence="0999999")
    assert registration.player != holder and not registration.player.licence
    [conflict] = signup.licence_conflicts(tournament)
    assert conflict == {"registration": registration, "licence": "0999999", "holder": holder}


def test_a_roster_player_signing_up_is_not_duplicated_on_the_roster():
    known = Player.objects.create(last_name="Klein", first_name="Anne", licence="0123456")
    tournament = open_tournament()
    registration = sign(tournament, "KLEIN", "anne", licence="0123456")
    assert registration.player == known
    assert Player.objects.count() == 1


def test_licence_required_and_field_checks_name_the_field():
    tournament = open_tournament(signup_licence_required=True)
    error = refused(lambda: sign(tournament, "Lemoine"))
    assert "Licence FFT" in error.message_dict["licence"][0]
    error = refused(lambda: sign(tournament, "Lemoine", licence="12;DROP"))
    assert "Licence FFT" in error.message_dict["licence"][0]
    error = refused(lambda: sign(tournament, "  ", licence="1234567"))
    assert "Nom" in error.message_dict["last_name"][0]
    assert tournament.registrations.count() == 0


def test_settings_changes_are_logged_with_before_and_after(arbiter):
    tournament = open_tournament()
    closes = timezone.now() + timedelta(days=3)
    signup.signup_settings_update(
        tournament=tournament,
        data={"signup_open": False, "signup_capacity": 40, "signup_closes_at": closes},
        user=arbiter,
    )
    tournament.refresh_from_db()
    assert (tournament.signup_open, tournament.signup_capacity) == (False, 40)
    log = ChangeLog.objects.get(object_type="tournament", user=arbiter)
    assert log.before == {"signup_open": True, "signup_capacity": None, "signup_closes_at": None}
    assert log.after["signup_capacity"] == 40 and log.after["signup_open"] is False


def test_settings_refuse_a_capacity_out_of_bounds():
    tournament = open_tournament()
    with pytest.raises(ValidationError) as caught:
        signup.signup_settings_update(tournament=tournament, data={"signup_capacity": 0})
    assert "signup_capacity" in caught.value.message_dict


def test_a_signup_licence_follows_the_roster_rule_zeros_restored_letters_refused():
    tournament = open_tournament()
    registration = sign(tournament, "Hubert", "Léa", licence="412345")
    assert registration.player.licence == "0412345"
    error = refused(lambda: sign(tournament, "Roux", "Ana", licence="AB12"))
    assert "licence" in error.message_dict
