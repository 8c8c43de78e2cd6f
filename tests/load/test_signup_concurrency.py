"""Sign-ups racing for the last places, in real parallel transactions (PostgreSQL: the suite's
second run): the capacity holds, every refusal says the tournament is full."""

import os

import pytest
from django.core.exceptions import ValidationError

from tests.club_helpers import join_club
from tests.load.test_concurrent_saves import in_threads
from tournament.models import Player, Tournament
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


def test_one_new_licence_signed_up_in_two_tournaments_of_a_club_at_once(django_user_model):
    """Two sign-ups of one person racing in two tournaments of one club (PostgreSQL: two real
    transactions): the second entry's INSERT waits for the first and fails once it commits;
    looked up again, it is that entry. Both registered, one roster entry, no error."""
    owner = django_user_model.objects.create_user("arbitre", password="pw-arbitre-1")
    club = join_club(owner, "Club A")
    evenings = [
        Tournament.objects.create(
            name=f"Soirée {n}", date="2026-11-26", signup_open=True, host_club=club, owner=owner
        )
        for n in (1, 2)
    ]
    for round_ in range(5):
        licence = f"04{round_:05d}"
        results = in_threads(
            2,
            lambda i, licence=licence: signup.signup_register(
                tournament=evenings[i],
                last_name=f"Joueur{licence}",
                first_name="Jean",
                licence=licence,
            ),
        )
        assert not [r for r in results if isinstance(r, Exception)], results
        (entry,) = Player.objects.filter(licence=licence)
        assert {r.player_id for r in results} == {entry.pk}
    assert all(t.registrations.count() == 5 for t in evenings)
