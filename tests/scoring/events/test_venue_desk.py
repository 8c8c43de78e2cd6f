"""The venue's desk: every bracket of the session in play at once, each with its cockpit's
summary and a link to its own cockpit; for the event's owner and whoever runs a bracket."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.events.cuts import cut_apply
from tests.scoring.events.event_helpers import new_event, play, seat
from tests.scoring.events.venue_helpers import cut_event, start_session_2
from tournament.models import TournamentRole

pytestmark = pytest.mark.django_db


def section(html: str, bracket_pk: int) -> str:
    start = html.index(f'id="bracket-{bracket_pk}"')
    return html[start : html.index("</section>", start)]


def count(html: str, name: str) -> str:
    return re.search(rf'data-count="{name}"><dt>[^<]*</dt><dd>(.*?)</dd>', html).group(1)


def test_the_desk_shows_main_and_consolante_side_by_side_with_their_summaries(arbiter, client):
    result = cut_event(arbiter)
    start_session_2(result)
    client.force_login(arbiter)
    html = client.get(reverse("event-venue", args=[result.event.pk])).content.decode()
    assert 'class="venue-brackets"' in html
    main, consolante = section(html, result.main.pk), section(html, result.consolante.pk)
    assert "Tableau principal" in main and "Consolante" in consolante
    assert html.index(main) < html.index(consolante)
    # Table numbers are the venue's: the consolante's come after the main bracket's.
    assert "tables 1 à 1" in main and "tables 2 à 2" in consolante
    assert "Position 1 / 1 en cours" in main
    assert (count(main, "done"), count(main, "in-play"), count(main, "not-started")) == (
        "0",
        "1",
        "0",
    )
    assert (count(consolante, "done"), count(consolante, "to-validate")) == ("1", "1")
    assert "Report : 50 % du cumul des séances précédentes" in main
    assert reverse("tournament-detail", args=[result.main.pk]) in main
    assert reverse("tournament-detail", args=[result.consolante.pk]) in consolante


def test_an_earlier_session_is_one_link_away(arbiter, client):
    result = cut_event(arbiter)
    client.force_login(arbiter)
    url = reverse("event-venue", args=[result.event.pk])
    html = client.get(url + "?seance=1").content.decode()
    assert f'id="bracket-{result.session_1.pk}"' in html
    assert f'id="bracket-{result.main.pk}"' not in html
    assert "Position 1 / 1 close" in html


def test_the_desk_costs_the_same_queries_for_8_and_16_players(arbiter, client):
    client.force_login(arbiter)
    counts = {}
    for players in (8, 16):
        result = cut_event(arbiter, players=players)
        start_session_2(result)
        tables = result.main.positions.get().tables.count()
        for name in ("event-venue", "event-venue-live"):
            url = reverse(name, args=[result.event.pk])
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            counts.setdefault(name, []).append((tables, len(queries.captured_queries)))
    for name, measured in counts.items():
        (small_tables, small), (big_tables, big) = measured
        assert (small_tables, big_tables) == (1, 2)
        assert small == big, (name, measured)


def test_the_live_part_answers_304_while_nothing_changes(arbiter, client):
    result = cut_event(arbiter)
    start_session_2(result)
    client.force_login(arbiter)
    url = reverse("event-venue-live", args=[result.event.pk])
    first = client.get(url)
    etag = first["ETag"]
    assert client.get(url, headers={"if-none-match": etag}).status_code == 304
    from tests.scoring.events.venue_helpers import deal

    sheet = result.main.positions.get().tables.get().sheet
    deal(sheet, 1)
    changed = client.get(url, headers={"if-none-match": etag})
    assert changed.status_code == 200
    assert count(section(changed.content.decode(), result.main.pk), "in-play") == "1"


def test_whoever_runs_a_bracket_sees_the_desk_a_scorer_and_a_stranger_do_not(
    arbiter, client, django_user_model
):
    result = cut_event(arbiter)
    url = reverse("event-venue", args=[result.event.pk])
    assert client.get(url)["Location"].startswith("/connexion/")
    stranger = django_user_model.objects.create_user("voisin", password="pw-voisin-1")
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    assert client.get(reverse("event-venue-live", args=[result.event.pk])).status_code == 403
    TournamentRole.objects.create(tournament=result.consolante, user=stranger, role="scorer")
    assert client.get(url).status_code == 403
    TournamentRole.objects.filter(user=stranger).update(role="arbiter")
    assert client.get(url).status_code == 200


def test_the_hall_link_is_made_on_the_main_bracket_by_whoever_runs_it(
    arbiter, client, django_user_model
):
    result = cut_event(arbiter)
    url = reverse("event-venue-hall-link", args=[result.event.pk])
    helper = django_user_model.objects.create_user("adjoint", password="pw-adjoint-1")
    TournamentRole.objects.create(tournament=result.consolante, user=helper, role="arbiter")
    client.force_login(helper)
    assert client.post(url).status_code == 403  # the desk, yes; the main bracket, no
    result.main.refresh_from_db()
    assert result.main.hall_token is None
    client.force_login(arbiter)
    assert client.post(url).status_code == 302
    result.main.refresh_from_db()
    assert result.main.hall_token
    html = client.get(reverse("event-venue", args=[result.event.pk])).content.decode()
    assert f"/salle/epreuve/{result.main.hall_token}/" in html


def test_the_desk_speaks_english_on_request(arbiter, client, english_catalogue):
    result = cut_event(arbiter)
    start_session_2(result)
    client.force_login(arbiter)
    url = reverse("event-venue", args=[result.event.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for text in ("Main bracket", "Consolation", "Tables finished", "Sheets to validate"):
        assert text in html
    assert "Carry-over: 50 % of the cumulative score of the previous sessions" in html
    assert "Tables terminées" not in html


def test_a_hall_link_made_in_session_1_is_the_venues_link_after_the_cut(arbiter, client):
    # The hall screen follows the event to its latest session whatever bracket holds its link:
    # the desk of session 2 showed "Pas encore d'écran de salle" while the projector showed
    # session 2, and a new link left the first one working.
    event, session_1 = new_event(8, owner=arbiter)
    client.force_login(arbiter)
    url = reverse("event-venue-hall-link", args=[event.pk])
    assert client.post(url).status_code == 302
    session_1.refresh_from_db()
    first = session_1.hall_token
    seat(session_1, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(session_1, [[5, 9, 2], [7, 1, 12]])
    cut_apply(source=session_1, rule="top_n", value=4, consolante=True, seed=1, user=arbiter)
    html = client.get(reverse("event-venue", args=[event.pk])).content.decode()
    assert f"/salle/epreuve/{first}/" in html and "Pas encore d" not in html
    response = client.post(url, follow=True)
    assert "l'ancien ne fonctionne plus" in response.content.decode().replace("&#x27;", "'")
    assert client.get(reverse("event-hall", args=[first])).status_code == 404
    tokens = [b.hall_token for b in event.brackets.all() if b.hall_token]
    assert len(tokens) == 1
    assert client.get(reverse("event-hall", args=tokens)).status_code == 200
