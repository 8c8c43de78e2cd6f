"""Every URL that changes data requires the right role, and every POST needs a CSRF token.

The test walks the whole URL configuration (the admin aside, which Django guards itself), so a
new view is checked the day it is added.
"""

import pytest
from django.core import serializers
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring.models import Incident
from scoring.services import deal_record, sheet_for_table
from tournament.models import Player, Position, Registration, Seat, Table, Tournament

pytestmark = pytest.mark.django_db

# Pages anybody may open (they show only what is published and change nothing).
PUBLIC = {"home", "login", "logout", "set_language"}
PUBLIC_PREFIXES = ("public-",)
# What a scorer may do besides reading: enter and correct sheets, record incidents.
SCORER_WRITES = {
    "sheet-free-create",
    "sheet-for-table",
    "sheet-detail",
    "deal-preview",
    "sheet-crosscheck",
    "deal-edit",
    "deal-delete",
    "deal-adjust",
    "incident-create",
    "api-deal-create",
}


def walk(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if str(pattern.pattern).startswith("admin/"):
                continue
            yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield prefix + str(pattern.pattern), pattern


def is_public(name: str) -> bool:
    return name in PUBLIC or name.startswith(PUBLIC_PREFIXES)


@pytest.fixture
def world():
    tournament = Tournament.objects.create(name="Open", date="2026-11-21", is_public=True)
    registrations = [
        Registration.objects.create(
            tournament=tournament, player=Player.objects.create(last_name=f"P{i}"), number=i + 1
        )
        for i in range(4)
    ]
    position = Position.objects.create(tournament=tournament, number=1, status="published")
    table = Table.objects.create(position=position, number=1)
    for direction, registration in zip("NESW", registrations, strict=True):
        Seat.objects.create(table=table, registration=registration, direction=direction)
    sheet = sheet_for_table(table=table)
    deal = deal_record(
        sheet=sheet,
        data={"players": 4, "taker": 0, "contract": "garde", "oudlers": 2, "points": 50},
    )
    Incident.objects.create(
        tournament=tournament, sheet=sheet, registration=registrations[0], kind="other"
    )
    return {
        "tournament": tournament.pk,
        "table": table.pk,
        "sheet": sheet.pk,
        "deal": deal.pk,
        "registration": registrations[0].pk,
        "number": 1,
    }


def url_for(route: str, pattern: URLPattern, world) -> str:
    kwargs = {}
    for key in pattern.pattern.converters:
        if key == "pk":
            if route.startswith("tables/"):
                kwargs[key] = world["table"]
            elif route.startswith(("feuilles/", "api/feuilles/")):
                kwargs[key] = world["sheet"]
            elif route.startswith("donnes/"):
                kwargs[key] = world["deal"]
            else:
                kwargs[key] = world["tournament"]
        elif key in world:
            kwargs[key] = world[key]
        else:
            raise AssertionError(f"no value for <{key}> in {route}: extend the test's world")
    return reverse(pattern.name, kwargs=kwargs)


def snapshot() -> str:
    from django.apps import apps

    models = [
        *apps.get_app_config("tournament").get_models(),
        *apps.get_app_config("scoring").get_models(),
    ]
    return "".join(serializers.serialize("json", m.objects.order_by("pk")) for m in models)


def guarded_urls(world):
    for route, pattern in walk(get_resolver().url_patterns):
        if not is_public(pattern.name):
            yield pattern.name, url_for(route, pattern, world)


def test_every_url_is_known_to_this_test(world):
    names = [pattern.name for _route, pattern in walk(get_resolver().url_patterns)]
    assert len(names) > 30  # the walk sees the whole site, not just the root


def test_anonymous_visitors_are_sent_to_the_login_and_change_nothing(client, world):
    before = snapshot()
    for name, url in guarded_urls(world):
        for method in (client.get, client.post):
            response = method(url)
            assert response.status_code in (302, 403, 405), (name, url, response.status_code)
            if response.status_code == 302:
                assert response["Location"].startswith("/connexion/"), (name, url)
    assert snapshot() == before


def test_logged_in_players_without_a_role_are_refused(client, world, django_user_model):
    client.force_login(django_user_model.objects.create_user("joueur", password="pw-joueur-1"))
    before = snapshot()
    for name, url in guarded_urls(world):
        for method in (client.get, client.post):
            response = method(url)
            assert response.status_code in (403, 405), (name, url, response.status_code)
    assert snapshot() == before


def test_scorers_cannot_change_what_only_arbiters_may(client, world, scorer):
    client.force_login(scorer)
    before = snapshot()
    for name, url in guarded_urls(world):
        if name in SCORER_WRITES:
            continue
        response = client.post(url)
        assert response.status_code in (403, 405) or snapshot() == before, (name, url)
    assert snapshot() == before


def test_every_post_needs_a_csrf_token(world, arbiter):
    client = Client(enforce_csrf_checks=True)
    client.force_login(arbiter)
    before = snapshot()
    for name, url in guarded_urls(world):
        response = client.post(url)
        assert response.status_code in (403, 405), (name, url, response.status_code)
    assert snapshot() == before
