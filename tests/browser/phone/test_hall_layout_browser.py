"""The hall screen at 1920×1080 uses the screen (issue 38: a third of the width, names wrapping
beside empty space): a club evening of 17 players shows its names on one line each, at the sizes
chosen for a 40" TV read from 5 m (static/css/hall.css, README), spread over the stage's width."""

import pytest

from scoring.sheets.services import deal_record, sheet_for_table
from tests.browser_helpers import open_page
from tournament.evening import hall
from tournament.evening.positions import position_publish
from tournament.models import Player, Position, Registration, Seat, Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    ("BÉNARD", "Odette"), ("LEFÈVRE", "Jean-Pierre"), ("GARÇON", "Éloïse"), ("DUPONT", "Marc"),
    ("FONTAINE", "Marie-Christine"), ("ROUSSEAU", "Bernadette"), ("MOREAU", "Henri"),
    ("CHEVALIER", "Françoise"), ("GIRARD", "Paul"), ("BONNET", "Geneviève"), ("LAMBERT", "Luc"),
    ("FAURE", "Jacqueline"), ("MERCIER", "Ginette"), ("BLANC", "René"), ("GUÉRIN", "Solange"),
    ("BOYER", "Marcel"), ("DE LA TOUR", "Anne-Sophie"),
]  # fmt: skip
SIZES = (5, 4, 4, 4)  # 17 players


def evening() -> Tournament:
    tournament = Tournament.objects.create(name="Soirée du jeudi", date="2026-01-22")
    registrations = [
        Registration.objects.create(
            tournament=tournament,
            player=Player.objects.create(last_name=last, first_name=first),
            number=n,
        )
        for n, (last, first) in enumerate(NAMES, start=1)
    ]
    position = Position.objects.create(tournament=tournament, number=1)
    start = 0
    for number, size in enumerate(SIZES, start=1):
        game = Table.Game.FIVE if size == 5 else Table.Game.FOUR
        table = Table.objects.create(position=position, number=number, game=game)
        seated = registrations[start : start + size]
        for direction, registration in zip("NESWX", seated, strict=False):
            Seat.objects.create(table=table, registration=registration, direction=direction)
        start += size
    position_publish(position=position)
    for table in position.tables.filter(game=Table.Game.FOUR):
        deal_record(
            sheet=sheet_for_table(table=table),
            data={"players": 4, "taker": 0, "contract": "garde", "oudlers": 2, "points": 49},
        )
    hall.hall_link_create(tournament=tournament)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def screen(browser):
    yield from open_page(browser, {"width": 1920, "height": 1080}, timeout=15_000)


# For each page: how many names wrap or shrank, the smallest name size, and the share of the
# stage's width its items cover.
MEASURE = """() => {
  const stage = document.getElementById('hall-stage').getBoundingClientRect();
  const pages = Array.from(document.querySelectorAll('.hall-page'));
  const shown = pages.map((p) => p.hidden);
  const found = pages.map((page, n) => {
    pages.forEach((p, m) => { p.hidden = m !== n; });
    const names = Array.from(page.querySelectorAll('.who-name, .plan-name, .rank-name'));
    const wrapped = names.filter((el) => {
      const line = parseFloat(getComputedStyle(el).lineHeight) ||
        1.3 * parseFloat(getComputedStyle(el).fontSize);
      return el.getBoundingClientRect().height > line * 1.5 || el.scrollWidth > el.clientWidth + 1;
    }).map((el) => el.textContent);
    const sizes = names.map((el) => parseFloat(getComputedStyle(el).fontSize));
    const smallestOf = (selector) => {  // 0 when the page has none: the test fails
      const found = Array.from(page.querySelectorAll(selector));
      const px = found.map((el) => parseFloat(getComputedStyle(el).fontSize));
      return found.length ? Math.min(...px) : 0;
    };
    const items = Array.from(page.querySelectorAll(':scope > ol > li'));
    const left = Math.min(...items.map((li) => li.getBoundingClientRect().left));
    const right = Math.max(...items.map((li) => li.getBoundingClientRect().right));
    return {kind: page.dataset.kind, names: names.length, wrapped,
            smallest: Math.min(...sizes), width: (right - left) / stage.width,
            numbers: smallestOf('.who-table, .plan-table h2, .rank-total'),
            labels: smallestOf('.who-dir, .plan-dir, .rank-n')};
  });
  pages.forEach((p, m) => { p.hidden = shown[m]; });
  return found;
}"""


def test_the_hall_uses_the_screen_without_wrapping_a_name(screen, live_server):
    tournament = evening()
    screen.goto(f"{live_server.url}/salle/{tournament.hall_token}/?duree=60")
    screen.wait_for_function("() => document.body.dataset.kind === 'who'")
    pages = screen.evaluate(MEASURE)
    assert {page["kind"] for page in pages} == {"who", "plan", "standings"}
    for page in pages:
        assert page["wrapped"] == [], page
        assert page["smallest"] >= 64, page  # the names' size, none shrunk
        assert page["width"] >= 0.9, page  # the stage's width is used, not a third of it
        # The README's other sizes: table numbers and totals 64 px, seats and ranks 48 px.
        assert page["numbers"] >= 64 and page["labels"] >= 48, page
    clock = screen.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('.hall-clock')).fontSize)"
    )
    assert clock >= 96
    who = [page for page in pages if page["kind"] == "who"]
    assert sum(page["names"] for page in who) == 17
