"""Concurrent saves on one sheet, in real parallel transactions (PostgreSQL: the suite's second
run): two saves based on the same version never both land, and a position closed meanwhile
refuses the save that waited for it."""

import pytest

from scoring.sheets.services import StaleSheetError, deal_record, sheet_for_table
from tests.desk_helpers import make_tournament
from tests.load.engines import ON_POSTGRES, in_threads
from tournament.access.lifecycle import Locked, position_close

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not ON_POSTGRES, reason="SQLite's test database is one connection"),
]

PASSED = {"passed": True, "dealer": 0}


def test_saves_based_on_one_version_land_once():
    _tournament, position = make_tournament()
    sheet = sheet_for_table(table=position.tables.get())
    results = in_threads(8, lambda _i: deal_record(sheet=sheet, data=PASSED, expected_version=0))
    landed = [r for r in results if not isinstance(r, Exception)]
    assert len(landed) == 1
    assert all(isinstance(r, StaleSheetError) for r in results if isinstance(r, Exception))
    assert sheet.deals.count() == 1


def test_a_close_racing_with_saves_leaves_no_deal_after_it():
    _tournament, position = make_tournament()
    sheet = sheet_for_table(table=position.tables.get())

    def work(index: int):
        if index == 0:
            return position_close(position=position)
        return deal_record(sheet=sheet, data=PASSED, expected_version=0)

    results = in_threads(4, work)
    saved = [r for r in results[1:] if not isinstance(r, Exception)]
    assert len(saved) <= 1
    refused = [r for r in results[1:] if r not in saved]
    assert all(isinstance(r, StaleSheetError | Locked) for r in refused), results
    sheet.refresh_from_db()
    # Whatever landed, landed before the close; the sheet refuses everything now.
    with pytest.raises(Locked):
        deal_record(sheet=sheet, data=PASSED, expected_version=sheet.version)
