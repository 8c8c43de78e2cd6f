"""Two clubs on one server, as issue 36's reproductions had them: club A holds a licence under
its player who played A's finished private tournament; club B's administrator and arbiter."""

import pytest

from tests.club_helpers import join_club
from tournament.models import Player, Registration, Tournament

HELD = "0412345"  # A's player's licence
A_PRIVATE = "Nocturne privée Alpha"


@pytest.fixture
def two_clubs(django_user_model):
    people = {}
    for name, club, role in (
        ("admin-a", "Club Alpha", "admin"),
        ("admin-b", "Club Beta", "admin"),
        ("arbitre-b", "Club Beta", "arbiter"),
    ):
        people[name] = django_user_model.objects.create_user(name, password=f"pw-{name}-1")
        people[club] = join_club(people[name], club, role)
    held = Player.objects.create(
        last_name="Titulaire", first_name="Alice", licence=HELD, origin_club=people["Club Alpha"]
    )
    private = Tournament.objects.create(
        name=A_PRIVATE,
        date="2026-10-01",
        host_club=people["Club Alpha"],
        owner=people["admin-a"],
        is_public=False,
        status=Tournament.Status.FINISHED,
    )
    people["past"] = Registration.objects.create(tournament=private, player=held, number=1)
    people["held"], people["private"] = held, private
    people["b-evening"] = Tournament.objects.create(
        name="Soirée Beta", date="2026-11-26", host_club=people["Club Beta"],
        owner=people["admin-b"],
    )  # fmt: skip
    return people
