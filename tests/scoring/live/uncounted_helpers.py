"""A running tournament whose table 7 holds deals of every kind of trust: one typed at the desk
(an arbiter's act: it counts), a garde sans typed on NORD's phone that nobody confirmed
(+708 to NORD, waiting), and a garde contre typed on EST's phone that NORD contested (+1440 to
EST, waiting). Table 1 holds one desk deal. Position 2 is the next to seat.

Counted, the totals are SUD +120, A1 +90, A2..A4 −30, NORD, EST, OUEST −40; counting the
waiting deals too would put NORD at +668 and EST at +1400 on top."""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.test import Client
from django.urls import reverse

from scoring.models import Deal, ScoreSheet, TableLink
from scoring.sheets.services.deals import deal_record
from scoring.sheets.services.sheets import sheet_for_table
from scoring.sheets.table_entry import links_for_position
from tournament.models import Player, Position, Registration, Seat, Table, Tournament

TABLE_1 = ("A1", "A2", "A3", "A4")
TABLE_7 = ("NORD", "EST", "SUD", "OUEST")
# What the counted deals give (the desk's two prises).
COUNTED = {"SUD": 120, "A1": 90, "A2": -30, "A3": -30, "A4": -30}
COUNTED |= {"NORD": -40, "EST": -40, "OUEST": -40}
# NORD's garde sans alone, 3 oudlers and 70 points: (25 + 34) x 4 from each defender.
GARDE_SANS = {"players": 4, "taker": 0, "contract": "garde_sans", "oudlers": 3, "points": 70}
# EST's garde contre alone, 3 oudlers and 91 points: (25 + 55) x 6 from each defender.
GARDE_CONTRE = {"players": 4, "taker": 1, "contract": "garde_contre", "oudlers": 3, "points": 91}


@dataclass
class World:
    tournament: Tournament
    table_7: ScoreSheet
    table_1: ScoreSheet
    link: TableLink
    players: dict[str, Registration]

    def total(self, name: str, standings) -> int:
        key = self.players[name].pk
        return next(r.row.total for r in standings.players if r.row.key == key)


def phone(device: str) -> Client:
    client = Client()
    client.cookies["tarot_device"] = device
    return client


def send(client: Client, name: str, link: TableLink, body: dict):
    return client.post(
        reverse(name, args=[link.token]), json.dumps(body), content_type="application/json"
    )


def phone_deal(world: World, device: Client, seat: int, deal: dict, client_id: str) -> None:
    """A deal typed on the phone of the player at `seat`, bound by their own code."""
    player = world.players[TABLE_7[seat]]
    bound = send(device, "table-identify", world.link, {"seat": seat, "pin": player.pin})
    assert bound.status_code == 200, bound.content
    version = ScoreSheet.objects.get(pk=world.table_7.pk).version
    body = {"client_id": client_id, "version": version, "deal": deal}
    created = send(device, "table-deal-create", world.link, body)
    assert created.status_code == 201, created.content


def build(owner) -> World:
    tournament = Tournament.objects.create(
        name="Open du club",
        date="2026-11-28",
        entry_mode="phones",
        is_public=True,
        status="running",
        positions_count=2,
        deals_per_table_4=4,
        owner=owner,
    )
    players = {
        name: Registration.objects.create(
            tournament=tournament, player=Player.objects.create(last_name=name), number=n
        )
        for n, name in enumerate(TABLE_1 + TABLE_7, start=1)
    }
    position = Position.objects.create(tournament=tournament, number=1, status="published")
    sheets = []
    for number, names in ((1, TABLE_1), (7, TABLE_7)):
        table = Table.objects.create(position=position, number=number)
        for name, direction in zip(names, "NESW", strict=True):
            Seat.objects.create(table=table, registration=players[name], direction=direction)
        sheets.append(sheet_for_table(table=table))
    table_1, table_7 = sheets
    link = next(link for link in links_for_position(position) if link.table.number == 7)
    prise = {"players": 4, "contract": "prise", "oudlers": 2}
    deal_record(sheet=table_1, data={**prise, "taker": 0, "points": 46}, user=owner)
    deal_record(sheet=table_7, data={**prise, "taker": 2, "points": 56}, user=owner)
    world = World(tournament, table_7, table_1, link, players)
    phone_deal(world, phone("nord"), 0, GARDE_SANS, "nord-garde-sans")
    phone_deal(world, phone("est"), 1, GARDE_CONTRE, "est-garde-contre")
    nord = players["NORD"]
    contest = {"seat": 0, "pin": nord.pin, "number": 3, "note": "pas 91"}
    assert send(phone("nord"), "table-contest", link, contest).status_code == 200
    deals = {d.number: d for d in Deal.objects.filter(sheet=table_7)}
    assert deals[2].pending and deals[2].scores[0] == 708
    assert deals[3].disputed and deals[3].scores[1] == 1440
    return world
