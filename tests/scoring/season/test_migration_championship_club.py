"""Existing championships get their club (scoring 0012): the owner's club, or else the one club
of all their tournaments; none when neither tells. Built with the migration executor from 0011."""

import pytest

from tests.migration_helpers import migrate, migrated_back

BEFORE = [("scoring", "0011_shared_render"), ("tournament", "0016_one_club_for_existing_installs")]
AFTER = [("scoring", "0012_championship_host_club")]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def before():
    yield from migrated_back(BEFORE)


def test_each_championship_goes_to_its_owners_club_or_its_tournaments_one(before):
    User = before.get_model("auth", "User")
    Club = before.get_model("tournament", "Club")
    ClubMember = before.get_model("tournament", "ClubMember")
    Tournament = before.get_model("tournament", "Tournament")
    Championship = before.get_model("scoring", "Championship")
    angers, nantes = Club.objects.create(name="Angers"), Club.objects.create(name="Nantes")
    owner = User.objects.create(username="proprio")
    ClubMember.objects.create(club=nantes, user=owner, role="admin")
    alone = User.objects.create(username="sans-club")
    ours = Tournament.objects.create(name="A", date="2025-09-01", host_club=angers)
    theirs = Tournament.objects.create(name="B", date="2025-09-08", host_club=nantes)
    by_owner = Championship.objects.create(name="Du propriétaire", owner=owner)
    by_owner.tournaments.set([ours])  # the owner's club wins over its tournaments'
    by_tournaments = Championship.objects.create(name="Des tournois", owner=alone)
    by_tournaments.tournaments.set([ours])
    mixed = Championship.objects.create(name="Mêlé", owner=None)
    mixed.tournaments.set([ours, theirs])
    Championship.objects.create(name="Vide", owner=None)

    apps = migrate(AFTER)
    found = dict(
        apps.get_model("scoring", "Championship").objects.values_list("name", "host_club_id")
    )
    assert found == {
        "Du propriétaire": nantes.pk,
        "Des tournois": angers.pk,
        "Mêlé": None,
        "Vide": None,
    }
