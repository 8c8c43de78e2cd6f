"""No page prints Django comment markup: `{# … #}` spans one line only, so a comment spread over
two lines is printed as text under the form (issue 38: "After a refusal the focus comes here…"
under *Enregistrer*). Every page the accessibility walk opens is rendered and searched, and every
template is read for an unclosed `{#`."""

from __future__ import annotations

import pytest

from tests.browser.accessibility_helpers import (
    TEMPLATES,
    anonymous_pages,
    build_evening,
    desk_pages,
    players_pages,
    venue_pages,
)

pytestmark = pytest.mark.django_db


def leaked_markup(html: str) -> list[str]:
    """The lines of a page holding `{#` or `#}`."""
    return [line.strip() for line in html.splitlines() if "{#" in line or "#}" in line]


def test_no_template_opens_a_comment_it_does_not_close_on_the_same_line():
    unclosed = []
    for path in TEMPLATES.rglob("*.html"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.count("{#") != line.count("#}"):
                unclosed.append(f"{path.relative_to(TEMPLATES)}:{number}: {line.strip()}")
    assert not unclosed, "multi-line {# … #} prints as text:\n" + "\n".join(unclosed)


def test_no_rendered_page_contains_comment_markup(client, staged, arbiter):
    evening = build_evening(staged, arbiter)
    pages = anonymous_pages(evening) + players_pages(evening)
    desk = desk_pages(evening)
    venue_desk, venue_public, hall = venue_pages(arbiter)
    pages += venue_public + [("hall/screen.html", hall)]
    found: dict[str, list[str]] = {}
    for _template, path in pages:
        response = client.get(path)
        assert response.status_code in (200, 404), path  # a stale table link: 404
        if lines := leaked_markup(response.content.decode()):
            found[path] = lines
    client.force_login(arbiter)
    for _template, path in desk + venue_desk:
        response = client.get(path)
        assert response.status_code in (200, 404), path  # a stale table link: 404
        if not response["Content-Type"].startswith("text/html"):
            continue  # the blank sheets' PDF, when the test's address needs no question
        if lines := leaked_markup(response.content.decode()):
            found[path] = lines
    assert len(found) == 0, found
