"""The console watch of tests/browser/conftest.py sees what a desk page logs: a console error, an
uncaught exception, a CSP refusal, a missing resource; and what a player's page logs, on the
session's Chromium and on the LAN one (phones on a club's plain-http Wi-Fi)."""

import pytest

from tests.browser_helpers import DESK, log_in_by_cookie

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_watch_catches_errors_of_a_desk_page(browser, live_server, arbiter, console_errors):
    # A bare context: open_page's own CSP check would fail on the refusal made on purpose.
    context = browser.new_context(locale="fr-FR", viewport=DESK)
    desk_page = context.new_page()
    log_in_by_cookie(desk_page, live_server, arbiter)
    desk_page.goto(live_server.url + "/")
    assert console_errors.found == []  # the home page logs nothing, its icon included
    desk_page.evaluate("() => console.error('logged by the page')")
    desk_page.evaluate("() => { setTimeout(() => { throw new Error('thrown by the page'); }); }")
    desk_page.evaluate(
        """() => { const p = document.createElement('p');
        p.setAttribute('style', 'color: red'); document.body.append(p); }"""
    )
    desk_page.evaluate("() => fetch('/nulle-part/')")
    desk_page.wait_for_function("() => true")
    desk_page.goto(f"{live_server.url}/tournois/")  # the thrown error has surely landed
    found = "\n".join(console_errors.found)
    assert "logged by the page" in found
    assert "thrown by the page" in found
    assert "Content Security Policy" in found or "CSP violation" in found
    assert "404" in found
    context.close()
    console_errors.found.clear()


def test_the_watch_catches_errors_of_the_players_pages(phone_page, live_server, console_errors):
    phone_page.goto(f"{live_server.url}/table/")
    phone_page.evaluate("() => console.error('a player page')")
    assert [line.rsplit(": ", 1)[1] for line in console_errors.found] == ["a player page"]
    console_errors.found.clear()
    # A mistyped or closed table link's own page (a 404 made to say so) is no error; a request
    # of that page answered 404 is.
    phone_page.goto(f"{live_server.url}/table/lien-perime/")
    assert console_errors.found == []
    phone_page.evaluate("() => fetch('/nulle-part/')")
    phone_page.wait_for_function("() => true")
    phone_page.goto(f"{live_server.url}/table/")
    assert any("/nulle-part/" in line and "404" in line for line in console_errors.found)
    console_errors.found.clear()


def test_the_watch_catches_errors_on_the_lan_browser(lan_browser, lan_server, console_errors):
    context = lan_browser.new_context(locale="fr-FR")
    page = context.new_page()
    page.goto(f"{lan_server}/table/")
    page.evaluate("() => console.error('a phone on the club Wi-Fi')")
    context.close()
    assert [line.rsplit(": ", 1)[1] for line in console_errors.found] == [
        "a phone on the club Wi-Fi"
    ]
    console_errors.found.clear()
