"""Writes over several brackets of an event take their revisions in one order (ascending
tournament id, tournament.models.audit.revisions_bump), in real parallel transactions on
PostgreSQL: two of them, each paused after its first lock until the other has taken one too,
never deadlock (in opposite orders they did: each held one row the other waited for)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from scoring.events.replace import cut_withdrawal_replace
from tests.load.engines import ON_POSTGRES, in_threads
from tests.scoring.events.venue_helpers import cut_event
from tournament.models import Event, Registration, Revision
from tournament.models import audit as audit_models

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not ON_POSTGRES, reason="SQLite's test database is one connection"),
]


def pause_after_first_lock(monkeypatch) -> None:
    """From now on (the data built), each thread, after its first revision taken, waits (at
    most a second) for the other to take one: in opposite orders both then hold a row the other
    wants; in one order the second thread is still waiting for the first row, and the first
    goes on alone."""
    barrier = threading.Barrier(2, timeout=1.0)
    seen = threading.local()
    bump = audit_models.revision_bump

    def paused(tournament_id: int, **kwargs) -> None:
        bump(tournament_id, **kwargs)
        if not getattr(seen, "paused", False):
            seen.paused = True
            try:
                barrier.wait()
            except threading.BrokenBarrierError:
                pass  # the other thread waits for this one's row: nothing to pause for

    monkeypatch.setattr(audit_models, "revision_bump", paused)


def numbers(ids: list[int]) -> list[int]:
    return [Revision.objects.get(pk=pk).number for pk in ids]


def test_two_writes_over_the_same_brackets_in_opposite_orders_both_land(arbiter, monkeypatch):
    result = cut_event(arbiter)
    ids = [result.session_1.pk, result.main.pk, result.consolante.pk]
    before = numbers(ids)
    pause_after_first_lock(monkeypatch)

    def work(index: int) -> None:
        with transaction.atomic():
            audit_models.revisions_bump(ids if index == 0 else list(reversed(ids)))

    results = in_threads(2, work)
    assert results == [None, None], results
    assert numbers(ids) == [number + 2 for number in before]


def test_an_events_save_and_a_replacement_after_its_cut_both_land(arbiter, monkeypatch):
    """The event's save moves every bracket; a withdrawal replaced after the cut moves the
    qualified bracket and the consolante: both in ascending order, neither waits forever."""
    result = cut_event(arbiter)
    ids = [result.session_1.pk, result.main.pk, result.consolante.pk]
    gone = Registration.objects.filter(tournament=result.main).order_by("number").first()
    before = numbers(ids)
    pause_after_first_lock(monkeypatch)

    def work(index: int):
        if index == 0:
            event = Event.objects.get(pk=result.event.pk)
            event.venue = "Salle des fêtes"
            return event.save()
        return cut_withdrawal_replace(cut=result.cut, registration=gone, user=arbiter)

    saved, replaced = in_threads(2, work)
    assert saved is None and isinstance(replaced, list) and len(replaced) == 1, (saved, replaced)
    assert all(after > number for after, number in zip(numbers(ids), before, strict=True))
    connection.close()
