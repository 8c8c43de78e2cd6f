"""Two tables of four whose players enter deals on their phones (issue 35's tests of what
waits at a close, and of late deals)."""

import json

from django.test import Client
from django.urls import reverse

from scoring.models import Deal, ScoreSheet
from scoring.sheets.table_entry import links_for_position
from tests.desk_helpers import make_tournament

# Seat 0 takes a prise with 2 oudlers and 45 points: won by 4, +29 a defender's side.
PRISE = {"taker": 0, "contract": "prise", "oudlers": 2, "points": 45}


def phone(device: str) -> Client:
    client = Client()
    client.cookies["tarot_device"] = device
    return client


def post(client: Client, name: str, token: str, body: dict, *args):
    return client.post(
        reverse(name, args=[token, *args]), json.dumps(body), content_type="application/json"
    )


def world(positions: int = 1):
    """Two tables of four with phones, position 1 published; the phone of seat 0 (NORD) at each
    table bound to its player."""
    tournament, position = make_tournament(
        tables=2, entry_mode="phones", positions_count=positions, status="running"
    )
    links = links_for_position(position)
    phones = []
    for n, link in enumerate(links):
        device = phone(f"phone{n}")
        seat0 = next(s for s in link.table.seats.all() if s.direction == "N").registration
        assert (
            post(device, "table-identify", link.token, {"seat": 0, "pin": seat0.pin}).status_code
            == 200
        )
        phones.append(device)
    return tournament, position, links, phones


def enter(device: Client, link, client_id: str, **extra):
    """A deal typed on a phone: it waits for the other side's confirmation."""
    version = ScoreSheet.objects.filter(table=link.table).values_list("version", flat=True)
    body = {"client_id": client_id, "version": version.first() or 0, "deal": PRISE, **extra}
    response = post(device, "table-deal-create", link.token, body)
    assert response.status_code == 201, response.content
    return Deal.objects.get(client_id=client_id)
