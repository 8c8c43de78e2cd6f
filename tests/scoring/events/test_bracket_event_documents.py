"""Issue 38: an event's cumulative PDF, XLSX and CSV were only on the venue page; a bracket's
ranking and printing tabs link to them (the session's brackets together, and this bracket)."""

import pytest
from django.urls import reverse

from tests.scoring.events.venue_helpers import cut_event, start_session_2

pytestmark = pytest.mark.django_db


def test_a_brackets_ranking_and_printing_tabs_link_to_the_events_documents(arbiter_client, arbiter):
    result = cut_event(arbiter, players=8)
    start_session_2(result)
    event, consolante = result.event, result.consolante
    expected = [
        reverse("event-session-document", args=[event.pk, 2, "cumul", fmt])
        for fmt in ("pdf", "xlsx", "csv")
    ] + [
        reverse("event-bracket-document", args=[event.pk, consolante.pk, "cumul", fmt])
        for fmt in ("pdf", "xlsx", "csv")
    ]
    for tab in ("ranking", "print-index"):
        page = arbiter_client.get(reverse(tab, args=[consolante.pk])).content.decode()
        for url in expected:
            assert f'href="{url}"' in page, (tab, url)
    for url in expected:
        assert arbiter_client.get(url).status_code == 200, url


def test_a_tournament_outside_any_event_has_no_such_links(arbiter_client, arbiter):
    from tournament.models import Tournament

    tournament = Tournament.objects.create(name="Soirée", date="2026-01-22")
    page = arbiter_client.get(reverse("ranking", args=[tournament.pk])).content.decode()
    assert 'id="event-documents"' not in page
