"""The position clock: pure time arithmetic with an injected now, and the arbiter's services."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from tests.desk_helpers import make_tournament
from tournament.access.lifecycle import Locked, position_close, tournament_finish
from tournament.evening import clock
from tournament.evening.clock import ClockFields, clock_state
from tournament.models import ChangeLog, Position

T0 = datetime.datetime(2026, 11, 21, 14, 0, tzinfo=datetime.UTC)


def at(seconds: float) -> datetime.datetime:
    return T0 + datetime.timedelta(seconds=seconds)


# --- pure arithmetic ------------------------------------------------------------------------


def test_a_clock_never_started_shows_nothing_running():
    state = clock_state(clock.NOT_STARTED, T0)
    assert (state.started, state.running, state.paused, state.remaining) == (False, False, False, 0)
    assert not state.expired


def test_a_started_clock_counts_down_from_its_full_length():
    fields = clock.started(50, T0)
    assert clock_state(fields, T0).remaining == 50 * 60
    assert clock_state(fields, T0).display == "50:00"
    assert clock_state(fields, at(0.4)).remaining == 3000  # a part-second left counts
    assert clock_state(fields, at(61)).remaining == 2939
    assert clock_state(fields, at(61)).display == "48:59"


def test_a_clock_stops_at_zero_and_says_it_ran_out():
    fields = clock.started(1, T0)
    late = clock_state(fields, at(600))
    assert late.remaining == 0 and late.running and late.expired


def test_pausing_keeps_the_seconds_left_and_resuming_starts_from_them():
    fields = clock.paused(clock.started(50, T0), at(600))
    assert fields == ClockFields(paused_left=2400)
    # Paused, time does not pass.
    assert clock_state(fields, at(5000)).remaining == 2400
    assert clock_state(fields, at(5000)).paused
    resumed = clock.resumed(fields, at(5000))
    assert clock_state(resumed, at(5000)).remaining == 2400
    assert clock_state(resumed, at(5100)).remaining == 2300


def test_adding_minutes_moves_the_end_of_a_running_clock():
    fields = clock.extended(clock.started(50, T0), 5, at(60))
    assert clock_state(fields, at(60)).remaining == (55 * 60) - 60


def test_adding_minutes_to_a_clock_that_ran_out_counts_from_now():
    fields = clock.extended(clock.started(1, T0), 5, at(3600))
    assert clock_state(fields, at(3600)).remaining == 300


def test_adding_minutes_to_a_paused_clock_adds_to_what_is_left():
    fields = clock.extended(ClockFields(paused_left=100), 2, at(0))
    assert fields == ClockFields(paused_left=220)


def test_taking_back_more_minutes_than_left_stops_at_zero():
    assert clock.extended(ClockFields(paused_left=30), -1, T0) == ClockFields(paused_left=0)
    running = clock.extended(clock.started(1, T0), -5, T0)
    assert clock_state(running, T0).remaining == 0


def test_display_beyond_an_hour_shows_hours():
    assert clock_state(ClockFields(paused_left=3725), T0).display == "1:02:05"


# --- services -------------------------------------------------------------------------------


@pytest.fixture
def position(db):
    _tournament, position = make_tournament(position_minutes=40)
    return position


def reload(position: Position) -> Position:
    return Position.objects.select_related("tournament").get(pk=position.pk)


def test_start_uses_the_tournaments_position_length_and_is_logged(position, arbiter):
    clock.clock_start(position=position, user=arbiter, now=T0)
    position = reload(position)
    assert position.clock_ends_at == at(40 * 60)
    assert position.clock_paused_left is None
    state = clock.state_of(position, at(60))
    assert state.running and state.remaining == 39 * 60
    change = ChangeLog.objects.filter(object_type="position", object_id=position.pk).first()
    assert change.after["clock"]["action"] == "start"
    assert change.after["clock"]["minutes"] == 40
    assert change.username == arbiter.username


def test_pause_resume_and_add_through_the_services(position):
    clock.clock_start(position=position, now=T0)
    clock.clock_pause(position=position, now=at(300))
    position = reload(position)
    assert position.clock_ends_at is None and position.clock_paused_left == 35 * 60
    clock.clock_add(position=position, minutes=5, now=at(900))
    assert reload(position).clock_paused_left == 40 * 60
    clock.clock_resume(position=position, now=at(1000))
    position = reload(position)
    assert position.clock_paused_left is None
    assert clock.state_of(position, at(1000)).remaining == 40 * 60
    actions = [
        c.after["clock"]["action"]
        for c in ChangeLog.objects.filter(object_type="position").order_by("pk")
    ]
    assert actions == ["start", "pause", "add", "resume"]


def test_what_makes_no_sense_is_refused_with_a_message(position):
    with pytest.raises(ValidationError, match="Lancez d'abord"):
        clock.clock_add(position=position, minutes=5, now=T0)
    with pytest.raises(ValidationError, match="ne tourne pas"):
        clock.clock_pause(position=position, now=T0)
    clock.clock_start(position=position, now=T0)
    with pytest.raises(ValidationError, match="tourne déjà"):
        clock.clock_start(position=position, now=at(10))
    with pytest.raises(ValidationError, match="pas en pause"):
        clock.clock_resume(position=position, now=at(10))


def test_a_clock_that_ran_out_may_be_started_again(position):
    clock.clock_start(position=position, minutes=1, now=T0)
    clock.clock_start(position=position, now=at(120))
    assert clock.state_of(reload(position), at(120)).remaining == 40 * 60


@pytest.mark.parametrize("minutes", ["", "abc", "0", "121", "-121", "2.5"])
def test_minutes_out_of_bounds_are_refused_naming_the_field(position, minutes):
    clock.clock_start(position=position, now=T0)
    with pytest.raises(ValidationError) as error:
        clock.clock_add(position=position, minutes=minutes, now=at(1))
    assert "minutes" in error.value.message_dict
    assert "Minutes" in error.value.message_dict["minutes"][0]


def test_a_draft_position_has_no_clock(position):
    draft = Position.objects.create(tournament=position.tournament, number=2)
    assert clock.state_of(draft) is None
    with pytest.raises(ValidationError, match="pas publiée"):
        clock.clock_start(position=draft, now=T0)


def test_a_closed_position_has_no_clock_and_refuses_it(position):
    clock.clock_start(position=position, now=T0)
    position_close(position=position)
    position = reload(position)
    assert clock.state_of(position) is None
    with pytest.raises(Locked):
        clock.clock_add(position=position, minutes=5)


def test_a_finished_tournament_refuses_the_clock(position):
    tournament_finish(tournament=position.tournament)
    with pytest.raises(Locked):
        clock.clock_start(position=reload(position))
