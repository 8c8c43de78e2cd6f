"""Results nobody can change who shouldn't: one test per reproduction of the trust issue.

Each test replays over HTTP what a hostile but logged-in user did on the old main, and checks
that it is now refused and that nothing changed.
"""

import html
import json

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from scoring.live.standings import standings_for
from scoring.models import Deal, Incident, ScoreSheet
from scoring.sheets.services import deal_record
from tests.club_helpers import join_club
from tests.desk_helpers import DEALS_004, NAMES_004, deal_post, make_tournament, table_sheet
from tournament.access.roles import ARBITER
from tournament.models import ChangeLog, Position, Registration, Tournament, TournamentRole

pytestmark = pytest.mark.django_db

GARDE = {"taker": 2, "contract": "garde", "oudlers": 2, "points": 49, "petit_au_bout": "attack"}


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def arbiter_account(django_user_model, name: str):
    user = django_user_model.objects.create_user(name, password=f"pw-{name}-1")
    user.groups.add(Group.objects.get_or_create(name=ARBITER)[0])
    join_club(user)
    return user


@pytest.fixture
def owner(django_user_model):
    return arbiter_account(django_user_model, "arbitre-b")


@pytest.fixture
def intruder(django_user_model):
    """Arbiter A: runs tournaments of their own, not B's."""
    return arbiter_account(django_user_model, "arbitre-a")


@pytest.fixture
def full_sheet(owner):
    """B's tournament: the 004 sheet with its five deals typed by B."""
    tournament, position = make_tournament(names=NAMES_004, owner=owner, is_public=True)
    client = login(owner)
    sheet = table_sheet(client, position)
    for fields in DEALS_004:
        assert deal_post(client, sheet, fields).status_code == 200
    sheet.refresh_from_db()
    return sheet


def api_post(client, sheet, body):
    return client.post(
        reverse("api-deal-create", args=[sheet.pk]),
        json.dumps(body) if not isinstance(body, (bytes, str)) else body,
        content_type="application/json",
    )


def public_totals(tournament) -> dict[int, int]:
    standings = standings_for(Tournament.objects.get(pk=tournament.pk), public=True)
    return {r.row.key: r.row.total for r in standings.players}


# --- any arbiter ran every tournament ------------------------------------------------------


def test_another_arbiter_cannot_run_this_tournament(full_sheet, intruder):
    tournament = full_sheet.tournament
    registration = tournament.registrations.first()
    deal = full_sheet.deals.first()
    client = login(intruder)
    before_changes = ChangeLog.objects.count()
    attempts = [
        (reverse("tournament-edit", args=[tournament.pk]), {"name": "Piraté", "is_public": "on"}),
        (reverse("player-register", args=[tournament.pk]), {"last_name": "Intrus"}),
        (reverse("registration-withdraw", args=[tournament.pk, registration.pk]), {}),
        (reverse("penalty-settings", args=[tournament.pk]), {"kind_other": "500"}),
        (reverse("sheet-validate", args=[full_sheet.pk]), {"validated": "1", "version": 5}),
        (reverse("deal-delete", args=[deal.pk]), {"version": full_sheet.version}),
        (reverse("tournament-finish", args=[tournament.pk]), {}),
        (reverse("tournament-staff", args=[tournament.pk]), {"username": "arbitre-a"}),
    ]
    for url, data in attempts:
        assert client.post(url, data).status_code == 403, url
    assert api_post(client, full_sheet, {"version": 5, "deal": GARDE}).status_code == 403
    for name in ("export-ranking-xlsx", "export-deals-xlsx", "export-deals-csv", "print-ranking",
                 "tournament-backup", "print-itineraries"):  # fmt: skip
        assert client.get(reverse(name, args=[tournament.pk])).status_code == 403, name
    assert client.get(reverse("print-sheet", args=[full_sheet.pk])).status_code == 403
    tournament.refresh_from_db()
    assert tournament.name == "Tournoi test"
    assert full_sheet.deals.count() == 5
    assert Incident.objects.count() == 0
    assert tournament.registrations.filter(status=Registration.Status.WITHDRAWN).count() == 0
    assert ChangeLog.objects.count() == before_changes
    assert not TournamentRole.objects.exists()


def test_lists_show_only_the_users_tournaments(full_sheet, intruder):
    mine = Tournament.objects.create(name="Le mien", date="2026-11-21", owner=intruder)
    client = login(intruder)
    listing = client.get(reverse("tournament-list")).content.decode()
    assert "Le mien" in listing and "Tournoi test" not in listing
    assert list(client.get(reverse("home")).context["tournaments"]) == [mine]


def test_the_owner_names_a_co_arbiter_who_then_runs_the_tournament(full_sheet, owner, intruder):
    tournament = full_sheet.tournament
    response = login(owner).post(
        reverse("tournament-staff", args=[tournament.pk]),
        {"username": "arbitre-a", "role": "arbiter"},
    )
    assert response.status_code == 302
    entry = TournamentRole.objects.get(tournament=tournament, user=intruder)
    assert entry.role == "arbiter"
    assert ChangeLog.objects.filter(object_type="tournamentrole", action="create").exists()
    co = login(intruder)
    assert co.get(reverse("export-deals-csv", args=[tournament.pk])).status_code == 200
    # A co-arbiter runs the tournament but does not name people.
    staff_url = reverse("tournament-staff", args=[tournament.pk])
    assert co.get(staff_url).status_code == 403
    remove = reverse("tournament-staff-remove", args=[tournament.pk, entry.pk])
    assert login(owner).post(remove).status_code == 302
    assert co.get(reverse("export-deals-csv", args=[tournament.pk])).status_code == 403


def test_an_unknown_account_cannot_be_named(full_sheet, owner):
    response = login(owner).post(
        reverse("tournament-staff", args=[full_sheet.tournament_id]),
        {"username": "personne", "role": "scorer"},
    )
    assert response.status_code == 400
    assert "Ce nom d'utilisateur ne peut pas être nommé" in html.unescape(response.text)
    assert not TournamentRole.objects.exists()


# --- validated sheets, closed positions and finished tournaments ------------------------------


def test_a_sixth_deal_on_a_validated_sheet_of_a_finished_tournament_is_refused(full_sheet, owner):
    client = login(owner)
    tournament = full_sheet.tournament
    assert (
        client.post(
            reverse("sheet-validate", args=[full_sheet.pk]),
            {"validated": "1", "version": full_sheet.version},
        ).status_code
        == 302
    )
    assert client.post(reverse("tournament-finish", args=[tournament.pk])).status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    before = public_totals(tournament)
    full_sheet.refresh_from_db()
    response = api_post(client, full_sheet, {"version": full_sheet.version, "deal": GARDE})
    assert response.status_code == 409
    assert "terminé" in response.json()["error"]
    full_sheet.refresh_from_db()
    assert full_sheet.deals.count() == 5
    assert full_sheet.status == ScoreSheet.Status.VALIDATED
    assert public_totals(tournament) == before


def test_a_validated_sheet_refuses_every_change_until_unvalidated_with_a_reason(full_sheet, owner):
    client = login(owner)
    client.post(
        reverse("sheet-validate", args=[full_sheet.pk]),
        {"validated": "1", "version": full_sheet.version},
    )
    full_sheet.refresh_from_db()
    version = full_sheet.version
    deal = full_sheet.deals.get(number=3)
    scores = list(deal.scores)
    typed = {**DEALS_004[2], "points": "56", "version": version, "dealer": deal.dealer}
    edit = client.post(reverse("deal-edit", args=[deal.pk]), typed, HTTP_HX_REQUEST="true")
    assert "validée" in edit.content.decode()
    client.post(reverse("deal-delete", args=[deal.pk]), {"version": version})
    client.post(
        reverse("deal-adjust", args=[deal.pk]),
        {"version": version, "score_0": "10", "score_1": "-10", "score_2": "0", "score_3": "0",
         "reason": "essai"},
    )  # fmt: skip
    client.post(
        reverse("sheet-crosscheck", args=[full_sheet.pk]),
        {"version": version, "bilan_0": "1", "bilan_1": "-1", "bilan_2": "0", "bilan_3": "0"},
    )
    client.post(
        reverse("incident-create", args=[full_sheet.tournament_id]) + f"?sheet={full_sheet.pk}",
        {"kind": "other", "sheet": full_sheet.pk, "penalty_points": "20",
         "registration": full_sheet.players.first().registration_id},
    )  # fmt: skip
    full_sheet.refresh_from_db()
    deal.refresh_from_db()
    assert full_sheet.version == version
    assert full_sheet.deals.count() == 5 and deal.scores == scores and not deal.adjusted
    assert full_sheet.paper_bilans is None
    assert not Incident.objects.exists()
    # Un-validating needs a reason, and is logged as a reopening.
    no_reason = client.post(
        reverse("sheet-validate", args=[full_sheet.pk]), {"validated": "0", "version": version}
    )
    assert "Indiquez pourquoi" in no_reason.content.decode()
    full_sheet.refresh_from_db()
    assert full_sheet.status == ScoreSheet.Status.VALIDATED
    client.post(
        reverse("sheet-validate", args=[full_sheet.pk]),
        {"validated": "0", "version": version, "reason": "erreur de report donne 3"},
    )
    full_sheet.refresh_from_db()
    assert full_sheet.status == ScoreSheet.Status.IN_PROGRESS
    log = ChangeLog.objects.get(sheet=full_sheet, action=ChangeLog.Action.REOPEN)
    assert log.username == "arbitre-b"
    assert log.after == {"status": "in_progress", "reason": "erreur de report donne 3"}
    typed["version"] = full_sheet.version
    client.post(reverse("deal-edit", args=[deal.pk]), typed)
    deal.refresh_from_db()
    assert deal.scores == [-60, -60, 180, -60]


def test_a_closed_position_refuses_writes_until_reopened_with_a_reason(full_sheet, owner):
    client = login(owner)
    tournament = full_sheet.tournament
    client.post(reverse("position-close", args=[tournament.pk, 1]))
    assert Position.objects.get(tournament=tournament, number=1).status == "closed"
    deal = full_sheet.deals.get(number=1)
    response = client.post(reverse("deal-delete", args=[deal.pk]), {"version": full_sheet.version})
    assert "close" in response.content.decode()
    assert full_sheet.deals.count() == 5
    client.post(reverse("position-reopen", args=[tournament.pk, 1]), {"reason": ""})
    assert Position.objects.get(tournament=tournament, number=1).status == "closed"
    client.post(reverse("position-reopen", args=[tournament.pk, 1]), {"reason": "donne oubliée"})
    assert Position.objects.get(tournament=tournament, number=1).status == "published"
    log = ChangeLog.objects.get(object_type="position", action=ChangeLog.Action.REOPEN)
    assert log.after["reason"] == "donne oubliée" and log.username == "arbitre-b"
    full_sheet.refresh_from_db()  # closing moved the version: pages opened before must reload
    client.post(reverse("deal-delete", args=[deal.pk]), {"version": full_sheet.version})
    assert full_sheet.deals.count() == 4


def test_a_finished_tournament_refuses_registrations_and_settings_until_reopened(full_sheet, owner):
    client = login(owner)
    tournament = full_sheet.tournament
    client.post(reverse("tournament-finish", args=[tournament.pk]))
    count = tournament.registrations.count()
    client.post(reverse("player-register", args=[tournament.pk]), {"last_name": "Tardif"})
    client.post(reverse("penalty-settings", args=[tournament.pk]), {"kind_other": "50"})
    assert tournament.registrations.count() == count
    tournament.refresh_from_db()
    assert tournament.penalty_defaults == {}
    client.post(reverse("tournament-reopen", args=[tournament.pk]), {"reason": "réclamation"})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert ChangeLog.objects.filter(
        object_type="tournament", action=ChangeLog.Action.REOPEN, after__reason="réclamation"
    ).exists()


def test_a_full_sheet_takes_a_sixth_deal_only_when_the_arbiter_allows_it(full_sheet, owner):
    client = login(owner)
    response = api_post(client, full_sheet, {"version": full_sheet.version, "deal": GARDE})
    assert response.status_code == 400
    assert response.json()["field"] == "number"
    assert "5 donnes" in response.json()["error"]
    assert full_sheet.deals.count() == 5
    client.post(reverse("sheet-extra-deal", args=[full_sheet.pk]), {"version": full_sheet.version})
    full_sheet.refresh_from_db()
    assert full_sheet.extra_deals == 1
    response = api_post(client, full_sheet, {"version": full_sheet.version, "deal": GARDE})
    assert response.status_code == 201
    assert full_sheet.deals.count() == 6


# --- the API trusted its body ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "field"),
    [
        ({**GARDE, "players": 3}, "players"),
        ({**GARDE, "players": 5}, "players"),
        ({**GARDE, "players": "4"}, "players"),
        ({**GARDE, "players": 1e6}, "players"),
        ({**GARDE, "dealer": "x"}, "dealer"),
        ({**GARDE, "dealer": 7}, "dealer"),
        ({**GARDE, "passed": "yes"}, "passed"),
        ({**GARDE, "dead": 1}, "dead"),
        ({**GARDE, "sneaky": 1}, "sneaky"),
        ({**GARDE, "points": 1e308}, "points"),
    ],
)
def test_the_api_refuses_a_deal_the_sheet_cannot_hold(owner, deal, field):
    _tournament, position = make_tournament(owner=owner)
    client = login(owner)
    sheet = table_sheet(client, position)
    response = api_post(client, sheet, {"version": 0, "deal": deal})
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert sheet.deals.count() == 0
    # The pages that answered 500 after such a deal still answer.
    assert client.get(reverse("sheet-detail", args=[sheet.pk])).status_code == 200
    assert client.get(reverse("print-sheet", args=[sheet.pk])).status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        "[" * 20_000 + "]" * 20_000,
        '{"version": 0, "deal": ' + "[" * 20_000 + "]" * 20_000 + "}",
        '{"deal": {"taker": 2, "contract": "garde", "oudlers": 2, "points": 49}}',
        '{"version": "0", "deal": {}}',
        '{"version": 0, "deal": []}',
        '{"version": 0, "deal": {"passed": true}, "extra": 1}',
        '{"version": NaN, "deal": {}}',
        b"\xff\xfe\x00",
        "",
    ],
)
def test_malformed_api_bodies_are_a_400_naming_the_field(owner, body):
    _tournament, position = make_tournament(owner=owner)
    client = login(owner)
    sheet = table_sheet(client, position)
    response = api_post(client, sheet, body)
    assert response.status_code == 400
    assert set(response.json()) == {"field", "error"}
    assert sheet.deals.count() == 0


def test_a_delete_without_version_is_refused(full_sheet, owner):
    deal = full_sheet.deals.get(number=1)
    response = login(owner).post(reverse("deal-delete", args=[deal.pk]), {})
    assert response.status_code == 200
    assert "Conflit" in response.content.decode()
    assert Deal.objects.filter(pk=deal.pk).exists()


# --- settings, GET and the deal engine gate ------------------------------------------------


def test_lowering_the_number_of_positions_never_deletes_typed_sheets(owner):
    tournament, _position = make_tournament(owner=owner, positions_count=3)
    draft = Position.objects.create(tournament=tournament, number=2)
    table = draft.tables.create(number=1)
    first = Position.objects.get(tournament=tournament, number=1).tables.get()
    for seat in first.seats.all():
        table.seats.create(registration=seat.registration, direction=seat.direction)
    from scoring.sheets.services import sheet_for_table

    deal_record(sheet=sheet_for_table(table=table), data={"players": 4, "passed": True})
    client = login(owner)
    form = client.get(reverse("tournament-edit", args=[tournament.pk])).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k != "tie_breaks"}
    data.update(date="2008-08-15", positions_count=1)
    response = client.post(reverse("tournament-edit", args=[tournament.pk]), data)
    assert response.status_code == 200
    assert "La position 2 a déjà des donnes saisies" in response.content.decode()
    assert Position.objects.filter(pk=draft.pk).exists()
    tournament.refresh_from_db()
    assert tournament.positions_count == 3


def test_opening_a_table_with_get_creates_nothing(owner):
    _tournament, position = make_tournament(owner=owner)
    table = position.tables.get()
    client = login(owner)
    response = client.get(reverse("sheet-for-table", args=[table.pk]))
    assert response.status_code == 200
    assert "Ouvrir la feuille" in response.content.decode()
    assert not ScoreSheet.objects.exists()
    assert client.post(reverse("sheet-for-table", args=[table.pk])).status_code == 302
    assert ScoreSheet.objects.filter(table=table).count() == 1
    # Opening it again goes to the same sheet.
    again = client.get(reverse("sheet-for-table", args=[table.pk]))
    assert again.status_code == 302 and ScoreSheet.objects.count() == 1


def test_settings_changes_are_logged_with_before_and_after(owner):
    tournament, _position = make_tournament(owner=owner)
    client = login(owner)
    form = client.get(reverse("tournament-edit", args=[tournament.pk])).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k != "tie_breaks"}
    data.update(date="2008-08-15", rule_set="fft", tie_breaks=["fewest_penalties"])
    assert client.post(reverse("tournament-edit", args=[tournament.pk]), data).status_code == 302
    log = ChangeLog.objects.get(object_type="tournament", action="update")
    assert log.before == {"tie_breaks": []}
    assert log.after == {"tie_breaks": ["fewest_penalties"]}
    assert log.username == "arbitre-b"


def test_the_owner_cannot_create_a_scorer_account(full_sheet, owner):
    """Only superusers create accounts (more: tests/tournament/access/test_staff_accounts.py)."""
    from django.contrib.auth import get_user_model

    url = reverse("tournament-staff", args=[full_sheet.tournament_id])
    response = login(owner).post(
        url, {"username": "marqueuse", "role": "scorer", "password": "soiree-du-club-42"}
    )
    assert response.status_code == 400
    assert not get_user_model().objects.filter(username="marqueuse").exists()
    # Nor set an existing account's password through this page.
    again = login(owner).post(
        url, {"username": "arbitre-a", "role": "scorer", "password": "autre-mot-de-passe-9"}
    )
    assert again.status_code == 400


def test_a_nul_character_in_a_query_string_is_a_400_naming_the_parameter(full_sheet, owner):
    client = login(owner)
    for url in (
        reverse("player-search") + "?q=DU%00PONT",
        reverse("incident-list", args=[full_sheet.tournament_id]) + "?kind=%00",
        reverse("public-tournament", args=[full_sheet.tournament_id]) + "?q=a%00",
    ):
        response = client.get(url)
        assert response.status_code == 400, url
        assert "caractère nul interdit" in response.content.decode()
