"""Every browser test fails on a console error or an uncaught script error of a desk page (issue
38: each desk save logged errors nobody saw). The watch wraps the session's Chromium, so every
context a test opens (its own or a fixture's) is watched; Content-Security-Policy violations are
console errors too (tests/browser_helpers.py makes the browser report each one)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

# The players' pages (a table's phone entry, the public standings, the sign-up) belong to their
# own tests (tests/browser/phone/), where offline phones log failed requests on purpose.
PLAYER_PATHS = ("/table/", "/public/", "/inscription/")


def desk_page_url(url: str) -> bool:
    """An arbiter's page or the hall screen: everything but the players' phone pages."""
    path = urlsplit(url).path
    return not path.startswith(PLAYER_PATHS)


class ConsoleErrors:
    """The console errors and page errors of every watched context, one line each."""

    def __init__(self) -> None:
        self.found: list[str] = []

    def watch(self, context) -> None:
        context.on("console", self._console)
        context.on("weberror", self._page_error)

    def _console(self, message) -> None:
        url = message.page.url if message.page else ""
        if message.type == "error" and desk_page_url(url):
            where = message.location.get("url") or url
            self.found.append(f"{url}: console error at {where}: {message.text}")

    def _page_error(self, web_error) -> None:
        url = web_error.page.url if web_error.page else ""
        if desk_page_url(url):
            self.found.append(f"{url}: uncaught {web_error.error}")


@pytest.fixture(autouse=True)
def console_errors(request):
    """Fails the test if a desk page it opened logged an error; a test expecting one (a server
    error page, a refused request shown on purpose) takes the list and empties it."""
    if "browser" not in request.fixturenames:
        yield ConsoleErrors()
        return
    browser = request.getfixturevalue("browser")
    errors = ConsoleErrors()
    new_context = browser.new_context

    def watched_context(*args, **kwargs):
        context = new_context(*args, **kwargs)
        errors.watch(context)
        return context

    browser.new_context = watched_context
    try:
        yield errors
    finally:
        del browser.new_context
    assert not errors.found, "console errors on desk pages:\n" + "\n".join(errors.found)
