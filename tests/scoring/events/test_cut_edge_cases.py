"""Issue 26, cut edge cases on real brackets: ties at the line, withdrawals before and after
the cut, a duo event, a cut larger than the field, and who may cut."""

import pytest
from django.core.exceptions import ValidationError

from scoring.events.cuts import cut_apply, cut_preview
from scoring.events.replace import cut_withdrawal_replace
from tests.scoring.events.event_helpers import new_event, play, seat
from tournament.access.permissions import Permission, may
from tournament.models import ChangeLog, Registration
from tournament.players.registrations import registration_withdraw

pytestmark = pytest.mark.django_db

TABLES = [[1, 2, 3, 4], [5, 6, 7, 8]]


def names(lines):
    return [line["name"].split()[0] for line in lines]


def played(values, **settings):
    """8 players, one position on two tables, finished."""
    event, bracket = new_event(8, **settings)
    seat(bracket, TABLES)
    totals = play(bracket, values)
    return bracket, totals


def test_a_tie_at_the_line_all_qualify_when_no_criterion_separates_them():
    # Same deals at both tables: P1 = P5, P2 = P6, P3 = P7, P4 = P8.
    bracket, totals = played([[5, 9, 2], [5, 9, 2]])
    preview = cut_preview(source=bracket, rule="top_n", value=3)
    assert names(preview.report["qualified"]) == ["P2", "P6", "P1", "P5"]  # 45, 45, 29, 29
    assert preview.report["extra"] == 1
    tie = preview.report["tie"]
    assert tie["all_qualify"] and tie["decided_by"] is None
    assert sorted(n.split()[0] for n in tie["names"]) == ["P1", "P5"]


def test_a_tie_at_the_line_is_decided_by_the_tie_break_and_reported():
    # Table 1: P2 45 wins the table; table 2 (V = 38, 36, 25): P5 53 wins it, P6 45 does not.
    bracket, totals = played([[5, 9, 2], [13, 11, 0]], tie_breaks=["tables_won"])
    assert (totals["P2"], totals["P5"], totals["P6"]) == (45, 53, 45)
    preview = cut_preview(source=bracket, rule="top_n", value=2)
    assert names(preview.report["qualified"]) == ["P5", "P2"]
    assert names(preview.report["next_in_line"])[0] == "P6"
    tie = preview.report["tie"]
    assert tie["decided_by"] == "tables_won" and not tie["all_qualify"]
    assert tie["decided_by_label"] == "Plus de tables gagnées"
    assert [n.split()[0] for n in tie["names"]] == ["P2", "P6"]


def test_withdrawn_players_are_left_out_before_the_cut_and_reported(arbiter):
    bracket, totals = played([[5, 9, 2], [7, 1, 12]])
    leader = bracket.registrations.get(number=7)  # P7, 53 points, best of the field
    bracket.status = "running"
    bracket.save(update_fields=["status"])
    registration_withdraw(registration=leader, user=arbiter)
    bracket.status = "finished"
    bracket.save(update_fields=["status"])
    cut = cut_apply(source=bracket, rule="top_n", value=4, consolante=True, seed=1, user=arbiter)
    assert [w["name"].split()[0] for w in cut.report["withdrawn"]] == ["P7"]
    assert sorted(names(cut.report["qualified"])) == ["P1", "P2", "P3", "P5"]
    players = lambda t: sorted(r.player.last_name for r in t.registrations.all())  # noqa: E731
    assert players(cut.qualified) == ["P1", "P2", "P3", "P5"]
    assert players(cut.consolante) == ["P4", "P6", "P8"]  # P7 is out
    # Three players at tables of 4 and 5: the consolante waits for the arbiter's settings.
    assert not cut.consolante.positions.exists() and cut.qualified.positions.exists()
    assert "choisissez des tables de 3" in cut.report["unseated"][str(cut.consolante.pk)]
    # Every write is in the history: the cut on the source, the brackets and their players.
    assert ChangeLog.objects.filter(tournament=bracket, object_type="cut").exists()
    assert (
        ChangeLog.objects.filter(tournament=cut.qualified, object_type="registration").count() == 4
    )


def test_a_withdrawal_after_the_cut_is_replaced_by_the_next_in_line(arbiter):
    bracket, totals = played([[5, 9, 2], [7, 1, 12]])
    # 53 P7, 45 P2, 33 P5, 29 P1 | 17 P3, 9 P6, -91 P4, -95 P8
    cut = cut_apply(source=bracket, rule="top_n", value=4, consolante=True, seed=1, user=arbiter)
    assert names(cut.report["next_in_line"])[:2] == ["P3", "P6"]
    gone = cut.qualified.registrations.get(player__last_name="P2")
    cut_withdrawal_replace(cut=cut, registration=gone, user=arbiter)
    cut.refresh_from_db()
    gone.refresh_from_db()
    assert gone.status == Registration.Status.WITHDRAWN
    playing = cut.qualified.registrations.exclude(status="withdrawn")
    assert sorted(r.player.last_name for r in playing) == ["P1", "P3", "P5", "P7"]
    assert cut.consolante.registrations.get(player__last_name="P3").status == "withdrawn"
    assert cut.report["replacements"][0]["name"].startswith("P3")
    # The drafts were seated again: the newcomer sits, the withdrawn player does not.
    seated = set(
        cut.qualified.positions.get().tables.values_list(
            "seats__registration__player__last_name", flat=True
        )
    )
    assert seated == {"P1", "P3", "P5", "P7"}
    assert ChangeLog.objects.filter(
        tournament=cut.qualified, object_type="cut", action="update"
    ).exists()
    # The next withdrawal takes the next one in line (P6), not P3 again.
    cut_withdrawal_replace(
        cut=cut, registration=cut.qualified.registrations.get(player__last_name="P7"), user=arbiter
    )
    cut.refresh_from_db()
    assert [r["name"].split()[0] for r in cut.report["replacements"]] == ["P3", "P6"]


def test_no_replacement_once_the_next_session_has_started(arbiter):
    bracket, totals = played([[5, 9, 2], [7, 1, 12]])
    cut = cut_apply(source=bracket, rule="top_n", value=4, consolante=False, seed=1, user=arbiter)
    from tournament.evening.positions import position_publish

    position_publish(position=cut.qualified.positions.get())
    with pytest.raises(ValidationError, match="La séance a commencé"):
        cut_withdrawal_replace(
            cut=cut, registration=cut.qualified.registrations.first(), user=arbiter
        )


def test_a_duo_cut_keeps_whole_teams(arbiter):
    # Teams: T1 = P1 P2, T2 = P3 P4, T3 = P5 P6, T4 = P7 P8; teammates never meet, so seat
    # them apart: table 1 P1 P3 P5 P7, table 2 P2 P4 P6 P8.
    event, bracket = new_event(8, team_size=2)
    seat(bracket, [[1, 3, 5, 7], [2, 4, 6, 8]])
    totals = play(bracket, [[5, 9, 2], [7, 1, 12]])
    # T1 = P1 + P2 = 29 + 33 = 62; T2 = 45 + 9 = 54; T3 = 17 + 53 = 70; T4 = -91 - 95.
    assert totals["P1"] + totals["P2"] == 62 and totals["P5"] + totals["P6"] == 70
    cut = cut_apply(
        source=bracket,
        rule="top_percent",
        value=50,
        by_team=True,
        consolante=True,
        seed=1,
        user=arbiter,
    )
    assert names(cut.report["qualified"]) == ["T3", "T1"]
    assert sorted(r.player.last_name for r in cut.qualified.registrations.all()) == [
        "P1", "P2", "P5", "P6",
    ]  # fmt: skip
    assert sorted(cut.qualified.teams.values_list("name", flat=True)) == ["T1", "T3"]
    assert sorted(cut.consolante.teams.values_list("name", flat=True)) == ["T2", "T4"]


def test_a_cut_larger_than_the_field_is_refused_in_french(arbiter):
    bracket, totals = played([[5, 9, 2], [7, 1, 12]])
    with pytest.raises(ValidationError) as error:
        cut_apply(source=bracket, rule="top_n", value=9, user=arbiter)
    assert error.value.messages == [
        "La coupe retient 9 joueurs, mais 8 seulement sont en lice (forfaits exclus)."
    ]
    assert not bracket.event.brackets.filter(session=2).exists()  # nothing half-made


def test_a_session_is_cut_once_finished_and_only_once(arbiter):
    event, bracket = new_event(8)
    with pytest.raises(ValidationError, match="Terminez la séance"):
        cut_apply(source=bracket, rule="top_n", value=4, user=arbiter)
    seat(bracket, TABLES)
    play(bracket, [[5, 9, 2], [7, 1, 12]])
    cut_apply(source=bracket, rule="top_n", value=4, consolante=False, seed=1, user=arbiter)
    with pytest.raises(ValidationError, match="déjà été coupé"):
        cut_apply(source=bracket, rule="top_n", value=4, user=arbiter)


def test_the_events_owner_manages_it_and_who_manages_a_bracket_may_cut_it(
    arbiter, django_user_model
):
    event, bracket = new_event(8, owner=arbiter)
    stranger = django_user_model.objects.create_user("passant", password="x")
    assert may(arbiter, Permission.EVENT_MANAGE, event)
    assert not may(stranger, Permission.EVENT_MANAGE, event)
    assert may(arbiter, Permission.MANAGE, bracket)
    assert not may(stranger, Permission.MANAGE, bracket)
