"""Every browser test fails on a console error or an uncaught script error of any page it opens:
the desk pages and the hall (issue 38: each desk save logged errors nobody saw) and the players'
pages (a table's phone, a player's card, the public standings), where a refused code or a stale
sheet is an answer the page shows in French, never an error. The watch wraps the session's
Chromium and the LAN one, so every context a test opens (its own or a fixture's) is watched;
Content-Security-Policy violations are console errors too (tests/browser_helpers.py makes the
browser report each one). A phone page offline sends nothing, so it logs nothing either."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

# Browsers whose contexts are watched, when the test uses them.
WATCHED_BROWSERS = ("browser", "lan_browser")


def closed_table_page(url: str, where: str, text: str) -> bool:
    """The 404 of a table link's own page (its position closed, or a mistyped link): a page
    made to say so, which a phone still holding deals sends to the arbiter; the browser logs
    the document's status, which the tests assert themselves. Any other 404 stays an error."""
    return (
        where == url
        and urlsplit(url).path.startswith("/table/")
        and text.endswith("status of 404 (Not Found)")
    )


class ConsoleErrors:
    """The console errors and page errors of every watched context, one line each."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self.allowed: list[str] = []  # texts a test expects (an offline reload's own error)
        self.seen_allowed: list[str] = []

    def allow(self, text: str) -> None:
        """Errors whose text contains `text` are expected from now on, whenever the browser
        delivers them (its console event may come after the page shows its state)."""
        self.allowed.append(text)

    def watch(self, context) -> None:
        context.on("console", self._console)
        context.on("weberror", self._page_error)

    def _console(self, message) -> None:
        url = message.page.url if message.page else ""
        where = message.location.get("url") or url
        if message.type != "error" or closed_table_page(url, where, message.text):
            return
        line = f"{url}: console error at {where}: {message.text}"
        if any(text in message.text for text in self.allowed):
            self.seen_allowed.append(line)
        else:
            self.found.append(line)

    def _page_error(self, web_error) -> None:
        url = web_error.page.url if web_error.page else ""
        self.found.append(f"{url}: uncaught {web_error.error}")


@pytest.fixture(autouse=True)
def console_errors(request):
    """Fails the test if a page it opened logged an error; a test expecting one (a server error
    page, a refused request shown on purpose) takes the list and empties it."""
    errors = ConsoleErrors()
    watched = [
        request.getfixturevalue(name) for name in WATCHED_BROWSERS if name in request.fixturenames
    ]
    originals = []
    for browser in watched:
        new_context = browser.new_context

        def watched_context(*args, _new_context=new_context, **kwargs):
            context = _new_context(*args, **kwargs)
            errors.watch(context)
            return context

        browser.new_context = watched_context
        originals.append(browser)
    try:
        yield errors
    finally:
        for browser in originals:
            del browser.new_context
    assert not errors.found, "console errors:\n" + "\n".join(errors.found)
