"""Helpers shared by the browser tests (Chromium driven by Playwright): pages, typing, forms."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

DESK = {"width": 1366, "height": 768}  # an arbiter's laptop at the desk


# Every page reports what the Content-Security-Policy blocked: the browser fires this event and
# Chromium also logs "Refused to … because it violates the following Content Security Policy".
_REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || "inline"}`
    + ` at ${event.sourceFile}:${event.lineNumber} ${event.sample}`);
});
"""


# Under that policy, give page.wait_for_function an arrow function ("() => …"): Playwright
# evaluates a bare expression anew at every poll, which the policy refuses (no 'unsafe-eval').


def csp_violations(context) -> list[str]:
    """Watch every page of a browser context; the list fills with each CSP violation."""
    violations: list[str] = []

    def on_console(message) -> None:
        text = message.text
        if text.startswith("CSP violation") or "Content Security Policy" in text:
            violations.append(f"{message.page.url if message.page else '?'}: {text}")

    context.add_init_script(_REPORT_CSP_VIOLATIONS)
    context.on("console", on_console)
    return violations


def open_page(browser, viewport: dict[str, int], *, timeout: int = 10_000, **options) -> Iterator:
    """A French page in a fresh browser context of this size, closed afterwards (for fixtures:
    `yield from open_page(...)`). The test fails if a page broke the Content-Security-Policy."""
    context = browser.new_context(locale="fr-FR", viewport=viewport, **options)
    violations = csp_violations(context)
    page = context.new_page()
    page.set_default_timeout(timeout)
    yield page
    context.close()
    assert not violations, "Content-Security-Policy violations:\n" + "\n".join(violations)


def type_row(page, values: Sequence[str]) -> None:
    """A deal row typed left to right, Tab between the fields (empty ones skipped), Enter saves."""
    keyboard = page.keyboard
    for index, value in enumerate(values):
        if value:
            keyboard.type(value)
        if index < len(values) - 1:
            keyboard.press("Tab")
    keyboard.press("Enter")


def report_incident(page, kind: str, player: str, deal: int, penalty: int) -> None:
    """From a sheet's page, report an incident of `kind` by the player named `player` (as the
    form's list shows them) on a deal, with penalty points and the decision saying so."""
    page.click("#new-incident")
    page.select_option("#id_kind", kind)
    culprit = page.locator("#id_registration option", has_text=player).get_attribute("value")
    page.select_option("#id_registration", culprit)
    page.fill("#id_deal_number", str(deal))
    page.fill("#id_penalty_points", str(penalty))
    page.fill("#id_decision", f"{penalty} points de pénalité")
    page.click("#incident-form button[type=submit]")
    page.wait_for_selector("#penalties")


def log_in_by_cookie(page, live_server, user) -> None:
    """`user` logged in as the real form leaves them (a session, its cookie in the page's browser
    context) without loading the form and posting it: the browser tests whose subject is not
    the login form start so, and open their first page themselves.
    tests/browser/test_browser_smoke.py logs in through the form (tests/conftest.browser_login)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies(
        [{"name": cookie.key, "value": cookie.value, "url": live_server.url, "httpOnly": True}]
    )
