"""No page, export or PDF of the site shows an arbiter another club's private data (issue 27).

Two clubs on one server, each with a played and finished private tournament (a team, a season
championship, a big event) and a played public one, every name distinctive. Club A's
administrator, who runs A's tournaments, requests every URL of the site (the URL walk's
enumeration, tests/tournament/access/test_roles_every_url.py) filled with A's objects and with
B's ids, GET and POST, with the search parameters the pages read; every body is decoded (XLSX
cells through openpyxl, PDF text through pypdf, CSV and HTML as text, the download's filename
too) and grepped for B's names.

What counts as a leak:
- B's private names (its private tournament, the roster players who played only there, its team,
  its private championship and event) in any response: a leak, wherever it is.
- B's public tournament (its name and its players' names) and club B's name are public: they may
  appear on the public pages (`public-*`, sign-up, home), nowhere else. A desk page, an export or
  a roster search of A showing them is a leak (a club sees its own members and the players of
  its own tournaments, never the rest).
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import get_resolver, reverse

from scoring.models import Championship, TableCall
from tests.club_helpers import join_club
from tests.desk_helpers import deal_post, make_tournament, table_sheet
from tests.examples_004 import TYPED
from tests.staged import _validate_and_close
from tests.tournament.access.test_roles_every_url import account, is_public, url_for, walk
from tournament.models import Club, ClubMember, Event, LicenceConflict, Player, Registration, Team

pytestmark = pytest.mark.django_db

PUBLIC_PAGES = {"home", "signup", "signup-confirmation"}
# Public pages about the whole server, not one club: the home page (every public tournament),
# the list of clubs publishing something, and a person's results across every club's public
# tournaments (issue 27). B's public names may appear there even when reached with A's ids.
SERVER_WIDE_PUBLIC = {"home", "public-clubs", "public-person"}
# The pages that read a search or a choice from the query string (request.GET): asked again
# with a search for B's names, A's tournament and B's ids.
SEARCHED = {
    "player-search", "player-merge", "player-list", "public-players", "ranking",
    "tournament-statistics", "incident-list", "signup", "event-detail",
    "event-venue", "public-event", "public-tournament", "public-player-statistics",
}  # fmt: skip

CLUB_B = "Club Zorgclub"
B_PRIVATE = {
    "tournament": "Tournoi Zorgsecret",
    "players": {"N": "ZORGSECNORD", "E": "ZORGSECEST", "S": "ZORGSECSUD", "W": "ZORGSECOUEST"},
    "team": "Equipe Zorgteam",
    "championship": "Challenge Zorgchamp",
    "event": "Festival Zorgfest",
}
B_PUBLIC = {
    "tournament": "Open Zorgpublic",
    "players": {"N": "ZORGPUBNORD", "E": "ZORGPUBEST", "S": "ZORGPUBSUD", "W": "ZORGPUBOUEST"},
}
PRIVATE_NAMES = [
    B_PRIVATE["tournament"],
    *B_PRIVATE["players"].values(),
    B_PRIVATE["team"],
    B_PRIVATE["championship"],
    B_PRIVATE["event"],
]
# B's public player "S" also plays A's public tournament (a visitor): A sees that roster entry
# like its own players, but nothing of B's tournaments through it.
VISITOR = B_PUBLIC["players"]["S"]
PUBLIC_NAMES = [
    CLUB_B,
    B_PUBLIC["tournament"],
    *(name for name in B_PUBLIC["players"].values() if name != VISITOR),
]


def played(client: Client, owner, club, *, name: str, names: dict, public: bool, event=None):
    """A tournament of `club` run by `owner`: one table, two deals, validated, closed, finished.
    The world the URL walk fills its URLs from."""
    tournament, position = make_tournament(
        names=names,
        name=name,
        positions_count=1,
        status="running",
        owner=owner,
        host_club=club,
        club="",  # the "club organisateur" line, left blank as most arbiters do
        is_public=public,
        event=event,
        session=1 if event else None,
    )
    for registration in tournament.registrations.select_related("player"):
        registration.player.origin_club = club
        registration.player.save(update_fields=["origin_club"])
    sheet = table_sheet(client, position)
    for fields in TYPED[:2]:
        assert deal_post(client, sheet, fields).status_code in (200, 302)
    deal = sheet.deals.order_by("number").first()
    call = TableCall.objects.create(table=sheet.table, note="?")
    _validate_and_close(client, sheet)
    assert client.post(reverse("tournament-finish", args=[tournament.pk])).status_code in (200, 302)
    first = tournament.registrations.order_by("number").first()
    assert isinstance(first, Registration)
    return {
        "tournament": tournament.pk,
        "table": sheet.table_id,
        "sheet": sheet.pk,
        "deal": deal.pk if deal else 0,
        "registration": first.pk,
        "player": first.player_id,
        "call": call.pk,
        "number": 1,
        "code": "ABCD2345",
        "token": "jeton-inconnu",
        "bracket": tournament.pk,
        "session": 1,
        "kind": "cumul",
        "fmt": "pdf",
    }


def club_world(django_user_model, label: str, club_name: str, private: dict, public: dict):
    """Club `club_name`, its administrator, a private tournament (in an event, with a team and a
    private championship) and a public one; the administrator, and the two walk worlds."""
    owner = account(django_user_model, f"admin-{label}", arbiter=True)
    club = join_club(owner, club_name, "admin")
    client = Client()
    client.force_login(owner)
    event = Event.objects.create(
        name=private["event"], date="2008-08-15", owner=owner, host_club=club, is_public=False
    )
    secret = played(
        client, owner, club, name=private["tournament"], names=private["players"], public=False,
        event=event,
    )  # fmt: skip
    team = Team.objects.create(tournament_id=secret["tournament"], name=private["team"])
    Registration.objects.filter(tournament_id=secret["tournament"]).update(team=team)
    open_ = played(
        client, owner, club, name=public["tournament"], names=public["players"], public=True
    )
    # One of the public tournament's players also played the private one: their public pages
    # (statistics, itinerary) must not name it; the public world's player is that one.
    open_["player"] = Registration.objects.get(
        tournament_id=open_["tournament"], number=4
    ).player_id
    Registration.objects.filter(tournament_id=secret["tournament"], number=4).update(
        player=open_["player"]
    )
    championship = Championship.objects.create(
        name=private["championship"], owner=owner, scale=[3, 2, 1], is_public=False
    )
    championship.tournaments.add(secret["tournament"], open_["tournament"])
    # A licence conflict of this club with a third club's entry (its pages are walked too; B's
    # is refused to A's administrator).
    third = Club.objects.create(name=f"Club tiers {label}")
    conflict = LicenceConflict.objects.create(
        licence=f"09{label == 'a':05d}",
        existing=Player.objects.create(last_name=f"Tiers{label}", origin_club=third),
        newcomer=Player.objects.create(last_name=f"Membre{label}", origin_club=club),
        existing_club=third,
        newcomer_club=club,
    )
    shared = {
        "conflict": conflict.pk,
        "club": club.pk,
        "member": ClubMember.objects.get(user=owner).pk,
        "event": event.pk,
        "championship": championship.pk,
        "role": 1,
    }
    return owner, {**shared, **secret}, {**shared, **open_}


def body_text(response) -> str:
    """What a person gets from the response: the page, the file's cells or text, its name."""
    content = (
        b"".join(response.streaming_content) if response.streaming else response.content or b""
    )
    kind = response.get("Content-Type", "")
    text = response.get("Content-Disposition", "") + "\n"
    if "pdf" in kind:
        from pypdf import PdfReader

        return text + "\n".join(
            page.extract_text() for page in PdfReader(io.BytesIO(content)).pages
        )
    if "spreadsheet" in kind:
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(content), read_only=True)
        cells = (
            str(value)
            for sheet in book.worksheets
            for row in sheet.iter_rows(values_only=True)
            for value in row
            if value is not None
        )
        return text + "\n".join(cells) + "\n".join(book.sheetnames)
    return text + content.decode("utf-8", errors="replace")


def urls(world: dict, own_tournament: int) -> Iterator[tuple[str, str]]:
    """Every URL of the site filled from `world`, with the query parameters pages read."""
    searched = [
        "",
        f"?q=ZORG&fusion=1&tournoi={own_tournament}&saison=1&vue=equipe&kind=team",
        f"?q=zorg&tournoi={world['tournament']}&garder={world['player']}&position=1",
    ]
    for route, pattern in walk(get_resolver().url_patterns):
        if pattern.name == "logout":
            continue  # the walk stays logged in as A's administrator
        queries = searched if pattern.name in SEARCHED else [""]
        base = url_for(route, pattern, world)
        bases = [base]
        if "fmt" in pattern.pattern.converters:
            bases += [base.replace(".pdf", f".{fmt}") for fmt in ("xlsx", "csv")]
        for url in bases:
            for query in queries:
                yield pattern.name, url + query


def leaks(client: Client, world: dict, own_tournament: int, *, ours: bool) -> list[tuple]:
    """What B's names the pages of `world` show that they should not. With `ours` (A's
    world) every page is about A: only the server-wide public pages may name B's public
    tournament (SERVER_WIDE_PUBLIC); B's ids are also POSTed to (refused)."""
    found = []
    for name, url in urls(world, own_tournament):
        responses = [client.get(url)]
        if not ours and not url.count("?"):
            responses.append(client.post(url))
        for response in responses:
            text = body_text(response).casefold()
            if ours:
                allowed_public = name in SERVER_WIDE_PUBLIC
            else:
                allowed_public = is_public(name) or name in PUBLIC_PAGES
            names = PRIVATE_NAMES + ([] if allowed_public else PUBLIC_NAMES)
            shown = [n for n in names if n.casefold() in text]
            if shown:
                found.append((name, url, response.status_code, shown))
    return found


def test_an_arbiter_of_another_club_sees_none_of_its_names_anywhere(django_user_model):
    admin_a, world_a, open_a = club_world(
        django_user_model,
        "a",
        "Club Alpha",
        {
            "tournament": "Tournoi Alpha",
            "players": {"N": "ALNORD", "E": "ALEST", "S": "ALSUD", "W": "ALOUEST"},
            "team": "Equipe Alpha",
            "championship": "Challenge Alpha",
            "event": "Festival Alpha",
        },
        {
            "tournament": "Open Alpha",
            "players": {"N": "ALPNORD", "E": "ALPEST", "S": "ALPSUD", "W": "ALPOUEST"},
        },
    )
    _admin_b, secret_b, open_b = club_world(django_user_model, "b", CLUB_B, B_PRIVATE, B_PUBLIC)
    visitor = Registration.objects.get(tournament_id=open_b["tournament"], number=3).player_id
    seat = Registration.objects.get(tournament_id=open_a["tournament"], number=3)
    seat.player_id = visitor
    seat.save(update_fields=["player"])
    open_a |= {"player": visitor, "registration": seat.pk}
    client = Client()
    client.force_login(admin_a)
    # A's public tournament holds the visitor; its world shares A's event, championship and
    # club with A's private one (walking both doubled the time and found nothing more).
    found = leaks(client, open_a, world_a["tournament"], ours=True)
    found += leaks(client, secret_b, world_a["tournament"], ours=False)
    found += leaks(client, open_b, world_a["tournament"], ours=False)
    assert found == [], "\n".join(map(str, found))
    # The grep reads what it should: A's own files name A's players, B's public page its own.
    for name in ("export-ranking-xlsx", "export-deals-csv", "print-ranking"):
        assert "ALNORD" in body_text(client.get(reverse(name, args=[world_a["tournament"]])))
    public_b = body_text(client.get(reverse("public-tournament", args=[open_b["tournament"]])))
    assert B_PUBLIC["tournament"] in public_b and "ZORGPUBNORD" in public_b
