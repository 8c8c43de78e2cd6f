"""Issue 39: one way to find a person on the roster (identity.roster_player_for, one name
comparison: accents, case, spaces and punctuation ignored). The desk, the online sign-up, the
import and the restore find the same roster entry for the same person however it is typed.

With a licence, all four find its holder. Without one, the desk asks about the namesake
(LikelyDuplicate), the import flags it for the arbiter, the sign-up takes it, and a restore
copies the player (a backup's players are matched by licence alone: documented in
scoring/documents/backup/roster.py)."""

import json

import pytest
from django.db import transaction

from scoring.documents.backup import tournament_export_json
from scoring.documents.backup.restore import tournament_check
from tests.club_helpers import join_club
from tournament.models import Player, Registration, Tournament
from tournament.players import identity
from tournament.players.importing import DUPLICATE, ROSTER, parse_table
from tournament.players.imports import import_check
from tournament.players.registrations import player_register
from tournament.signup.services import signup_register

pytestmark = pytest.mark.django_db

WITH_LICENCE = [
    ("DUPRE", "jean luc", "", "0412345"),
    ("  dupré ", "JEAN-LUC", "tc dijon", "0412345"),
    ("Du Pré", "Jean  Luc", "TC Dijon", "04 12 345"),
]
WITHOUT_LICENCE = [
    ("DUPRE", "jean-luc", "TC DIJON", ""),
    ("dupré", "Jean Luc", "tc  dijon", ""),
    ("Du-Pré", "JEAN LUC", "T.C. Dijon", ""),
]


@pytest.fixture
def world(django_user_model):
    arbiter = django_user_model.objects.create_user("arbitre")
    club = join_club(arbiter, "TC Dijon", "admin")
    entry = Player.objects.create(
        last_name="Dupré", first_name="Jean-Luc", club="TC Dijon", licence="0412345",
        origin_club=club,
    )  # fmt: skip
    unlicensed = Player.objects.create(
        last_name="Dupré", first_name="Jean-Luc", club="TC Dijon", origin_club=club
    )
    evening = Tournament.objects.create(
        name="Soirée", date="2026-11-28", owner=arbiter, host_club=club, signup_open=True
    )
    return {"arbiter": arbiter, "club": club, "entry": entry, "unlicensed": unlicensed,
            "evening": evening}  # fmt: skip


def forgotten(find):
    """Run one path's look-up and roll its writes back: the next path starts from the same
    roster."""
    with transaction.atomic():
        found = find()
        transaction.set_rollback(True)
    return found


def desk(world, last, first, club, licence):
    try:
        registration = player_register(
            tournament=world["evening"], last_name=last, first_name=first, club=club,
            licence=licence, user=world["arbiter"],
        )  # fmt: skip
    except identity.LikelyDuplicate as asked:
        return [known.pk for known in asked.players]
    return [registration.player_id]


def sign_up(world, last, first, club, licence):
    registration = signup_register(
        tournament=world["evening"], last_name=last, first_name=first, club=club, licence=licence
    )
    return [registration.player_id]


def imported(world, last, first, club, licence):
    table = [["nom", "prénom", "club", "licence"], [last, first, club, licence]]
    preview = import_check(tournament=world["evening"], preview=parse_table(table))
    [row] = preview.rows
    assert not preview.errors and row.status in (ROSTER, DUPLICATE)
    return [row.player_id if row.status == ROSTER else row.duplicate_of]


def restored(world, last, first, club, licence):
    source = Tournament.objects.create(name="Copie", date="2026-11-21", owner=world["arbiter"])
    typed = Player.objects.create(last_name=last, first_name=first, club=club)
    Player.objects.filter(pk=typed.pk).update(licence=licence.replace(" ", "") or None)
    Registration.objects.create(tournament=source, player=typed, number=1)
    document = json.loads(tournament_export_json(source))
    source.delete()
    typed.delete()
    plan = tournament_check(json.dumps(document), user=world["arbiter"], club=world["club"])
    return sorted(plan.reused_players.values())


@pytest.mark.parametrize("typed", WITH_LICENCE)
def test_every_path_finds_the_licence_holder_however_the_name_is_typed(world, typed):
    for path in (desk, sign_up, imported, restored):
        assert forgotten(lambda path=path: path(world, *typed)) == [world["entry"].pk], path


@pytest.mark.parametrize("typed", WITHOUT_LICENCE)
def test_the_paths_that_match_by_name_find_the_same_namesake(world, typed):
    Player.objects.filter(pk=world["entry"].pk).update(club="Autre club")  # one namesake left
    for path in (desk, sign_up, imported):
        assert forgotten(lambda path=path: path(world, *typed)) == [world["unlicensed"].pk], path
    assert forgotten(lambda: restored(world, *typed)) == []  # copied: by licence alone


def test_one_name_comparison():
    typed = [identity.Typed(*person) for person in WITH_LICENCE + WITHOUT_LICENCE]
    assert len({person.key for person in typed}) == 1
