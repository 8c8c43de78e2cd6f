"""The public and live pages against a hostile visitor: odd query parameters and headers answer
a page (never a server error) and store no more than the shared pages' fixed keys; an ETag
trick opens nothing a 404 hides (a private tournament, a revoked hall link, another
tournament's player); a HEAD asks what a GET does, without a body."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.events.views.public import EVENT_BRACKETS
from scoring.live import rendered
from scoring.models import LiveArtifact
from tests.report_builders import build_tournament
from tests.scoring.events.venue_helpers import cut_event, start_session_2
from tournament.evening import hall
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

QUERIES = [
    "sort=__class__", "sort=-", "sort=p999", "sort=total&sort=name", "vue=position",
    "position=99999999999999999999999", "position=-1", "vue=equipes&page=3&sort=-total",
    "page=-5", "page=0", "page=99999999999999999999", "page=abc", "page=%D9%A1",
    "q=" + "a" * 3000, "q=%F0%9F%82%A1", "duree=-1", "duree=1e9", "seance=999", "seance=-1",
    "seance=1&page=9999",
]  # fmt: skip
# What the pages below share (the live store): the standings' default page, a card's
# deals, the hall's slides and room plan, the event's slides and pages (?page=3 of the event
# page is its last page: kept, up to MAX_PAGES), in the one language asked.
EXPECTED = [  # and the card's deals of the player asked, "fr:<registration id>"
    ("event-hall", "2:fr"),
    (EVENT_BRACKETS, "fr:2:1"),
    (EVENT_BRACKETS, "fr:2:3"),
    ("hall", "fr"),
    (rendered.HALL_PLAN, "fr"),
    ("standings", "fr:1"),
]
HEADERS = [
    {},
    {"HTTP_IF_NONE_MATCH": "*"},
    {"HTTP_IF_NONE_MATCH": 'W/"x", ' * 5000},
    {"HTTP_ACCEPT_LANGUAGE": "de,xx;q=0.5," * 200},
    {"HTTP_ACCEPT_ENCODING": "gzip", "HTTP_HX_REQUEST": "true"},
]


def test_odd_queries_and_headers_answer_a_page_and_store_a_bounded_number_of_renders(arbiter):
    built = build_tournament(is_public=True, status=Tournament.Status.RUNNING)
    tournament = hall.hall_link_create(tournament=built["tournament"])
    result = cut_event(arbiter, public=True)
    start_session_2(result)
    token = hall.hall_link_create(tournament=result.main).hall_token
    urls = [
        reverse("public-tournament", args=[tournament.pk]),
        reverse("public-standings-partial", args=[tournament.pk]),
        reverse("public-players", args=[tournament.pk]),
        reverse("public-player", args=[tournament.pk, built["registrations"]["A"].pk]),
        reverse("hall-screen", args=[tournament.hall_token]),
        reverse("hall-slides", args=[tournament.hall_token]),
        reverse("public-event", args=[result.event.pk]),
        reverse("event-hall", args=[token]),
        reverse("event-hall-slides", args=[token]),
    ]
    client = Client(raise_request_exception=False)
    asked = [(f"{url}?{query}", {}) for url in urls for query in QUERIES]
    asked += [(url, headers) for url in urls for headers in HEADERS]
    for url, headers in asked:
        get = client.get(url, **headers)
        head = client.head(url, **headers)
        assert get.status_code in (200, 304), (url, headers.keys())
        assert head.status_code == get.status_code and not head.content
    renders = LiveArtifact.objects.exclude(what="ranking")
    # Odd queries are rendered for their viewer, not stored.
    card = (rendered.CARD_DEALS, f"fr:{built['registrations']['A'].pk}")
    assert sorted(renders.values_list("what", "variant")) == sorted([*EXPECTED, card])


def test_an_etag_trick_opens_nothing_a_404_hides(arbiter):
    public = build_tournament(is_public=True, status=Tournament.Status.RUNNING)
    private = build_tournament(is_public=False, status=Tournament.Status.RUNNING)
    revoked = hall.hall_link_create(tournament=private["tournament"]).hall_token
    hall.hall_link_revoke(tournament=private["tournament"])
    client = Client(raise_request_exception=False)
    hidden = [
        reverse("public-tournament", args=[private["tournament"].pk]),
        reverse("public-standings-partial", args=[private["tournament"].pk]),
        reverse("public-player", args=[private["tournament"].pk, private["registrations"]["A"].pk]),
        reverse("hall-screen", args=[revoked]),
        reverse("hall-slides", args=[revoked]),
        reverse("event-hall-slides", args=[revoked]),
    ]
    for url in hidden:
        for etag in ("*", 'W/"x"', ""):
            assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404, url
            assert client.head(url, HTTP_IF_NONE_MATCH=etag).status_code == 404, url
    # Another tournament's player on a public tournament's address: not found.
    other = reverse(
        "public-player", args=[public["tournament"].pk, private["registrations"]["A"].pk]
    )
    assert client.get(other).status_code == 404
    assert not LiveArtifact.objects.filter(tournament=private["tournament"]).exists()
