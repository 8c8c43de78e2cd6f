"""The live store's pages (scoring.live.versioned): the public standings' default pages and the
hall screen's slides are rendered once per revision and language, equal to a fresh render after
a write, never served under a newer ETag than their data, one row per variant, and a hit costs
the same few queries at any field size; the standings page a fresh viewer opens wraps the stored
partial."""

from __future__ import annotations

import gzip
import zlib

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from scoring.live import rendered
from scoring.models import LiveArtifact
from scoring.sheets.generate import GenerateOptions, tournament_generate
from tests.report_builders import build_tournament
from tests.scoring.live.test_shared_standings import WRITES
from tournament.access.audit import revision_of
from tournament.evening import hall
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def built():
    built = build_tournament(is_public=True, status=Tournament.Status.RUNNING)
    hall.hall_link_create(tournament=built["tournament"])
    built["tournament"].refresh_from_db()
    return built


def partial_url(tournament: Tournament, **query: str) -> str:
    url = reverse("public-standings-partial", args=[tournament.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def slides_url(tournament: Tournament) -> str:
    return reverse("hall-slides", args=[tournament.hall_token])


def fresh(client: Client, url: str, **headers: str) -> str:
    """The page rendered with nothing shared: no stored render, no stored standings."""
    LiveArtifact.objects.all().delete()
    response = client.get(url, **headers)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("page", ["partial", "slides"])
def test_the_shared_render_equals_a_fresh_one_after_a_deal(client, built, page):
    tournament = built["tournament"]
    url = partial_url(tournament) if page == "partial" else slides_url(tournament)
    first = client.get(url)
    kind, variant = ("standings", "fr:1") if page == "partial" else ("hall", "fr")
    row = LiveArtifact.objects.get(tournament=tournament, what=kind)
    assert first["ETag"] == f'W/"{row.revision}-{variant}"'  # the revision it was rendered from
    hit = client.get(url)
    assert hit.content == first.content and hit["ETag"] == first["ETag"]

    WRITES["deal recorded"](built)
    after = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    assert after.content != first.content  # the deal moved a score: not the stale render
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.content == after.content and again["ETag"] == after["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=after["ETag"]).status_code == 304
    assert fresh(client, url) == after.content.decode()


def test_a_hit_serves_the_stored_render_without_rendering(client, built):
    tournament = built["tournament"]
    client.get(partial_url(tournament))
    stored = LiveArtifact.objects.filter(tournament=tournament, what="standings")
    stored.update(body=gzip.compress(b"<p>stored</p>"))
    assert client.get(partial_url(tournament)).content == b"<p>stored</p>"
    # A body this code did not store (damaged, or of an older format) is rendered again.
    stored.update(body=zlib.compress(b"<p>stored</p>"))
    again = client.get(partial_url(tournament))
    assert again.status_code == 200 and b"<p>stored</p>" not in again.content
    assert b"JOUEUR" in again.content


def test_each_language_gets_its_own_render(client, built):
    tournament = built["tournament"]
    url = partial_url(tournament)
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr")
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert "Classement individuel" in french.content.decode()
    assert "Classement individuel" not in english.content.decode()
    assert french["ETag"] != english["ETag"]
    renders = LiveArtifact.objects.filter(tournament=tournament, what="standings")
    keys = renders.values_list("variant", flat=True)
    assert sorted(keys) == ["en:1", "fr:1"]
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="en").content == english.content
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content == french.content
    assert fresh(client, url, HTTP_ACCEPT_LANGUAGE="en") == english.content.decode()


def test_searches_sorts_and_far_pages_are_rendered_for_their_viewer(client, built):
    tournament = built["tournament"]
    for query in ({"q": "a"}, {"sort": "-total"}, {"vue": "clubs"}, {"position": "1"}):
        assert client.get(partial_url(tournament, **query)).status_code == 200
    far = str(rendered.MAX_PAGES + 1)
    assert client.get(partial_url(tournament, page=far)).status_code == 200
    assert client.get(partial_url(tournament, page="x")).status_code == 200
    # (The ranking is stored: not renders.)
    assert not LiveArtifact.objects.exclude(what="ranking").exists()


def test_the_table_keeps_only_the_current_version_bounded(client, built):
    tournament = built["tournament"]
    for write in ("deal recorded", "incident", "deal corrected"):
        for language in ("fr", "en"):
            for page in ("1", "2", str(rendered.MAX_PAGES)):
                client.get(partial_url(tournament, page=page), HTTP_ACCEPT_LANGUAGE=language)
            Client().get(slides_url(tournament), HTTP_ACCEPT_LANGUAGE=language)
        WRITES[write](built)
    client.get(partial_url(tournament))
    Client().get(slides_url(tournament))
    rows = LiveArtifact.objects.filter(tournament=tournament)
    version = str(revision_of(tournament.pk))
    standings = rows.filter(what="standings")
    # One row per variant, replaced in place: bounded by the pages and languages asked.
    assert sorted(standings.values_list("variant", flat=True)) == sorted(
        f"{language}:{page}" for language in ("en", "fr") for page in (1, 2, rendered.MAX_PAGES)
    )
    assert standings.get(variant="fr:1").revision == version
    assert sorted(rows.filter(what="hall").values_list("variant", flat=True)) == ["en", "fr"]


def test_a_stale_render_never_carries_the_new_etag(client, built):
    tournament = built["tournament"]
    url = partial_url(tournament)
    old = client.get(url)
    WRITES["incident"](built)
    new_version = str(revision_of(tournament.pk))
    # Another process is computing the new standings: this one serves the previous ones.
    LiveArtifact.objects.filter(tournament=tournament, what="ranking", variant="public").update(
        claim=new_version, claimed_at=timezone.now()
    )
    # A phone holding them is told nothing changed; a new viewer gets them under their ETag.
    assert client.get(url, HTTP_IF_NONE_MATCH=old["ETag"]).status_code == 304
    stale = client.get(url)
    assert stale["ETag"] == old["ETag"] and stale.content == old.content
    assert not LiveArtifact.objects.filter(revision=new_version).exists()
    # The new ranking is ready, and the stale page's retry (a second) has come.
    LiveArtifact.objects.filter(tournament=tournament).update(claim="")
    new = client.get(url, HTTP_IF_NONE_MATCH=old["ETag"])
    assert new.status_code == 200 and new_version in new["ETag"]
    render = LiveArtifact.objects.get(tournament=tournament, what="standings", variant="fr:1")
    assert new["ETag"] == f'W/"{render.revision}-fr:1"'


def public_generated(players: int) -> Tournament:
    """A generated public tournament, running, of `players` players (two positions played)."""
    tournament = tournament_generate(
        options=GenerateOptions(players=players, positions=2, deals=2, seed=1)
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        is_public=True, status=Tournament.Status.RUNNING
    )
    return tournament


def test_a_poll_on_a_hit_costs_the_same_few_queries_at_any_size(client):
    counts = []
    for players in (8, 40):
        tournament = public_generated(players)
        tournament = hall.hall_link_create(tournament=tournament)
        urls = [partial_url(tournament), partial_url(tournament, page="1"), slides_url(tournament)]
        for url in urls:
            assert client.get(url).status_code == 200  # renders and stores
        with CaptureQueriesContext(connection) as captured:
            for url in urls:
                assert client.get(url).status_code == 200
        counts.append(len(captured))
        assert not any(
            word in q["sql"] for q in captured for word in ("INSERT", "UPDATE", "DELETE")
        )
        # No query reads the stored ranking: the stored page is the answer.
        assert any("liveartifact" in q["sql"] for q in captured)
        assert not any("ranking" in q["sql"] for q in captured)
    assert counts[0] == counts[1]


def test_a_fresh_viewers_standings_page_wraps_the_stored_partial_in_constant_queries():
    counts = []
    for players in (8, 40):
        tournament = public_generated(players)
        partial = Client().get(partial_url(tournament))  # stored at the current revision
        viewer = Client()  # a phone opening the page: no cookie, no If-None-Match
        with CaptureQueriesContext(connection) as captured:
            page = viewer.get(reverse("public-tournament", args=[tournament.pk]))
        assert page.status_code == 200
        counts.append(len(captured))
        # The stored partial is the page's standings: no ranking is read, none is rendered;
        # its row is read once, with its body (a fresh viewer is sent one).
        assert not any("ranking" in q["sql"] for q in captured)
        assert sum("liveartifact" in q["sql"] for q in captured) == 1
        text = page.content.decode()
        assert partial.content.decode() in text
        assert f'data-etag="{escape(partial["ETag"])}"' in text
    assert counts[0] == counts[1]


def test_the_standings_page_shows_the_current_revision_after_a_write(client, built):
    url = reverse("public-tournament", args=[built["tournament"].pk])
    before = client.get(url)
    WRITES["deal recorded"](built)
    after = client.get(url).content.decode()
    partial = client.get(partial_url(built["tournament"]))
    assert partial.content.decode() in after and partial.content not in before.content
    assert f'data-etag="{escape(partial["ETag"])}"' in after
