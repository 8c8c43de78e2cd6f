"""The position clock: how long the tables have left, started, paused and extended by an arbiter.

A position's clock is three states held in two fields of Position: not started (both empty),
running (`clock_ends_at` set: the end moves with the wall clock) and paused (`clock_paused_left`
set: the seconds that were left). The arithmetic is pure (`clock_state`, `started`, `paused`,
`resumed`, `extended` take `now`); the services lock the position row, refuse a position that
is not published and open, and leave a ChangeLog record.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.access.audit import save_recorded
from tournament.access.lifecycle import ensure_position_open, locked_position
from tournament.models import Position

# What an arbiter may add (or take back) in one go, in minutes.
MAX_ADD_MINUTES = 120
MAX_DURATION_MINUTES = 600


@dataclass(frozen=True)
class ClockState:
    """What a clock shows at one instant."""

    remaining: int  # whole seconds left, never negative
    running: bool
    paused: bool

    @property
    def started(self) -> bool:
        return self.running or self.paused

    @property
    def expired(self) -> bool:
        return self.started and self.remaining == 0

    @property
    def display(self) -> str:
        """ "12:05", or "1:02:05" beyond an hour."""
        hours, rest = divmod(self.remaining, 3600)
        minutes, seconds = divmod(rest, 60)
        if hours:
            return f"{hours}:{minutes:02d}:{seconds:02d}"
        return f"{minutes}:{seconds:02d}"


@dataclass(frozen=True)
class ClockFields:
    """The two stored fields: `ends_at` while running, `paused_left` (seconds) while paused."""

    ends_at: datetime.datetime | None = None
    paused_left: int | None = None


NOT_STARTED = ClockFields()


def clock_state(fields: ClockFields, now: datetime.datetime) -> ClockState:
    if fields.ends_at is not None:
        left = (fields.ends_at - now).total_seconds()
        # Rounded up: a clock started for 50 minutes shows 50:00, not 49:59, at its start.
        return ClockState(remaining=max(0, _ceil(left)), running=True, paused=False)
    if fields.paused_left is not None:
        return ClockState(remaining=max(0, fields.paused_left), running=False, paused=True)
    return ClockState(remaining=0, running=False, paused=False)


def _ceil(seconds: float) -> int:
    whole = int(seconds)
    return whole + 1 if seconds > whole else whole


def started(minutes: int, now: datetime.datetime) -> ClockFields:
    return ClockFields(ends_at=now + datetime.timedelta(minutes=minutes))


def paused(fields: ClockFields, now: datetime.datetime) -> ClockFields:
    return ClockFields(paused_left=clock_state(fields, now).remaining)


def resumed(fields: ClockFields, now: datetime.datetime) -> ClockFields:
    return ClockFields(ends_at=now + datetime.timedelta(seconds=fields.paused_left or 0))


def extended(fields: ClockFields, minutes: int, now: datetime.datetime) -> ClockFields:
    """Add (or take back, when negative) minutes; an expired running clock restarts from now."""
    delta = datetime.timedelta(minutes=minutes)
    if fields.ends_at is not None:
        ends_at = max(fields.ends_at, now) + delta
        return ClockFields(ends_at=max(ends_at, now))
    return ClockFields(paused_left=max(0, (fields.paused_left or 0) + minutes * 60))


# --- the database side ----------------------------------------------------------------------


def fields_of(position: Position) -> ClockFields:
    return ClockFields(ends_at=position.clock_ends_at, paused_left=position.clock_paused_left)


def state_of(position: Position, now: datetime.datetime | None = None) -> ClockState | None:
    """The clock of a position in play; None for a draft or closed position (no clock)."""
    if position.status != Position.Status.PUBLISHED:
        return None
    return clock_state(fields_of(position), now or timezone.now())


def _locked(position: Position) -> Position:
    position = locked_position(position)
    ensure_position_open(position)
    if position.status != Position.Status.PUBLISHED:
        raise ValidationError(
            _("La position %(number)s n'est pas publiée : elle n'a pas d'horloge.")
            % {"number": position.number}
        )
    return position


def _save(position: Position, new: ClockFields, action: str, user, **extra) -> Position:
    before = _snapshot(fields_of(position))
    position.clock_ends_at = new.ends_at
    position.clock_paused_left = new.paused_left
    save_recorded(
        position,
        update_fields=["clock_ends_at", "clock_paused_left"],
        tournament=position.tournament,
        before={"clock": before},
        after={"clock": {**_snapshot(new), "action": action, **extra}},
        user=user,
    )
    return position


def _snapshot(fields: ClockFields) -> dict:
    return {
        "ends_at": fields.ends_at.isoformat() if fields.ends_at else None,
        "paused_left": fields.paused_left,
    }


def _minutes(value, *, field: str, low: int, high: int) -> int:
    try:
        minutes = int(value)
    except (TypeError, ValueError):
        minutes = None
    if minutes is None or not low <= minutes <= high or minutes == 0:
        message = _("Minutes : un nombre entier entre %(low)s et %(high)s, sauf 0.")
        raise ValidationError({field: message % {"low": low, "high": high}})
    return minutes


def _change(
    position: Position,
    now: datetime.datetime | None,
    user,
    action: str,
    allowed: Callable[[ClockState], bool],
    refusal: str,
    change: Callable[[ClockFields, datetime.datetime], ClockFields],
    **extra,
) -> Position:
    """The services' common steps on a locked position: refuse `action` unless the clock allows
    it now, else save the changed clock with its ChangeLog record."""
    now = now or timezone.now()
    fields = fields_of(position)
    if not allowed(clock_state(fields, now)):
        raise ValidationError(refusal)
    return _save(position, change(fields, now), action, user, **extra)


@transaction.atomic
def clock_start(*, position: Position, minutes: int | None = None, user=None, now=None) -> Position:
    """Start the clock for `minutes` (the tournament's position length by default); a clock
    that ran out starts again, a running or paused one is refused (pause, resume or add)."""
    position = _locked(position)
    if minutes is None:
        minutes = position.tournament.position_minutes
    length = _minutes(minutes, field="minutes", low=1, high=MAX_DURATION_MINUTES)
    refusal = _("L'horloge de la position %(number)s tourne déjà.") % {"number": position.number}
    return _change(
        position,
        now,
        user,
        "start",
        lambda clock: clock.expired or not clock.started,
        refusal,
        lambda _fields, at: started(length, at),
        minutes=length,
    )


@transaction.atomic
def clock_pause(*, position: Position, user=None, now=None) -> Position:
    refusal = _("L'horloge ne tourne pas : rien à mettre en pause.")
    return _change(_locked(position), now, user, "pause", lambda c: c.running, refusal, paused)


@transaction.atomic
def clock_resume(*, position: Position, user=None, now=None) -> Position:
    refusal = _("L'horloge n'est pas en pause.")
    return _change(_locked(position), now, user, "resume", lambda c: c.paused, refusal, resumed)


@transaction.atomic
def clock_add(*, position: Position, minutes: int, user=None, now=None) -> Position:
    """Give the tables more time (negative minutes take some back, down to zero)."""
    position = _locked(position)
    more = _minutes(minutes, field="minutes", low=-MAX_ADD_MINUTES, high=MAX_ADD_MINUTES)
    refusal = _("Lancez d'abord l'horloge de la position.")
    return _change(
        position,
        now,
        user,
        "add",
        lambda clock: clock.started,
        refusal,
        lambda fields, at: extended(fields, more, at),
        minutes=more,
    )
