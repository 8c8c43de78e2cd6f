"""In Chromium at a desk's size: an arbiter copies a printed, filled-in sheet into the desk.

The sheet is the one the site prints (read back from its PDF: the players' order, the detail
columns), filled in by the table as 004's example. The arbiter types each row from left to
right as the paper reads, then the paper's Bilan row from left to right into the cross-check:
the screen lists everything in the paper's order, so nothing is reported different.
"""

import io
import re

import pytest
from pypdf import PdfReader

from scoring.sheets.services import sheet_for_table
from tests.browser_helpers import log_in_by_cookie, open_page, type_row
from tests.desk_helpers import NAMES_004, make_tournament
from tests.examples_004 import BILANS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# 004's sheet as the players filled in the printed detailed sheet, row by row: contract,
# taker, bouts, points (of the attack), poignées, petit au bout, chelem, as written; then
# each player's figure in the printed order.
PAPER_ROWS = [
    ("Garde", "E", "2", "49", "simple E", "attaque", "", [-106, -106, 318, -106]),
    ("G. Sans", "O", "1", "55", "", "défense", "", [-76, -76, -76, 228]),
    ("Prise", "S", "1", "44", "simple S", "attaque", "", [42, -126, 42, 42]),
    ("Garde", "N", "2", "52", "simple E", "", "", [276, -92, -92, -92]),
    ("Garde", "S", "2", "87", "simple S", "attaque", "annoncé réussi", [-582, 1746, -582, -582]),
]
PAPER_BILANS = BILANS
# What the arbiter types for the words written on the paper (the desk's short keys).
CONTRACT_KEYS = {"Prise": "P", "Garde": "G", "G. Sans": "GS", "G. Contre": "GC"}
SIZE_KEYS = {"simple": "1", "double": "2", "triple": "3"}
SIDE_KEYS = {"attaque": "A", "défense": "D", "": ""}
CHELEM_KEYS = {"": "", "annoncé réussi": "AR", "réussi sans annonce": "R", "annoncé chuté": "AC"}
# The official FFT sheet of 004 (contract and figures only): the taker's figure stands out.
FFT_ROWS = [("Garde", "E"), ("G. Sans", "O"), ("Prise", "S"), ("Garde", "N"), ("Garde", "S")]


def printed_sheet(page, live_server, tournament) -> str:
    """The blank sheet of position 1 as the site prints it (with the arbiter's session)."""
    response = page.request.get(
        f"{live_server.url}/tournois/{tournament.pk}/impressions/positions/1/feuilles-vierges.pdf"
    )
    assert response.ok and response.headers["content-type"] == "application/pdf"
    return PdfReader(io.BytesIO(response.body())).pages[0].extract_text()


def printed_order(text: str) -> list[str]:
    """The players' names in the printed sheet's column order."""
    line = next(line for line in text.splitlines() if line.startswith("Nom Prénom"))
    return sorted(NAMES_004.values(), key=line.index)


def on_screen(page, selector: str) -> list[str]:
    return [t.strip() for t in page.locator(selector).all_text_contents()]


def screen_row(page, number: int) -> list[int]:
    """A row's figures as the screen shows them, one per player in column order."""
    cells = on_screen(page, f"#deal-{number} td.num")
    pairs = zip(cells[0::2], cells[1::2], strict=True)
    return [int(plus) if plus else -int(minus) if minus else 0 for plus, minus in pairs]


def wait_focus(page, name: str) -> None:
    page.wait_for_function(
        "name => document.activeElement && document.activeElement.name === name", arg=name
    )


def type_paper_bilans(page, bilans) -> None:
    """The paper's Bilan row, left to right, into the cross-check fields as listed."""
    page.click("details.crosscheck summary")
    page.locator("#crosscheck-form input[name^=bilan_]").first.focus()
    for index, bilan in enumerate(bilans):
        page.keyboard.type(str(bilan))
        if index < len(bilans) - 1:
            page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector("#paper")


def check_columns_follow_the_paper(page, names: list[str]) -> None:
    heads = on_screen(page, "#sheet-table th.player")
    assert [next(n for n in names if n in head) for head in heads] == names
    labels = on_screen(page, "#crosscheck-form label")
    assert [next(n for n in names if n in label) for label in labels] == names


def test_a_printed_detailed_sheet_copied_in_the_papers_order_has_no_false_mismatch(
    desk_page, live_server, one_request_at_a_time, arbiter
):
    desk = desk_page
    tournament, position = make_tournament(names=NAMES_004)
    sheet = sheet_for_table(table=position.tables.get())
    log_in_by_cookie(desk, live_server, arbiter)
    paper = printed_sheet(desk, live_server, tournament)
    names = printed_order(paper)
    assert names == ["DURAND", "DUPONT", "DUBOIS", "DESPRES"]  # Nord, Sud, Est, Ouest
    headings = next(line for line in paper.splitlines() if line.startswith("Donne Contrat"))
    for heading in ("Preneur", "Bouts", "Points", "Poignées", "Petit", "Chelem"):
        assert heading in headings

    desk.goto(f"{live_server.url}/feuilles/{sheet.pk}/")
    check_columns_follow_the_paper(desk, names)
    for number, row in enumerate(PAPER_ROWS, start=1):
        contract, taker, oudlers, points, poignee, petit, chelem, figures = row
        wait_focus(desk, "taker")
        poignee_key = ""
        if poignee:
            size, seat = poignee.split()
            poignee_key = f"{seat}{SIZE_KEYS[size]}"
        type_row(
            desk,
            [taker, CONTRACT_KEYS[contract], oudlers, points, poignee_key, SIDE_KEYS[petit],
             CHELEM_KEYS[chelem]],
        )  # fmt: skip
        desk.wait_for_selector(f"#deal-{number}")
        # The screen's row reads as the paper's, column for column.
        assert screen_row(desk, number) == figures
    bilans = [int(t) for t in on_screen(desk, "#bilans td.bilan")]
    assert bilans == PAPER_BILANS

    type_paper_bilans(desk, PAPER_BILANS)
    assert desk.locator("#paper td.mismatch").count() == 0
    assert "Vérifiée" in desk.inner_text("#sheet-state")
    assert "Bilans papier différents" not in desk.inner_text("#sheet-body h2")


def test_an_official_fft_sheet_copied_by_figures_has_no_false_mismatch(
    browser, live_server, one_request_at_a_time, arbiter
):
    pages = open_page(browser, {"width": 1920, "height": 1080})
    page = next(pages)
    try:
        _tournament, position = make_tournament(names=NAMES_004, sheet_style="figures")
        sheet = sheet_for_table(table=position.tables.get())
        log_in_by_cookie(page, live_server, arbiter)
        page.goto(f"{live_server.url}/feuilles/{sheet.pk}/")
        names = ["DURAND", "DUPONT", "DUBOIS", "DESPRES"]  # the FFT sheet: N, S, E, O
        check_columns_follow_the_paper(page, names)
        for number, ((contract, taker), row) in enumerate(
            zip(FFT_ROWS, PAPER_ROWS, strict=True), start=1
        ):
            figures = row[-1]
            # The taker's figure is read in the taker's column of the paper.
            figure = figures[["N", "S", "E", "O"].index(taker)]
            wait_focus(page, "taker")
            type_row(page, [taker, CONTRACT_KEYS[contract], str(figure)])
            page.wait_for_selector(f"#deal-{number}")
            assert screen_row(page, number) == figures  # the row filled itself
        type_paper_bilans(page, PAPER_BILANS)
        assert page.locator("#paper td.mismatch").count() == 0
        assert "Vérifiée" in page.inner_text("#sheet-state")

        # An impossible figure: refused, the message named once, nothing saved.
        page.click("#deal-5 a.edit-deal")
        page.wait_for_selector("#deal-form.editing")
        wait_focus(page, "taker")  # the correction opens on its taker, as every row
        page.click("#id_figure")
        page.keyboard.press("Control+A")
        page.keyboard.type("1745")
        page.keyboard.press("Enter")
        page.wait_for_selector("#error-figure")
        assert "Chiffre du preneur" in page.inner_text("#error-figure")
        assert re.search(r"multiple de 3", page.inner_text("#error-figure"))
        assert page.inner_text("#error-figure").count("Chiffre du preneur") == 1
        # The message holds the cursor; Enter takes it to the figure.
        page.wait_for_function("() => document.activeElement.id === 'entry-errors'")
        page.keyboard.press("Enter")
        wait_focus(page, "figure")
    finally:
        next(pages, None)  # closes the context, failing on a CSP violation
