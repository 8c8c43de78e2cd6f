"""The phone's page asks for refusals in the body (X-Refusal-Answer: body): status 200 with the
refusal's own status in `refused` and its French message, so the browser logs no error; every
other client keeps the 4xx, and an accepted write is unchanged."""

import json

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

ASK = {"HTTP_X_REFUSAL_ANSWER": "body"}


def identify(table4, client, pin: str, **headers):
    return client.post(
        reverse("table-identify", args=[table4.link.token]),
        json.dumps({"seat": 0, "pin": pin}),
        content_type="application/json",
        **headers,
    )


def wrong_pin(table4) -> str:
    return "000000" if table4.players[0].pin != "000000" else "111111"


def test_a_wrong_code_is_a_403_for_other_clients(table4):
    answer = identify(table4, table4.phone("a1"), wrong_pin(table4))
    assert answer.status_code == 403
    assert "refused" not in answer.json()


def test_a_wrong_code_asked_in_the_body_answers_200_with_the_refusal(table4):
    answer = identify(table4, table4.phone("a2"), wrong_pin(table4), **ASK)
    assert answer.status_code == 200
    data = answer.json()
    assert data["refused"] == 403
    assert data["field"] == "pin"
    assert data["error"].startswith("Code personnel erroné")


def test_a_closed_link_asked_in_the_body_answers_200_with_its_404(table4):
    table4.link.table.position.status = "closed"
    table4.link.table.position.save(update_fields=["status"])
    answer = table4.phone("a3").post(
        reverse("table-confirm", args=[table4.link.token]),
        json.dumps({"version": 0, "deals": [1]}),
        content_type="application/json",
        **ASK,
    )
    assert answer.status_code == 200
    assert answer.json()["refused"] == 404


def test_an_accepted_write_is_unchanged(table4):
    answer = identify(table4, table4.phone("a4"), table4.players[0].pin, **ASK)
    assert answer.status_code == 200
    assert answer.json() == {"name": table4.players[0].player.full_name}
