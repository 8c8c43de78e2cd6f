"""The table's page on the smallest phone with the largest text (issue 38, a tester playing a
75-year-old player at 320×640 with a 32 px default font): the sticky band grew with its notices
until only 56 px of form were left (826 px offline on a 640 px screen); scores broke across
lines ("11 / 6"); the conflict box's help was 4.46:1 on its pink."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility_helpers import AXE
from tests.browser.at_table.conftest import SCREENS, SMALL, open_phone
from tests.browser.at_table.test_entry_flow_browser import identify, tap, url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The height the page's sticky and fixed boxes cover on screen, together.
STICKY = """() => {
  let covered = 0;
  document.querySelectorAll('body *').forEach((el) => {
    const position = getComputedStyle(el).position;
    if (!['sticky', 'fixed'].includes(position) || !el.checkVisibility()) return;
    const box = el.getBoundingClientRect();
    covered += Math.max(0, Math.min(box.bottom, innerHeight) - Math.max(box.top, 0));
  });
  return covered;
}"""

# Each score of the sheet whose figures take more than one line: its text and line count.
BROKEN = """() => {
  const broken = [];
  document.querySelectorAll('#table-sheet td.num').forEach((td) => {
    const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!/\\d/.test(node.textContent) || node.parentElement.closest('.who-cell')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.top)));
      if (tops.size !== 1) broken.push(node.textContent.trim() + ' on ' + tops.size + ' lines');
    }
  });
  return broken;
}"""


def test_with_the_call_and_offline_notices_the_form_stays_usable(browser, live_server, long_names):
    four = long_names["four"]
    context, page = open_phone(browser, SMALL, 32)
    page.goto(url(live_server, four))
    identify(page, four["players"][0])
    page.click("#call-button")
    expect(page.locator("#call-banner")).to_be_visible()
    context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    expect(page.locator("#offline-banner")).to_be_visible()
    height = SMALL["viewport"]["height"]
    covered = [page.evaluate(STICKY)]
    # Each field is tapped where it is (Playwright refuses a click a sticky box would catch).
    page.evaluate("window.scrollTo(0, 0)")
    tap(page, "taker", "0")
    covered.append(page.evaluate(STICKY))
    tap(page, "contract", "garde")
    covered.append(page.evaluate(STICKY))
    tap(page, "oudlers", "1")
    page.click("#points", timeout=5_000)
    page.fill("#points", "45")
    covered.append(page.evaluate(STICKY))
    assert max(covered) <= 0.35 * height, covered
    expect(page.locator("#deal-entry input[name=taker][value='0']")).to_be_checked()
    expect(page.locator("#deal-entry input[name=contract][value='garde']")).to_be_checked()
    # The notices are still on the page, above the form, and the Wi-Fi badge stays in view.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    badge = page.locator("#net-status").bounding_box()
    assert badge is not None and 0 <= badge["y"] < height
    context.close()


@pytest.mark.parametrize("screen", [1, 3], ids=["320x640", "320x640-font-32"])
def test_no_score_breaks_across_lines(browser, live_server, long_names, screen):
    _name, options, font_px, _root = SCREENS[screen]
    context, page = open_phone(browser, options, font_px)
    for key in ("four", "five"):
        page.goto(url(live_server, long_names[key]))
        expect(page.locator("#table-sheet td.num").first).to_be_visible()
        assert page.evaluate(BROKEN) == [], key
    context.close()


def test_the_conflict_boxs_help_is_readable(browser, live_server, long_names):
    # At the default font: with 32 px the help is large text, held to 3:1 only.
    context, page = open_phone(browser, SMALL)
    page.goto(url(live_server, long_names["four"]))
    # The box as a deal-number conflict shows it (static/js/table_entry.js, numberConflict).
    page.evaluate(
        """() => {
      document.getElementById('conflict-box').hidden = false;
      document.getElementById('conflict-replace-box').hidden = false;
      document.getElementById('conflict-replace-help').textContent =
        "Pour remplacer sa donne, la personne qui l'a saisie tape son code personnel.";
    }"""
    )
    result = AXE.run(page, options={"runOnly": ["color-contrast"]}).response
    bad = [node["target"] for v in result["violations"] for node in v["nodes"]]
    assert not [t for t in bad if "conflict" in str(t)], bad
    context.close()
