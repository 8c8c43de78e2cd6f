"""A whole tournament can be deleted; a player who sat at a table cannot be deleted alone."""

import pytest
from django.db.models import RestrictedError

from scoring.models import Deal, ScoreSheet
from tests.scoring.documents.backup.test_backup_restore import build_tournament
from tournament.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def test_deleting_a_tournament_takes_its_sheets_and_deals_along():
    tournament = build_tournament()
    tournament.delete()
    assert Tournament.objects.count() == 0
    assert ScoreSheet.objects.count() == 0 and Deal.objects.count() == 0


def test_a_seated_player_cannot_be_deleted_alone():
    build_tournament()
    with pytest.raises(RestrictedError):
        Registration.objects.first().delete()
