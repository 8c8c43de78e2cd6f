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
from django.utils import timezone

from scoring.late import LateDeal, PhoneQueue
from scoring.models import Championship, TableCall
from scoring.upload.keys import upload_key_issue
from scoring.uploads import UploadKey
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
    # What may wait after a close (issue 35): a late deal, a phone's unsent deals.
    late = LateDeal.objects.create(
        table=sheet.table, client_id=f"late-{name}", data={"passed": True}
    )
    queue = PhoneQueue.objects.create(
        table=sheet.table, device="phone", count=1, reported_at=timezone.now()
    )
    return {
        "late": late.pk,
        "queue": queue.pk,
        "decision": "reject",
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
        "key": upload_key_issue(club=club, user=owner, label=f"Portable {label}")[0].pk,
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


@pytest.mark.slow
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


# --- Writes (issue 36): nothing club B's staff tries changes club A's people ------------------

A_LICENCES = ["0500001", "0500002", "0500003"]


def dump_a(club, conflicts: set[int]) -> str:
    """Club A's rows of every model a write on people touches, as JSON: its roster entries,
    its tournaments' registrations, its members and invitations, and the licence conflicts
    that concerned it before (new ones are B's registrations' notices to A: checked apart)."""
    from django.core import serializers
    from django.db.models import Q

    from tournament.access.scopes import club_players
    from tournament.models import ClubInvitation

    rows = [
        club_players(club.pk).order_by("pk"),
        Registration.objects.filter(tournament__host_club=club).order_by("pk"),
        ClubMember.objects.filter(club=club).order_by("pk"),
        ClubInvitation.objects.filter(club=club).order_by("pk"),
        UploadKey.objects.filter(club=club).order_by("pk"),  # its upload keys (issue 40)
        LicenceConflict.objects.filter(pk__in=conflicts).order_by("pk"),
        LicenceConflict.objects.filter(Q(newcomer_club=club)).order_by("pk"),
    ]
    return "\n".join(serializers.serialize("json", queryset) for queryset in rows)


def a_people(django_user_model):
    """Club A: an administrator and an arbiter, a finished private tournament and a running
    public one whose players hold licences, a team, an invitation waiting."""
    from tournament.models import ClubInvitation, Tournament

    admin = account(django_user_model, "admin-alpha", arbiter=True)
    club = join_club(admin, "Club Alpha", "admin")
    join_club(account(django_user_model, "arbitre-alpha", arbiter=True), "Club Alpha")
    finished = Tournament.objects.create(
        name="Nocturne Alpha", date="2026-10-01", host_club=club, owner=admin, is_public=False,
        status=Tournament.Status.FINISHED,
    )  # fmt: skip
    running = Tournament.objects.create(
        name="Open Alpha", date="2026-11-28", host_club=club, owner=admin, is_public=True
    )
    team = Team.objects.create(tournament=running, name="Equipe Alpha")
    for n, licence in enumerate(A_LICENCES):
        player = Player.objects.create(
            last_name=f"Alphaperson{n}", licence=licence, origin_club=club
        )
        Registration.objects.create(tournament=finished, player=player, number=n + 1)
        Registration.objects.create(tournament=running, player=player, number=n + 1, team=team)
    ClubInvitation.objects.create(club=club, user=account(django_user_model, "invitee"))
    return admin, club, finished, running


def b_tries_everything(client: Client, who, *, club_a, club_b, a_tournament, b_tournament, ids):
    """Every write path that touches Player, Registration, LicenceConflict or membership,
    by `who` (club B's staff), aimed at A's people and at B's own tournament with A's data."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from scoring.documents.backup import tournament_export_json
    from tests.desk_helpers import register
    from tournament.models import ClubInvitation

    client.force_login(who)
    a_player, b_entry = Player(pk=ids["a_player"]), Player(pk=ids["b_entry"])
    for licence in A_LICENCES:  # B's own desk, with A's licences (conflicts for A, silently)
        register(client, b_tournament, last_name="Voleur", first_name="Bob", licence=licence)
    rows = "\n".join(f"Voleur{n};Bob;{licence}" for n, licence in enumerate(A_LICENCES))
    url = reverse("player-import", args=[b_tournament.pk])
    client.post(url, {"file": SimpleUploadedFile("j.csv", f"nom;prénom;licence\n{rows}".encode())})
    client.post(url, {"confirm": "1"})
    backup = tournament_export_json(a_tournament)  # a crafted restore: A's tournament, A's licences
    client.post(
        reverse("tournament-restore"), {"file": SimpleUploadedFile("s.json", backup.encode())}
    )
    for keep, drop in ((b_entry, a_player), (a_player, b_entry)):
        client.post(reverse("player-merge"), {"keep": keep.pk, "drop": drop.pk})
    payloads = [
        {"resolution": "merge", "entry": "newcomer"},
        {"resolution": "merge", "entry": "existing"},
        {"resolution": "correct", "entry": "existing"},
        {"resolution": "correct", "entry": "newcomer", "licence": "0700000"},
        {"accept": "1"},
        {"accept": "0"},
    ]
    for conflict in LicenceConflict.objects.all():
        for fields in payloads:
            client.post(reverse("licence-conflict", args=[conflict.pk]), fields)
    for invitation in ClubInvitation.objects.all():
        client.post(reverse("club-invitation-answer", args=[invitation.pk]), {"accept": "1"})
    client.post(
        reverse("club-members", args=[club_a.pk]), {"username": who.username, "role": "admin"}
    )
    for member in ClubMember.objects.filter(club=club_a):
        client.post(reverse("club-member-remove", args=[club_a.pk, member.pk]))
    # Every URL of the site, filled with A's ids, POSTed with the fields its forms read.
    registration = Registration(pk=ids["registrations"][a_tournament.pk])
    world = {
        "tournament": a_tournament.pk, "table": 0, "sheet": 0, "deal": 0, "call": 0,
        "registration": registration.pk, "player": a_player.pk, "number": 1, "code": "ABCD2345",
        "token": "x", "bracket": a_tournament.pk, "session": 1, "kind": "cumul", "fmt": "pdf",
        "conflict": ids["conflict"], "club": club_a.pk, "member": ids["member"], "event": 0,
        "championship": 0, "role": 1, "late": 0, "queue": 0, "decision": "accept",
        "key": ids["key"],
    }  # fmt: skip
    fields = {
        "last_name": "Voleur", "first_name": "Bob", "licence": A_LICENCES[0], "keep": b_entry.pk,
        "drop": a_player.pk, "members": [registration.pk], "registration": registration.pk,
        "username": who.username, "role": "admin", "confirm": "1", "accept": "1",
        "resolution": "merge", "entry": "newcomer",
    }  # fmt: skip
    for route, pattern in walk(get_resolver().url_patterns):
        if pattern.name != "logout":
            client.post(url_for(route, pattern, world), fields)


@pytest.mark.slow
@pytest.mark.parametrize("who", ["admin", "arbiter"])
def test_club_b_staff_change_nothing_of_club_a(django_user_model, who):
    """Club B's administrator and arbiter try every write on people; A's rows stay the same,
    byte for byte (a JSON dump of them), on SQLite and PostgreSQL alike."""
    from tournament.models import Tournament

    _admin_a, club_a, finished, running = a_people(django_user_model)
    admin_b = account(django_user_model, "admin-beta", arbiter=True)
    club_b = join_club(admin_b, "Club Beta", "admin")
    arbiter_b = account(django_user_model, "arbitre-beta", arbiter=True)
    join_club(arbiter_b, "Club Beta")
    actor = admin_b if who == "admin" else arbiter_b
    b_tournament = Tournament.objects.create(
        name="Soirée Beta", date="2026-11-28", host_club=club_b, owner=actor
    )
    Player.objects.create(last_name="Betaperson", licence="0600001", origin_club=club_b)
    a_key, _key = upload_key_issue(club=club_a, user=None)  # B may not revoke it
    before_conflicts = set(LicenceConflict.objects.values_list("pk", flat=True))
    before = dump_a(club_a, before_conflicts)
    ids = {
        "a_player": Player.objects.filter(origin_club=club_a).order_by("pk").first().pk,
        "b_entry": Player.objects.get(origin_club=club_b).pk,
        "registrations": {
            t.pk: t.registrations.order_by("pk").first().pk for t in (finished, running)
        },
        "member": ClubMember.objects.filter(club=club_a).order_by("pk").first().pk,
        "conflict": 0,
        "key": a_key.pk,
    }
    for tournament in (finished, running):
        b_tries_everything(
            Client(), actor, club_a=club_a, club_b=club_b, a_tournament=tournament,
            b_tournament=b_tournament, ids=ids,
        )  # fmt: skip
        ids["conflict"] = LicenceConflict.objects.order_by("pk").values_list("pk", flat=True)[0]
    assert dump_a(club_a, before_conflicts) == before
    # B's registrations opened conflicts for A (its notices), none of them settled.
    opened = LicenceConflict.objects.exclude(pk__in=before_conflicts)
    assert opened.exists()
    assert set(opened.values_list("existing_club", "status").distinct()) == {(club_a.pk, "open")}
