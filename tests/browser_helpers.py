"""Helpers shared by the browser tests (Chromium driven by Playwright): pages and typing."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

DESK = {"width": 1366, "height": 768}  # an arbiter's laptop at the desk


def open_page(browser, viewport: dict[str, int], *, timeout: int = 10_000, **options) -> Iterator:
    """A French page in a fresh browser context of this size, closed afterwards (for fixtures:
    `yield from open_page(...)`)."""
    context = browser.new_context(locale="fr-FR", viewport=viewport, **options)
    page = context.new_page()
    page.set_default_timeout(timeout)
    yield page
    context.close()


def type_row(page, values: Sequence[str]) -> None:
    """A deal row typed left to right, Tab between the fields (empty ones skipped), Enter saves."""
    keyboard = page.keyboard
    for index, value in enumerate(values):
        if value:
            keyboard.type(value)
        if index < len(values) - 1:
            keyboard.press("Tab")
    keyboard.press("Enter")
