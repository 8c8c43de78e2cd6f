"""Issue 36: restoring a backup goes through the guard of a person's history, as a merge, a
conflict's settlement and an import do. A restore crafted by club B's administrator to reach
club A's people is refused (into club A) or kept apart (into club B: copies of B's own);
club A's players, registrations and tournaments are byte-identical after either."""

import json

import pytest
from django.core import serializers

from scoring.documents.backup import BackupError, tournament_export_json, tournament_import
from tests.club_helpers import join_club
from tournament.models import Player, Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs(django_user_model):
    people = {}
    for name, club in (("admin-a", "Club Alpha"), ("admin-b", "Club Beta")):
        people[name] = django_user_model.objects.create_user(name, password=f"pw-{name}-1")
        people[club] = join_club(people[name], club, "admin")
    finished = Tournament.objects.create(
        name="Privé Alpha", date="2026-10-01", host_club=people["Club Alpha"],
        owner=people["admin-a"], is_public=False, status=Tournament.Status.FINISHED,
    )  # fmt: skip
    for n in range(3):
        player = Player.objects.create(
            last_name=f"Alpha{n}", licence=f"050000{n}", origin_club=people["Club Alpha"]
        )
        Registration.objects.create(tournament=finished, player=player, number=n + 1)
    return people


def dump_a(club) -> str:
    """Club A's people and tournaments, every column."""
    players = Player.objects.filter(origin_club=club).order_by("pk")
    rows = [
        *players,
        *Registration.objects.filter(player__in=players).order_by("pk"),
        *Tournament.objects.filter(host_club=club).order_by("pk"),
    ]
    return serializers.serialize("json", rows)


def crafted(clubs) -> str:
    """B's backup naming A's three licences under made-up names."""
    source = Tournament.objects.create(
        name="Copie", date="2026-11-21", owner=clubs["admin-b"], host_club=clubs["Club Beta"]
    )
    made_up = []
    for n in range(3):
        made_up.append(Player.objects.create(last_name=f"Voleur{n}", licence=f"050000{n}"))
        Registration.objects.create(tournament=source, player=made_up[-1], number=n + 1)
    document = json.loads(tournament_export_json(source))
    source.delete()
    Player.objects.filter(pk__in=[player.pk for player in made_up]).delete()
    return json.dumps(document)


def test_a_restore_into_another_club_reaching_its_people_is_refused(clubs):
    document, before = crafted(clubs), dump_a(clubs["Club Alpha"])
    with pytest.raises(BackupError, match="Club Alpha.*pas membre"):
        tournament_import(document, user=clubs["admin-b"], club=clubs["Club Alpha"])
    assert dump_a(clubs["Club Alpha"]) == before
    assert not Tournament.objects.filter(name="Copie").exists()


def test_a_restore_into_a_club_one_is_not_in_is_refused_even_reaching_nobody(clubs):
    """The service decides, not the page that offers the clubs: a backup naming none of A's
    people, restored by B's administrator into club A, creates nothing hosted by A."""
    source = Tournament.objects.create(
        name="Neutre", date="2026-11-22", owner=clubs["admin-b"], host_club=clubs["Club Beta"]
    )
    document = tournament_export_json(source)
    source.delete()
    before = dump_a(clubs["Club Alpha"])
    with pytest.raises(BackupError, match="pas membre"):
        tournament_import(document, user=clubs["admin-b"], club=clubs["Club Alpha"])
    assert dump_a(clubs["Club Alpha"]) == before
    assert not Tournament.objects.filter(host_club=clubs["Club Alpha"], name="Neutre").exists()


def test_a_restore_into_ones_own_club_keeps_the_other_clubs_people_apart(clubs):
    document, before = crafted(clubs), dump_a(clubs["Club Alpha"])
    copy = tournament_import(document, user=clubs["admin-b"], club=clubs["Club Beta"])
    assert dump_a(clubs["Club Alpha"]) == before
    copies = Player.objects.filter(registrations__tournament=copy)
    assert sorted(copies.values_list("last_name", "origin_club")) == [
        (f"Voleur{n}", clubs["Club Beta"].pk) for n in range(3)
    ]


def test_an_arbiter_restores_the_club_entries_they_see(clubs):
    """The guard lets through what it should: A's own backup, restored by A, reuses A's entries."""
    finished = Tournament.objects.get(name="Privé Alpha")
    document = tournament_export_json(finished)
    copy = tournament_import(document, user=clubs["admin-a"], club=clubs["Club Alpha"])
    assert set(Player.objects.filter(registrations__tournament=copy)) == set(
        Player.objects.filter(registrations__tournament=finished)
    )
