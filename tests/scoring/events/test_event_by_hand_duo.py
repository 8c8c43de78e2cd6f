"""Issue 26, what must hold, a second event rebuilt by hand: a duo event cut by whole teams
after a session 1 with a penalty, nothing carried into session 2 (0 %), everything carried
into the final (100 %); players' and teams' cumulative standings compared with the sums."""

import pytest

from scoring.events.cuts import cut_apply
from scoring.events.standings import cumulative_standings
from scoring.sheets.services import incident_record
from tests.scoring.events.event_helpers import new_event, play, seat
from tournament.access.lifecycle import tournament_finish, tournament_reopen

pytestmark = pytest.mark.django_db

TEAMS = {"T1": ("P1", "P2"), "T2": ("P3", "P4"), "T3": ("P5", "P6"), "T4": ("P7", "P8")}


def by_hand(totals):
    """(rank, name, total) best first, ranks shared on equal totals (no tie-break set)."""
    ordered = sorted(totals.items(), key=lambda item: (-item[1], item[0]))
    ranks = []
    for index, (name, total) in enumerate(ordered, start=1):
        shared = ranks and ranks[-1][2] == total
        ranks.append((ranks[-1][0] if shared else index, name, total))
    return ranks


def players_of(standings):
    return [(r.rank, r.row.name.split()[0], r.row.total) for r in standings.players]


def teams_of(standings):
    return [(r.rank, r.row.name, r.row.total) for r in standings.teams]


def team_sums(totals):
    return {team: sum(totals[p] for p in members if p in totals) for team, members in TEAMS.items()
            if any(p in totals for p in members)}  # fmt: skip


def test_a_duo_event_cut_by_team_with_a_penalty_and_carries_of_0_and_100(arbiter):
    event, session_1 = new_event(8, owner=arbiter, team_size=2)
    # Teammates sit apart: table 1 P1 P3 P5 P7, table 2 P2 P4 P6 P8.
    seat(session_1, [[1, 3, 5, 7], [2, 4, 6, 8]])
    scores_1 = play(session_1, [[5, 9, 2], [7, 1, 12]])
    assert scores_1 == {
        "P1": 29, "P3": 45, "P5": 17, "P7": -91, "P2": 33, "P4": 9, "P6": 53, "P8": -95,
    }  # fmt: skip
    # A penalty of 20 on P5, recorded by the arbiter after the session (reopened, refinished).
    tournament_reopen(tournament=session_1, reason="pénalité oubliée", user=arbiter)
    incident_record(
        tournament=session_1,
        kind="ethics",
        registration=session_1.registrations.get(number=5),
        penalty_points=20,
        user=arbiter,
    )
    tournament_finish(tournament=session_1, user=arbiter)
    totals_1 = scores_1 | {"P5": 17 - 20}
    standings_1 = cumulative_standings(session_1)
    assert players_of(standings_1) == by_hand(totals_1)
    # T1 62, T2 54, T3 70 − 20 = 50, T4 −186: the penalty sends T3 below the line.
    assert teams_of(standings_1) == by_hand(team_sums(totals_1))

    cut = cut_apply(
        source=session_1,
        rule="top_percent",
        value=50,
        by_team=True,
        consolante=True,
        carry_over_percent=0,
        seed=1,
        user=arbiter,
    )
    assert [line["name"] for line in cut.report["qualified"]] == ["T1", "T2"]
    main, consolante = cut.qualified, cut.consolante
    # Four players of two duos at one table: seated by hand (teammates opposite).
    seat(main, [[1, 3, 2, 4]])
    seat(consolante, [[5, 7, 6, 8]])
    scores_main = play(main, [[4, 10, 6]])
    scores_cons = play(consolante, [[1, 5, 9]])
    # 0 % carried: session 2's cumulative standings are session 2's alone.
    assert players_of(cumulative_standings(main)) == by_hand(scores_main)
    assert teams_of(cumulative_standings(main)) == by_hand(team_sums(scores_main))
    assert players_of(cumulative_standings(consolante)) == by_hand(scores_cons)
    assert teams_of(cumulative_standings(consolante)) == by_hand(team_sums(scores_cons))

    # The final: both duos, 100 % carried (of session 2's cumulative, which carried nothing).
    final = cut_apply(
        source=main,
        rule="top_n",
        value=2,
        by_team=True,
        consolante=False,
        carry_over_percent=100,
        seed=1,
        user=arbiter,
    ).qualified
    seat(final, [[1, 4, 2, 3]])
    scores_final = play(final, [[6, 2, 10]])
    cumulative_3 = {name: scores_main[name] + scores_final[name] for name in scores_final}
    standings_3 = cumulative_standings(final)
    assert players_of(standings_3) == by_hand(cumulative_3)
    assert teams_of(standings_3) == by_hand(team_sums(cumulative_3))
    assert [b.session for b in standings_3.chain] == [1, 2, 3]
