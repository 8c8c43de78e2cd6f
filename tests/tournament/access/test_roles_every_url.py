"""Every URL checks who may do what on *which* tournament, and every POST needs a CSRF token.

The test walks the whole URL configuration (the admin aside, which Django guards itself), so a
new view is checked the day it is added: it must ask tournament.access.permissions (its decorator
leaves the permission it asks on the view) or be listed here as public or global.
"""

import functools

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from scoring.late import LateDeal, PhoneQueue
from scoring.models import Championship, Incident, TableCall
from scoring.sheets.services import deal_record, sheet_for_table
from scoring.upload.keys import upload_key_issue
from tests.club_helpers import join_club
from tests.row_snapshot import RowSnapshot
from tournament.access.permissions import Permission
from tournament.access.roles import ARBITER
from tournament.models import (
    Club,
    Event,
    LicenceConflict,
    Player,
    Position,
    Registration,
    Seat,
    Table,
    Tournament,
)

pytestmark = pytest.mark.django_db

# Pages anybody may open (they show only what is published and change nothing).
PUBLIC = {"home", "login", "logout", "set_language", "javascript-catalog", "favicon"}
# Online pre-registration: open to anyone while the arbiter keeps it open (404 otherwise), and
# a player's confirmation, whose code in the URL is the credential (tested in test_signup_*).
PUBLIC |= {"signup", "signup-confirmation"}
PUBLIC_PREFIXES = ("public-",)
# A table's phone pages: the secret link in the URL is the credential (tested on their own in
# test_table_entry_security.py); a wrong token opens nothing.
TABLE_LINK_PREFIXES = ("table-",)
# The hall screen: the tournament's secret hall link is the credential
# (tournament.access.permissions hall_screen; tested on their own in test_hall_views.py); a revoked
# or unknown one opens nothing.
HALL_SCREEN = {"hall-screen", "hall-slides"}
# An event's hall screen: one of its brackets' hall links opens the whole session's.
HALL_SCREEN |= {"event-hall", "event-hall-slides"}
# A club's laptop sending a finished tournament to the comité's server (issue 40): the club's
# upload key in the Authorization header is the credential (scoring.upload.keys; tested in
# tests/scoring/upload/), no session, no CSRF token; a wrong or revoked key stores nothing.
UPLOAD_KEY = {"results-upload"}
# An account's own invitations into clubs (login only; another account's invitation is a 404:
# tests/tournament/clubs/test_membership_by_consent.py).
OWN_ACCOUNT = {"club-invitations", "club-invitation-answer"}
# Pages about no tournament in particular: they show or create only the user's own.
GLOBAL = {"tournament-list", "tournament-create", "tournament-restore", "player-search"}
# Merging two roster players: the service checks every tournament either one plays in.
GLOBAL |= {"player-merge"}
# An account's own invitations: its own list (an answer to another's invitation is a 404).
GLOBAL |= {"club-invitations"}
# Season championships: the list and the form show and create only the user's own.
GLOBAL |= {"championship-list", "championship-create"}
# Circuits: the list shows only those the user's clubs are invited to.
GLOBAL |= {"circuit-list"}
# Big events: the list and the form show and create only the user's own.
GLOBAL |= {"event-list", "event-create"}
# The laptop's comité server settings: an arbiter's, about no tournament (issue 40).
GLOBAL |= {"comite-settings"}
# What a scorer of the tournament may do besides reading: enter and correct sheets.
SCORER_WRITES = {
    "sheet-free-create",
    "sheet-for-table",
    "sheet-detail",
    "deal-preview",
    "sheet-crosscheck",
    "deal-edit",
    "deal-delete",
    "api-deal-create",
    "call-take",  # going to a table that called: whoever is on the floor
}
# Every named URL the walk must find, in name order (a name is listed once per pattern). A view
# added or dropped fails here, and so must be placed in the lists above on purpose.
URL_NAMES = [
    "api-deal-create", "api-sheet", "call-take", "championship-create", "championship-detail",
    "championship-edit", "championship-list", "championship-pdf", "championship-player",
    "championship-xlsx", "checkin", "checkin-toggle", "checkin-walkin", "circuit-detail",
    "circuit-list", "circuit-tournament-add", "circuit-tournament-remove",
    "club-identity", "club-invitation-answer", "club-invitations", "club-member-remove",
    "club-members",
    "club-upload-key-revoke", "club-upload-keys", "cockpit-live",
    "code-unlock", "comite-settings", "deal-adjust", "deal-adjust-clear", "deal-confirm",
    "deal-delete", "deal-edit",
    "deal-preview", "deal-score-recorded", "deals-waiting", "entry-overview", "entry-overview",
    "event-bracket-document", "event-create", "event-cut", "event-detail", "event-hall",
    "event-hall-slides", "event-list", "event-replace", "event-session-document", "event-venue",
    "event-venue-hall-link", "event-venue-live", "export-deals-csv", "export-deals-xlsx",
    "export-ranking-csv", "export-ranking-xlsx", "favicon", "hall-announcement", "hall-link-create",
    "hall-link-revoke", "hall-screen", "hall-slides", "home", "incident-create", "incident-list",
    "javascript-catalog", "late-deal-decide", "licence-conflict", "licence-conflicts", "login",
    "logout", "penalty-settings", "phone-queue-acknowledge", "player-import",
    "player-itinerary", "player-list", "player-merge", "player-register", "player-search",
    "position-clock", "position-close", "position-detail", "position-generate", "position-list",
    "position-publish", "position-regenerate", "position-reopen", "position-validate",
    "position-who-sits-where",
    "print-arbiter-report", "print-arbiter-report-csv",
    "print-blank-sheets", "print-index", "print-itineraries", "print-ranking", "print-sheet",
    "print-sheets", "print-table-plan", "print-table-plan", "print-who-sits-where",
    "print-who-sits-where", "public-championship", "public-championship-player", "public-club",
    "public-clubs", "public-event", "public-me", "public-person",
    "public-player", "public-player-statistics", "public-players", "public-standings-partial",
    "public-tournament", "ranking", "ranking-player", "registration-reinstate",
    "registration-withdraw", "results-upload", "seat-swap", "set_language", "sheet-crosscheck",
    "sheet-detail",
    "sheet-extra-deal", "sheet-for-table", "sheet-free-create", "sheet-history", "sheet-validate",
    "signup", "signup-confirmation", "signup-settings", "table-call", "table-code",
    "table-confirm", "table-contest", "table-deal-correct", "table-deal-create", "table-entry",
    "table-finish", "table-forget", "table-identify", "table-link-revoke",
    "table-preview", "table-sheet", "table-sw", "team-assign", "team-list", "team-member-remove",
    "tournament-backup", "tournament-create", "tournament-detail", "tournament-edit",
    "tournament-finish", "tournament-list", "tournament-received-versions", "tournament-reopen",
    "tournament-restore", "tournament-send", "tournament-staff", "tournament-staff-remove",
    "tournament-statistics",
]  # fmt: skip


def walk(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if str(pattern.pattern).startswith("admin/"):
                continue
            yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield prefix + str(pattern.pattern), pattern


def is_public(name: str) -> bool:
    return (
        name in PUBLIC
        or name in HALL_SCREEN
        or name in UPLOAD_KEY
        or name.startswith(PUBLIC_PREFIXES + TABLE_LINK_PREFIXES)
    )


def tournament_with_a_sheet(name: str, owner) -> dict:
    club = owner.club_memberships.get().club
    tournament = Tournament.objects.create(
        name=name, date="2026-11-21", is_public=True, owner=owner, host_club=club
    )
    registrations = [
        Registration.objects.create(
            tournament=tournament,
            player=Player.objects.create(last_name=f"{name}{i}", origin_club=club),
            number=i + 1,
        )
        for i in range(4)
    ]
    position = Position.objects.create(tournament=tournament, number=1, status="published")
    table = Table.objects.create(position=position, number=1)
    for direction, registration in zip("NESW", registrations, strict=True):
        Seat.objects.create(table=table, registration=registration, direction=direction)
    sheet = sheet_for_table(table=table)
    deal = deal_record(
        sheet=sheet,
        data={"players": 4, "taker": 0, "contract": "garde", "oudlers": 2, "points": 50},
    )
    Incident.objects.create(
        tournament=tournament, sheet=sheet, registration=registrations[0], kind="other"
    )
    # A season championship of the owner's holding this tournament (its pages are guarded by
    # the championship's organisers, not the tournament's staff).
    championship = Championship.objects.create(
        name=f"Challenge {name}", owner=owner, scale=[3, 2, 1], host_club=club
    )
    championship.tournaments.add(tournament)
    # …and a circuit inviting the owner's club only: an arbiter of another club, not invited,
    # may neither see it nor put a tournament in it.
    championship.participating_clubs.add(club)
    call = TableCall.objects.create(table=table, note="?")
    # What waits at the table before a close (issue 35): a late deal and a phone's unsent deals.
    late = LateDeal.objects.create(table=table, client_id=f"late-{name}", data={"passed": True})
    queue = PhoneQueue.objects.create(table=table, device=name, count=1, reported_at=timezone.now())
    event = Event.objects.create(name=f"Festival {name}", date="2026-11-21", owner=owner)
    upload_key, _key = upload_key_issue(club=club, user=owner)
    return {
        "key": upload_key.pk,
        "club": club.pk,
        "member": owner.club_memberships.get().pk,
        "event": event.pk,
        "call": call.pk,
        "late": late.pk,
        "queue": queue.pk,
        "decision": "accept",
        "tournament": tournament.pk,
        "table": table.pk,
        "sheet": sheet.pk,
        "deal": deal.pk,
        "registration": registrations[0].pk,
        "championship": championship.pk,
        "player": registrations[0].player_id,
        "number": 1,
        "role": 1,
        "code": "ABCD2345",
        "bracket": tournament.pk,
        "session": 1,
        "kind": "cumul",
        "fmt": "pdf",
    }


def account(django_user_model, name: str, *, arbiter: bool = False):
    user = django_user_model.objects.create_user(name, password=f"pw-{name}-1")
    if arbiter:
        user.groups.add(Group.objects.get_or_create(name=ARBITER)[0])
    return user


@pytest.fixture
def people(django_user_model):
    """Owner A of tournament X (administrator of club A), owner B of Y (administrator of club
    B), scorer S of X, scorer T of Y, and an arbiter of club B who runs nothing."""
    people = {
        "owner": account(django_user_model, "proprio", arbiter=True),
        "other_owner": account(django_user_model, "voisin", arbiter=True),
        "scorer": account(django_user_model, "marqueur-x"),
        "other_scorer": account(django_user_model, "marqueur-y"),
        "other_club": account(django_user_model, "arbitre-b", arbiter=True),
    }
    join_club(people["owner"], "Club A", "admin")
    join_club(people["other_owner"], "Club B", "admin")
    join_club(people["other_club"], "Club B", "arbiter")
    return people


@pytest.fixture
def world(people):
    from tournament.models import TournamentRole

    world = tournament_with_a_sheet("Open", people["owner"])
    other = tournament_with_a_sheet("Voisin", people["other_owner"])
    role = TournamentRole.objects.create(
        tournament_id=world["tournament"], user=people["scorer"], role="scorer"
    )
    TournamentRole.objects.create(
        tournament_id=other["tournament"], user=people["other_scorer"], role="scorer"
    )
    world["role"] = role.pk
    # A licence conflict between club A and a third club: club B's people may neither see nor
    # resolve it (issue 27).
    third = Club.objects.create(name="Club C")
    held = Player.objects.create(last_name="Tenu", licence="0412345", origin_club=third)
    again = Player.objects.create(last_name="Vrai", licence="0412345", origin_club_id=world["club"])
    world["conflict"] = LicenceConflict.objects.create(
        licence="0412345",
        existing=held,
        newcomer=again,
        existing_club=third,
        newcomer_club_id=world["club"],
    ).pk
    return world


def url_for(route: str, pattern: URLPattern, world) -> str:
    kwargs = {}
    for key in pattern.pattern.converters:
        if key == "pk":
            if route.startswith("tables/"):
                kwargs[key] = world["table"]
            elif route.startswith(("feuilles/", "api/feuilles/")):
                kwargs[key] = world["sheet"]
            elif route.startswith("donnes/"):
                kwargs[key] = world["deal"]
            elif route.startswith(("championnats/", "public/championnat/")):
                kwargs[key] = world["championship"]
            elif route.startswith(("clubs/", "public/clubs/")):
                kwargs[key] = world["club"]
            elif route.startswith(("epreuves/", "public/epreuves/")):
                kwargs[key] = world["event"]
            elif route.startswith("conflits-licence/"):
                kwargs[key] = world["conflict"]
            elif route.startswith("donnes-tardives/"):
                kwargs[key] = world["late"]
            elif route.startswith("telephones/"):
                kwargs[key] = world["queue"]
            else:
                kwargs[key] = world["tournament"]
        elif key in world:
            kwargs[key] = world[key]
        else:
            raise AssertionError(f"no value for <{key}> in {route}: extend the test's world")
    return reverse(pattern.name, kwargs=kwargs)


@functools.cache
def _every_row() -> RowSnapshot:
    from django.apps import apps

    models = [
        *apps.get_app_config("tournament").get_models(),
        *apps.get_app_config("scoring").get_models(),
    ]
    return RowSnapshot(m.objects.all() for m in models)


def snapshot() -> list:
    """Every row of both apps (each column, the many-to-many pairs too), in pk order."""
    return _every_row()()


def guarded_urls(world):
    for route, pattern in walk(get_resolver().url_patterns):
        if not is_public(pattern.name):
            yield pattern.name, url_for(route, pattern, world)


def tournament_urls(world):
    for name, url in guarded_urls(world):
        if name not in GLOBAL:
            yield name, url


def test_the_walk_finds_every_url_of_the_site():
    assert sorted(pattern.name for _route, pattern in walk(get_resolver().url_patterns)) == (
        URL_NAMES
    )


def test_every_view_asks_the_access_module(world):
    """A view that forgets to ask tournament.access.permissions fails here the day it is added."""
    unchecked = []
    for _route, pattern in walk(get_resolver().url_patterns):
        if is_public(pattern.name) or pattern.name in {"tournament-list", *OWN_ACCOUNT}:
            continue
        if not isinstance(getattr(pattern.callback, "permission", None), Permission):
            unchecked.append(pattern.name)
    assert unchecked == []
    publics = [
        pattern.name
        for _route, pattern in walk(get_resolver().url_patterns)
        if pattern.name.startswith(PUBLIC_PREFIXES)
    ]
    assert sorted(publics) == [
        "public-championship",
        "public-championship-player",
        "public-club",
        "public-clubs",
        "public-event",
        "public-me",
        "public-person",
        "public-player",
        "public-player-statistics",
        "public-players",
        "public-standings-partial",
        "public-tournament",
    ]


def test_the_hall_screen_pages_resolve_their_link_through_the_access_module():
    halls = {
        pattern.name: pattern.callback
        for _route, pattern in walk(get_resolver().url_patterns)
        if pattern.name in HALL_SCREEN
    }
    assert sorted(halls) == sorted(HALL_SCREEN)
    # The hall screen's pages resolve their token through the access module, nothing else.
    assert {getattr(view, "credential", None) for view in halls.values()} == {"hall_token"}


def test_the_results_upload_asks_for_the_clubs_key():
    (view,) = [
        pattern.callback
        for _route, pattern in walk(get_resolver().url_patterns)
        if pattern.name in UPLOAD_KEY
    ]
    assert view.credential == "upload_key"


def test_the_sign_up_pages_ask_the_access_module():
    views = {
        pattern.name: pattern.callback
        for _route, pattern in walk(get_resolver().url_patterns)
        if pattern.name in {"signup", "signup-confirmation"}
    }
    # Open only while the arbiter keeps registration open (404 otherwise)…
    assert views["signup"].permission == Permission.SIGN_UP
    # …and a confirmation only to whoever holds its code.
    assert views["signup-confirmation"].credential == "signup_code"


def test_anonymous_visitors_are_sent_to_the_login_and_change_nothing(client, world):
    """Pages send them to the login page; the JSON API answers 401 in JSON."""
    before = snapshot()
    for name, url in guarded_urls(world):
        for method in (client.get, client.post):
            response = method(url)
            if name.startswith("api-"):
                assert response.status_code in (401, 405), (name, url, response.status_code)
                continue
            assert response.status_code in (302, 403, 405), (name, url, response.status_code)
            if response.status_code == 302:
                assert response["Location"].startswith("/connexion/"), (name, url)
    assert snapshot() == before


def test_logged_in_players_without_a_role_are_refused(client, world, django_user_model):
    client.force_login(django_user_model.objects.create_user("joueur", password="pw-joueur-1"))
    before = snapshot()
    for name, url in guarded_urls(world):
        if name in {"tournament-list", "club-invitations"}:
            continue  # their own list, empty
        for method in (client.get, client.post):
            response = method(url)
            assert response.status_code in (403, 404, 405), (name, url, response.status_code)
    assert snapshot() == before


@pytest.mark.parametrize("who", ["other_owner", "other_scorer", "other_club"])
def test_people_of_another_tournament_can_neither_read_nor_change_this_one(
    client, world, people, who
):
    """Arbiter B (owner of Y, club B's administrator), a scorer of Y and an arbiter of club B,
    on tournament X and club A (its members, its licence conflicts): every GET of its
    non-public data and every POST is refused, and nothing changes in the database."""
    client.force_login(people[who])
    before = snapshot()
    for name, url in tournament_urls(world):
        for method in (client.get, client.post):
            response = method(url)
            assert response.status_code in (403, 404, 405), (name, url, response.status_code)
        api = client.post(url, "{}", content_type="application/json")
        assert api.status_code in (403, 404, 405), (name, url, api.status_code)
    # The global pages answer, but show and create nothing of X.
    listing = client.get(reverse("tournament-list")).content.decode()
    assert "Open" not in listing
    # Club A's circuit is not offered to a club it does not invite.
    assert "Challenge Open" not in client.get(reverse("circuit-list")).content.decode()
    assert (
        client.get(reverse("home")).context["tournaments"].filter(pk=world["tournament"]).count()
        == 0
    )
    for name in ("tournament-create", "tournament-restore"):
        client.post(reverse(name))
    assert snapshot() == before


def test_scorers_cannot_change_what_only_arbiters_may(client, world, people):
    client.force_login(people["scorer"])
    before = snapshot()
    for name, url in tournament_urls(world):
        if name in SCORER_WRITES:
            continue
        response = client.post(url)
        # Refused, or a page the scorer may read that ignores the POST.
        assert response.status_code in (403, 405) or snapshot() == before, (name, url)
    for name in (
        "export-ranking-xlsx",
        "export-ranking-csv",
        "export-deals-xlsx",
        "export-deals-csv",
    ):
        url = reverse(name, args=[world["tournament"]])
        assert client.get(url).status_code == 403, name
    assert client.get(reverse("tournament-backup", args=[world["tournament"]])).status_code == 403
    assert snapshot() == before


def test_the_scorer_of_this_tournament_enters_deals(client, world, people):
    client.force_login(people["scorer"])
    assert client.get(reverse("sheet-detail", args=[world["sheet"]])).status_code == 200
    response = client.post(
        reverse("api-deal-create", args=[world["sheet"]]),
        {"version": 1, "deal": {"passed": True, "dealer": 1}},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content


def test_every_post_needs_a_csrf_token(world, people):
    client = Client(enforce_csrf_checks=True)
    client.force_login(people["owner"])
    before = snapshot()
    for name, url in guarded_urls(world):
        response = client.post(url)
        assert response.status_code in (403, 405), (name, url, response.status_code)
    assert snapshot() == before


# Issue 27's public pages, and the tournament pages they lead to: open to everyone while what
# they show is public, 404 once it is not (a private object's name appears on none of them).
CLUB_PUBLIC_PAGES = ("public-clubs", "public-club", "public-person")
LEADING_TO = ("public-tournament", "public-player", "public-player-statistics")


def public_urls(world, names):
    for route, pattern in walk(get_resolver().url_patterns):
        if pattern.name in names:
            yield pattern.name, url_for(route, pattern, world)


def test_the_clubs_public_pages_answer_everyone_and_404_once_private(
    client, world, people, django_user_model
):
    names = CLUB_PUBLIC_PAGES + LEADING_TO
    visitors = [None, account(django_user_model, "joueur"), people["other_club"]]
    for visitor in visitors:
        client.logout()
        if visitor is not None:
            client.force_login(visitor)
        for name, url in public_urls(world, names):
            response = client.get(url)
            assert response.status_code == 200, (name, url, visitor)
    # Club A's only public tournament, "Open", made private (its championship is private too).
    Tournament.objects.filter(pk=world["tournament"]).update(is_public=False)
    Championship.objects.filter(pk=world["championship"]).update(is_public=True)
    for visitor in visitors:
        client.logout()
        if visitor is not None:
            client.force_login(visitor)
        for name, url in public_urls(world, names):
            response = client.get(url)
            if name in ("public-clubs", "public-club"):
                # The club still publishes its championship: its page answers, without the
                # tournament "Open" (the championship's name, "Challenge Open", aside).
                assert response.status_code == 200, (name, url, visitor)
                assert "Challenge Open" in response.text or name == "public-clubs"
                assert "Open" not in response.text.replace("Challenge Open", ""), name
            else:
                assert response.status_code == 404, (name, url, visitor)
    # With nothing public left, club A has no page and is not listed.
    Championship.objects.filter(pk=world["championship"]).update(is_public=False)
    assert client.get(reverse("public-club", args=[world["club"]])).status_code == 404
    listing = client.get(reverse("public-clubs")).text
    assert "Club A" not in listing and "Club B" in listing
