"""An id in a URL that no database column can hold is a page that does not exist (404), never
a server error: the walk tries 2^63, 2^64 and -1 in every integer of every URL pattern, alone
and with the other ids real, by GET and POST, anonymous and as a superuser."""

import re

import pytest
from django.test import Client
from django.urls import get_resolver

from tests.tournament.access.test_roles_every_url import people, walk, world  # noqa: F401
from tournament.converters import IdConverter

pytestmark = pytest.mark.django_db

OVERFLOWS = [str(2**63), str(2**64), "-1", "9" * 40]
PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def integer_routes():
    """(route, pattern, names of its integer parameters) for every pattern that has one."""
    for route, pattern in walk(get_resolver().url_patterns):
        names = [
            match["name"]
            for match in PARAMETER.finditer(route)
            if match["converter"] in {"int", "id"}
        ]
        if names:
            yield route, pattern, names


def real_value(route: str, name: str, world) -> str:  # noqa: F811
    if name == "pk":
        for prefix, key in (
            ("tables/", "table"),
            ("feuilles/", "sheet"),
            ("api/feuilles/", "sheet"),
            ("donnes/", "deal"),
            ("championnats/", "championship"),
            ("public/championnat/", "championship"),
        ):
            if route.startswith(prefix):
                return str(world[key])
        return str(world["tournament"])
    return str(world.get(name, "AAAAAAAA"))


def fill(route: str, values: dict[str, str]) -> str:
    return "/" + PARAMETER.sub(lambda match: values[match["name"]], route)


def hostile_urls(world):  # noqa: F811
    """Each integer of each route overflowing alone (the others real), then all at once."""
    for route, pattern, names in integer_routes():
        real = {match["name"]: real_value(route, match["name"], world)
                for match in PARAMETER.finditer(route)}  # fmt: skip
        for value in OVERFLOWS:
            for name in names:
                yield pattern.name, fill(route, {**real, name: value})
            if len(names) > 1:
                yield pattern.name, fill(route, {**real, **dict.fromkeys(names, value)})


def test_the_walk_finds_integer_ids_in_urls():
    names = {pattern.name for _route, pattern, _names in integer_routes()}
    assert {"signup-confirmation", "checkin-toggle", "sheet-detail", "deal-edit"} <= names


def test_every_integer_in_a_url_is_a_bounded_id():
    """The plain int converter lets 2^63 through to the database: every id is an <id:…>."""
    plain = [route for route, _pattern, _names in integer_routes() if "<int:" in route]
    assert plain == []


@pytest.mark.slow
def test_overflowing_ids_are_404_never_a_server_error(world, django_user_model):  # noqa: F811
    superuser = django_user_model.objects.create_superuser("root", password="pw-root-1")
    anonymous = Client(raise_request_exception=False)
    admin = Client(raise_request_exception=False)
    admin.force_login(superuser)
    failures = []
    for name, url in hostile_urls(world):
        for client in (anonymous, admin):
            for method in (client.get, client.post):
                status = method(url).status_code
                if status >= 500:
                    failures.append((name, method.__name__, url, status))
    assert failures == []


def test_the_signup_confirmation_of_an_overflowing_tournament_is_404():
    response = Client(raise_request_exception=False).get(
        "/inscription/9223372036854775808/confirmation/AAAAAAAA/"
    )
    assert response.status_code == 404


@pytest.mark.parametrize(
    ("text", "matches"),
    [("0", True), ("42", True), (str(2**63 - 1), True), (str(2**63), False), ("9" * 40, False)],
)
def test_the_id_converter_takes_what_a_bigint_column_holds(text, matches):
    converter = IdConverter()
    if matches:
        assert converter.to_python(text) == int(text)
    else:
        with pytest.raises(ValueError):
            converter.to_python(text)
