"""Every page passes axe-core (the engine behind browsers' own audits) without a serious or
critical violation: the desk, the cockpit, the hall screen, the public pages, the sign-up and
the phone table pages, each rendered with content (tests/browser/accessibility_helpers.py builds one
evening). A page template that no address below reaches fails the test until it is added.
"""

from __future__ import annotations

import pytest
from django.test import signals

from tests.browser.accessibility_helpers import (
    VENUE_TEMPLATES,
    anonymous_pages,
    axe_in_every_page,
    axe_violations,
    build_evening,
    desk_pages,
    page_templates,
    players_pages,
    venue_pages,
)
from tests.browser_helpers import DESK, csp_violations, log_in_by_cookie

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
HALL = {"viewport": {"width": 1920, "height": 1080}}

# The pages no link of the evening opens, rendered here by Django's own error views (and the
# lockout page of django-axes) and served at an address of the site, so that they load its
# stylesheets.
ERROR_TEMPLATES = (
    "400.html",
    "403.html",
    "403_csrf.html",
    "404.html",
    "500.html",
    "registration/locked_out.html",
)


def error_page_html(template: str) -> str:
    from django.core.exceptions import PermissionDenied, SuspiciousOperation
    from django.http import Http404
    from django.template.loader import render_to_string
    from django.test import RequestFactory
    from django.views import csrf, defaults

    request = RequestFactory().get("/")
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    views = {
        "400.html": lambda: defaults.bad_request(request, SuspiciousOperation()),
        "403.html": lambda: defaults.permission_denied(request, PermissionDenied()),
        "403_csrf.html": lambda: csrf.csrf_failure(request),
        "404.html": lambda: defaults.page_not_found(request, Http404()),
        "500.html": lambda: defaults.server_error(request),
    }
    if template in views:
        return views[template]().content.decode()
    return render_to_string(template, request=request)


def serve(html: str):
    """A route handler answering with this page."""
    return lambda route: route.fulfill(body=html, content_type="text/html; charset=utf-8")


class Rendered:
    """The templates Django renders while the test runs (the live server's threads too)."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def __call__(self, sender, template, context, **kwargs) -> None:
        if template.name:
            self.names.add(template.name)

    def clear(self) -> None:
        self.names.clear()


@pytest.fixture
def rendered():
    listener = Rendered()
    signals.template_rendered.connect(listener, dispatch_uid="a11y-rendered")
    yield listener
    signals.template_rendered.disconnect(dispatch_uid="a11y-rendered")


def audit(page, url: str, template: str, rendered: Rendered, problems: dict[str, list[str]]):
    rendered.clear()
    page.goto(url)
    assert template in rendered.names, f"{url} did not render {template}: {rendered.names}"
    found = axe_violations(page)
    if found:
        problems[url] = found


def test_every_page_template_has_no_serious_axe_violation(
    browser, live_server, one_request_at_a_time, staged, arbiter, rendered
):
    evening = build_evening(staged, arbiter)
    base = live_server.url
    problems: dict[str, list[str]] = {}
    covered: set[str] = set()
    blocked: list[str] = []  # what the Content-Security-Policy refused, on any page

    anonymous = browser.new_context(locale="fr-FR", viewport=DESK)
    blocked += csp_violations(anonymous)
    axe_in_every_page(anonymous)
    page = anonymous.new_page()
    for template, path in anonymous_pages(evening):
        context = page
        if template == "hall/screen.html":
            hall = browser.new_context(locale="fr-FR", **HALL)
            blocked += csp_violations(hall)
            axe_in_every_page(hall)
            context = hall.new_page()
        audit(context, base + path, template, rendered, problems)
        if template == "hall/screen.html":
            # Each slide kind, as the screen shows it in turn.
            for kind in ("who", "plan", "standings"):
                context.evaluate(
                    """(kind) => document.querySelectorAll('.hall-page').forEach(
                        (p) => { p.hidden = p.dataset.kind !== kind; })""",
                    kind,
                )
                found = axe_violations(context)
                if found:
                    problems[f"{path} ({kind})"] = found
            context.context.close()
        covered.add(template)
    for template in ERROR_TEMPLATES:
        html = error_page_html(template)
        url = f"{base}/__erreur__/{template}"
        page.route(url, serve(html))
        page.goto(url)
        found = axe_violations(page)
        if found:
            problems[template] = found
        covered.add(template)
    anonymous.close()

    phone = browser.new_context(locale="fr-FR", **PHONE)
    blocked += csp_violations(phone)
    axe_in_every_page(phone)
    page = phone.new_page()
    for template, path in players_pages(evening):
        audit(page, base + path, template, rendered, problems)
        covered.add(template)
    phone.close()

    desk = browser.new_context(locale="fr-FR", viewport=DESK)
    blocked += csp_violations(desk)
    axe_in_every_page(desk)
    page = desk.new_page()
    log_in_by_cookie(page, live_server, arbiter)
    for template, path in desk_pages(evening):
        audit(page, base + path, template, rendered, problems)
        covered.add(template)
    # Publishing position 2 while position 1 is still being typed asks first.
    rendered.clear()
    page.goto(f"{base}/tournois/{evening.tournament}/positions/2/")
    page.get_by_role("button", name="Publier", exact=True).click()
    page.wait_for_selector("#publish-confirm")
    assert "tournament/position_publish_confirm.html" in rendered.names
    if found := axe_violations(page):
        problems["position_publish_confirm.html"] = found
    covered.add("tournament/position_publish_confirm.html")
    desk.close()

    missing = page_templates() - covered - VENUE_TEMPLATES  # audited by the test below
    assert not missing, f"page templates no address of this test reaches: {sorted(missing)}"
    report = "\n".join(f"{url}\n  " + "\n  ".join(found) for url, found in problems.items())
    assert not problems, report
    assert not blocked, "Content-Security-Policy violations:\n" + "\n".join(blocked)


def audit_hall_slides(page, label: str, problems: dict[str, list[str]]) -> None:
    """Each slide kind of a hall screen, as the screen shows it in turn."""
    for kind in ("who", "standings"):
        page.evaluate(
            """(kind) => document.querySelectorAll('.hall-page').forEach(
                (p) => { p.hidden = p.dataset.kind !== kind; })""",
            kind,
        )
        if found := axe_violations(page):
            problems[f"{label} ({kind})"] = found


def test_the_venue_pages_have_no_serious_axe_violation(
    browser, live_server, one_request_at_a_time, arbiter, rendered
):
    """The venue's desk and the event's public page at the desk's size and on a 390 px phone,
    and its hall screen on a 1080p screen, with every slide kind."""
    desk_list, public_list, hall_path = venue_pages(arbiter)
    base = live_server.url
    problems: dict[str, list[str]] = {}
    covered: set[str] = set()
    blocked: list[str] = []
    for size, options in (("desk", {"viewport": DESK}), ("phone", PHONE)):
        context = browser.new_context(locale="fr-FR", **options)
        blocked += csp_violations(context)
        axe_in_every_page(context)
        page = context.new_page()
        sized: dict[str, list[str]] = {}
        for template, path in public_list:
            audit(page, base + path, template, rendered, sized)
            covered.add(template)
        log_in_by_cookie(page, live_server, arbiter)
        for template, path in desk_list:
            audit(page, base + path, template, rendered, sized)
            covered.add(template)
        problems |= {f"{size}: {url}": found for url, found in sized.items()}
        context.close()
    hall = browser.new_context(locale="fr-FR", **HALL)
    blocked += csp_violations(hall)
    axe_in_every_page(hall)
    page = hall.new_page()
    audit(page, base + hall_path, "hall/screen.html", rendered, problems)
    assert "scoring/events/venue/_hall_slides.html" in rendered.names, "the venue's slides"
    covered.add("hall/screen.html")
    audit_hall_slides(page, hall_path, problems)
    hall.close()
    assert covered == VENUE_TEMPLATES
    report = "\n".join(f"{url}\n  " + "\n  ".join(found) for url, found in problems.items())
    assert not problems, report
    assert not blocked, "Content-Security-Policy violations:\n" + "\n".join(blocked)
