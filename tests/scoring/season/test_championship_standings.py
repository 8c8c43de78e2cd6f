"""A season championship read from the database: hand-computed tables over finished evenings,
withdrawals, players who missed evenings, and the ranking following finish and reopen."""

import pytest

from scoring.live.standings import standings_for, standings_for_many
from scoring.season.championships import championship_standings, lines
from tests.scoring.season.championship_helpers import championship, evening, people
from tournament.access import lifecycle

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    """Two finished evenings and a running one.

    T1  P1: ANNE +300 BRUNO +100 CLAIRE −100 DENIS −300
        P2: ANNE −100 BRUNO +200 CLAIRE +100 DENIS −200
        totals BRUNO 300 (1st), ANNE 200 (2nd), CLAIRE 0 (3rd), DENIS −500 (4th)
    T2  P1: ANNE −200 BRUNO +100 CLAIRE −100 EMMA +200; EMMA withdraws after P1
        P2 (table of 3): ANNE +150 BRUNO −300 CLAIRE +150
        DENIS registered, withdrew before playing anything
        totals EMMA 200 (1st), CLAIRE 50 (2nd), ANNE −50 (3rd), BRUNO −200 (4th)
    T3  (running) P1: DENIS +600 ANNE −200 BRUNO −200 CLAIRE −200
    """
    p = people("ANNE", "BRUNO", "CLAIRE", "DENIS", "EMMA")
    t1 = evening(
        "T1",
        1,
        [
            {p["ANNE"]: 300, p["BRUNO"]: 100, p["CLAIRE"]: -100, p["DENIS"]: -300},
            {p["ANNE"]: -100, p["BRUNO"]: 200, p["CLAIRE"]: 100, p["DENIS"]: -200},
        ],
    )
    t2 = evening(
        "T2",
        8,
        [
            {p["ANNE"]: -200, p["BRUNO"]: 100, p["CLAIRE"]: -100, p["EMMA"]: 200},
            {p["ANNE"]: 150, p["BRUNO"]: -300, p["CLAIRE"]: 150},
        ],
        withdrawn={p["EMMA"]: 1, p["DENIS"]: 0},
    )
    t3 = evening(
        "T3",
        15,
        [{p["DENIS"]: 600, p["ANNE"]: -200, p["BRUNO"]: -200, p["CLAIRE"]: -200}],
        finished=False,
    )
    return p, [t1, t2, t3]


def summary(standings):
    ranked, apart = lines(standings)
    return (
        [(line.rank, line.name, line.total) for line in ranked],
        [(line.name, line.total) for line in apart],
    )


def test_rank_points_over_finished_evenings_match_the_hand_computed_table(season):
    # Scale 10, 7, 5, then 1 for every further place; at least 2 evenings to be ranked.
    #          T1        T2         points
    # ANNE     2nd  7    3rd  5     12
    # CLAIRE   3rd  5    2nd  7     12
    # BRUNO    1st 10    4th  1     11
    # DENIS    4th  1    (never seated)  1   one evening: apart
    # EMMA     -         1st 10 (withdrew after P1)  10   one evening: apart
    _p, tournaments = season
    c = championship(tournaments, scale=[10, 7, 5], floor=1, min_attendance=2)
    ranked, apart = summary(championship_standings(c))
    assert ranked == [(1, "ANNE", 12), (1, "CLAIRE", 12), (3, "BRUNO", 11)]
    assert apart == [("EMMA", 10), ("DENIS", 1)]


def test_a_withdrawn_player_scores_the_rank_the_tournaments_standings_give_them(season):
    p, tournaments = season
    t2 = tournaments[1]
    final = standings_for(t2)
    emma = next(r for r in final.players if final.registrations[r.row.key].player == p["EMMA"])
    assert (emma.rank, emma.row.total) == (1, 200)
    c = championship(tournaments, scale=[10, 7, 5], floor=1)
    rank, row = championship_standings(c).row_of(p["EMMA"].pk)
    (scored,) = row.scored
    assert scored.result.withdrawn and scored.result.rank == 1 and scored.points == 10
    assert rank == 4  # 10 points: behind ANNE and CLAIRE (12) and BRUNO (11)


def test_a_player_withdrawn_before_playing_did_not_play_that_evening_nor_takes_a_place(season):
    p, tournaments = season
    t2 = tournaments[1]
    final = standings_for(t2)
    # The evening's own list holds DENIS at 0, above ANNE (−50) and BRUNO (−200).
    assert [(r.rank, r.row.total) for r in final.players] == [
        (1, 200),
        (2, 50),
        (3, 0),
        (4, -50),
        (5, -200),
    ]
    c = championship(tournaments, scale=[10, 7, 5], floor=1)
    standings = championship_standings(c)
    _rank, denis = standings.row_of(p["DENIS"].pk)
    assert denis.played == 1
    assert [s.result.tournament for s in denis.scored] == [tournaments[0].pk]
    _rank, anne = standings.row_of(p["ANNE"].pk)
    assert anne.by_tournament()[t2.pk].result.rank == 3  # among those who played T2


def test_a_player_who_missed_an_evening_keeps_only_the_evenings_played(season):
    p, tournaments = season
    c = championship(tournaments, scale=[10, 7, 5], floor=1)
    standings = championship_standings(c)
    ranked, _apart = lines(standings)
    emma = next(line for line in ranked if line.name == "EMMA")
    # Columns are the finished evenings T1, T2: EMMA has no T1 cell.
    assert emma.cells[0] is None and emma.cells[1].points == 10


def test_sum_of_scores_with_the_best_result_only(season):
    #          T1     T2     best 1
    # BRUNO   300   −200     300
    # ANNE    200    −50     200
    # EMMA     -     200     200
    # CLAIRE    0     50      50
    # DENIS  −500      -    −500
    _p, tournaments = season
    c = championship(tournaments, method="sum", best_of=1, tie_breaks=["best_rank"])
    ranked, apart = summary(championship_standings(c))
    # ANNE and EMMA tie at 200: EMMA's best place is 1st, ANNE's 2nd.
    assert ranked == [
        (1, "BRUNO", 300),
        (2, "EMMA", 200),
        (3, "ANNE", 200),
        (4, "CLAIRE", 50),
        (5, "DENIS", -500),
    ]
    assert apart == []


def test_the_ranking_follows_finishing_and_reopening_a_tournament(season):
    p, tournaments = season
    c = championship(tournaments, scale=[10, 7, 5], floor=1, min_attendance=2)
    t3 = tournaments[2]
    assert len(championship_standings(c).finished) == 2
    lifecycle.tournament_finish(tournament=t3)
    ranked, apart = summary(championship_standings(c))
    # T3: DENIS 1st (10), ANNE, BRUNO, CLAIRE share the 2nd place (7 each).
    assert ranked == [(1, "ANNE", 19), (1, "CLAIRE", 19), (3, "BRUNO", 18), (4, "DENIS", 11)]
    assert apart == [("EMMA", 10)]
    lifecycle.tournament_reopen(tournament=t3, reason="Erreur de saisie")
    ranked, _apart = summary(championship_standings(c))
    assert ranked == [(1, "ANNE", 12), (1, "CLAIRE", 12), (3, "BRUNO", 11)]


def test_standings_of_several_tournaments_equal_each_tournaments_own(season):
    _p, tournaments = season
    many = standings_for_many(tournaments)
    for tournament in tournaments:
        one = standings_for(tournament)
        assert [(r.rank, r.row.key, r.row.total) for r in many[tournament.pk].players] == [
            (r.rank, r.row.key, r.row.total) for r in one.players
        ]
        assert many[tournament.pk].positions == one.positions
