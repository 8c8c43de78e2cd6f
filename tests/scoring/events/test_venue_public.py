"""The event's public page and the venue's hall screen: only a public event, only its public
brackets, only what the public may count; each bracket's standings side by side."""

import re

import pytest
from django.urls import reverse

from scoring.events.views import hall as venue_views
from scoring.models import Deal
from tests.scoring.events.venue_helpers import (
    TOTALS_1,
    cut_event,
    deal,
    session_2_scores,
    start_session_2,
)
from tournament.evening.hall import hall_link_create
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def section(html: str, bracket_pk: int) -> str:
    start = html.index(f'id="bracket-{bracket_pk}"')
    return html[start : html.index("</section>", start)]


def test_a_private_event_has_no_public_page(arbiter, client, django_user_model):
    result = cut_event(arbiter)
    url = reverse("public-event", args=[result.event.pk])
    assert client.get(url).status_code == 404
    client.force_login(django_user_model.objects.create_user("voisin", password="pw-v-1"))
    assert client.get(url).status_code == 404
    assert client.get(reverse("public-event", args=[999999])).status_code == 404


def test_the_public_page_shows_each_bracket_with_cumulative_and_session_standings(arbiter, client):
    result = cut_event(arbiter, public=True)
    expected = session_2_scores(result)
    html = client.get(reverse("public-event", args=[result.event.pk])).content.decode()
    main, consolante = section(html, result.main.pk), section(html, result.consolante.pk)
    assert 'class="event-brackets"' in html and html.index(main) < html.index(consolante)
    assert "Qualifiés : les 4 premiers (coupe après la séance 1)" in main
    assert "Consolante : les non-qualifiés de la coupe après la séance 1" in consolante
    for part in (main, consolante):
        assert "Report : 50 % du cumul des séances précédentes" in part
        assert 'data-ranking="session"' in part  # the session's own ranking beside
    # P5: half of 33 carried, 45 in session 2: 61.5, first of the main bracket.
    assert expected["P5"] == 123 / 2 and TOTALS_1["P5"] == 33
    body = main[main.index("<tbody>", main.index('data-ranking="cumulative"')) :]
    first_row = body[: body.index("</tr>")]
    assert "P5 Jo" in first_row and "16,50" in first_row and "61,50" in first_row
    assert reverse("public-tournament", args=[result.main.pk]) in main
    assert reverse("public-tournament", args=[result.consolante.pk]) in consolante


def test_a_private_bracket_and_pending_deals_stay_off_the_public_page(arbiter, client):
    result = cut_event(arbiter, public=True)
    Tournament.objects.filter(pk=result.consolante.pk).update(is_public=False)
    start_session_2(result)
    Deal.objects.filter(sheet__tournament=result.main).update(pending=True)
    html = client.get(reverse("public-event", args=[result.event.pk])).content.decode()
    assert f'id="bracket-{result.consolante.pk}"' not in html
    main = section(html, result.main.pk)
    # The typed deal is pending: nothing of session 2 counts yet, only the carry.
    row = main[main.index("P7 Jo") : main.index("</tr>", main.index("P7 Jo"))]
    assert "26,50" in row and row.count("26,50") == 2  # carried 53 / 2, total the same


def test_the_public_page_answers_304_until_a_deal_counts(arbiter, client):
    result = cut_event(arbiter, public=True)
    start_session_2(result)
    url = reverse("public-event", args=[result.event.pk])
    etag = client.get(url)["ETag"]
    assert client.get(url, headers={"if-none-match": etag}).status_code == 304
    deal(result.main.positions.get().tables.get().sheet, 1)
    assert client.get(url, headers={"if-none-match": etag}).status_code == 200


def test_a_brackets_hall_link_shows_the_whole_session_in_turn(arbiter, client):
    result = cut_event(arbiter, public=True)
    start_session_2(result)
    token = hall_link_create(tournament=result.consolante).hall_token
    response = client.get(reverse("event-hall", args=[token]))
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    html = response.content.decode()
    # Who sits where across the venue: both brackets' tables, numbers unique.
    who = html[
        html.index('data-kind="who"') : html.index("</section>", html.index('data-kind="who"'))
    ]
    tables = set(re.findall(r"<small>table</small> (\d+)", who))
    assert tables == {"1", "2"} and who.count('class="who"') == 8
    slides = re.findall(r'data-kind="standings"[^>]*data-bracket="(\w+)"', html)
    assert slides == ["main", "consolante"]
    assert "Tableau principal — classement cumulé" in html
    # The hall screen's one template, named after the event and its session.
    names = [t.name for t in response.templates]
    assert names[0] == "hall/screen.html" and "scoring/events/venue/_hall_slides.html" in names
    name = result.event.name
    assert f'<h1 class="fit" id="hall-name">{name} — séance 2</h1>' in html
    assert f"<title>{name} — Écran de salle</title>" in html
    slides_url = reverse("event-hall-slides", args=[token])
    first = client.get(slides_url)
    assert first["X-Position-Clock"]
    again = client.get(slides_url, headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304 and again.has_header("X-Position-Clock")


def test_an_unknown_hall_link_or_a_tournament_of_its_own_opens_nothing(arbiter, client):
    assert client.get(reverse("event-hall", args=["inconnu"])).status_code == 404
    alone = Tournament.objects.create(name="Open", date="2026-05-09")
    token = hall_link_create(tournament=alone).hall_token
    assert client.get(reverse("event-hall", args=[token])).status_code == 404
    assert client.get(reverse("hall-screen", args=[token])).status_code == 200


def test_the_venue_hall_slides_are_rendered_once_per_version_for_every_screen(
    arbiter, client, monkeypatch
):
    """Every screen of the venue, whichever bracket's link it opened, gets one render of a
    version; a deal counted moves it (after the coalescing window, none in tests)."""
    result = cut_event(arbiter, public=True)
    start_session_2(result)
    tokens = [hall_link_create(tournament=b).hall_token for b in (result.main, result.consolante)]
    renders = []
    real = venue_views.venue_hall
    monkeypatch.setattr(
        venue_views, "venue_hall", lambda *a, **k: renders.append(1) or real(*a, **k)
    )
    answers = [client.get(reverse("event-hall-slides", args=[t])) for t in tokens * 2]
    assert renders == [1]
    assert len({a["ETag"] for a in answers}) == 1
    assert len({a.content for a in answers}) == 1 and b"P5 Jo" in answers[0].content
    etag = answers[0]["ETag"]
    deal(result.main.positions.get(number=1).tables.order_by("number").first().sheet, 2)
    moved = client.get(
        reverse("event-hall-slides", args=[tokens[1]]), headers={"if-none-match": etag}
    )
    assert moved.status_code == 200 and moved["ETag"] != etag and renders == [1, 1]
    again = client.get(
        reverse("event-hall-slides", args=[tokens[0]]), headers={"if-none-match": moved["ETag"]}
    )
    assert again.status_code == 304 and renders == [1, 1]


def test_a_later_sessions_bracket_pages_say_they_rank_that_session_alone(arbiter, client):
    """P1 is 2nd ex æquo of session 2 alone (-30) but 4th of the main bracket with half of
    session 1 carried (-15.50): the bracket's page and P1's card name the bracket, say the
    carry is left out and link the event's cumulative ranking (they showed 'Classement 2')."""
    result = cut_event(arbiter, public=True)
    start_session_2(result)
    p1 = result.main.registrations.get(player__last_name="P1")
    event_url = reverse("public-event", args=[result.event.pk]) + "?seance=2"
    for url in (
        reverse("public-tournament", args=[result.main.pk]),
        reverse("public-player", args=[result.main.pk, p1.pk]),
    ):
        html = client.get(url).content.decode()
        note = html[
            html.index("data-bracket-note") : html.index("</div>", html.index("data-bracket-note"))
        ]
        assert "Tableau principal, séance 2" in note
        assert "Ce classement compte la séance 2 seule" in note
        assert "ajoute à chaque joueur 50 % de ses points des séances précédentes" in note
        assert f'href="{event_url}"' in note
    html = client.get(reverse("public-tournament", args=[result.consolante.pk])).content.decode()
    assert "Consolante, séance 2" in html
    session_1 = client.get(reverse("public-tournament", args=[result.session_1.pk]))
    assert "data-bracket-note" not in session_1.content.decode()
