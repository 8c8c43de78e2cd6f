"""The home page leads somewhere: arbiters to each tournament's desk and to a new tournament,
visitors to the public standings."""

import pytest
from django.urls import reverse

from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_an_arbiter_reaches_the_desk_and_the_new_tournament_form(arbiter_client):
    tournament = Tournament.objects.create(name="Open", date="2026-11-21")
    page = arbiter_client.get("/").text
    assert f'href="{reverse("tournament-create")}"' in page
    assert f'href="{reverse("tournament-detail", args=[tournament.pk])}"' in page


def test_a_visitor_reaches_the_public_standings(client):
    public = Tournament.objects.create(name="Open", date="2026-11-21", is_public=True)
    page = client.get("/").text
    assert f'href="{reverse("public-tournament", args=[public.pk])}"' in page
    assert reverse("tournament-create") not in page
    assert reverse("tournament-detail", args=[public.pk]) not in page


def test_a_visitor_reaches_the_clubs_public_pages(client):
    Tournament.objects.create(name="Open", date="2026-11-21", is_public=True)
    assert f'href="{reverse("public-clubs")}"' in client.get("/").text


def test_an_arbiter_reaches_the_events_from_the_home_page(arbiter_client):
    """Issue 38: big events were reachable only by typing their address."""
    html = arbiter_client.get(reverse("home")).content.decode()
    assert f'href="{reverse("event-list")}"' in html
    assert arbiter_client.get(reverse("event-list")).status_code == 200
