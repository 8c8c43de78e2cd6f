"""A re-plan never stops the room: the seating solver runs with no transaction open, so a
phone's deal saved meanwhile answers at once; and a plan whose inputs changed during the solve
(a player withdrawn) is never stored: solved again once, then refused.

Real transactions (`transaction=True`): the generation runs in a thread of its own, on its own
connection, its solver held on an Event while the phone saves a deal on the main connection.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from scoring.models import Deal
from scoring.sheets.table_entry import links_for_position, phone_deal_record
from tests.tournament.evening.positions_helpers import make_tournament
from tournament.core import seating
from tournament.evening.positions import (
    position_generate,
    position_publish,
    position_regenerate,
)
from tournament.evening.selectors import tournament_plan
from tournament.models import Registration, Tournament
from tournament.players.registrations import registration_withdraw

pytestmark = pytest.mark.django_db(transaction=True)

PASSE = {"passed": True, "dealer": 0}
WAIT = 30  # seconds: only a broken test ever waits this long


def _room() -> tuple[Tournament, Registration]:
    """Position 1 published and played on phones, position 2 a draft; a player of the
    first table withdraws, so the drafts must be re-planned."""
    tournament = make_tournament(players=14, positions=2, entry_mode="phones")
    position_generate(tournament=tournament, seed=1)
    position_publish(position=tournament.positions.get(number=1))
    leaver = tournament.registrations.get(number=14)
    registration_withdraw(registration=leaver)
    return tournament, leaver


def _seated(tournament: Tournament, numbers: range) -> set[int]:
    plan = tournament_plan(tournament)
    return {pk for n in numbers for table in plan[n - 1] for pk in table}


def test_a_phone_deal_saved_during_a_long_generation_answers_at_once(monkeypatch):
    tournament, leaver = _room()
    link = links_for_position(tournament.positions.get(number=1))[0]
    enterer = link.table.seats.first().registration
    solving, release = threading.Event(), threading.Event()
    real = seating.generate

    def held(*args, **kwargs):
        solving.set()
        assert release.wait(WAIT)
        return real(*args, **kwargs)

    monkeypatch.setattr(seating, "generate", held)
    outcome: list = []

    def generate() -> None:
        try:
            outcome.append(position_generate(tournament=tournament))
        except Exception as error:  # noqa: BLE001 - the test reads what the thread got
            outcome.append(error)
        finally:
            connection.close()

    worker = threading.Thread(target=generate)
    worker.start()
    try:
        assert solving.wait(WAIT)
        began = time.monotonic()
        deal, replayed = phone_deal_record(
            link=link, client_id="deal-during-replan", data=PASSE, version=0, enterer=enterer
        )
        saving = time.monotonic() - began
    finally:
        release.set()
        worker.join(WAIT)
    assert not replayed and Deal.objects.filter(pk=deal.pk).exists()
    # The solver is held: nothing else competes with the save, a second is generous.
    assert saving < 1.0, f"the phone's deal waited {saving:.2f} s for the seating"
    assert not isinstance(outcome[0], Exception), outcome
    assert leaver.pk not in _seated(tournament, range(2, 3))


def test_a_player_withdrawn_during_the_solve_is_solved_again_not_stored(monkeypatch):
    tournament, _leaver = _room()
    late_leaver = tournament.registrations.get(number=13)
    calls: list[int] = []
    real = seating.generate

    def withdrawn_meanwhile(*args, **kwargs):
        calls.append(len(list(args[0])))
        if len(calls) == 1:  # during the first solve only, committed on its own
            registration_withdraw(registration=Registration.objects.get(pk=late_leaver.pk))
        return real(*args, **kwargs)

    monkeypatch.setattr(seating, "generate", withdrawn_meanwhile)
    position_generate(tournament=tournament)
    assert calls == [13, 12]  # solved again with the roster as it is now
    assert late_leaver.pk not in _seated(tournament, range(2, 3))
    assert len(_seated(tournament, range(2, 3))) == 12


def test_a_roster_changing_during_every_solve_is_refused_and_nothing_stored(monkeypatch):
    tournament, _leaver = _room()
    before = tournament_plan(tournament)
    leavers = iter(tournament.registrations.filter(number__in=(12, 13)).order_by("number"))
    real = seating.generate

    def withdrawn_meanwhile(*args, **kwargs):
        registration_withdraw(registration=next(leavers))
        return real(*args, **kwargs)

    monkeypatch.setattr(seating, "generate", withdrawn_meanwhile)
    with pytest.raises(ValidationError) as refused:
        position_generate(tournament=tournament)
    assert refused.value.messages == [
        "La liste des joueurs a changé pendant le calcul : relancez la génération."
    ]
    assert tournament_plan(tournament) == before  # the drafts as they were


def test_regenerating_a_draft_solves_outside_any_transaction(monkeypatch):
    tournament, leaver = _room()
    in_transaction: list[bool] = []
    real = seating.generate

    def watched(*args, **kwargs):
        in_transaction.append(connection.in_atomic_block)
        return real(*args, **kwargs)

    monkeypatch.setattr(seating, "generate", watched)
    position_regenerate(position=tournament.positions.get(number=2), seed=2)
    assert in_transaction == [False]
    assert leaver.pk not in _seated(tournament, range(2, 3))
