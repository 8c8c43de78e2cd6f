"""In Chromium: a whole sheet typed with the keyboard, a correction, a penalty, the cross-check."""

import pytest

from scoring.sheets.services import sheet_for_table
from tests.browser_helpers import log_in_by_cookie, report_incident, type_row
from tests.desk_helpers import NAMES_004, make_tournament
from tests.examples_004 import BILANS, TYPED_FIELDS, TYPED_ROWS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Tab order of the entry row: taker, contract, bouts, points, poignées, petit, chelem.
FIELDS = TYPED_FIELDS
# 004's five deals; deal 3 is first mistyped (46 points instead of 44), then corrected.
TYPED = [
    row if number != 3 else (*row[:3], "46", *row[4:])
    for number, row in enumerate(TYPED_ROWS, start=1)
]
# Bilans after each deal, in the paper's order: Nord, Sud, Est, Ouest.
RUNNING = [
    [-106, -106, 318, -106],
    [-182, -182, 242, 122],
    [-142, -302, 282, 162],  # with the mistyped deal 3
    [134, -394, 190, 70],
    [-448, 1352, -392, -512],
]
FINAL = BILANS


def bilans(page) -> list[int]:
    return [int(t) for t in page.locator("#bilans td.bilan").all_inner_texts()]


def test_a_sheet_typed_with_the_keyboard_corrected_penalised_and_cross_checked(
    page, live_server, one_request_at_a_time, arbiter
):
    _tournament, position = make_tournament(names=NAMES_004)
    sheet = sheet_for_table(table=position.tables.get())
    log_in_by_cookie(page, live_server, arbiter)
    page.goto(f"{live_server.url}/feuilles/{sheet.pk}/")

    for number, (values, expected) in enumerate(zip(TYPED, RUNNING, strict=True), start=1):
        # The focus returns to the taker once htmx has settled the new row.
        page.wait_for_function(
            "() => document.activeElement && document.activeElement.name === 'taker'"
        )
        type_row(page, values)
        page.wait_for_selector(f"#deal-{number}")
        assert bilans(page) == expected
        if number < len(TYPED):
            assert page.locator("#deal-form h3").inner_text() == f"Donne {number + 1}"
        else:  # the sheet has its five deals: no sixth row is offered
            page.wait_for_selector("#sheet-full")
    assert "Complète" in page.inner_text("#sheet-state")

    # Correct deal 3: the form takes its values, the arbiter retypes the points.
    page.click("#deal-3 a.edit-deal")
    page.wait_for_selector("#deal-form.editing")
    # As for a new row, type only once htmx has settled the form: its focus is the signal (the
    # settling moves the focus, and would take it from a field typed into before).
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.closest('#deal-form.editing')"
    )
    assert page.input_value("#id_points") == "46"
    page.fill("#id_points", "44")
    page.keyboard.press("Enter")
    page.wait_for_selector("#sheet-full")
    assert bilans(page) == FINAL
    assert "Somme nulle" in page.inner_text("#sheet-body h2")

    # A renonce by the taker of deal 5 (Sud), 50 penalty points.
    report_incident(page, "renonce_taker", "DUPONT", deal=5, penalty=50)
    assert bilans(page) == FINAL  # the deal rows are untouched
    final = [int(t) for t in page.locator("#final td").all_inner_texts() if t.strip()]
    assert final == [-446, 1296, -390, -510]
    assert "Renonce du preneur" in page.inner_text("#deal-5")

    # Cross-check: Ouest's paper bilan was mistyped as −501.
    page.click("details.crosscheck summary")
    paper = {"0": "-446", "1": "-390", "2": "1346", "3": "-501"}  # by seat: N, E, S, W
    for seat, value in paper.items():
        page.fill(f"#id_bilan_{seat}", value)
    page.click("#crosscheck-form button[type=submit]")
    page.wait_for_selector("#paper")
    mismatches = page.locator("#paper td.mismatch")
    assert mismatches.count() == 1
    assert "-501" in mismatches.inner_text()
    assert "Bilans papier différents" in page.inner_text("#sheet-body h2")
