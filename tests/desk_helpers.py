"""Builders shared by the desk tests: a tournament with seated tables, and deal posts."""

from __future__ import annotations

from django.urls import reverse

from scoring.models import DealScore, ScoreSheet
from tests.examples_004 import NAMES, TYPED
from tournament.models import Player, Position, Registration, Seat, Table, Tournament

# The 004 example as the desk tests type it (one copy, in tests/examples_004.py).
NAMES_004 = NAMES
DEALS_004 = TYPED


def make_tournament(tables: int = 1, size: int = 4, game: str = "four", names=None, **fields):
    """A tournament at position 1 with `tables` tables of `size` seated players."""
    tournament = Tournament.objects.create(
        name=fields.pop("name", "Tournoi test"), date="2008-08-15", **fields
    )
    position = Position.objects.create(tournament=tournament, number=1, status="published")
    directions = "NESWX"[:size]
    number = 0
    for t in range(1, tables + 1):
        table = Table.objects.create(position=position, number=t, game=game)
        for direction in directions:
            number += 1
            name = (names or {}).get(direction) if t == 1 else None
            player = Player.objects.create(last_name=name or f"JOUEUR{number}")
            registration = Registration.objects.create(
                tournament=tournament, player=player, number=number
            )
            Seat.objects.create(table=table, registration=registration, direction=direction)
    return tournament, position


def free_sheet(names, *, tournament: str = "Exemple FFT", date: str = "2008-08-15") -> ScoreSheet:
    """A free sheet (no table) of new players, in the order given, in a new tournament."""
    from scoring.sheets.services import sheet_create_free

    event = Tournament.objects.create(name=tournament, date=date)
    registrations = [
        Registration.objects.create(
            tournament=event, player=Player.objects.create(last_name=name), number=number
        )
        for number, name in enumerate(names, start=1)
    ]
    return sheet_create_free(tournament=event, registrations=registrations)


def bilans_by_name(sheet: ScoreSheet) -> dict[str, int]:
    """Each player's total on the sheet, from the stored per-player scores, by last name."""
    totals: dict[str, int] = {}
    for score in DealScore.objects.filter(deal__sheet=sheet).select_related("registration__player"):
        name = score.registration.player.last_name
        totals[name] = totals.get(name, 0) + score.points
    return totals


def register(client, tournament, **fields):
    """Register a player through the desk's form (a roster player, or a new one)."""
    return client.post(reverse("player-register", args=[tournament.pk]), fields)


def table_sheet(client, position, number: int = 1) -> ScoreSheet:
    table = position.tables.get(number=number)
    response = client.post(reverse("sheet-for-table", args=[table.pk]))
    assert response.status_code == 302
    return ScoreSheet.objects.get(table=table)


def deal_post(client, sheet: ScoreSheet, fields: dict, *, htmx: bool = True, version=None):
    sheet.refresh_from_db()
    data = {
        "version": sheet.version if version is None else version,
        "dealer": "",
        "side": "attack",
        **fields,
    }
    if data["dealer"] == "":
        data.pop("dealer")
        data["dealer"] = _next_dealer(sheet)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("sheet-detail", args=[sheet.pk]), data, **headers)


def incident_post(client, tournament, sheet: ScoreSheet, culprit, *, follow=False, **fields):
    """Report an incident of `culprit` (a registration) on the sheet through the desk's form,
    with no decision and no note unless given."""
    url = reverse("incident-create", args=[tournament.pk]) + f"?sheet={sheet.pk}"
    data = {"sheet": sheet.pk, "decision": "", "note": "", "registration": culprit.pk, **fields}
    return client.post(url, data, follow=follow)


def _next_dealer(sheet: ScoreSheet) -> int:
    last = sheet.deals.order_by("-number").first()
    players = sheet.players.count()
    return 0 if last is None else (last.dealer - 1) % players
