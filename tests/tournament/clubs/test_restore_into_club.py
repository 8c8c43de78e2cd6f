"""A restored backup joins the club of whoever restores it, never the club written in the file."""

import json

import pytest

from scoring.documents.backup import tournament_export_json, tournament_import
from tournament.clubs.services import club_create
from tournament.models import ChangeLog, Player, Registration, Tournament

pytestmark = pytest.mark.django_db


def test_a_backup_of_club_a_restored_by_club_b_belongs_to_club_b(django_user_model):
    lea = django_user_model.objects.create_user("lea")
    bob = django_user_model.objects.create_user("bob")
    club_a = club_create(name="A", admin=lea, user=lea)
    club_b = club_create(name="B", admin=bob, user=bob)
    tournament = Tournament.objects.create(
        name="Open A", date="2026-11-21", owner=lea, host_club=club_a
    )
    player = Player.objects.create(last_name="Seule", origin_club=club_a)
    Registration.objects.create(tournament=tournament, player=player, number=1)
    document = json.loads(tournament_export_json(tournament))
    tournament.delete()  # the original is gone: the restore makes a new roster entry
    player.delete()
    copy = tournament_import(json.dumps(document), user=bob)
    assert (copy.owner, copy.host_club) == (bob, club_b)
    restored = Player.objects.get(registrations__tournament=copy)
    assert restored.origin_club == club_b
    assert not ChangeLog.objects.filter(tournament=copy).exclude(club=None).exists()
