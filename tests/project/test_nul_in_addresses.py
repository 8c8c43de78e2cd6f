"""An address holding a NUL character names no page: it answers 404 before any view runs, so no
view sends it to the database (PostgreSQL refuses NUL in text: the secret links of the hall
screens and the table phones, read from the address, answered a server error)."""

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


@pytest.mark.parametrize("address", ADDRESSES)
def test_a_nul_in_the_address_answers_404_without_a_query(address):
    sent: list[object] = []

    def record(execute, sql, params, many, context):
        sent.extend(params or ())
        return execute(sql, params, many, context)

    client = Client(raise_request_exception=False)
    with connection.execute_wrapper(record):
        response = client.get(address)
    assert response.status_code == 404
    assert not any("\x00" in str(param) for param in sent)
