"""Every live view tags a 200 and its 304 alike (scoring.live.versioned.etag_header: weak), so a
browser sending back the ETag it was given gets a 304, through the site's gzip too (which makes
a strong tag weak: a 304, which it leaves alone, then named another tag than the 200)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.report_builders import build_tournament
from tests.scoring.events.venue_helpers import cut_event, start_session_2
from tests.scoring.live.test_live_views_versioned import LIVE
from tests.scoring.live.test_phone_trust import build
from tournament.evening import hall
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br", "HTTP_HX_REQUEST": "true"}


@pytest.fixture
def urls(arbiter) -> dict[str, str]:
    """An address of each live view, with the data it shows."""
    built = build_tournament(is_public=True, status=Tournament.Status.RUNNING)
    tournament = hall.hall_link_create(tournament=built["tournament"])
    result = cut_event(arbiter, public=True)
    start_session_2(result)
    token = hall.hall_link_create(tournament=result.main).hall_token
    table = build()["link"]
    return {
        "public-standings-partial": reverse("public-standings-partial", args=[tournament.pk]),
        "public-player": reverse(
            "public-player", args=[tournament.pk, built["registrations"]["A"].pk]
        ),
        "hall-slides": reverse("hall-slides", args=[tournament.hall_token]),
        "cockpit-live": reverse("cockpit-live", args=[tournament.pk]),
        "public-event": reverse("public-event", args=[result.event.pk]),
        "event-venue-live": reverse("event-venue-live", args=[result.event.pk]),
        "event-hall-slides": reverse("event-hall-slides", args=[token]),
        "table-sheet": reverse("table-sheet", args=[table.token]),
    }


def test_every_live_view_is_asked_here(urls):
    assert set(urls) == LIVE


@pytest.mark.parametrize("headers", [GZIP, {}], ids=["gzip", "plain"])
def test_the_etag_a_browser_was_given_gets_a_304_under_the_same_tag(urls, arbiter, headers):
    client = Client()
    client.force_login(arbiter)
    for name, url in urls.items():
        first = client.get(url, **headers)
        assert first.status_code == 200, name
        tag = first["ETag"]
        assert tag.startswith('W/"'), (name, tag)
        again = client.get(url, HTTP_IF_NONE_MATCH=tag, **headers)
        assert again.status_code == 304 and again.content == b"", name
        assert again["ETag"] == tag, name
        # The tag sent strong (a script that strips W/) is the same version.
        strong = client.get(url, HTTP_IF_NONE_MATCH=tag.removeprefix("W/"), **headers)
        assert strong.status_code == 304, name


def test_gzip_and_plain_answers_carry_the_same_tag(urls, arbiter):
    client = Client()
    client.force_login(arbiter)
    for name, url in urls.items():
        zipped, plain = client.get(url, **GZIP), client.get(url, HTTP_HX_REQUEST="true")
        assert zipped["ETag"] == plain["ETag"], name
