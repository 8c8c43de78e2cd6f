"""Every JSON endpoint, fuzzed from its own schema: never a 5xx, and a body wrong in one field
is a 400 naming that field.

The endpoints are found by walking the URL patterns: a view that reads a JSON body must carry
the schema it checks it against (`scoring.http.body_schema`, `table_write(schema)`), else the
first test fails and names it. Bodies are drawn from that schema (tests/project/body_strategies):
sound ones, and ones with one field of the wrong type, out of range (a 40-digit version, a seat
past 2^63), a list of the wrong shape, a key too many or missing; for a field the schema leaves
to its service (the deal, whose seats depend on the sheet), the deal's own schema drives the
same mutations one level down. Form endpoints are fuzzed by test_fuzz_every_form.py, whose
world (X and Y) each test starts from: built once for the module, each test's writes rolled back
after it (its `world` fixture).
Run it on PostgreSQL too (DATABASE_URL).
"""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest
from django.db import transaction
from django.urls import get_resolver
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.project.body_strategies import one_field_wrong, valid
from tests.project.test_fuzz_every_form import FUZZ, module_world, world  # noqa: F401 - fixtures
from tests.tournament.access.test_roles_every_url import url_for, walk
from tournament.core.schema import AnyObject, Obj

pytestmark = pytest.mark.django_db

EXAMPLES = 60
# What a view's own code says when it reads the request's JSON body.
READS_JSON = ("request.body", "payload", "json.loads", "json_object(", "json_body(")
# A field the service checks (its schema needs the sheet) answers with the deal's own key on
# these endpoints, which check the deal before anything else (who sends it, the version).
DEAL_FIRST = {"api-deal-create", "table-preview"}


def innermost(view):
    while hasattr(view, "__wrapped__"):
        view = view.__wrapped__
    return view


def reads_json(pattern) -> bool:
    try:
        source = inspect.getsource(innermost(pattern.callback))
    except (OSError, TypeError):
        return True  # a view whose code can't be read is assumed to read JSON
    return any(word in source for word in READS_JSON)


def json_routes() -> list[tuple[str, Any]]:
    return [
        (route, pattern)
        for route, pattern in walk(get_resolver().url_patterns)
        if reads_json(pattern)
    ]


def test_every_view_reading_json_declares_its_schema():
    routes = json_routes()
    names = {pattern.name for _route, pattern in routes}
    # The deal API and the phone's writes at least: the walk finds the endpoints.
    assert {"api-deal-create", "table-preview", "table-deal-create", "table-confirm"} <= names
    missing = [
        pattern.name for _route, pattern in routes if not hasattr(pattern.callback, "body_schema")
    ]
    assert not missing, f"views reading a JSON body without a schema: {missing}"


def huge_int(value: Any) -> bool:
    """An integer the JSON reader refuses before any schema (beyond 64 bits)."""
    if isinstance(value, dict):
        return any(huge_int(item) for item in value.values())
    if isinstance(value, list):
        return any(huge_int(item) for item in value)
    return isinstance(value, int) and len(str(abs(value))) > 19


@st.composite
def bodies(draw, schema: Obj) -> tuple[dict[str, Any], str | None, str | None]:
    """(body, the envelope's key it gets wrong, the deal's key it gets wrong) — at most one."""
    kind = draw(st.sampled_from(["sound", "envelope", "envelope", "inner", "inner"]))
    inner = [key for key, shape in schema.fields.items() if isinstance(shape, AnyObject)]
    if kind == "envelope" or (kind == "inner" and not inner):
        body, key = draw(one_field_wrong(schema))
        return body, key, None
    body = draw(valid(schema))
    if kind == "sound":
        return body, None, None
    key = draw(st.sampled_from(inner))
    content_schema = schema.fields[key].schema
    assert isinstance(content_schema, Obj)
    body[key], inner_key = draw(one_field_wrong(content_schema))
    return body, None, inner_key


@pytest.mark.parametrize(
    ("route", "pattern"), [pytest.param(*pair, id=pair[0]) for pair in json_routes()]
)
def test_json_bodies_built_from_the_schema_never_fail(client, world, route, pattern):  # noqa: F811
    schema = getattr(pattern.callback, "body_schema", None)
    assert isinstance(schema, Obj), f"{pattern.name}: no schema (see the test above)"
    world["x"]["number"] = 1
    client.force_login(world["users"]["owner_x"])
    url = url_for(route, pattern, world["x"])

    @settings(FUZZ, max_examples=EXAMPLES)
    @given(drawn=bodies(schema))
    def post(drawn):
        body, wrong_key, wrong_deal_key = drawn
        with transaction.atomic():
            response = client.post(url, json.dumps(body), content_type="application/json")
        assert response.status_code < 500, (pattern.name, response.status_code, body)
        if wrong_key is None and (wrong_deal_key is None or pattern.name not in DEAL_FIRST):
            return
        answer = response.json()
        assert response.status_code == 400, (pattern.name, response.status_code, body, answer)
        if huge_int(body):
            return  # refused as unreadable JSON, before its schema: still a 400
        assert answer["field"] == (wrong_key or wrong_deal_key), (pattern.name, body, answer)
        assert answer["error"]

    post()
