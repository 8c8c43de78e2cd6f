"""NUL characters never reach the database (PostgreSQL refuses them in text: a server error): an
address holding one names no page and answers 404 before any view runs (the secret links of the
hall screens and the table phones are read from the address); a cookie holding one (a quoted
cookie's octal escape, "\\000", reads as NUL) is dropped as if it was not sent (the session's
was looked up on every page)."""

import pytest
from django.db import connection
from django.test import Client

pytestmark = pytest.mark.django_db

ADDRESSES = [
    "/salle/%00/",
    "/salle/%00/diapos/",
    "/salle/epreuve/a%00b/",
    "/salle/epreuve/%00/diapos/",
    "/table/%00/",
    "/table/%00/feuille/",
]


def sent_to_the_database(client: Client, address: str) -> tuple[int, list[object]]:
    """The answer's status and every parameter the request sent to the database."""
    sent: list[object] = []

    def record(execute, sql, params, many, context):
        sent.extend(params or ())
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        response = client.get(address)
    return response.status_code, sent


@pytest.mark.parametrize("address", ADDRESSES)
def test_a_nul_in_the_address_answers_404_without_a_query(address):
    status, sent = sent_to_the_database(Client(raise_request_exception=False), address)
    assert status == 404
    assert not any("\x00" in str(param) for param in sent)


@pytest.mark.parametrize("cookie", ["sessionid", "csrftoken", "django_language", "tarot_seat"])
def test_a_cookie_holding_a_nul_is_dropped(cookie):
    client = Client(raise_request_exception=False, HTTP_COOKIE=f'{cookie}="abcdefghijkl\\000"')
    for address in ("/", "/connexion/"):
        status, sent = sent_to_the_database(client, address)
        assert status == 200
        assert not any("\x00" in str(param) for param in sent)
