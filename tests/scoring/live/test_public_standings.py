"""The players' public pages: only published results, read-only, search, live partial."""

import pytest
from django.urls import reverse

from scoring.models import ScoreSheet
from scoring.sheets.services import deal_record, sheet_validate
from tests.report_builders import add_penalty, build_tournament
from tournament.models import Position, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def built():
    return build_tournament(is_public=True, status=Tournament.Status.RUNNING)


def urls(built, letter="A"):
    pk = built["tournament"].pk
    reg = built["registrations"][letter].pk
    return [
        reverse("public-tournament", args=[pk]),
        reverse("public-standings-partial", args=[pk]),
        reverse("public-player", args=[pk, reg]),
    ]


def test_a_tournament_that_is_not_public_shows_nothing(client):
    built = build_tournament()
    for url in urls(built):
        assert client.get(url).status_code == 404


def test_the_public_page_shows_the_ranking_without_login(client, built):
    response = client.get(urls(built)[0])
    assert response.status_code == 200
    html = response.content.decode()
    assert html.index("JOUEURA A") < html.index("JOUEURE E")
    assert "+221" in html
    assert 'data-poll-seconds="5"' in html
    # Names open the public player page, never the arbiter's.
    reg = built["registrations"]["A"]
    assert reverse("public-player", args=[built["tournament"].pk, reg.pk]) in html
    assert reverse("ranking-player", args=[built["tournament"].pk, reg.pk]) not in html


def test_a_finished_tournament_stops_polling(client):
    built = build_tournament(is_public=True, status=Tournament.Status.FINISHED)
    html = client.get(urls(built)[0]).content.decode()
    assert "data-poll" not in html


def test_draft_positions_do_not_show(client, built):
    Position.objects.filter(pk=built["positions"][2].pk).update(status=Position.Status.DRAFT)
    add_penalty(built, "C", 20, at=(2, 2))
    html = client.get(urls(built)[0]).content.decode()
    assert "+185" in html and "+221" not in html
    assert "Position 2" not in html
    assert client.get(urls(built)[0] + "?position=2").context["view"] == "individuel"
    player = client.get(urls(built)[2])
    assert [line["position"] for line in player.context["deals"]["lines"]] == [1, 1]
    c_page = client.get(urls(built, "C")[2])
    assert list(c_page.context["deals"]["incidents"]) == []


def test_unvalidated_sheets_do_not_show_when_the_organiser_requires_validation(client, built):
    Tournament.objects.filter(pk=built["tournament"].pk).update(public_requires_validation=True)
    html = client.get(urls(built)[0]).content.decode()
    assert "+221" not in html and "+185" not in html
    sheet_validate(sheet=ScoreSheet.objects.get(pk=built["sheets"][(1, 1)].pk))
    html = client.get(urls(built)[0]).content.decode()
    assert "+185" in html


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_no_write_is_accepted(client, built, method):
    for url in urls(built):
        response = getattr(client, method)(url, {"q": "x"})
        assert response.status_code == 405


def test_search_by_name(client, built):
    response = client.get(urls(built)[1] + "?q=joueurh")
    html = response.content.decode()
    assert "JOUEURH H" in html and "JOUEURA A" not in html
    # Ranks are the overall ranks, not the ranks among the matches.
    assert [r["rank"] for r in response.context["table"].data] == [3]


def test_the_partial_answers_304_until_something_changes(client, built):
    url = urls(built)[1]
    first = client.get(url)
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    sheet = built["sheets"][(2, 1)]
    deal_record(sheet=sheet, data=dict(players=4, taker=0, contract="prise", oudlers=1, points=60))
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_the_player_page_shows_every_deal(client, built):
    response = client.get(urls(built, "H")[2])
    assert response.status_code == 200
    lines = response.context["deals"]["lines"]
    assert [line["running"] for line in lines] == [-25, 75]
    assert "JOUEURH H" in response.content.decode()
