"""The arbiter's cockpit: the position in play and its clock, every table's sheet, what waits for
a decision, the leaders and the next actions, live with an ETag, in a constant number of queries."""

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Deal, Incident, ScoreSheet
from scoring.sheets.services import deal_record, sheet_for_table, sheet_validate
from tests.desk_helpers import DEALS_004, NAMES_004, deal_post, make_tournament, table_sheet
from tests.examples_004 import engine_deals
from tournament.evening import clock
from tournament.models import Position, Seat, Table

pytestmark = pytest.mark.django_db


# What the desk's form hands to deal_record for each of 004's typed deals (DEALS_004) on a seated
# table (N, E, S, W), beside the dealer: the fixtures below record them through the service the
# sheet page calls, without the HTTP round trip (the page's own posts are tested elsewhere and
# once here, in test_the_live_part_answers_304_until_something_changes).
FORM_DEFAULTS = {
    "players": 4,
    "arbiter_called": False,
    "passed": False,
    "cancelled": False,
    "dead": None,
    "partner": None,
    "alone": "",
    "poignees": [],
    "petit_au_bout": None,
    "chelem": None,
    "chelem_announced": False,
}
DESK_DEALS = [{**FORM_DEFAULTS, **deal} for deal in engine_deals("NESW")]


def desk_sheet(position: Position, number: int) -> ScoreSheet:
    """The table's sheet as the desk's "open the sheet" button makes it (sheet-for-table)."""
    return sheet_for_table(table=position.tables.get(number=number))


def desk_deals(sheet: ScoreSheet, count: int, user) -> None:
    """004's first `count` deals, typed at the desk by `user` on the sheet (as deal_post)."""
    for data in DESK_DEALS[:count]:
        sheet.refresh_from_db()
        last = sheet.deals.order_by("-number").first()
        dealer = 0 if last is None else (last.dealer - 1) % sheet.players.count()
        deal_record(
            sheet=sheet, data={**data, "dealer": dealer}, user=user, expected_version=sheet.version
        )


def add_draft(position: Position) -> Position:
    """Position 2 in draft: the same players, seated by rotating them one table on."""
    draft = Position.objects.create(tournament=position.tournament, number=2)
    tables = list(position.tables.order_by("number"))
    for index, table in enumerate(tables):
        new = Table.objects.create(position=draft, number=table.number)
        source = tables[(index + 1) % len(tables)]
        for seat in source.seats.all():
            Seat.objects.create(table=new, registration=seat.registration, direction=seat.direction)
    return draft


@pytest.fixture
def evening(arbiter_client, arbiter):
    """Position 1 published with four tables: one validated, one complete, one under way and
    one missing; position 2 drafted. The deals are the arbiter's, typed at the desk."""
    tournament, position = make_tournament(tables=4, names=NAMES_004)
    sheets = [desk_sheet(position, n) for n in (1, 2, 3)]
    for sheet in sheets[:2]:
        desk_deals(sheet, 5, arbiter)
    desk_deals(sheets[2], 2, arbiter)
    sheets[0].refresh_from_db()
    sheet_validate(sheet=sheets[0], expected_version=sheets[0].version)
    add_draft(position)
    return tournament, position, sheets


def cockpit(client, tournament) -> str:
    response = client.get(reverse("tournament-detail", args=[tournament.pk]))
    assert response.status_code == 200
    return response.content.decode()


def tile(html: str, number: int) -> str:
    match = re.search(rf'<li class="tile ([^"]*)" id="tile-{number}">', html)
    assert match, f"no tile for table {number}"
    return match.group(1)


def test_every_table_of_the_position_in_play_shows_its_sheet_state(arbiter_client, evening):
    tournament, _position, _sheets = evening
    html = cockpit(arbiter_client, tournament)
    assert "Position 1 en cours" in html
    assert "state-validated" in tile(html, 1)
    assert "state-complete" in tile(html, 2)
    assert "state-in_progress" in tile(html, 3)
    assert "state-missing" in tile(html, 4)
    assert "Manquante : 1" in html and "Validée : 1" in html


def test_a_deal_entered_on_a_phone_waits_for_confirmation_on_the_cockpit(arbiter_client, evening):
    tournament, _position, sheets = evening
    Deal.objects.filter(sheet=sheets[2], number=2).update(pending=True)
    html = cockpit(arbiter_client, tournament)
    assert "state-waiting" in tile(html, 3)
    waiting = html.split('id="cockpit-waiting"')[1].split("</section>")[0]
    assert "Table 3 : 1 donne saisie au téléphone à confirmer" in waiting
    Deal.objects.filter(sheet=sheets[2]).update(pending=True)
    count = Deal.objects.filter(sheet=sheets[2]).count()
    assert count > 1
    html = cockpit(arbiter_client, tournament)
    waiting = html.split('id="cockpit-waiting"')[1].split("</section>")[0]
    assert f"Table 3 : {count} donnes saisies au téléphone à confirmer" in waiting


def test_the_desk_counts_deals_to_confirm_apart_from_contested_ones(arbiter_client, evening):
    """A contested deal is not one waiting for confirmation: the overview says "À confirmer
    (1)" and "contestée (1)", and the cockpit lists each apart."""
    tournament, position, sheets = evening
    deals = list(Deal.objects.filter(sheet=sheets[2]).order_by("number"))
    assert len(deals) >= 2
    Deal.objects.filter(pk=deals[0].pk).update(pending=True)
    Deal.objects.filter(pk=deals[1].pk).update(pending=True, disputed=True)
    url = reverse("entry-overview", args=[tournament.pk, position.number])
    html = arbiter_client.get(url).content.decode()
    row = html.split('id="table-3"')[1].split("</tr>")[0]
    assert "À confirmer (1)" in row and "contestée (1)" in row, row
    waiting = cockpit(arbiter_client, tournament).split('id="cockpit-waiting"')[1]
    waiting = waiting.split("</section>")[0]
    assert "Table 3 : 1 donne saisie au téléphone à confirmer" in waiting
    assert "Table 3 : 1 donne contestée à trancher" in waiting


def test_incidents_without_a_decision_wait_for_the_arbiter(arbiter_client, evening):
    tournament, _position, sheets = evening
    culprit = sheets[2].players.get(seat=0).registration
    on_table_3 = {"tournament": tournament, "sheet": sheets[2], "registration": culprit}
    Incident.objects.create(kind="carte_exposee", **on_table_3)
    Incident.objects.create(kind="hors_tour", decision="Avertissement", **on_table_3)
    waiting = cockpit(arbiter_client, tournament).split('id="cockpit-waiting"')[1]
    waiting = waiting.split("</section>")[0]
    assert "Incident sans décision : Carte exposée" in waiting
    assert "position 1, table 3" in waiting
    assert "Jeu hors tour" not in waiting  # decided


def test_the_leaders_are_those_of_the_standings(arbiter_client, evening):
    tournament, _position, _sheets = evening
    top = cockpit(arbiter_client, tournament).split('id="cockpit-top"')[1].split("</section>")[0]
    # 004's bilans: DUPONT (Sud) +1346 at table 1; the same deals at table 2 (JOUEUR6 sits Sud).
    assert re.search(r"<td class=\"num\">1=</td><td>DUPONT</td><td class=\"num\">1346</td>", top)
    assert "JOUEUR6" in top


def test_the_next_actions_publish_print_and_close(arbiter_client, evening):
    tournament, _position, _sheets = evening
    html = cockpit(arbiter_client, tournament)
    actions = html.split('id="next-actions"')[1].split("</div>")[0]
    assert reverse("position-publish", args=[tournament.pk, 2]) in actions
    assert reverse("position-close", args=[tournament.pk, 1]) in actions
    assert reverse("print-table-plan", args=[tournament.pk, 2]) in actions
    assert reverse("print-blank-sheets", args=[tournament.pk, 2]) in actions
    assert reverse("print-table-plan", args=[tournament.pk, 1]) in actions
    assert "1 feuille manquante" in actions


def test_a_table_number_opens_its_sheet(arbiter_client, evening):
    tournament, position, _sheets = evening
    html = cockpit(arbiter_client, tournament)
    urls = re.search(r"data-urls='([^']*)'", html).group(1)
    table4 = position.tables.get(number=4)
    assert f'"4": "{reverse("sheet-for-table", args=[table4.pk])}"' in urls
    assert 'id="cockpit-jump"' in html


def test_the_settings_read_as_sentences(arbiter_client, evening):
    tournament, _position, _sheets = evening
    html = cockpit(arbiter_client, tournament)
    settings = html.split('id="settings"')[1].split("</details>")[0]
    assert "5 donnes par table de 4" in settings
    assert "5 par table de 5" in settings
    assert "table de 4 5" not in settings


def test_the_clock_shows_once_started(arbiter_client, evening):
    tournament, position, _sheets = evening
    html = cockpit(arbiter_client, tournament)
    assert "Horloge non lancée (50 minutes)" in html
    assert "Lancer l'horloge (50 min)" in html
    response = arbiter_client.post(
        reverse("position-clock", args=[tournament.pk, 1]), {"action": "start"}
    )
    assert response.status_code == 302
    html = cockpit(arbiter_client, tournament)
    running = re.search(r'id="position-clock" class="clock running" data-remaining="(\d+)"', html)
    assert running and 2990 <= int(running.group(1)) <= 3000
    for action, minutes in (("pause", ""), ("add", "5"), ("resume", "")):
        arbiter_client.post(
            reverse("position-clock", args=[tournament.pk, 1]),
            {"action": action, "minutes": minutes},
        )
    position.refresh_from_db()
    state = clock.state_of(position)
    assert state.running and 3280 <= state.remaining <= 3300


def test_a_refused_clock_action_says_why(arbiter_client, evening):
    tournament, _position, _sheets = evening
    response = arbiter_client.post(
        reverse("position-clock", args=[tournament.pk, 1]), {"action": "pause"}, follow=True
    )
    assert "L&#x27;horloge ne tourne pas" in response.content.decode()
    response = arbiter_client.post(
        reverse("position-clock", args=[tournament.pk, 2]), {"action": "start"}, follow=True
    )
    assert "n&#x27;est pas publiée" in response.content.decode()


def test_the_live_part_answers_304_until_something_changes(arbiter_client, evening):
    tournament, _position, sheets = evening
    url = reverse("cockpit-live", args=[tournament.pk])
    first = arbiter_client.get(url)
    assert first.status_code == 200
    assert "no-store" in first["Cache-Control"]
    assert first["X-Position-Clock"] == "null" or first["X-Position-Clock"].startswith("{")
    etag = first["ETag"]
    again = arbiter_client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert json.loads(again["X-Position-Clock"]) == {
        "position": 1,
        "remaining": 0,
        "running": False,
        "paused": False,
    }
    deal_post(arbiter_client, sheets[3 - 1], DEALS_004[2])
    changed = arbiter_client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    # A clock started: the live part changes and the header carries the seconds left.
    arbiter_client.post(reverse("position-clock", args=[tournament.pk, 1]), {"action": "start"})
    started = arbiter_client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"])
    assert started.status_code == 200
    assert '"running": true' in started["X-Position-Clock"]
    # The page itself knows the version it shows, so the first poll is a 304.
    page = cockpit(arbiter_client, tournament)
    shown = re.search(r'data-etag="([^"]+)"', page).group(1)
    assert arbiter_client.get(url, HTTP_IF_NONE_MATCH=f'"{shown}"').status_code == 304


def test_anonymous_visitors_are_sent_to_log_in(evening):
    tournament, _position, _sheets = evening
    client = Client()
    for name in ("tournament-detail", "cockpit-live"):
        response = client.get(reverse(name, args=[tournament.pk]))
        assert response.status_code == 302 and response["Location"].startswith("/connexion/")


def test_a_scorer_sees_the_cockpit_but_neither_the_clock_nor_the_hall_controls(scorer, evening):
    tournament, position, _sheets = evening
    client = Client()
    client.force_login(scorer)
    html = cockpit(client, tournament)
    assert "state-validated" in tile(html, 1)
    assert 'id="clock-controls"' not in html
    assert 'id="hall"' not in html
    assert reverse("position-publish", args=[tournament.pk, 2]) not in html
    for name, args, data in (
        ("position-clock", [tournament.pk, 1], {"action": "start"}),
        ("hall-link-create", [tournament.pk], {}),
        ("hall-link-revoke", [tournament.pk], {}),
        ("hall-announcement", [tournament.pk], {"hall_announcement": "Bonjour"}),
    ):
        assert client.post(reverse(name, args=args), data).status_code == 403, name
    position.refresh_from_db()
    tournament.refresh_from_db()
    assert position.clock_ends_at is None
    assert tournament.hall_token is None and tournament.hall_announcement == ""


def filled(user, tables: int):
    tournament, position = make_tournament(tables=tables, name=f"Tournoi {tables}")
    sheets = [desk_sheet(position, n) for n in range(1, tables + 1)]
    for sheet in sheets:
        desk_deals(sheet, 3, user)
    Deal.objects.filter(sheet=sheets[-1], number=3).update(pending=True)
    sheets[0].refresh_from_db()
    sheet_validate(sheet=sheets[0], expected_version=sheets[0].version)
    culprit = sheets[-1].players.first().registration
    Incident.objects.create(
        tournament=tournament, sheet=sheets[-1], kind="other", registration=culprit
    )
    add_draft(position)
    clock.clock_start(position=position)
    return tournament


@pytest.mark.parametrize("name", ["tournament-detail", "cockpit-live"])
def test_the_cockpit_costs_the_same_queries_for_2_and_12_tables(
    arbiter_client, arbiter, django_assert_max_num_queries, name
):
    counts = []
    for tables in (2, 12):
        tournament = filled(arbiter, tables)
        url = reverse(name, args=[tournament.pk])
        with CaptureQueriesContext(connection) as ctx:
            assert arbiter_client.get(url).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]
    with django_assert_max_num_queries(40):
        arbiter_client.get(url)


def test_the_position_length_is_a_setting_kept_by_backups(arbiter_client, arbiter):
    from scoring.documents import backup
    from tests.tournament.players.test_registration_tournament import SETTINGS
    from tournament.models import Tournament

    tournament = Tournament.objects.create(name="Open", date="2026-11-21")
    url = reverse("tournament-edit", args=[tournament.pk])
    page = arbiter_client.get(url).content.decode()
    assert "Durée d&#x27;une position (minutes)" in page or "Durée d'une position" in page
    response = arbiter_client.post(url, SETTINGS | {"position_minutes": "45"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.position_minutes == 45
    assert "Lancer l'horloge" not in cockpit(arbiter_client, tournament)  # nothing published
    assert "45 minutes par position" in cockpit(arbiter_client, tournament)
    refused = arbiter_client.post(url, SETTINGS | {"position_minutes": "0"})
    assert refused.status_code == 200
    assert "Entre 1 et 600 minutes." in refused.content.decode()
    # Left out (an older form, a script), the length stays what it was.
    assert arbiter_client.post(url, SETTINGS).status_code == 302
    tournament.refresh_from_db()
    assert tournament.position_minutes == 45
    restored = backup.tournament_import(backup.tournament_export_json(tournament), user=arbiter)
    assert restored.position_minutes == 45


def test_team_tournaments_show_the_leading_teams_too(arbiter_client):
    from tournament.models import Team

    tournament, position = make_tournament(tables=1, names=NAMES_004, format="duo")
    seats = {s.direction: s.registration for s in Seat.objects.filter(table__position=position)}
    for name, directions in (("Les Nordistes", "NE"), ("Les Sudistes", "SW")):
        team = Team.objects.create(tournament=tournament, name=name)
        for direction in directions:
            seats[direction].team = team
            seats[direction].save()
    sheet = table_sheet(arbiter_client, position, 1)
    for fields in DEALS_004:
        deal_post(arbiter_client, sheet, fields)
    top = cockpit(arbiter_client, tournament).split('id="cockpit-top"')[1].split("</section>")[0]
    # Sud (+1346) and Ouest (−510) against Nord (−446) and Est (−390).
    assert re.search(
        r"<td class=\"num\">1</td><td>Les Sudistes</td><td class=\"num\">836</td>", top
    )
    assert "Les Nordistes" in top


def test_a_finished_tournament_shows_its_last_position_closed_and_offers_to_reopen(
    arbiter_client, evening
):
    from tournament.access.lifecycle import tournament_finish

    tournament, _position, _sheets = evening
    tournament_finish(tournament=tournament)
    html = cockpit(arbiter_client, tournament)
    assert "Position 1 close" in html
    assert 'id="position-clock"' not in html
    assert 'id="tournament-reopen"' in html
    assert reverse("position-close", args=[tournament.pk, 1]) not in html
    assert reverse("position-publish", args=[tournament.pk, 2]) not in html
