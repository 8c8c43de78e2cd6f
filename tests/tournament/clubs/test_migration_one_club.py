"""An install from before clubs migrates to one club: everything attached, nothing lost.

Built with the migration executor: the database is taken back to 0015 (clubs exist, nothing
attached), filled as an old install would be, then migrated forward through 0016.
"""

import pytest

from tests.migration_helpers import migrate, migrated_back

BEFORE = [("tournament", "0015_clubs")]
AFTER = [("tournament", "0016_one_club_for_existing_installs")]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def old_install():
    yield from migrated_back(BEFORE)


def fill(apps, texts):
    User = apps.get_model("auth", "User")
    Group = apps.get_model("auth", "Group")
    Tournament = apps.get_model("tournament", "Tournament")
    Player = apps.get_model("tournament", "Player")
    Registration = apps.get_model("tournament", "Registration")
    Event = apps.get_model("tournament", "Event")
    TournamentRole = apps.get_model("tournament", "TournamentRole")
    people = {
        name: User.objects.create(username=name, is_superuser=name == "root")
        for name in ("root", "grouped", "owner", "co", "joueur")
    }
    people["grouped"].groups.add(Group.objects.get_or_create(name="arbitre")[0])
    tournaments = [
        Tournament.objects.create(
            name=f"T{i}", date=f"2025-01-0{i + 1}", club=text, owner=people["owner"]
        )
        for i, text in enumerate(texts)
    ]
    TournamentRole.objects.create(tournament=tournaments[0], user=people["co"], role="arbiter")
    TournamentRole.objects.create(tournament=tournaments[0], user=people["joueur"], role="scorer")
    Event.objects.create(name="Festival", date="2025-02-01", owner=people["owner"])
    for i in range(3):
        player = Player.objects.create(last_name=f"Joueur{i}", licence=f"000000{i}")
        Registration.objects.create(tournament=tournaments[0], player=player, number=i + 1)
    Player.objects.create(last_name="Sans tournoi")
    return people


def test_an_old_install_becomes_one_club_named_after_its_tournaments(old_install):
    people = fill(old_install, ["TC Dijon", "Autre club", " TC Dijon ", "", "Autre club"])
    apps = migrate(AFTER)
    Club = apps.get_model("tournament", "Club")
    Tournament = apps.get_model("tournament", "Tournament")
    Player = apps.get_model("tournament", "Player")
    club = Club.objects.get()
    # Two "TC Dijon" (spaces aside) and two "Autre club": the tie goes to the first in order.
    assert club.name == "Autre club"
    assert Tournament.objects.count() == 5
    assert set(Tournament.objects.values_list("host_club", flat=True)) == {club.pk}
    # The organiser texts stay as they were: they are what the pages print.
    assert sorted(Tournament.objects.values_list("club", flat=True)) == sorted(
        ["TC Dijon", "Autre club", " TC Dijon ", "", "Autre club"]
    )
    assert apps.get_model("tournament", "Event").objects.get().host_club_id == club.pk
    assert Player.objects.count() == 4
    assert set(Player.objects.values_list("origin_club", flat=True)) == {club.pk}
    assert apps.get_model("tournament", "Registration").objects.count() == 3
    members = dict(
        apps.get_model("tournament", "ClubMember").objects.values_list("user_id", "role")
    )
    assert members == {
        people["root"].pk: "admin",
        people["grouped"].pk: "arbiter",
        people["owner"].pk: "arbiter",
        people["co"].pk: "arbiter",
    }  # the scorer of one evening is no club arbiter


def test_the_most_common_organiser_text_names_the_club(old_install):
    fill(old_install, ["Tarot Club Lyon", "Tarot Club Lyon", "Villeurbanne"])
    apps = migrate(AFTER)
    assert list(apps.get_model("tournament", "Club").objects.values_list("name", flat=True)) == [
        "Tarot Club Lyon"
    ]


def test_without_organiser_text_the_club_is_mon_club(old_install):
    fill(old_install, ["", ""])
    apps = migrate(AFTER)
    assert apps.get_model("tournament", "Club").objects.get().name == "Mon club"


def test_a_fresh_install_gets_no_club(old_install):
    apps = migrate(AFTER)
    assert not apps.get_model("tournament", "Club").objects.exists()
