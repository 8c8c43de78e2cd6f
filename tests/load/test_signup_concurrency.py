"""Sign-ups racing for the last places, in real parallel transactions (PostgreSQL: the suite's
second run): the capacity holds, every refusal says the tournament is full."""

import os

import pytest
from django.core.exceptions import ValidationError

from tests.load.test_concurrent_saves import in_threads
from tournament.models import Tournament
from tournament.signup import services as signup

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not ON_POSTGRES, reason="SQLite's test database is one connection"),
]


def test_twelve_phones_racing_for_three_places_leave_three_registrations():
    tournament = Tournament.objects.create(
        name="Open", date="2026-06-13", signup_open=True, signup_capacity=3
    )
    results = in_threads(
        12,
        lambda i: signup.signup_register(tournament=tournament, last_name=f"Joueur{i}"),
    )
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(results) - len(refused) == 3
    assert all(isinstance(r, ValidationError) and "Complet" in r.messages[0] for r in refused)
    assert tournament.registrations.count() == 3
    assert sorted(tournament.registrations.values_list("number", flat=True)) == [1, 2, 3]
