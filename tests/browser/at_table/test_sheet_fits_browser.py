"""Every column of a table's sheet readable on a phone, whatever its names and text size, and no
player page scrolling sideways (issue 38): at 390×844, 320×640, with the browser's default font
at 32 px and with emulated 200 % text, the table pages of four and of five (long names), the
player's card, their statistics and the public standings.

A mobile browser widens its layout to what a page needs: every check compares with the screen's
own width, element by element, and a box that scrolls on its own counts as a sideways scroll.
"""

from __future__ import annotations

import pytest

from scoring.sheets import table_entry
from tests.browser.accessibility_helpers import axe_in_every_page, axe_violations
from tests.browser.at_table.conftest import SCREENS, TARGET_SIZES, each_screen, open_phone
from tests.browser.at_table.test_targets_browser import player_pages as targets_pages
from tests.browser_helpers import csp_violations

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# What lies past the screen's right edge, and any box whose content is wider than itself (a box
# scrolling sideways, or text cut), by name.
SIDEWAYS = """(width) => {
  const problems = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className ? '.' + el.className.trim() : '');
  document.querySelectorAll('body, body *').forEach((el) => {
    if (!el.checkVisibility()) return;
    const box = el.getBoundingClientRect();
    if (box.width === 0) return;
    if (box.right > width + 1 || box.left < -1) {
      problems.push(name(el) + ' spans ' + Math.round(box.left) + '–' + Math.round(box.right));
    }
    const style = getComputedStyle(el);
    if (el.scrollWidth > el.clientWidth + 1 && style.display !== 'inline' &&
        el.clientWidth > 0) problems.push(name(el) + ' holds ' + el.scrollWidth + ' px in ' +
        el.clientWidth);
  });
  return {page: document.documentElement.scrollWidth, problems: problems.slice(0, 5)};
}"""

# Each score of the sheet and the name it belongs to, both inside the screen, shown whole.
COLUMNS = """(width) => {
  const cells = [...document.querySelectorAll('#table-sheet td.num')];
  const cut = cells.filter((td) => {
    const box = td.getBoundingClientRect();
    return !td.checkVisibility() || box.left < 0 || box.right > width + 1 ||
      td.scrollWidth > td.clientWidth + 1;
  }).map((td) => td.textContent.trim());
  const labels = [...document.querySelectorAll('#table-sheet td.num .who-cell')].filter(
    (el) => el.checkVisibility()).map((el) => el.textContent.trim());
  return {cells: cells.length, cut: cut, labels: labels};
}"""


def player_pages(world) -> list[str]:
    t = world["tournament"].pk
    woman = world["four"]["players"][2].pk
    return [
        f"/table/{world['four']['link'].token}/",
        f"/table/{world['five']['link'].token}/",
        f"/public/{t}/",
        f"/public/{t}/joueur/{woman}/",
        f"/public/{t}/joueur/{woman}/statistiques/",
    ]


def audited_by_targets(world) -> set[str]:
    """The pages test_targets_browser.py runs axe on as loaded, at TARGET_SIZES: its players'
    pages and both tables' pages."""
    tables = [f"/table/{world[key]['link'].token}/" for key in ("four", "five")]
    return {*targets_pages(world), *tables}


def test_no_player_page_scrolls_sideways_at_any_size(browser, live_server, long_names):
    # One phone: each page loaded once, then shown at every screen in turn (each_screen); axe
    # runs where the targets' audit does not already run it on the same page at the same size.
    context, page = open_phone(browser, SCREENS[0][1])
    problems = csp_violations(context)
    axe_in_every_page(context)
    cdp = context.new_cdp_session(page)
    audited = audited_by_targets(long_names)
    sizes = {screen[0] for screen in TARGET_SIZES}
    for path in player_pages(long_names):
        page.goto(live_server.url + path)
        for screen, width in each_screen(page, cdp):
            page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            found = page.evaluate(SIDEWAYS, width)
            if found["page"] > width or found["problems"]:
                problems.append(f"{screen} {path}: {found['page']} px {found['problems']}")
            if path in audited and screen in sizes:
                continue
            if axe := axe_violations(page):
                problems.append(f"{screen} {path}: {axe}")
    context.close()
    assert not problems, "\n".join(problems)


def test_every_score_of_a_sheet_of_four_and_of_five_shows_with_its_name(
    browser, live_server, long_names
):
    problems = []
    context, page = open_phone(browser, SCREENS[0][1])
    cdp = context.new_cdp_session(page)
    for key, deals in (("four", 3), ("five", 2)):
        table = long_names[key]
        page.goto(f"{live_server.url}/table/{table['link'].token}/")
        for screen, width in each_screen(page, cdp):
            found = page.evaluate(COLUMNS, width)
            players = len(table["players"])
            # Every deal's score of every player, and the totals' line.
            assert found["cells"] == (deals + 1) * players, screen
            if found["cut"]:
                problems.append(f"{screen} table of {players}: cut {found['cut']}")
            names = [p.player.full_name for p in table["players"]]
            # Each score says whose it is, the full name, readable beside it.
            if sorted(set(found["labels"])) != sorted(names):
                problems.append(f"{screen} table of {players}: labels {set(found['labels'])}")
    context.close()
    assert not problems, "\n".join(problems)


def test_a_phone_sheet_has_no_box_of_its_own_to_scroll(browser, live_server, long_names):
    """axe's scrollable-region-focusable came from the sheet's sideways-scrolling box."""
    context, page = open_phone(browser, SCREENS[3][1], 32)
    page.goto(f"{live_server.url}/table/{long_names['five']['link'].token}/")
    page.wait_for_selector("#table-sheet")
    scrolling = page.evaluate(
        "[...document.querySelectorAll('#table-sheet *')].filter((el) =>"
        " ['auto', 'scroll'].includes(getComputedStyle(el).overflowX)).length"
    )
    assert scrolling == 0
    assert table_entry.table_sheet(long_names["five"]["link"]) is not None
    context.close()
