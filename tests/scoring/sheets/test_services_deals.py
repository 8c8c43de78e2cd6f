"""The service layer stores each deal's result, versions the sheet and keeps the history."""

import pytest

from scoring.core.deal import DealError
from scoring.models import DealScore
from scoring.sheets.services import (
    StaleSheetError,
    deal_adjust,
    deal_delete,
    deal_record,
    deal_update,
)
from tests.desk_helpers import bilans_by_name, free_sheet
from tests.examples_004 import BILANS_BY_NAME, PAPER_NAMES, PAPER_ORDER, ROWS, engine_deals
from tournament.models import ChangeLog

pytestmark = pytest.mark.django_db

# Seats 0..3 are Nord, Sud, Est, Ouest here (a free sheet keeps the order it is given).
EXAMPLE_004 = engine_deals(PAPER_ORDER)


@pytest.fixture
def sheet():
    return free_sheet(PAPER_NAMES)


def record_all(sheet):
    for data in EXAMPLE_004:
        deal_record(sheet=sheet, data={"players": 4, **data}, expected_version=sheet.version)


def test_example_sheet_of_004_gives_the_printed_bilans(sheet):
    record_all(sheet)
    assert bilans_by_name(sheet) == BILANS_BY_NAME
    assert [d.scores for d in sheet.deals.order_by("number")] == ROWS
    assert sheet.version == 5


def test_a_save_based_on_an_old_version_is_refused_and_changes_nothing(sheet):
    deal_record(sheet=sheet, data={"players": 4, **EXAMPLE_004[0]}, expected_version=0)
    with pytest.raises(StaleSheetError):
        deal_record(sheet=sheet, data={"players": 4, **EXAMPLE_004[1]}, expected_version=0)
    assert sheet.deals.count() == 1


def test_impossible_deal_is_refused_before_anything_is_written(sheet):
    with pytest.raises(DealError) as err:
        deal_record(sheet=sheet, data={"players": 4, **EXAMPLE_004[0], "points": 92})
    assert err.value.field == "points"
    assert sheet.deals.count() == 0
    sheet.refresh_from_db()
    assert sheet.version == 0


def test_correction_recomputes_and_keeps_before_and_after(sheet):
    record_all(sheet)
    deal = sheet.deals.get(number=4)
    data = {"players": 4, **EXAMPLE_004[3], "points": 40}  # garde lost by 1
    deal_update(deal=deal, data=data, expected_version=sheet.version)
    assert deal.scores == [-3 * 72, 72, 72, 72]
    log = ChangeLog.objects.filter(object_id=deal.pk, action="update").get()
    assert log.before["points"] == 52 and log.after["points"] == 40
    assert log.before["scores"] == [276, -92, -92, -92]


def test_delete_renumbers_later_deals_and_logs_the_deleted_one(sheet):
    record_all(sheet)
    deal_delete(deal=sheet.deals.get(number=2), expected_version=sheet.version)
    assert list(sheet.deals.values_list("number", flat=True)) == [1, 2, 3, 4]
    assert ChangeLog.objects.filter(action="delete").get().before["contract"] == "garde_sans"


def test_adjusted_score_replaces_the_row_and_must_sum_to_zero(sheet):
    deal = deal_record(sheet=sheet, data={"players": 4, **EXAMPLE_004[0]})
    with pytest.raises(ValueError):
        deal_adjust(deal=deal, scores=[10, 0, 0, 0], reason="renonce")
    with pytest.raises(ValueError):
        deal_adjust(deal=deal, scores=[30, -10, -10, -10], reason=" ")
    deal_adjust(deal=deal, scores=[30, -10, -10, -10], reason="Renonce du preneur")
    assert deal.adjusted and deal.scores == [30, -10, -10, -10]
    assert deal.computed_scores == [-106, -106, 318, -106]
    assert sorted(DealScore.objects.filter(deal=deal).values_list("points", flat=True)) == [
        -10,
        -10,
        -10,
        30,
    ]
    deal_adjust(deal=deal, scores=None, reason="")
    assert not deal.adjusted and deal.scores == [-106, -106, 318, -106]


def test_passed_deal_scores_zero(sheet):
    deal = deal_record(sheet=sheet, data={"players": 4, "passed": True, "dealer": 0})
    assert deal.scores == [0, 0, 0, 0] and deal.passed
