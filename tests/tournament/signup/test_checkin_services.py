"""Check-in at the door: who is present is who is seated and ranked; every change is logged."""

import pytest
from django.core.exceptions import ValidationError

from scoring.live.standings import standings_for
from tests.tournament.evening.positions_helpers import make_tournament
from tournament.evening.positions import position_generate, position_publish
from tournament.models import ChangeLog, Registration, Seat, Tournament
from tournament.players.registrations import registration_withdraw
from tournament.signup import checkin
from tournament.signup import services as signup

pytestmark = pytest.mark.django_db


def expected(tournament, count: int) -> list[Registration]:
    """`count` players signed up online (pré-inscrits), after the ones already registered."""
    Tournament.objects.filter(pk=tournament.pk).update(signup_open=True)
    return [
        signup.signup_register(tournament=tournament, last_name=f"Attendu{i}", first_name="Al")
        for i in range(count)
    ]


def seated(tournament, number: int = 1) -> set[int]:
    return set(
        Seat.objects.filter(
            table__position__tournament=tournament, table__position__number=number
        ).values_list("registration_id", flat=True)
    )


def test_a_tournament_without_online_registration_seats_everybody_as_before():
    tournament = make_tournament(players=16, positions=2)
    position_generate(tournament=tournament, seed=1)
    assert seated(tournament) == set(tournament.registrations.values_list("pk", flat=True))


def test_position_1_is_generated_only_from_the_players_checked_in(arbiter):
    tournament = make_tournament(players=12, positions=2)
    online = expected(tournament, 6)
    for registration in online[:4]:
        checkin.registration_check_in(registration=registration, present=True, user=arbiter)
    position_generate(tournament=tournament, seed=3, user=arbiter)
    present = set(
        tournament.registrations.filter(status=Registration.Status.ACTIVE).values_list(
            "pk", flat=True
        )
    )
    assert len(present) == 16
    assert seated(tournament) == present
    assert seated(tournament, 2) == present
    assert not seated(tournament) & {r.pk for r in online[4:]}


def test_check_in_toggles_and_logs_who_when_before_and_after(arbiter):
    tournament = make_tournament(players=0)
    (registration,) = expected(tournament, 1)
    checkin.registration_check_in(registration=registration, present=True, user=arbiter)
    registration.refresh_from_db()
    assert registration.status == Registration.Status.ACTIVE
    assert registration.checked_in_at is not None and registration.first_position == 1
    checkin.registration_check_in(registration=registration, present=False, user=arbiter)
    registration.refresh_from_db()
    assert registration.status == Registration.Status.EXPECTED
    assert registration.checked_in_at is None
    logs = list(
        ChangeLog.objects.filter(
            object_type="registration", object_id=registration.pk, user=arbiter
        ).order_by("pk")
    )
    assert [(log.before["status"], log.after["status"]) for log in logs] == [
        ("expected", "active"),
        ("active", "expected"),
    ]
    assert logs[0].after["checked_in_at"] and logs[0].at


def test_pressing_enter_twice_changes_nothing_the_second_time(arbiter):
    tournament = make_tournament(players=0)
    (registration,) = expected(tournament, 1)
    for _ in range(2):
        checkin.registration_check_in(registration=registration, present=True, user=arbiter)
    assert ChangeLog.objects.filter(object_type="registration", user=arbiter).count() == 1


def test_a_late_arrival_checked_in_after_position_1_plays_from_position_2(arbiter):
    tournament = make_tournament(players=16, positions=3)
    late, absent = expected(tournament, 2)
    position_generate(tournament=tournament, seed=5)
    position_publish(position=tournament.positions.get(number=1))
    checkin.registration_check_in(registration=late, present=True, user=arbiter)
    late.refresh_from_db()
    assert late.first_position == 2
    position_generate(tournament=tournament, seed=5)  # the re-plan of drafts
    assert late.pk in seated(tournament, 2) and late.pk not in seated(tournament, 1)
    assert absent.pk not in seated(tournament, 2) | seated(tournament, 3)


def test_a_player_who_has_played_cannot_be_unchecked_but_may_withdraw(arbiter):
    tournament = make_tournament(players=16, positions=2)
    position_generate(tournament=tournament, seed=5)
    position_publish(position=tournament.positions.get(number=1))
    player = tournament.registrations.first()
    with pytest.raises(ValidationError) as caught:
        checkin.registration_check_in(registration=player, present=False, user=arbiter)
    assert "déjà joué" in caught.value.messages[0]
    registration_withdraw(registration=player)
    with pytest.raises(ValidationError) as caught:
        checkin.registration_check_in(registration=player, present=True, user=arbiter)
    assert "forfait" in caught.value.messages[0]


def test_players_who_never_came_are_not_ranked():
    tournament = make_tournament(players=16, positions=1)
    absent = expected(tournament, 2)
    position_generate(tournament=tournament, seed=2)
    position_publish(position=tournament.positions.get(number=1))
    ranked = {ranked.row.key for ranked in standings_for(tournament, public=False).players}
    assert len(ranked) == 16
    assert not ranked & {r.pk for r in absent}


def test_a_walk_in_is_registered_present_and_logged(arbiter):
    tournament = make_tournament(players=0)
    registration = checkin.walkin_register(
        tournament=tournament, last_name="Noël", first_name="Océane", club="Lyon", user=arbiter
    )
    assert registration.status == Registration.Status.ACTIVE
    assert registration.checked_in_at is not None
    assert ChangeLog.objects.filter(object_id=registration.pk, user=arbiter).count() == 2


def test_a_walk_in_who_had_signed_up_is_pointed_to_their_registration(arbiter):
    tournament = make_tournament(players=0)
    Tournament.objects.filter(pk=tournament.pk).update(signup_open=True)
    signup.signup_register(tournament=tournament, last_name="Côté", first_name="François")
    with pytest.raises(ValidationError) as caught:
        checkin.walkin_register(
            tournament=tournament, last_name="COTE", first_name="francois", user=arbiter
        )
    assert "a déjà une inscription (n° 1) : pointez-la" in caught.value.messages[0]
    assert tournament.registrations.count() == 1


def test_check_in_is_refused_once_the_tournament_is_finished(arbiter):
    from tournament.access.lifecycle import Locked

    tournament = make_tournament(players=0)
    (registration,) = expected(tournament, 1)
    Tournament.objects.filter(pk=tournament.pk).update(status="finished")
    with pytest.raises(Locked):
        checkin.registration_check_in(registration=registration, present=True, user=arbiter)
