"""The event's public page on the one live mechanism (scoring.live.versioned): its brackets'
render computed once per revision and shared, a second viewer reads the stored render, a change
is shown at once, an unchanged event answers 304 from its revision alone, the page costs the
same few queries whatever the field's size, and long brackets come a page at a time."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring.events.views import public
from scoring.events.views.public import EVENT_BRACKETS
from scoring.models import LiveArtifact
from scoring.sheets.services.sheets import sheet_validate
from tests.scoring.events.test_venue_public import section
from tests.scoring.events.venue_helpers import cut_event, start_session_2
from tournament.models import Event, Tournament

pytestmark = pytest.mark.django_db


def queries(client, url: str, **headers) -> tuple[int, str, int]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, headers=headers)
    return response.status_code, response.content.decode(), len(captured.captured_queries)


def brackets(html: str) -> str:
    """The shared part: the page around it is the viewer's (its CSRF token differs)."""
    return html[html.index('<div class="event-brackets">') : html.index("</main>")]


RANK = r'<tr><td class="num">(\d+)=?</td>'
NAME = r'<td class="name">(P\d+ Jo)</td>'


def cumulative(part: str) -> str:
    start = part.index('data-ranking="cumulative"')
    return part[start : part.index("</table>", start)]


def no_ranking(*args, **kwargs):
    raise AssertionError("the stored render should have been served")


def test_a_second_viewer_reads_the_stored_render_and_no_ranking(arbiter, client, monkeypatch):
    result = cut_event(arbiter, public=True)
    start_session_2(result)
    url = reverse("public-event", args=[result.event.pk])
    status, first, cold = queries(client, url)
    assert status == 200 and LiveArtifact.objects.filter(what=EVENT_BRACKETS).count() == 1
    monkeypatch.setattr(public, "venue_standings", no_ranking)
    status, again, warm = queries(client, url)
    assert status == 200 and brackets(again) == brackets(first)
    # The event, its brackets' revisions (one statement), the stored render's row and body.
    assert warm < cold and warm <= 4
    # Held by the browser: the event and the revisions, nothing else.
    etag = client.get(url)["ETag"]
    with CaptureQueriesContext(connection) as captured:
        held = client.get(url, headers={"if-none-match": etag})
    assert held.status_code == 304 and held.content == b"" and len(captured) <= 2


def test_while_its_render_is_kept_the_page_answers_304(arbiter, client, settings):
    """Coalesced as every stored live page is (versioned.kept): a validated deal shows once
    the brackets' render is past its keep, computed then by the first viewer, not at every
    deal; meanwhile a viewer holding it gets a 304 under the revision it shows."""
    result = cut_event(arbiter, public=True)
    Tournament.objects.filter(pk=result.main.pk).update(public_requires_validation=True)
    start_session_2(result)
    url = reverse("public-event", args=[result.event.pk])
    before = client.get(url)
    settings.LIVE_STANDINGS_COALESCE = 10
    renders = LiveArtifact.objects.filter(what=EVENT_BRACKETS)
    renders.update(computed_at=timezone.now(), compute_seconds=0.2)
    sheet = result.main.positions.get(number=1).tables.order_by("number").first().sheet
    sheet_validate(sheet=sheet, user=arbiter)
    kept = client.get(url, headers={"if-none-match": before["ETag"]})
    assert kept.status_code == 304 and kept["ETag"] == before["ETag"]
    renders.update(computed_at=timezone.now() - timedelta(seconds=3))
    after = client.get(url, headers={"if-none-match": before["ETag"]})
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert '<td class="num">90</td>' in section(after.content.decode(), result.main.pk)
    assert renders.get().computed_at > timezone.now() - timedelta(seconds=1)


def test_a_validated_deal_shows_at_once_on_the_shared_page(arbiter, client):
    result = cut_event(arbiter, public=True)
    Tournament.objects.filter(pk=result.main.pk).update(public_requires_validation=True)
    start_session_2(result)
    url = reverse("public-event", args=[result.event.pk])
    before = client.get(url)
    main = section(before.content.decode(), result.main.pk)
    assert '<td class="num">90</td>' not in main  # the typed deal waits for its validation
    sheet = result.main.positions.get(number=1).tables.order_by("number").first().sheet
    sheet_validate(sheet=sheet, user=arbiter)
    after = client.get(url, headers={"if-none-match": before["ETag"]})
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    # The taker's 3 × 30 in the session; the stored render is replaced, not served stale.
    assert '<td class="num">90</td>' in section(after.content.decode(), result.main.pk)
    assert brackets(client.get(url).content.decode()) == brackets(after.content.decode())
    assert LiveArtifact.objects.filter(what=EVENT_BRACKETS).count() == 1


@pytest.mark.parametrize("warm", [False, True])
def test_the_page_costs_the_same_queries_at_two_field_sizes(arbiter, client, warm):
    counts = []
    for players in (8, 24):
        result = cut_event(arbiter, players=players, public=True)
        url = reverse("public-event", args=[result.event.pk])
        if warm:
            client.get(url)
        status, html, count = queries(client, url)
        assert status == 200 and html.count("Jo</td>") >= players
        counts.append(count)
    assert counts[0] == counts[1], counts


def test_long_brackets_come_a_page_at_a_time(arbiter, client, monkeypatch):
    monkeypatch.setattr(public, "PAGE_SIZE", 2)
    result = cut_event(arbiter, public=True)
    url = reverse("public-event", args=[result.event.pk])
    first = section(client.get(url).content.decode(), result.main.pk)
    page_2 = client.get(url, {"page": "2"})
    html = page_2.content.decode()
    second = section(html, result.main.pk)
    # The main bracket's 4 qualified, best first: two a page, ranks 1–2 then 3–4.
    assert first.count("Jo</td>") == second.count("Jo</td>") == 4  # cumulative + session
    ranks_1, ranks_2 = re.findall(RANK, cumulative(first)), re.findall(RANK, cumulative(second))
    assert ranks_1 == ["1", "2"] and ranks_2 == ["3", "4"]
    names_1, names_2 = re.findall(NAME, cumulative(first)), re.findall(NAME, cumulative(second))
    assert len(names_1) == len(names_2) == 2 and not set(names_1) & set(names_2)
    session = result.main.session
    assert f'href="?seance={session}&amp;page=1"' in html
    assert f'href="?seance={session}&amp;page=2" aria-current="page"' in html
    assert page_2["ETag"] != client.get(url)["ETag"]
    assert LiveArtifact.objects.filter(what=EVENT_BRACKETS).count() == 2  # one row a page


def test_a_private_event_still_answers_404_after_a_render_was_stored(arbiter, client):
    result = cut_event(arbiter, public=True)
    url = reverse("public-event", args=[result.event.pk])
    assert client.get(url).status_code == 200
    Event.objects.filter(pk=result.event.pk).update(is_public=False)
    assert client.get(url).status_code == 404
