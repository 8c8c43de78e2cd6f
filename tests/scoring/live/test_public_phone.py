"""The players' phone pages: find yourself, your rank, total, tables and deals; light standings."""

import gzip
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.live.views.public import FOUND_LIMIT, PAGE_SIZE
from scoring.sheets.generate import GenerateOptions, tournament_generate
from scoring.sheets.services import deal_record
from tests.report_builders import build_tournament
from tournament.models import Player, Position, Registration, Seat, Table, Tournament
from tournament.models.audit import revision_bump

pytestmark = pytest.mark.django_db

KIB = 1024
FIRST_SCREEN_LIMIT = 60 * KIB


@pytest.fixture
def built():
    return build_tournament(is_public=True, status=Tournament.Status.RUNNING)


def register(built, last_name: str, first_name: str) -> Registration:
    tournament = built["tournament"]
    return Registration.objects.create(
        tournament=tournament,
        player=Player.objects.create(last_name=last_name, first_name=first_name),
        number=tournament.registrations.count() + 1,
    )


def me_url(built) -> str:
    return reverse("public-me", args=[built["tournament"].pk])


def players_url(built) -> str:
    return reverse("public-players", args=[built["tournament"].pk])


def player_url(built, letter: str = "A") -> str:
    return reverse(
        "public-player", args=[built["tournament"].pk, built["registrations"][letter].pk]
    )


def partial_url(built) -> str:
    return reverse("public-standings-partial", args=[built["tournament"].pk])


def seat_at_new_position(built, number: int, status: str, seats: dict[str, str]) -> Position:
    position = Position.objects.create(tournament=built["tournament"], number=number, status=status)
    table = Table.objects.create(position=position, number=3)
    for letter, direction in seats.items():
        Seat.objects.create(
            table=table, registration=built["registrations"][letter], direction=direction
        )
    return position


# --- Finding oneself ---------------------------------------------------------------------------


def test_search_is_blind_to_accents_and_case(client, built):
    cote = register(built, "Côté", "François")
    register(built, "Coste", "Hélène")
    html = client.get(players_url(built), {"q": "cote"}).content.decode()
    assert "CÔTÉ François" in html
    assert "COSTE" not in html
    assert reverse("public-player", args=[built["tournament"].pk, cote.pk]) in html
    html = client.get(players_url(built), {"q": "HELENE"}).content.decode()
    assert "COSTE Hélène" in html and "CÔTÉ" not in html
    # Word order and case do not matter either.
    reordered = client.get(players_url(built), {"q": "francois COTE"}).content.decode()
    assert "CÔTÉ François" in reordered


def test_the_me_page_lists_the_matches_without_javascript(client, built):
    register(built, "Côté", "François")
    response = client.get(me_url(built), {"q": "cote"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="finder"' in html and "CÔTÉ François" in html


def test_the_standings_search_is_blind_to_accents_too(client, built):
    register(built, "Côté", "François")
    response = client.get(partial_url(built), {"q": "côte"})
    assert [row["name"] for row in response.context["table"].data] == ["CÔTÉ François"]


def test_a_search_matching_many_players_lists_a_few_and_says_how_many_more(client, built):
    for number in range(FOUND_LIMIT + 5):
        register(built, "Martin", f"Prénom{number:02d}")
    response = client.get(players_url(built), {"q": "martin"})
    assert len(response.context["found"]["entries"]) == FOUND_LIMIT
    assert response.context["found"]["more"] == 5
    assert "Et 5 autres" in response.content.decode()


def test_an_empty_search_lists_nobody(client, built):
    response = client.get(players_url(built), {"q": "  "})
    assert response.status_code == 200
    assert "<li" not in response.content.decode()


# --- A player's page -----------------------------------------------------------------------------


def test_the_player_page_shows_rank_total_and_bilans(client, built):
    response = client.get(player_url(built, "H"))
    html = response.content.decode()
    # H: +75 in total, third (A +221, E +86).
    assert '<strong id="me-rank">3</strong>' in html
    assert "+75" in html and "sur 9 joueurs" in html
    assert [(r.position, r.points) for r in response.context["results"]] == [(1, -25), (2, 100)]


def test_the_card_names_the_position_the_cockpit_says_is_in_play(client, built):
    """Position 2 still open, position 3 published: the cockpit says position 3 is in play, and
    so do the card, the hall and the desk; never "en cours : position 2" beside it."""
    seat_at_new_position(built, 3, Position.Status.PUBLISHED, {"A": "N", "B": "E"})
    seat_at_new_position(built, 4, Position.Status.DRAFT, {"A": "S", "B": "W"})
    tournament = built["tournament"]
    html = client.get(player_url(built, "A")).content.decode()
    current = html[
        html.index('id="me-current"') : html.index("</p>", html.index('id="me-current"'))
    ]
    assert "En cours : position 3" in current and "Table 3" in current and "Nord" in current
    # (The provisional notice may name position 2, unfinished, as the standings do.)
    assert "En cours : position 2" not in html and "Position suivante" not in html
    # The draft position 4 shows nowhere.
    assert "Sud" not in html and "(4)" not in html and "position 4" not in html
    from scoring.live.cockpit import cockpit_load
    from scoring.live.hall import hall_content

    assert cockpit_load(tournament).current.number == 3
    assert hall_content(tournament).position.number == 3


def test_the_desk_marks_the_position_in_play(arbiter_client, built):
    seat_at_new_position(built, 3, Position.Status.PUBLISHED, {"A": "N", "B": "E"})
    tournament = built["tournament"]
    html = arbiter_client.get(reverse("entry-overview", args=[tournament.pk])).content.decode()
    start = html.index('class="position-picker"')
    picker = html[start : html.index("</nav>", start)]
    marked = picker[: picker.index('id="in-play"')]
    assert marked.rsplit("<a ", 1)[1].split(">", 1)[1].startswith("Position 3 <span")


def test_a_closed_position_is_no_longer_current(client, built):
    Position.objects.filter(tournament=built["tournament"]).update(status=Position.Status.CLOSED)
    html = client.get(player_url(built, "A")).content.decode()
    assert 'id="me-current"' not in html
    assert "Pas de position publiée à jouer" in html
    seat_at_new_position(built, 3, Position.Status.PUBLISHED, {"A": "W"})
    html = client.get(player_url(built, "A")).content.decode()
    assert 'id="me-current"' in html and "Ouest" in html and "position 3" in html


def test_the_player_page_counts_only_published_and_confirmed_deals(client, built):
    h = built["registrations"]["H"]
    # A deal typed at the table and not yet confirmed by an opponent counts nowhere public.
    deal_record(
        sheet=built["sheets"][(1, 2)],
        data=dict(players=5, taker=3, contract="garde", oudlers=3, points=80),
        entered_at_table={"client_id": str(uuid.uuid4()), "entered_by_player": h},
    )
    response = client.get(player_url(built, "H"))
    assert [line["running"] for line in response.context["deals"]["lines"]] == [-25, 75]
    assert response.context["ranked"].row.total == 75
    # A position back to draft takes its deals and bilans off the public page.
    Position.objects.filter(pk=built["positions"][2].pk).update(status=Position.Status.DRAFT)
    revision_bump(built["tournament"].pk)  # as every write does, in its transaction
    response = client.get(player_url(built, "H"))
    assert [line["position"] for line in response.context["deals"]["lines"]] == [1]
    assert [r.position for r in response.context["results"]] == [1]
    assert response.context["ranked"].row.total == -25


def test_the_card_alone_answers_htmx_and_304_until_the_next_table_changes(client, built):
    url = player_url(built, "A")
    card = client.get(url, HTTP_HX_REQUEST="true")
    assert card.status_code == 200
    html = card.content.decode()
    assert "<html" not in html and 'id="me-rank"' in html
    etag = card["ETag"]
    assert client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 304
    # The page embeds the card's ETag for its refreshes.
    page = client.get(url)
    assert page["ETag"] != etag and etag.replace('"', "&quot;") in page.content.decode()
    seat_at_new_position(built, 3, Position.Status.PUBLISHED, {"A": "N"})
    revision_bump(built["tournament"].pk)  # as publishing does, in its transaction
    changed = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and "Table 3" in changed.content.decode()


def test_a_player_of_another_tournament_is_not_found(client, built):
    other = build_tournament(is_public=True)
    stranger = other["registrations"]["A"].pk
    url = reverse("public-player", args=[built["tournament"].pk, stranger])
    assert client.get(url).status_code == 404


def test_nothing_shows_when_the_standings_are_not_public(client):
    built = build_tournament()
    for url in (me_url(built), players_url(built) + "?q=a", player_url(built)):
        assert client.get(url).status_code == 404


# --- The standings, one page at a time ---------------------------------------------------------


def test_the_standings_come_one_page_at_a_time(client):
    tournament = tournament_generate(
        options=GenerateOptions(players=120, positions=2, deals=2, played=2, finished=False)
    )
    url = reverse("public-tournament", args=[tournament.pk])
    first = client.get(url)
    assert len(first.context["table"].page.object_list) == PAGE_SIZE
    assert first.content.decode().count('<td class="name">') == PAGE_SIZE
    third = client.get(url, {"page": 3})
    ranks = [row.record["rank"] for row in third.context["table"].page.object_list]
    assert len(ranks) == 120 - 2 * PAGE_SIZE and min(ranks) > 2 * PAGE_SIZE - 5  # ties share
    assert 'href="?page=2"' in first.content.decode()


@pytest.mark.parametrize("page", ["abc", "0", "-3", "99999", "²"])
def test_a_page_out_of_range_shows_the_nearest_one(client, built, page):
    response = client.get(partial_url(built), {"page": page, "per_page": "0"})
    assert response.status_code == 200
    assert "JOUEURA A" in response.content.decode()


def test_the_refresh_sends_nothing_until_something_changes(client, built):
    page = client.get(reverse("public-tournament", args=[built["tournament"].pk]))
    etag = page.context["etag"]
    assert etag.replace('"', "&quot;") in page.content.decode()
    # The page's ETag is the fragment's: the first refresh already answers 304, no body.
    unchanged = client.get(partial_url(built), HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    deal_record(
        sheet=built["sheets"][(2, 1)],
        data=dict(players=4, taker=0, contract="prise", oudlers=1, points=60),
    )
    changed = client.get(partial_url(built), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    html = changed.content.decode()
    assert "<html" not in html and "<h1" not in html  # the visible page's fragment only


def test_the_refresh_answers_304_through_gzip_too(client, built):
    first = client.get(partial_url(built), HTTP_ACCEPT_ENCODING="gzip")
    assert first["Content-Encoding"] == "gzip"
    assert "JOUEURA A" in gzip.decompress(first.content).decode()
    again = client.get(
        partial_url(built), HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert again.status_code == 304


# --- Constant queries and a light first screen at 200 and 800 players ---------------------------


def pages(tournament: Tournament) -> dict[str, tuple[str, dict]]:
    registration = tournament.registrations.order_by("number")[10]
    return {
        "standings": (reverse("public-tournament", args=[tournament.pk]), {}),
        "refresh": (reverse("public-standings-partial", args=[tournament.pk]), {}),
        "refresh page 3": (
            reverse("public-standings-partial", args=[tournament.pk]) + "?page=3",
            {},
        ),
        "search": (reverse("public-tournament", args=[tournament.pk]) + "?q=martin", {}),
        "me": (reverse("public-me", args=[tournament.pk]), {}),
        "find": (reverse("public-players", args=[tournament.pk]) + "?q=petit", {}),
        "player": (reverse("public-player", args=[tournament.pk, registration.pk]), {}),
        "card": (
            reverse("public-player", args=[tournament.pk, registration.pk]),
            {"HTTP_HX_REQUEST": "true"},
        ),
    }


@pytest.mark.slow
def test_pages_ask_the_same_queries_at_200_and_800_players_and_stay_light(
    client, django_assert_num_queries
):
    counts = {}
    small = tournament_generate(
        options=GenerateOptions(players=200, positions=6, deals=5, played=4, finished=False)
    )
    for name, (url, headers) in pages(small).items():
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url, **headers).status_code == 200, name
        counts[name] = len(captured)
    large = tournament_generate(
        options=GenerateOptions(players=800, positions=6, deals=5, played=4, finished=False)
    )
    for name, (url, headers) in pages(large).items():
        with django_assert_num_queries(counts[name]):
            response = client.get(url, HTTP_ACCEPT_ENCODING="gzip", **headers)
        raw = (
            gzip.decompress(response.content)
            if response.has_header("Content-Encoding")
            else (response.content)
        )
        assert len(raw) <= FIRST_SCREEN_LIMIT, (name, len(raw))
    # The first screen of the standings at 800 players, as sent.
    response = client.get(reverse("public-tournament", args=[large.pk]))
    assert len(response.content) <= FIRST_SCREEN_LIMIT
    assert response.content.decode().count('<td class="name">') == PAGE_SIZE
