"""The table's phones as players past seventy hold them (issue 38): two tables of long names on
phones (one of four, one of five with a called king), and the screens to look at them on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scoring.models import ScoreSheet
from scoring.sheets import table_entry
from tournament.models import Player, Position, Registration, Seat, Table, Tournament

# Long names, as a club's list has them (last name, first name); the third is a woman's.
FOUR = [
    ("BÉNARD-LECOMTE", "Marie-Christine"),
    ("DE LA ROCHEFOUCAULD", "Jean-Baptiste"),
    ("GARÇON", "Éloïse"),
    ("VANDENBROUCKE", "Anne-Sophie"),
]
FIVE = [
    ("DUPONT-AIGNAN", "Bernadette"),
    ("LEFÈVRE-PONTALIS", "Jean-Christophe"),
    ("MONTGOLFIER", "Marguerite"),
    ("SAINT-EXUPÉRY", "Pierre-Alexandre"),
    ("WOJCIECHOWSKI", "Françoise"),
]
CLIENT = table_entry.Client(address="10.0.0.9", device="fixturephone")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SMALL = {"viewport": {"width": 320, "height": 640}, "is_mobile": True, "has_touch": True}
# (name, context options, browser default font size in px or None, root font size or None)
SCREENS = [
    ("390×844", PHONE, None, None),
    ("320×640", SMALL, None, None),
    ("390×844, default font 32 px", PHONE, 32, None),
    ("320×640, default font 32 px", SMALL, 32, None),
    ("390×844, text 200 %", PHONE, None, "200%"),
]


def open_phone(browser, options: dict, font_px: int | None = None):
    """A phone's browser tab; `font_px` sets the browser's default font size (the setting an
    older player raises), as Chromium's own setting does: rem, em and media queries follow."""
    context = browser.new_context(locale="fr-FR", **options)
    page = context.new_page()
    page.set_default_timeout(15_000)
    # A page load waits for the page and all it loads: on a machine loaded far past its cores
    # (two busy loops beside every other job), a first table page took over 15 s to load.
    page.set_default_navigation_timeout(60_000)
    if font_px:
        cdp = context.new_cdp_session(page)
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": font_px, "fixed": font_px}})
    return context, page


# Chromium's default font sizes (Settings > Appearance), what a phone has unless raised.
DEFAULT_FONT_PX = {"standard": 16, "fixed": 13}


def show_as(page, cdp, options: dict, font_px: int | None, root: str | None) -> None:
    """The page already loaded, shown as another of SCREENS shows it: the screen's size, the
    browser's default font and the root's, set on it without a reload. The players' pages adapt
    to these by CSS alone (no script of theirs reads the screen's size), so each screen sees
    what a page loaded at that size shows; the root's font size proves the settings took."""
    kept = {key: value for key, value in options.items() if key != "viewport"}
    assert kept == {key: PHONE[key] for key in kept}, "a screen of another kind of phone"
    page.set_viewport_size(options["viewport"])
    sizes = {"standard": font_px, "fixed": font_px} if font_px else DEFAULT_FONT_PX
    cdp.send("Page.setFontSizes", {"fontSizes": sizes})
    page.evaluate("(s) => { document.documentElement.style.fontSize = s; }", root or "")
    expected = (font_px or DEFAULT_FONT_PX["standard"]) * (int(root[:-1]) / 100 if root else 1)
    shown = page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert shown == expected, (options["viewport"], font_px, root, shown)


# The sizes the 44 px targets are audited at: both phones, at the default font and with 32 px.
# tests/browser/at_table/test_targets_browser.py runs axe on the players' pages at these sizes;
# test_sheet_fits_browser.py, which shows the same pages at every screen, runs axe only where
# that audit does not (200 % text, and the pages it alone shows): each page, size and state is
# audited once.
TARGET_SIZES = [screen for screen in SCREENS if screen[3] is None]


def each_screen(page, cdp, screens=SCREENS) -> Iterator[tuple[str, int]]:
    """The page already loaded, shown at each of `screens` in turn (show_as): yields each
    screen's name and width while the page is shown at it."""
    for screen, options, font_px, root in screens:
        show_as(page, cdp, options, font_px, root)
        yield screen, options["viewport"]["width"]


def _table(tournament, position, number, game, names, first_number):
    table = Table.objects.create(position=position, number=number, game=game)
    players = []
    for index, (last, first) in enumerate(names):
        registration = Registration.objects.create(
            tournament=tournament,
            player=Player.objects.create(last_name=last, first_name=first),
            number=first_number + index,
        )
        Seat.objects.create(table=table, registration=registration, direction="NSEWX"[index])
        players.append(registration)
    return table, players


def _deal(link, enterer, number, **data):
    sheet = table_entry.table_sheet(link)
    version = sheet.version if sheet is not None else 0
    deal, _replayed = table_entry.phone_deal_record(
        link=link, client_id=f"fixture-{link.pk}-{number:04d}", data=data, enterer=enterer,
        version=version, number=number,
    )  # fmt: skip
    return deal


@pytest.fixture
def long_names(arbiter):
    """Position 1 in play: table 1 of four and table 2 of five (called king), each with a few
    deals entered by its first player (a big garde contre, a passed deal), the first of table 1
    confirmed."""
    tournament = Tournament.objects.create(
        name="Open des téléphones",
        date="2026-11-21",
        is_public=True,
        entry_mode=Tournament.EntryMode.PHONES,
        status=Tournament.Status.RUNNING,
    )
    position = Position.objects.create(tournament=tournament, number=1, status="published")
    four, four_players = _table(tournament, position, 1, Table.Game.FOUR, FOUR, 1)
    five, five_players = _table(tournament, position, 2, Table.Game.FIVE, FIVE, 5)
    links = {link.table_id: link for link in table_entry.links_for_position(position)}
    link4, link5 = links[four.pk], links[five.pk]
    _deal(link4, four_players[0], 1, players=4, taker=0, contract="garde_contre", oudlers=3,
          points=91, petit_au_bout="attack", dealer=0)  # fmt: skip
    _deal(link4, four_players[0], 2, players=4, passed=True, dealer=3)
    _deal(link4, four_players[0], 3, players=4, taker=1, contract="garde", oudlers=1,
          points=38, dealer=2)  # fmt: skip
    # Deal 1 confirmed: the players' cards and statistics have a deal to show.
    first = link4.table.sheet.deals.get(number=1)
    confirmer = first.sheet.players.get(registration=four_players[1])
    version = ScoreSheet.objects.get(pk=first.sheet_id).version
    table_entry.deals_confirm(link=link4, seat=confirmer.seat, pin=four_players[1].pin,
                              client=CLIENT, version=version, deals=[first.pk])  # fmt: skip
    _deal(link5, five_players[0], 1, players=5, taker=0, partner=2, contract="garde_sans",
          oudlers=2, points=60, dealer=0)  # fmt: skip
    _deal(link5, five_players[0], 2, players=5, passed=True, dealer=4)
    return {
        "tournament": tournament,
        "position": position,
        "four": {"table": four, "link": link4, "players": four_players},
        "five": {"table": five, "link": link5, "players": five_players},
        "sheets": list(ScoreSheet.objects.filter(tournament=tournament)),
    }
