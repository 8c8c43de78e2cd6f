"""The hall screen read from the back of a club room, at 1920×1080: on every slide the names
are at one size, at least NAME_MIN_PX, and the position's countdown shows.

Why 40 px: a club room's screen is a 55 to 65 inch 1080p TV (or a projector of that width)
read from up to 8 m. On a 65-inch panel a CSS px is 0.75 mm, so a 40 px font has capitals
about 21 mm high: 9 minutes of arc at 8 m, about twice the size a 20/20 eye resolves (5'),
which is what reading without effort by older eyes asks. A name never shrinks to fit its
column (it wraps instead), so no name on a screen is smaller than the others.
"""

from __future__ import annotations

import pytest

from tests.browser.phone.test_hall_browser import evening
from tests.browser_helpers import open_page

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

NAME_MIN_PX = 40
NAMES = ".who-name, .plan-name, .rank-name"

SHOWN = """(names) => {
  const page = Array.from(document.querySelectorAll('.hall-page')).find((p) => !p.hidden);
  const sizes = Array.from(page.querySelectorAll(names)).map(
    (el) => parseFloat(getComputedStyle(el).fontSize));
  const clock = document.getElementById('hall-clock');
  const box = clock.getBoundingClientRect();
  const inside = box.width > 0 && box.top >= 0 && box.left >= 0 &&
    box.bottom <= window.innerHeight && box.right <= window.innerWidth;
  return {kind: page.dataset.kind, sizes: sizes, clock: clock.textContent.trim(),
          clockShown: inside && clock.checkVisibility(),
          clockPx: parseFloat(getComputedStyle(clock).fontSize)};
}"""


@pytest.fixture
def screen(browser):
    yield from open_page(browser, {"width": 1920, "height": 1080}, timeout=15_000)


def test_every_slide_shows_names_at_one_large_size_and_the_countdown(screen, live_server):
    tournament, _draft = evening()  # 26 players, one of them with a very long name
    page = screen
    page.goto(f"{live_server.url}/salle/{tournament.hall_token}/?duree=3")
    seen = {}
    for kind in ("who", "plan", "standings"):
        page.wait_for_function(f"() => document.body.dataset.kind === '{kind}'", timeout=12_000)
        seen[kind] = page.evaluate(SHOWN, NAMES)
    for kind, shown in seen.items():
        assert shown["sizes"], kind
        assert len(set(shown["sizes"])) == 1, (kind, sorted(set(shown["sizes"])))
        assert shown["sizes"][0] >= NAME_MIN_PX, (kind, shown["sizes"][0])
        assert shown["clockShown"], (kind, shown)
        assert shown["clock"][:2] in ("49", "50"), (kind, shown["clock"])
        assert shown["clockPx"] >= NAME_MIN_PX, kind
