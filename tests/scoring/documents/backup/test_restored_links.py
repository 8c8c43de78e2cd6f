"""A restored backup and a generated tournament publish positions without the desk: their
published positions get their table links too, once the write is committed (a backup holds no
link: their secrets stay where they were made)."""

import json

import pytest

from scoring.documents.backup import tournament_export, tournament_import
from scoring.models import TableLink
from scoring.sheets.generate import GenerateOptions, tournament_generate
from tests.scoring.documents.backup.test_backup_restore import build_tournament
from tournament.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_restored_tournament_s_published_positions_get_their_links():
    document = json.dumps(tournament_export(build_tournament()))
    assert not TableLink.objects.exists()
    restored = tournament_import(document)
    tables = set(Table.objects.filter(position__tournament=restored).values_list("pk", flat=True))
    assert len(tables) == 2
    assert set(TableLink.objects.values_list("table_id", flat=True)) == tables


def test_a_generated_running_tournament_s_published_positions_get_their_links():
    options = GenerateOptions(players=8, positions=2, deals=1, seed=1, played=1, finished=False)
    tournament = tournament_generate(options=options)
    published = Table.objects.filter(position__tournament=tournament, position__number=1)
    assert set(TableLink.objects.values_list("table_id", flat=True)) == set(
        published.values_list("pk", flat=True)
    )
    assert published.count() == 2
