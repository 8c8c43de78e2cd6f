"""In Chromium at 1920×1080: the hall screen cycles its pages, its clock counts down, a newly
published position shows within 10 seconds, and no text is clipped anywhere."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from scoring.sheets.services import deal_record, sheet_for_table
from tests.browser_helpers import open_page
from tournament.evening import clock, hall
from tournament.evening.positions import position_publish
from tournament.models import Player, Position, Registration, Seat, Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAST_NAMES = (
    "Martin Bernard Thomas Petit Robert Richard Durand Dubois Moreau Laurent Simon Michel "
    "Lefebvre Leroy Roux David Bertrand Morel Fournier Girard Bonnet Dupont Lambert Fontaine"
).split()
# A name long enough to need shrinking (or wrapping) in its column.
LONG_NAME = ("DE LA ROCHEFOUCAULD-MONTMORENCY", "Marie-Éléonore-Joséphine")
SIZES = (5, 5, 4, 4, 4, 4)  # 26 players


def seat(position: Position, registrations: list[Registration]) -> None:
    start = 0
    for number, size in enumerate(SIZES, start=1):
        game = Table.Game.FIVE if size == 5 else Table.Game.FOUR
        table = Table.objects.create(position=position, number=number, game=game)
        for direction, registration in zip(
            "NESWX", registrations[start : start + size], strict=False
        ):
            Seat.objects.create(table=table, registration=registration, direction=direction)
        start += size


def evening() -> tuple[Tournament, Position]:
    tournament = Tournament.objects.create(
        name="Open de la Saint-Vincent", date="2026-01-22", hall_announcement="Buvette ouverte"
    )
    names = [(last.upper(), "Jean") for last in LAST_NAMES] + [("ÇELIK", "Ayşe"), LONG_NAME]
    registrations = [
        Registration.objects.create(
            tournament=tournament,
            player=Player.objects.create(last_name=last, first_name=first),
            number=n,
        )
        for n, (last, first) in enumerate(names, start=1)
    ]
    first = Position.objects.create(tournament=tournament, number=1)
    seat(first, registrations)
    position_publish(position=first)
    for table in first.tables.filter(game=Table.Game.FOUR):
        sheet = sheet_for_table(table=table)
        for taker, points in ((0, 49), (1, 30), (2, 60)):
            data = {"players": 4, "taker": taker, "contract": "garde", "oudlers": 2}
            deal_record(sheet=sheet, data={**data, "points": points})
    second = Position.objects.create(tournament=tournament, number=2)
    seat(second, registrations[::-1])
    hall.hall_link_create(tournament=tournament)
    tournament.refresh_from_db()
    first.refresh_from_db()
    clock.clock_start(position=first)
    return tournament, second


@pytest.fixture
def screen(browser):
    yield from open_page(browser, {"width": 1920, "height": 1080}, timeout=15_000)


# Every page, shown in turn: any text wider or taller than its box, any item outside the stage.
CLIPPED = """() => {
  const problems = [];
  const stage = document.getElementById('hall-stage').getBoundingClientRect();
  const fits = (el) =>
    el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1;
  const check = (el, where) => {
    if (el.offsetParent === null) return;
    if (!fits(el)) problems.push(where + ': ' + el.textContent.trim() + ' ' +
      el.scrollWidth + '>' + el.clientWidth + ' or ' + el.scrollHeight + '>' + el.clientHeight);
  };
  document.querySelectorAll('.hall-head *, .hall-foot *').forEach((el) => check(el, 'head'));
  const pages = Array.from(document.querySelectorAll('.hall-page'));
  const shown = pages.map((p) => p.hidden);
  pages.forEach((page, n) => {
    pages.forEach((p, m) => { p.hidden = m !== n; });
    page.querySelectorAll('li, li *').forEach((el) => check(el, page.dataset.kind + ' ' + n));
    page.querySelectorAll(':scope > ol > li').forEach((li) => {
      const box = li.getBoundingClientRect();
      const outside = box.left < stage.left - 1 || box.right > stage.right + 1 ||
        box.bottom > stage.bottom + 1;
      if (outside) problems.push(page.dataset.kind + ' ' + n + ' outside: ' + li.textContent);
    });
  });
  pages.forEach((p, m) => { p.hidden = shown[m]; });
  return {problems: problems, pages: pages.length,
          items: pages.map((p) => p.querySelectorAll(':scope > ol > li').length),
          kinds: pages.map((p) => p.dataset.kind)};
}"""


def visible_kind(page) -> str:
    return page.evaluate("document.body.dataset.kind")


def seconds(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


def test_the_hall_screen_cycles_counts_down_and_shows_a_new_position_within_10_s(
    screen, live_server, django_user_model
):
    tournament, draft = evening()
    page = screen
    # The page's timers run on Playwright's clock, paused before the page loads: the test moves
    # it by the periods it checks (a slide of 3 s, the clock's seconds, a poll of 5 s), never
    # waiting for them in real time; what the server answers is still awaited as a state.
    page.clock.install(time=datetime.datetime(2026, 1, 22, 20, 0))
    page.clock.pause_at(datetime.datetime(2026, 1, 22, 20, 1))
    page.goto(f"{live_server.url}/salle/{tournament.hall_token}/?duree=3")
    page.wait_for_function("() => document.body.dataset.kind === 'who'")
    assert page.inner_text("#hall-slide-title").startswith("Position 1 : qui est où")
    assert page.inner_text("#hall-announcement") == "Buvette ouverte"
    # Nothing of the drafted position 2 shows.
    assert "Position 2" not in page.content()

    # Everything fits: 26 players on the pages of who sits where (at the hall's sizes, issue
    # 38: three pages of two columns), six tables, the standings.
    report = page.evaluate(CLIPPED)
    assert report["problems"] == [], "\n".join(report["problems"])
    assert sum(report["items"][: report["kinds"].count("who")]) == 26
    assert report["kinds"].count("who") <= 3

    # The clock counts down, from the server's 50 minutes: two seconds of the page's clock later
    # it shows two seconds less (no poll falls in between to re-sync it).
    first = page.inner_text("#hall-clock")
    assert first.startswith(("49:", "50:"))
    page.clock.run_for(2000)
    assert seconds(first) - seconds(page.inner_text("#hall-clock")) == 2

    # The pages cycle, 3 s each: the table plan, then the standings (however many pages), then
    # who sits where again; 12 slides of the page's clock are more than the cycle needs.
    seen = [visible_kind(page)]
    for _ in range(12):
        page.clock.run_for(3000)
        kind = visible_kind(page)
        if kind != seen[-1]:
            seen.append(kind)
        if len(seen) == 4:
            break
    assert seen == ["who", "plan", "standings", "who"]

    # The arbiter publishes position 2: the screen asks for it at its next poll, within 5 s of
    # its clock (the promise is 10 s), and shows its who-sits-where without a reload.
    page.evaluate("window.__not_reloaded = true")
    arbiter = Client()
    arbiter.force_login(django_user_model.objects.create_superuser("arbitre", password="pw-1"))
    # Tables of five have no sheet yet: the arbiter confirms publishing all the same.
    response = arbiter.post(reverse("position-publish", args=[tournament.pk, 2]), {"confirm": "1"})
    assert response.status_code == 302
    page.clock.run_for(5000)
    page.wait_for_function(
        "() => document.getElementById('hall-slide-title').textContent.startsWith('Position 2')"
    )
    assert page.inner_text("#hall-slide-title").startswith("Position 2 : qui est où")
    assert page.evaluate("window.__not_reloaded") is True
    # Position 2 has no clock yet: none is shown.
    assert page.locator("#hall-clock-box").is_hidden()
    assert page.evaluate(CLIPPED)["problems"] == []


def test_a_revoked_link_stops_the_screen(screen, live_server, console_errors):
    tournament, _draft = evening()
    page = screen
    page.clock.install()  # the screen's polls run when the test moves its clock
    page.goto(f"{live_server.url}/salle/{tournament.hall_token}/")
    page.wait_for_function("() => document.body.dataset.kind === 'who'")
    hall.hall_link_revoke(tournament=tournament)
    page.clock.run_for(5000)  # the next poll, within 5 s of the page's clock
    page.wait_for_selector("#hall-gone", state="visible", timeout=10_000)
    assert page.locator(".hall-page").count() == 0
    # The refused refresh is the browser's one console error, as expected: nothing else.
    assert all("404" in error for error in console_errors.found), console_errors.found
    console_errors.found.clear()


def test_many_players_spread_over_several_pages_without_clipping(screen, live_server):
    tournament, _draft = evening()
    # 104 players: four times the evening's, seated at 24 more tables of four.
    position = tournament.positions.get(number=1)
    for n in range(100, 178):
        registration = Registration.objects.create(
            tournament=tournament,
            player=Player.objects.create(last_name=f"JOUEUR-{n}", first_name="Prénom-Composé"),
            number=n,
        )
        number = 7 + (n - 100) // 4
        table, _ = Table.objects.get_or_create(position=position, number=number)
        Seat.objects.create(table=table, registration=registration, direction="NESW"[n % 4])
    hall.hall_announcement_set(tournament=tournament, text="Très longue annonce " * 9)
    page = screen
    page.goto(f"{live_server.url}/salle/{tournament.hall_token}/")
    page.wait_for_function("() => document.body.dataset.kind === 'who'")
    report = page.evaluate(CLIPPED)
    assert report["problems"] == [], "\n".join(report["problems"])
    kinds = page.evaluate(
        "Array.from(document.querySelectorAll('.hall-page')).map((p) => p.dataset.kind)"
    )
    who_pages = kinds.count("who")
    assert who_pages >= 2
    assert sum(report["items"][:who_pages]) == 104
    assert "(1/" in page.inner_text("#hall-slide-title")
