"""Hostile or broken backup files: each is refused with a French message naming the problem,
writes nothing, and never answers a 500. Who did what is never taken from a file."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from scoring.documents.backup import BackupError, tournament_export, tournament_import
from scoring.documents.backup import document as backup_document
from scoring.models import Deal, DealScore, Incident
from tests.report_builders import adjust_and_report, build_tournament
from tests.scoring.documents.backup.test_backup_restore import restore_upload
from tournament.models import ChangeLog, Player, Registration, Tournament

pytestmark = pytest.mark.django_db

UNREADABLE = "n'est pas une sauvegarde lisible"
MODELS = (Tournament, Player, Registration, Deal, DealScore, Incident, ChangeLog)


@pytest.fixture
def document(arbiter):
    """A sound backup: two positions, a table of 5, an adjusted deal, a penalty, history."""
    built = build_tournament()
    adjust_and_report(
        built, arbiter, deal=1, scores=[-60, 20, 20, 20], reason="Renonce du preneur",
        kind="carte_exposee", letter="A", points=20,
    )  # fmt: skip
    return tournament_export(built["tournament"])


def counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in MODELS)


def refused(raw, *fragments: str, user=None) -> str:
    """Restore `raw` (a document or bytes), expect a refusal naming `fragments`, nothing written."""
    before = counts()
    if not isinstance(raw, str | bytes):
        raw = json.dumps(raw)
    with pytest.raises(BackupError) as info:
        tournament_import(raw, user=user)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    assert counts() == before
    return message


def rows(document, label: str) -> list[dict]:
    return document["sections"][label]


def first_deal(document, **match) -> dict:
    return next(
        row
        for row in rows(document, "scoring.deal")
        if all(row[key] == value for key, value in match.items())
    )


# --- values the forms would never accept ------------------------------------------------------


def test_status_hacked_is_refused(document):
    rows(document, "tournament.tournament")[0]["status"] = "hacked"
    refused(document, "Sauvegarde illisible", "tournoi", "état", "hacked")


@pytest.mark.parametrize(
    ("label", "field"),
    [
        ("tournament.position", "status"),
        ("tournament.registration", "status"),
        ("tournament.table", "game"),
        ("tournament.seat", "direction"),
        ("scoring.scoresheet", "status"),
        ("scoring.incident", "kind"),
        ("tournament.changelog", "action"),
    ],
)
def test_values_outside_the_choices_are_refused(document, label, field):
    rows(document, label)[0][field] = "hacked"
    refused(document, "Sauvegarde illisible", f"({field})", "hacked")


def test_unknown_rule_set_is_refused(document):
    rows(document, "tournament.tournament")[0]["rule_set"] = "house"
    refused(document, "Sauvegarde illisible", "règlement", "house")


def test_unknown_rule_set_on_a_deal_is_refused(document):
    first_deal(document, adjusted=False)["rule_set"] = "house"
    refused(document, "Sauvegarde illisible", "donne", "règlement house inconnu")


def test_unknown_tie_break_is_refused(document):
    rows(document, "tournament.tournament")[0]["tie_breaks"] = ["best_position", "coin_flip"]
    refused(document, "Sauvegarde illisible", "départage", "coin_flip")


def test_tie_breaks_that_are_not_a_list_are_refused(document):
    rows(document, "tournament.tournament")[0]["tie_breaks"] = {"best_position": 1}
    refused(document, "Sauvegarde illisible", "départage")


def test_positions_count_beyond_the_form_is_refused(document):
    rows(document, "tournament.tournament")[0]["positions_count"] = 999
    refused(document, "Sauvegarde illisible", "positions")


def test_penalty_defaults_of_the_wrong_shape_are_refused(document):
    rows(document, "tournament.tournament")[0]["penalty_defaults"] = ["carte_exposee", 20]
    refused(document, "Sauvegarde illisible", "penalty_defaults")


def test_penalty_beyond_the_form_is_refused(document):
    rows(document, "scoring.incident")[0]["penalty_points"] = 10**6
    refused(document, "Sauvegarde illisible", "incident", "penalty_points", "10000")


def test_text_with_a_nul_character_is_refused(document):
    rows(document, "tournament.player")[0]["last_name"] = "Nul\x00"
    refused(document, "Sauvegarde illisible", "joueur", "caractère nul")


def test_too_long_text_is_refused(document):
    rows(document, "tournament.team")[0]["name"] = "x" * 500
    refused(document, "Sauvegarde illisible", "équipe", "(name)")


# --- numbers --------------------------------------------------------------------------------


def test_scores_of_1e30_are_refused(document):
    deal = first_deal(document, adjusted=False)
    deal["scores"] = [1e30, -1e30] + deal["scores"][2:]
    refused(document, "Sauvegarde illisible", f"donne {deal['number']} de la feuille", "scores")


def test_adjusted_scores_of_1e30_are_refused(document):
    deal = first_deal(document, adjusted=True)
    deal["scores"] = [1e30, -1e30, 0, 0]
    refused(document, "Sauvegarde illisible", "donne 1 de la feuille", "scores")


def test_adjusted_scores_beyond_the_form_are_refused(document):
    first_deal(document, adjusted=True)["scores"] = [300_000, -100_000, -100_000, -100_000]
    refused(document, "Sauvegarde illisible", "scores", "100000")


def test_adjusted_scores_must_sum_to_zero(document):
    first_deal(document, adjusted=True)["scores"] = [-60, 20, 20, 21]
    refused(document, "Sauvegarde illisible", "ne font pas zéro")


def test_scores_as_bools_or_strings_are_refused(document):
    first_deal(document, adjusted=True)["scores"] = [True, False, "-1", 0]
    refused(document, "Sauvegarde illisible", "scores")


def test_stored_scores_differing_from_the_engine_are_refused(document):
    deal = first_deal(document, adjusted=False, players=4)
    deal["scores"] = [score * 10 for score in deal["scores"]]
    deal["computed_scores"] = deal["scores"]
    refused(document, "Sauvegarde illisible", "le calcul donne")


def test_points_of_1e30_are_refused(document):
    first_deal(document, adjusted=False)["points"] = 1e30
    refused(document, "Sauvegarde illisible", "points")


def test_an_impossible_deal_is_refused_by_the_engine(document):
    first_deal(document, adjusted=False)["oudlers"] = 4
    refused(document, "Sauvegarde illisible", "Bouts : 4 n'est pas entre 0 et 3")


def test_deal_players_must_be_its_sheets(document):
    deal = first_deal(document, players=4)
    deal["players"] = 5
    refused(document, "Sauvegarde illisible", "elle compte 5 joueurs, sa feuille 4")


def test_seats_out_of_range_are_refused(document):
    first_deal(document, players=4)["dealer"] = 7
    refused(document, "Sauvegarde illisible", "donneur", "7")


def test_a_mort_at_a_table_without_one_is_refused(document):
    first_deal(document, players=5, passed=False)["dead"] = 2
    refused(document, "Sauvegarde illisible", "mort")


@pytest.mark.parametrize("value", [True, "3", 3.0, 1e30, None, [3]])
def test_numbers_must_be_real_ints(document, value):
    rows(document, "tournament.registration")[0]["number"] = value
    refused(document, "Sauvegarde illisible", "inscription", "(number)")


def test_booleans_must_be_real_booleans(document):
    first_deal(document)["passed"] = 0
    refused(document, "Sauvegarde illisible", "(passed)")


def test_a_huge_number_anywhere_is_refused(document):
    raw = json.dumps(document).replace('"version": 1', '"version": 1' + "0" * 5000, 1)
    refused(raw.encode(), UNREADABLE)


def test_nan_is_refused(document):
    raw = json.dumps(document).replace('"seating_seed": 0', '"seating_seed": NaN', 1)
    assert "NaN" in raw
    refused(raw, UNREADABLE)


# --- structure ------------------------------------------------------------------------------


def test_a_100k_deep_json_is_refused_before_parsing():
    refused(b"[" * 100_000 + b"]" * 100_000, UNREADABLE, "profondément")
    refused(b'{"a":' * 100_000 + b"1" + b"}" * 100_000, UNREADABLE)


def test_an_unterminated_string_of_escaped_quotes_is_scanned_in_linear_time():
    # A scan that retried from every quote would take hours on these 4 MB.
    refused(b'"' + b'\\"' * 2_000_000, UNREADABLE)


def test_brackets_inside_strings_do_not_count_as_nesting(document):
    rows(document, "tournament.team")[0]["name"] = "[[[[{{{{" * 12
    restored = tournament_import(json.dumps(document))
    assert restored.teams.filter(name="[[[[{{{{" * 12).exists()


@pytest.mark.parametrize(
    "raw",
    [
        b"not json at all",
        b"[]",
        b'"a string"',
        b"null",
        b"42",
        b'[{"format": "tarot-desk-backup"}]',
        b"",
        b'{"format": "tarot-desk-backup", "version": 1, "sections": {',
    ],
)
def test_not_a_json_object_is_refused(raw):
    refused(raw, UNREADABLE)


def test_bytes_that_are_not_utf8_are_refused():
    refused(b'{"format": "tarot-desk-backup\xff\xfe"}', UNREADABLE, "UTF-8")


@pytest.mark.parametrize("version", ["1", True, 1.0, None, [1]])
def test_version_must_be_the_int_1(document, version):
    document["version"] = version
    refused(document, "Version de sauvegarde")


def test_a_missing_section_is_refused(document):
    del document["sections"]["scoring.deal"]
    refused(document, "incomplète", "scoring.deal")


@pytest.mark.parametrize("rows_value", [None, {}, "rows", [1, 2], [[]]])
def test_a_section_of_the_wrong_shape_is_refused(document, rows_value):
    document["sections"]["tournament.team"] = rows_value
    refused(document, "incomplète", "tournament.team")


def test_a_row_without_a_key_is_refused(document):
    del rows(document, "tournament.position")[0]["pk"]
    refused(document, "Sauvegarde illisible", "position", "pk")


def test_a_duplicate_key_is_refused(document):
    rows(document, "tournament.team")[1]["pk"] = rows(document, "tournament.team")[0]["pk"]
    refused(document, "Sauvegarde illisible", "équipe", "en double")


def test_a_missing_field_is_refused(document):
    del first_deal(document)["players"]
    refused(document, "Sauvegarde illisible", "(players)")


def test_a_reference_to_a_missing_row_is_refused(document):
    rows(document, "tournament.seat")[0]["registration"] = 999_999
    refused(document, "Sauvegarde illisible", "place", "999999")


def test_two_registrations_with_the_same_number_are_refused(document):
    registrations = rows(document, "tournament.registration")
    registrations[1]["number"] = registrations[0]["number"]
    refused(document, "Sauvegarde illisible", "inscription", "(number)")


def test_a_sheet_whose_seats_do_not_follow_is_refused(document):
    rows(document, "scoring.sheetplayer")[0]["seat"] = 9
    refused(document, "Sauvegarde illisible", "feuille")


def test_unknown_keys_are_ignored(document):
    document["comment"] = "written by hand"
    rows(document, "tournament.tournament")[0]["is_admin"] = True
    first_deal(document)["bonus"] = 1_000
    restored = tournament_import(json.dumps(document))
    assert restored.deals_for_table_size(4) == 5


def test_the_size_is_capped(document, monkeypatch):
    monkeypatch.setattr(backup_document, "MAX_BACKUP_BYTES", 1000)
    refused(document, "trop volumineux")


# --- the shared roster: a restore adds only the players its registrations use --------------------


def roster_rows(first_key: int, count: int) -> list[dict]:
    """Players no registration of the file uses: a whole club's roster slipped into a backup."""
    return [
        {"pk": first_key + index, "last_name": f"INCONNU{index}", "first_name": "Hors",
         "licence": None, "club": "Autre club"}
        for index in range(count)
    ]  # fmt: skip


def test_a_restore_adds_only_the_roster_players_its_registrations_use(document):
    players = rows(document, "tournament.player")
    used = {row["player"] for row in rows(document, "tournament.registration")}
    assert {row["pk"] for row in players} == used  # an exported backup holds just those
    players += roster_rows(max(used) + 1, 200)
    before = Player.objects.count()
    restored = tournament_import(json.dumps(document))
    assert not Player.objects.filter(last_name__startswith="INCONNU").exists()
    assert Player.objects.count() - before == len(used)
    assert Registration.objects.filter(tournament=restored).count() == len(used)


def test_a_roster_beyond_the_import_cap_is_refused_before_any_check(document):
    from tournament.players.import_files import MAX_ROWS

    players = rows(document, "tournament.player")
    players += roster_rows(10_000, MAX_ROWS)
    message = refused(document, "joueurs", "5\u00a0000")
    assert "une restauration en reprend au plus" in message


def test_registrations_beyond_the_import_cap_are_refused(document):
    from tournament.players.import_files import MAX_ROWS

    registrations = rows(document, "tournament.registration")
    template = registrations[0]
    registrations += [
        {**template, "pk": 10_000 + index, "number": 10_000 + index} for index in range(MAX_ROWS)
    ]
    refused(document, "inscriptions", "5\u00a0000")


# --- accounts are never taken from the file ----------------------------------------------------


def test_a_forged_owner_is_ignored_the_restorer_owns_it(document, django_user_model):
    django_user_model.objects.create_superuser("boss", password="pw-boss-1")
    restorer = django_user_model.objects.create_user("restaurateur", password="pw-rest-1")
    rows(document, "tournament.tournament")[0]["owner"] = "boss"
    restored = tournament_import(json.dumps(document), user=restorer)
    assert restored.owner == restorer
    assert tournament_import(json.dumps(document)).owner is None


def test_history_credited_to_an_existing_account_links_none(document, django_user_model):
    victim = django_user_model.objects.create_user("victime", password="pw-victim-1")
    for row in rows(document, "tournament.changelog"):
        row["user"] = "victime"
        row["username"] = "victime"
    for row in rows(document, "scoring.deal") + rows(document, "scoring.incident"):
        row["created_by"] = "victime"
    restored = tournament_import(json.dumps(document))
    history = ChangeLog.objects.filter(tournament=restored)
    assert history.count() == len(rows(document, "tournament.changelog")) > 0
    assert set(history.values_list("username", flat=True)) == {"victime"}
    assert not history.filter(user__isnull=False).exists()
    assert not Deal.objects.filter(sheet__tournament=restored, created_by=victim).exists()
    assert not Incident.objects.filter(tournament=restored, created_by__isnull=False).exists()


def test_history_written_before_usernames_keeps_the_name_as_text(document, arbiter):
    for row in rows(document, "tournament.changelog"):
        row.pop("username", None)  # an older backup: only the account's name under "user"
    credited = sum(1 for row in rows(document, "tournament.changelog") if row["user"])
    restored = tournament_import(json.dumps(document))
    history = ChangeLog.objects.filter(tournament=restored)
    assert history.filter(username="arbitre-test").count() == credited > 0
    assert not history.filter(user__isnull=False).exists()


def test_an_account_key_instead_of_a_name_links_nothing(document, arbiter):
    for row in rows(document, "tournament.changelog"):
        row["user"] = arbiter.pk  # a key of this database, not a name
    restored = tournament_import(json.dumps(document))
    assert not ChangeLog.objects.filter(tournament=restored, user__isnull=False).exists()


def test_a_username_that_is_not_text_is_refused(document):
    rows(document, "tournament.changelog")[0]["username"] = {"id": 1}
    refused(document, "Sauvegarde illisible", "historique", "(username)")


# --- the page and the command ------------------------------------------------------------------


def test_the_restore_page_shows_the_refusal(document, arbiter_client):
    rows(document, "tournament.tournament")[0]["status"] = "hacked"
    before = counts()
    response = restore_upload(arbiter_client, json.dumps(document).encode())
    assert response.status_code == 200
    assert "Sauvegarde illisible" in response.text and "hacked" in response.text
    assert counts() == before


def test_the_restore_page_refuses_a_100k_deep_file(arbiter_client):
    response = restore_upload(arbiter_client, b"[" * 100_000 + b"]" * 100_000)
    assert response.status_code == 200
    assert UNREADABLE in response.text.replace("&#x27;", "'")
    assert Tournament.objects.count() == 0


def test_the_restore_page_stops_reading_a_file_past_the_cap(arbiter_client, monkeypatch):
    from scoring.documents.views import backup as views_backup

    monkeypatch.setattr(views_backup, "MAX_BACKUP_BYTES", 10_000)
    response = restore_upload(arbiter_client, b" " * 50_000)
    assert response.status_code == 200
    assert "trop volumineux" in response.text
    assert Tournament.objects.count() == 0


def test_the_command_refuses_with_the_message(document, tmp_path):
    first_deal(document, adjusted=False)["scores"] = [1e30, -1e30, 0, 0]
    path = tmp_path / "sauvegarde.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    before = counts()
    with pytest.raises(CommandError, match="Sauvegarde illisible"):
        call_command("restore_tournament", str(path), stdout=io.StringIO())
    assert counts() == before


def test_the_command_gives_the_tournament_to_the_named_account(document, tmp_path, arbiter):
    rows(document, "tournament.tournament")[0]["owner"] = "someone-else"
    path = tmp_path / "sauvegarde.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    call_command("restore_tournament", str(path), owner="arbitre-test", stdout=io.StringIO())
    assert Tournament.objects.order_by("-pk").first().owner == arbiter


def test_the_restore_page_still_checks_the_csrf_token(arbiter, monkeypatch):
    from django.test import Client

    from scoring.documents.views import backup as views_backup

    monkeypatch.setattr(views_backup, "MAX_BACKUP_BYTES", 10_000)
    client = Client(enforce_csrf_checks=True)
    client.force_login(arbiter)
    client.get("/tournois/restaurer/")
    token = client.cookies["csrftoken"].value
    for size, status in ((5_000, 200), (50_000, 200)):
        response = restore_upload(client, b"[" * size, csrfmiddlewaretoken=token)
        assert response.status_code == status
        assert ("trop volumineux" in response.text) == (size > 10_000)
    assert restore_upload(client, b"{}").status_code == 403
