"""Issue 35: a deal corrected or given an arbiter's score from the page of what waits brings the
arbiter back to that page, with what it was waiting for (?pour=...) kept; before, both ended on
the sheet and the arbiter had to find the page again."""

import re
from html import unescape

import pytest
from django.urls import reverse

from scoring.models import Deal, ScoreSheet
from tests.desk_helpers import DEALS_004
from tests.scoring.sheets.waiting_helpers import enter, world
from tournament.seats import sheet_order_key

pytestmark = pytest.mark.django_db


def waiting_link(page: str, name: str, deal: Deal) -> str:
    """The href of the waiting page's link to `name` for the deal (as the browser follows it)."""
    path = reverse(name, args=[deal.pk])
    found = re.search(rf'href="({re.escape(path)}[^"]*)"', page)
    assert found, f"no link to {path}"
    return unescape(found.group(1))


def hidden_next(page: str) -> str:
    found = re.search(r'name="next" value="([^"]*)"', page)
    assert found, "the form does not carry the way back"
    return unescape(found.group(1))


@pytest.fixture
def waiting(arbiter_client):
    tournament, _position, links, phones = world()
    deal = enter(phones[0], links[0], "t1-deal-0")
    here = reverse("deals-waiting", args=[tournament.pk]) + "?pour=close&position=1"
    page = arbiter_client.get(here).text
    return deal, here, page


@pytest.mark.parametrize("htmx", [False, True])
def test_correcting_from_the_waiting_page_returns_there(arbiter_client, waiting, htmx):
    deal, here, page = waiting
    edit = arbiter_client.get(waiting_link(page, "deal-edit", deal)).text
    assert "Correction de la donne 1" in edit
    back = hidden_next(edit)
    assert back == here
    version = ScoreSheet.objects.get(pk=deal.sheet_id).version
    data = {"dealer": 0, "side": "attack", "version": version, **DEALS_004[0], "next": back}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = arbiter_client.post(reverse("deal-edit", args=[deal.pk]), data, **headers)
    if htmx:  # htmx is told to load the page, not to swap it into the sheet
        assert response.headers["HX-Redirect"] == here
    else:
        assert response.status_code == 302 and response.url == here
    deal.refresh_from_db()
    assert deal.contract == "garde"  # DEALS_004's first deal, corrected


def test_an_arbiters_score_from_the_waiting_page_returns_there(arbiter_client, waiting):
    deal, here, page = waiting
    url = waiting_link(page, "deal-adjust", deal)
    adjust = arbiter_client.get(url).text
    assert hidden_next(adjust) == here
    version = ScoreSheet.objects.get(pk=deal.sheet_id).version
    scores = {f"score_{s}": v for s, v in enumerate([30, -10, -10, -10])}
    data = {"version": version, "reason": "annonce contestée", "next": hidden_next(adjust)}
    response = arbiter_client.post(url, {**data, **scores})
    assert response.status_code == 302 and response.url == here
    deal.refresh_from_db()
    assert deal.adjusted and list(deal.scores) == [30, -10, -10, -10]
    # Back to the computed score, from the same page: back there too.
    version = ScoreSheet.objects.get(pk=deal.sheet_id).version
    clear = arbiter_client.post(
        reverse("deal-adjust-clear", args=[deal.pk]), {"version": version, "next": here}
    )
    assert clear.status_code == 302 and clear.url == here


def test_a_foreign_way_back_is_ignored(arbiter_client, waiting):
    deal, _here, _page = waiting
    version = ScoreSheet.objects.get(pk=deal.sheet_id).version
    data = {"dealer": 0, "side": "attack", "version": version, **DEALS_004[0]}
    response = arbiter_client.post(
        reverse("deal-edit", args=[deal.pk]), {**data, "next": "https://evil.example/"}
    )
    assert response.status_code == 302
    assert response.url == reverse("sheet-detail", args=[deal.sheet_id])


def test_each_waiting_score_is_named_in_the_phones_column_order(arbiter_client, waiting):
    """Not bare "116 / 58 / -58 …": each score beside its player, in the order of the columns
    the table's phones show (the paper sheet's: N, S, E, O)."""
    deal, here, _page = waiting
    table = deal.sheet.table
    seats = sorted(table.seats.select_related("registration__player"), key=lambda s: s.index)
    order = sorted(range(len(seats)), key=lambda i: sheet_order_key(seats[i].direction))
    assert order != list(range(len(seats))), "the phone's order differs from the seat indexes"
    expected = [f"{seats[i].registration.player.full_name} {deal.scores[i]}" for i in order]
    page = arbiter_client.get(here).content.decode()
    line = page.split(f'id="waiting-deal-{deal.pk}"')[1].split("</li>")[0]
    shown = [unescape(s) for s in re.findall(r'<span class="waiting-score">([^<]*)</span>', line)]
    assert shown == expected
