"""The players' pages on small and zoomed screens: no sideways scroll at 320 px (WCAG 1.4.10
reflow) nor on a 390×844 phone, nothing clipped with the text at 200 % (WCAG 1.4.4), and every
control a finger's target of at least 44×44 px (WCAG 2.5.5).

The pages are those of tests/accessibility_helpers.players_pages: the public standings, "ma
table", a player's card and statistics, the public championship, the sign-up and its ticket,
and the phone table pages (/table/, a table's entry page, an expired link).
"""

from __future__ import annotations

import pytest

from tests.browser.accessibility_helpers import (
    axe_violations,
    build_evening,
    event_player_pages,
    players_pages,
)
from tests.browser_helpers import csp_violations

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TARGET = 44  # CSS px, WCAG 2.5.5 (AAA): older fingers on a phone

# Screens, as (name, browser context options, root font size).
SCREENS = [
    ("320 px", {"viewport": {"width": 320, "height": 640}}, None),
    (
        "390×844 phone",
        {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
        None,
    ),
    # A 1280×900 laptop window zoomed to 200 %, and the text setting doubled on top of it:
    # the page is laid out at 640 CSS px with every rem-sized text twice as large.
    ("640 px, text 200 %", {"viewport": {"width": 640, "height": 450}, "device_scale_factor": 2},
     "200%"),
]  # fmt: skip

# Elements wider than the screen (the cause of a sideways scroll), and text cut by a box that
# hides its overflow (the honeypot off screen aside); a data table may scroll inside its own
# box, as WCAG 1.4.10 allows.
OVERFLOW = """(width) => {
  const problems = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className ? '.' + el.className.trim() : '');
  const scrolled = (el) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(up).overflowX)) return true;
    }
    return false;
  };
  document.querySelectorAll('body *').forEach((el) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= 0 || scrolled(el)) return;
    if (box.right > width + 1) problems.push(name(el) + ' ends at ' + Math.round(box.right));
    const style = getComputedStyle(el);
    if (['hidden', 'clip'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1 &&
        el.textContent.trim()) problems.push(name(el) + ' clips its text');
  });
  return {width: document.documentElement.scrollWidth, problems: problems.slice(0, 6)};
}"""

# Every control a person may tap, as shown (hidden ones and the honeypot off screen aside).
SMALL_TARGETS = """(target) => {
  const small = [];
  const controls = 'a[href], button, select, textarea, summary, input:not([type=hidden])';
  document.querySelectorAll(controls).forEach((el) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || box.right <= 0) return;
    if (getComputedStyle(el).visibility === 'hidden') return;
    if (box.width < target - 0.5 || box.height < target - 0.5) {
      const label = (el.textContent || el.name || el.id || '').trim().replace(/\\s+/g, ' ');
      small.push(el.tagName.toLowerCase() + ' "' + label.slice(0, 30) + '" ' +
        Math.round(box.width) + '×' + Math.round(box.height));
    }
  });
  return small;
}"""


@pytest.fixture
def evening(live_server, one_request_at_a_time, staged, arbiter):
    return build_evening(staged, arbiter)


def kinds_of_browser(screens) -> list[tuple[dict, list]]:
    """SCREENS by kind of browser (a phone's touch screen, or a window): the context options
    the kind shares, and its screens. A window's screens share the largest pixel ratio: it
    changes no CSS pixel of the layout (static/css has no resolution media query)."""
    kinds: dict[tuple, tuple[dict, list]] = {}
    for screen in screens:
        options = {key: value for key, value in screen[1].items() if key != "viewport"}
        ratio = options.pop("device_scale_factor", 1)
        shared, members = kinds.setdefault(tuple(sorted(options.items())), (options, []))
        shared["device_scale_factor"] = max(ratio, shared.get("device_scale_factor", 1))
        members.append(screen)
    return list(kinds.values())


def test_players_pages_never_scroll_sideways(browser, live_server, evening):
    # One browser context per kind of browser: each page loaded once, then shown at each of
    # its screens in turn (the players' pages adapt by CSS alone, no script reads the size).
    problems = []
    for shared, screens in kinds_of_browser(SCREENS):
        context = browser.new_context(locale="fr-FR", viewport=screens[0][1]["viewport"], **shared)
        blocked = csp_violations(context)
        page = context.new_page()
        for _template, path in players_pages(evening):
            page.goto(live_server.url + path)
            for screen, options, font_size in screens:
                page.set_viewport_size(options["viewport"])
                page.evaluate(
                    "(s) => { document.documentElement.style.fontSize = s; }", font_size or ""
                )
                width = options["viewport"]["width"]
                found = page.evaluate(OVERFLOW, width)
                if found["width"] > width or found["problems"]:
                    problems.append(f"{screen} {path}: {found['width']} px, {found['problems']}")
        context.close()
        problems += blocked
    assert not problems, "\n".join(problems)


def test_every_control_of_the_phone_pages_is_a_44_px_target(browser, live_server, evening):
    _screen, options, _font = SCREENS[1]
    context = browser.new_context(locale="fr-FR", **options)
    problems = csp_violations(context)
    page = context.new_page()
    for _template, path in players_pages(evening):
        page.goto(live_server.url + path)
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        small = page.evaluate(SMALL_TARGETS, TARGET)
        if small:
            problems.append(f"{path}: {small}")
    context.close()
    assert not problems, "\n".join(problems)


# Visible text smaller than this (CSS px) on a phone page, each with its size.
TINY_TEXT = """(least) => {
  const tiny = [];
  document.querySelectorAll('body *').forEach((el) => {
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.checkVisibility()) return;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < least) tiny.push(el.tagName.toLowerCase() + ' "' + el.textContent.trim().slice(0, 20) +
      '" ' + px + ' px');
  });
  return tiny.slice(0, 6);
}"""
TEXT_MIN_PX = 12


def test_an_events_pages_fit_a_phone_at_320_and_390_px(
    browser, live_server, one_request_at_a_time, arbiter
):
    """The event's page (main bracket and consolante side by side, carry-over columns), a
    session-2 bracket's pages and table phone: no sideways scroll at 320 px nor on a 390×844
    phone, 44 px targets, no text under 12 px and no serious axe violation on the phone."""
    paths = event_player_pages(arbiter)
    problems = []
    for screen, options, _font in SCREENS[:2]:
        context = browser.new_context(locale="fr-FR", **options)
        problems += csp_violations(context)
        page = context.new_page()
        width = options["viewport"]["width"]
        for path in paths:
            page.goto(live_server.url + path)
            page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            found = page.evaluate(OVERFLOW, width)
            if found["width"] > width or found["problems"]:
                problems.append(f"{screen} {path}: {found['width']} px, {found['problems']}")
            if small := page.evaluate(SMALL_TARGETS, TARGET):
                problems.append(f"{screen} {path}: {small}")
            if tiny := page.evaluate(TINY_TEXT, TEXT_MIN_PX):
                problems.append(f"{screen} {path}: text under {TEXT_MIN_PX} px {tiny}")
            if options.get("is_mobile") and (axe := axe_violations(page)):
                problems.append(f"{screen} {path}: {axe}")
        context.close()
    assert not problems, "\n".join(problems)
