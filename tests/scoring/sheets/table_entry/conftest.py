"""A table of four in phone entry mode (MOREAU N, CÔTÉ E, LEFÈVRE S, DURAND O), its link, and
the phones' requests, for the dispute, confirmation and signature tests."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Deal, ScoreSheet, TableLink
from scoring.sheets.table_entry import links_for_position
from tournament.models import Player, Position, Registration, Seat, Table, Tournament

NAMES = ["MOREAU", "CÔTÉ", "LEFÈVRE", "DURAND"]
MOREAU, COTE, LEFEVRE, DURAND = range(4)
# The deal 3: a garde sans of CÔTÉ, 2 oudlers, 52 points: V = (25 + 11) × 4 = 144,
# CÔTÉ +432 and each defender −144. MOREAU typed CÔTÉ where LEFÈVRE had taken.
WRONG_TAKER = {"taker": COTE, "contract": "garde_sans", "oudlers": 2, "points": 52}


@dataclass
class Table4:
    tournament: Tournament
    link: TableLink
    players: list[Registration]

    def phone(self, device: str, bound_to: int | None = None) -> Client:
        """A phone with its own device cookie, bound to a player if asked."""
        client = Client()
        client.cookies["tarot_device"] = device
        if bound_to is not None:
            answer = self.post(client, "table-identify", self.code(bound_to))
            assert answer.status_code == 200, answer.content
        return client

    def code(self, seat: int) -> dict[str, Any]:
        return {"seat": seat, "pin": self.players[seat].pin}

    def post(self, client: Client, name: str, body: Any, *args: Any):
        return client.post(
            reverse(name, args=[self.link.token, *args]),
            json.dumps(body),
            content_type="application/json",
        )

    def sheet(self) -> ScoreSheet:
        return ScoreSheet.objects.get(table=self.link.table)

    def enter(self, client: Client, deal: dict[str, Any], client_id: str) -> Deal:
        """A deal typed on `client` (a phone bound to its enterer), stored waiting."""
        sheet = ScoreSheet.objects.filter(table=self.link.table).first()
        version = sheet.version if sheet else 0
        dealer = Deal.objects.filter(sheet=sheet).count() if sheet else 0
        body = {"client_id": client_id, "version": version, "deal": {"dealer": dealer, **deal}}
        answer = self.post(client, "table-deal-create", body)
        assert answer.status_code == 201, answer.content
        return Deal.objects.get(pk=answer.json()["deal"])

    def confirm(self, client: Client, seat: int, deals: list[Deal], version: int | None = None):
        body = {
            **self.code(seat),
            "deals": [deal.pk for deal in deals],
            "version": self.sheet().version if version is None else version,
        }
        return self.post(client, "table-confirm", body)

    def contest(self, client: Client, seat: int, number: int, note: str = ""):
        return self.post(
            client, "table-contest", {**self.code(seat), "number": number, "note": note}
        )


@pytest.fixture
def table4(db) -> Table4:
    tournament = Tournament.objects.create(
        name="Open",
        date="2026-11-21",
        entry_mode="phones",
        is_public=True,
        status="running",
        deals_per_table_4=2,
    )
    players = [
        Registration.objects.create(
            tournament=tournament, player=Player.objects.create(last_name=name), number=n + 1
        )
        for n, name in enumerate(NAMES)
    ]
    position = Position.objects.create(tournament=tournament, number=1, status="published")
    table = Table.objects.create(position=position, number=7)
    for seat, direction in enumerate("NESW"):
        Seat.objects.create(table=table, registration=players[seat], direction=direction)
    return Table4(tournament, links_for_position(position)[0], players)
