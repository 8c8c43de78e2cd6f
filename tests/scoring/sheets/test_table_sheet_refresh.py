"""The phone's 5-second refresh of its table's sheet: a bodiless 304 while nothing that the
sheet shows has changed, a new sheet as soon as anything has (a deal entered, contested,
corrected, confirmed, validated; a seat, a name, this phone's player, the language)."""

import re

import pytest
from django.contrib import admin
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Deal, LiveArtifact, ScoreSheet
from scoring.sheets.services import sheet_validate
from scoring.sheets.table_entry import links_for_position
from tests.scoring.live.test_phone_trust import GARDE_CONTRE, build, phone, send
from tournament.admin import PlayerAdmin
from tournament.models import Player, Registration, Seat, Table
from tournament.models.audit import revision_of

pytestmark = pytest.mark.django_db


def refresh(client, link, etag: str = ""):
    headers = {"if-none-match": etag} if etag else {}
    return client.get(reverse("table-sheet", args=[link.token]), headers=headers)


def page_etag(client, link) -> str:
    """The ETag the phone page seeds its refreshes with (data-sheet-etag)."""
    html = client.get(reverse("table-entry", args=[link.token])).content.decode()
    return re.search(r'data-sheet-etag="([^"]*)"', html).group(1).replace("&quot;", '"')


def moved(client, link, etag: str) -> str:
    """Asked with `etag`, the sheet is sent again under a new one: returned."""
    answer = refresh(client, link, etag)
    assert answer.status_code == 200 and answer["ETag"] != etag
    return answer["ETag"]


def test_an_unchanged_table_answers_304_from_the_first_refresh_without_reading_its_deals():
    world = build()
    link, players = world["link"], world["players"]
    north = phone("n")
    send(north, "table-identify", link, {"seat": 0, "pin": players[0].pin})
    body = {"client_id": "refresh-0001", "version": 0, "deal": GARDE_CONTRE}
    assert send(north, "table-deal-create", link, body).status_code == 201
    etag = page_etag(north, link)
    full = refresh(north, link)
    assert full["ETag"] == etag  # the page's sheet is the partial's
    with CaptureQueriesContext(connection) as captured:
        again = refresh(north, link, etag)
    assert again.status_code == 304 and again.content == b""
    assert not [q for q in captured if "scoring_deal" in q["sql"]]
    with CaptureQueriesContext(connection) as rendered:
        refresh(north, link)
    assert len(captured) < len(rendered)


def test_every_change_the_sheet_shows_sends_it_again(arbiter):
    world = build()
    link, players = world["link"], world["players"]
    north, south, east = phone("n"), phone("s"), phone("e")
    for client, seat in ((north, 0), (south, 2), (east, 1)):
        send(client, "table-identify", link, {"seat": seat, "pin": players[seat].pin})
    etag = refresh(south, link)["ETag"]
    body = {"client_id": "refresh-0002", "version": 0, "deal": GARDE_CONTRE}
    assert send(north, "table-deal-create", link, body).status_code == 201
    etag = moved(south, link, etag)  # the deal to confirm or contest
    contest = {"seat": 2, "pin": players[2].pin, "number": 1, "note": "51"}
    assert send(south, "table-contest", link, contest).status_code == 200
    etag = moved(south, link, etag)
    # A contest moves no version (the desk's actions go through): the sheet is at 1.
    fixed = {"version": 1, "deal": {**GARDE_CONTRE, "contract": "garde", "points": 51}}
    assert send(north, "table-deal-correct", link, fixed, number=1).status_code == 200
    etag = moved(south, link, etag)
    listed = {"deals": [Deal.objects.get().pk], "version": 2}
    confirm = {"seat": 1, "pin": players[1].pin, **listed}
    assert send(east, "table-confirm", link, confirm).status_code == 200
    etag = moved(south, link, etag)
    assert refresh(south, link, etag).status_code == 304
    sheet_validate(sheet=ScoreSheet.objects.get(table=link.table), user=arbiter)
    etag = moved(south, link, etag)
    # The arbiter corrects a name (the admin, the one place a name is edited): the sheet shows it.
    renamed = Player.objects.get(pk=players[3].player_id)
    renamed.last_name = "OUESTE"
    PlayerAdmin(Player, admin.site).save_model(None, renamed, None, change=True)
    etag = moved(south, link, etag)
    # Another phone (another player, or none) is another sheet: its own rows are "mine".
    assert refresh(north, link, etag).status_code == 200
    assert refresh(phone("x"), link, etag).status_code == 200
    # The same phone in English is another sheet too.
    assert refresh(south, link, etag).status_code == 304
    english = south.get(
        reverse("table-sheet", args=[link.token]),
        headers={"if-none-match": etag, "accept-language": "en"},
    )
    assert english.status_code == 200


def test_another_tables_deal_leaves_this_sheet_a_304():
    first, second = build(), build()
    link, other = first["link"], second["link"]
    players = second["players"]
    watcher = phone("w")
    etag = refresh(watcher, link)["ETag"]
    north = phone("n")
    send(north, "table-identify", other, {"seat": 0, "pin": players[0].pin})
    body = {"client_id": "refresh-0003", "version": 0, "deal": GARDE_CONTRE}
    assert send(north, "table-deal-create", other, body).status_code == 201
    assert refresh(watcher, link, etag).status_code == 304


def _second_table(world) -> tuple:
    """A second table of the same position, its four players, and its link."""
    position = world["link"].table.position
    players = [
        Registration.objects.create(
            tournament=world["tournament"], player=Player.objects.create(last_name=name), number=n
        )
        for n, name in enumerate(["NORD2", "EST2", "SUD2", "OUEST2"], start=5)
    ]
    table = Table.objects.create(position=position, number=8)
    for seat, direction in enumerate("NESW"):
        Seat.objects.create(table=table, registration=players[seat], direction=direction)
    link = next(other for other in links_for_position(position) if other.table_id == table.pk)
    return link, players


def test_a_deal_at_another_table_of_the_same_tournament_leaves_this_sheet_a_304():
    """The tournament's revision moves with every deal of the room; the table's page is
    versioned by what it shows (Revision.common and its own sheet's writes), so 800 phones
    cost what their own tables' changes cost, not a sheet each at every deal in the room."""
    world = build()
    link = world["link"]
    other, players = _second_table(world)
    watcher = phone("w")
    etag = refresh(watcher, link)["ETag"]
    before = revision_of(world["tournament"].pk)
    north = phone("n")
    send(north, "table-identify", other, {"seat": 0, "pin": players[0].pin})
    body = {"client_id": "refresh-0004", "version": 0, "deal": GARDE_CONTRE}
    assert send(north, "table-deal-create", other, body).status_code == 201
    assert revision_of(world["tournament"].pk) > before  # the public pages do move
    assert refresh(watcher, link, etag).status_code == 304
    # The other table's own phone sees its deal.
    assert refresh(north, other, etag).status_code == 200
    # A write beyond one sheet (a seat's player renamed) moves every table's page.
    renamed = Player.objects.get(pk=players[1].player_id)
    renamed.last_name = "EST-DEUX"
    PlayerAdmin(Player, admin.site).save_model(None, renamed, None, change=True)
    world_player = Player.objects.get(pk=world["players"][1].player_id)
    world_player.first_name = "Jo"
    PlayerAdmin(Player, admin.site).save_model(None, world_player, None, change=True)
    assert refresh(watcher, link, etag).status_code == 200


def test_the_sheet_is_never_another_tables_nor_its_etag():
    world = build()
    link = world["link"]
    other, _players = _second_table(world)
    watcher = phone("w")
    mine = refresh(watcher, link)
    theirs = refresh(watcher, other, mine["ETag"])
    assert theirs.status_code == 200 and theirs["ETag"] != mine["ETag"]
    assert "NORD2" in theirs.content.decode() and "NORD2" not in mine.content.decode()
    assert not LiveArtifact.objects.exists()  # computed for its phone, never stored
