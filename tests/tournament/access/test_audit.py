"""One history for both apps: tournament.access.audit.change_record writes every record, typed, with
who and before/after; settings (rule set, tie-breaks), teams and on-time registrations are in it."""

import json

import pytest

from scoring.sheets.services import sheet_create_free
from tournament.access import lifecycle
from tournament.access.audit import change_record
from tournament.access.lifecycle import Locked
from tournament.models import ChangeLog, Tournament
from tournament.players.registrations import player_register
from tournament.players.teams import team_assign, team_remove_member
from tournament.tournaments.services import TOURNAMENT_FIELDS, tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return Tournament.objects.create(name="Open", date="2026-11-21", format="duo")


def settings_data(tournament, **changes):
    data = {key: getattr(tournament, key) for key in TOURNAMENT_FIELDS}
    data.update(changes)
    return data


def test_a_settings_change_of_rule_set_and_tie_breaks_is_recorded_before_and_after(
    tournament, arbiter
):
    tournament_update(
        tournament=tournament,
        data=settings_data(tournament, rule_set="booklet", tie_breaks=["tables_won"]),
        user=arbiter,
    )
    change = ChangeLog.objects.get(tournament=tournament)
    assert change.object_type == ChangeLog.ObjectType.TOURNAMENT
    assert change.action == ChangeLog.Action.UPDATE
    assert change.before == {"rule_set": "fft", "tie_breaks": []}
    assert change.after == {"rule_set": "booklet", "tie_breaks": ["tables_won"]}
    assert (change.user, change.username) == (arbiter, arbiter.username)


def test_registering_on_time_then_teaming_up_and_leaving_a_team_are_each_recorded(
    tournament, arbiter
):
    first = player_register(
        tournament=tournament, last_name="Martin", first_name="Léa", user=arbiter
    )
    second = player_register(
        tournament=tournament, last_name="Durand", first_name="Paul", user=arbiter
    )
    team = team_assign(
        tournament=tournament, name="Les As", registrations=[first, second], user=arbiter
    )
    first.refresh_from_db()
    team_remove_member(registration=first, user=arbiter)
    records = [
        (c.object_type, c.object_id, c.action, c.after)
        for c in ChangeLog.objects.filter(tournament=tournament).order_by("pk")
    ]
    assert records == [
        ("registration", first.pk, "create", {"player": "MARTIN Léa", "first_position": 1}),
        ("registration", second.pk, "create", {"player": "DURAND Paul", "first_position": 1}),
        ("team", team.pk, "update", {"members": [1, 2]}),
        ("registration", first.pk, "update", {"team": None}),
    ]
    assert all(c.username == arbiter.username for c in ChangeLog.objects.all())


def test_a_record_about_part_of_a_sheet_is_typed_and_points_at_its_sheet(tournament, arbiter):
    players = [
        player_register(tournament=tournament, last_name=name, user=arbiter)
        for name in ("Nord", "Sud", "Est", "Ouest")
    ]
    sheet = sheet_create_free(tournament=tournament, registrations=players, user=arbiter)
    change = change_record(
        tournament=tournament.pk,
        obj=sheet,
        kind=ChangeLog.ObjectType.PAPER_BILANS,
        sheet=sheet,
        action=ChangeLog.Action.UPDATE,
        before={"paper_bilans": None},
        after={"paper_bilans": [1, -1, 0, 0]},
        user=arbiter,
    )
    assert list(sheet.changes.order_by("pk").values_list("object_type", flat=True)) == [
        "sheet",
        "paper_bilans",
    ]
    assert change.tournament_id == tournament.pk and change.username == arbiter.username


def test_a_player_without_an_account_is_named_and_an_unknown_kind_or_action_is_refused(
    tournament,
):
    change = change_record(
        tournament=tournament,
        obj=tournament,
        action="update",
        after={"x": 1},
        username="MARTIN Léa",
    )
    assert change.user is None and change.username == "MARTIN Léa"
    with pytest.raises(ValueError, match="unknown history object type"):
        change_record(tournament=tournament, obj=tournament, kind="scribble", action="update")
    with pytest.raises(ValueError):
        change_record(tournament=tournament, obj=tournament, action="rewrite")
    assert ChangeLog.objects.count() == 1


def test_the_history_keeps_the_table_it_had_in_scoring():
    assert ChangeLog._meta.db_table == "scoring_changelog"
    assert ChangeLog._meta.app_label == "tournament"


def test_a_backup_written_while_the_history_lived_in_scoring_restores_its_history(
    tournament, arbiter
):
    from scoring.documents.backup import tournament_export, tournament_import

    player_register(tournament=tournament, last_name="Martin", user=arbiter)
    document = tournament_export(tournament)
    sections = document["sections"]
    sections["scoring.changelog"] = sections.pop("tournament.changelog")
    restored = tournament_import(json.dumps(document), user=arbiter)
    assert list(
        ChangeLog.objects.filter(tournament=restored).values_list("object_type", "action")
    ) == [("registration", "create")]


def test_a_settings_save_from_a_page_read_before_a_finish_neither_reopens_nor_overwrites(
    tournament, arbiter
):
    stale = Tournament.objects.get(pk=tournament.pk)  # the settings page's copy
    lifecycle.tournament_finish(tournament=Tournament.objects.get(pk=tournament.pk), user=arbiter)
    with pytest.raises(Locked):
        tournament_update(
            tournament=stale, data=settings_data(stale, name="Autre nom"), user=arbiter
        )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.name != "Autre nom"


def test_a_settings_save_keeps_what_other_pages_saved_meanwhile(tournament, arbiter):
    stale = Tournament.objects.get(pk=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(signup_capacity=40)
    tournament_update(tournament=stale, data=settings_data(stale, name="Autre nom"), user=arbiter)
    tournament.refresh_from_db()
    assert (tournament.name, tournament.signup_capacity) == ("Autre nom", 40)
