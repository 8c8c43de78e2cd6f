"""A draft position whose sheets already hold deals is never redrawn (its deals would be lost)."""

import pytest
from django.core.exceptions import ValidationError

from scoring.models import Deal
from scoring.sheets.services import deal_record, sheet_for_table
from tests.tournament.evening.positions_helpers import make_tournament
from tournament.evening.positions import position_generate, position_regenerate

pytestmark = pytest.mark.django_db


@pytest.fixture
def typed_draft():
    """16 players, 3 draft positions, and a deal typed on the first table of position 1."""
    tournament = make_tournament(players=16, positions=3)
    position_generate(tournament=tournament, seed=1)
    draft = tournament.positions.get(number=1)
    sheet = sheet_for_table(table=draft.tables.first())
    deal_record(
        sheet=sheet,
        data={"players": 4, "taker": 0, "contract": "prise", "oudlers": 1, "points": 55},
    )
    return tournament, draft, sheet


def test_regenerating_a_draft_with_typed_deals_is_refused_and_keeps_them(typed_draft):
    tournament, draft, sheet = typed_draft
    tables_before = list(draft.tables.values_list("pk", flat=True))
    with pytest.raises(ValidationError, match="déjà des donnes saisies"):
        position_regenerate(position=draft, seed=2)
    with pytest.raises(ValidationError, match="déjà des donnes saisies"):
        position_generate(tournament=tournament, seed=3)
    assert Deal.objects.filter(sheet=sheet).count() == 1
    assert list(draft.tables.values_list("pk", flat=True)) == tables_before


def test_drafts_after_the_typed_one_can_still_be_redrawn(typed_draft):
    tournament, _draft, sheet = typed_draft
    position_regenerate(position=tournament.positions.get(number=2), seed=5)
    assert tournament.positions.get(number=2).seed == 5
    assert Deal.objects.filter(sheet=sheet).count() == 1
