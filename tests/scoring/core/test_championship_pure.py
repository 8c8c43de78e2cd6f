"""Season championship ranking (pure): against tables computed by hand."""

import pytest

from scoring.core.championship import (
    Method,
    PlayerResults,
    Rules,
    TournamentResult,
    championship_rank,
    parse_scale,
    points_for,
)

SCALE = (10, 7, 5, 3, 1)
SEASON = ("T1", "T2", "T3", "T4")


def player(name: str, ranks: dict[str, int], totals: dict[str, int] | None = None):
    totals = totals or {}
    return PlayerResults(
        key=name,
        name=name,
        results=[
            TournamentResult(tournament=t, rank=r, total=totals.get(t, 0)) for t, r in ranks.items()
        ],
    )


# Final ranks in four evenings; E missed T2.
#        T1  T2  T3  T4   points (10,7,5,3,1)   best 3 of 4
# A       1   2   1   3   10  7 10  5            27 (T4 dropped)
# B       2   1   3   2    7 10  5  7            24 (T3 dropped)
# C       3   4   2   1    5  3  7 10            22 (T2 dropped)
# D       4   3   5   4    3  5  1  3            11 (T3 dropped)
# E       5   -   4   5    1  -  3  1             5 (all three count)
FOUR_EVENINGS = [
    player("A", {"T1": 1, "T2": 2, "T3": 1, "T4": 3}),
    player("B", {"T1": 2, "T2": 1, "T3": 3, "T4": 2}),
    player("C", {"T1": 3, "T2": 4, "T3": 2, "T4": 1}),
    player("D", {"T1": 4, "T2": 3, "T3": 5, "T4": 4}),
    player("E", {"T1": 5, "T3": 4, "T4": 5}),
]


def table(ranking):
    return [(r.rank, r.row.name, r.row.total) for r in ranking.ranked]


def test_best_3_of_4_with_a_rank_points_scale_matches_the_hand_computed_table():
    ranking = championship_rank(FOUR_EVENINGS, SEASON, Rules(scale=SCALE, best_of=3))
    assert table(ranking) == [(1, "A", 27), (2, "B", 24), (3, "C", 22), (4, "D", 11), (5, "E", 5)]
    rows = {r.row.name: r.row for r in ranking.ranked}
    dropped = {name: [s.result.tournament for s in row.scored if not s.counted] for name, row in
               rows.items()}  # fmt: skip
    assert dropped == {"A": ["T4"], "B": ["T3"], "C": ["T2"], "D": ["T3"], "E": []}
    assert rows["A"].all_results == 32


def test_a_player_who_missed_tournaments_counts_only_those_played():
    ranking = championship_rank(FOUR_EVENINGS, SEASON, Rules(scale=SCALE, best_of=3))
    e = next(r.row for r in ranking.ranked if r.row.name == "E")
    assert e.played == 3
    assert [(s.result.tournament, s.points, s.counted) for s in e.scored] == [
        ("T1", 1, True),
        ("T3", 3, True),
        ("T4", 1, True),
    ]
    assert "T2" not in e.by_tournament()


def test_all_results_count_when_no_best_of_is_set():
    ranking = championship_rank(FOUR_EVENINGS, SEASON, Rules(scale=SCALE))
    assert table(ranking) == [(1, "A", 32), (2, "B", 29), (3, "C", 25), (4, "D", 12), (5, "E", 5)]


# Best 2 of 3, scale 10, 8, 5, 3, 1: P and Q both keep 13 points.
#     T1  T2  T3   points      kept   played  best  all  best rank
# P    1   4   -   10 3         13     2       10    13   1
# Q    2   3   5    8 5 1       13     3        8    14   2
TIED = [
    player("PAUL", {"T1": 1, "T2": 4}),
    player("QUENTIN", {"T1": 2, "T2": 3, "T3": 5}),
]
TIED_RULES = dict(scale=(10, 8, 5, 3, 1), best_of=2)


@pytest.mark.parametrize(
    ("tie_breaks", "first"),
    [
        (("played",), "QUENTIN"),
        (("best_result",), "PAUL"),
        (("all_results",), "QUENTIN"),
        (("best_rank",), "PAUL"),
        (("played", "best_result"), "QUENTIN"),
        (("best_result", "played"), "PAUL"),
    ],
)
def test_ties_are_broken_by_the_configured_criterion_in_order(tie_breaks, first):
    ranking = championship_rank(TIED, SEASON, Rules(**TIED_RULES, tie_breaks=tie_breaks))
    assert [r.row.total for r in ranking.ranked] == [13, 13]
    assert [(r.rank, r.tied) for r in ranking.ranked] == [(1, False), (2, False)]
    assert ranking.ranked[0].row.name == first


def test_without_tie_break_equal_players_share_the_rank():
    ranking = championship_rank(TIED, SEASON, Rules(**TIED_RULES))
    assert [(r.rank, r.tied, r.row.name) for r in ranking.ranked] == [
        (1, True, "PAUL"),
        (1, True, "QUENTIN"),
    ]


def test_players_below_the_minimum_attendance_are_listed_apart_unranked():
    ranking = championship_rank(TIED, SEASON, Rules(**TIED_RULES, min_attendance=3))
    assert [(r.rank, r.row.name) for r in ranking.ranked] == [(1, "QUENTIN")]
    assert [(row.name, row.total) for row in ranking.below_attendance] == [("PAUL", 13)]


def test_ranks_beyond_the_scale_give_the_floor():
    rules = Rules(scale=(3, 2, 1), floor=1)
    assert [points_for(TournamentResult("T", rank, 0), rules) for rank in (1, 2, 3, 4, 40)] == [
        3,
        2,
        1,
        1,
        1,
    ]
    assert points_for(TournamentResult("T", 4, 0), Rules(scale=(3, 2, 1))) == 0


def test_players_sharing_a_rank_each_get_that_ranks_points():
    shared = [player("X", {"T1": 2}), player("Y", {"T1": 2}), player("Z", {"T1": 1})]
    ranking = championship_rank(shared, SEASON, Rules(scale=SCALE))
    assert [(r.row.name, r.row.total) for r in ranking.ranked] == [("Z", 10), ("X", 7), ("Y", 7)]


def test_sum_of_scores_counts_each_tournaments_total_and_drops_the_worst():
    # Totals 120, -40, 300 with best 2 of 3: 300 + 120 = 420; the -40 is dropped.
    players = [
        player("R", {"T1": 3, "T2": 9, "T3": 1}, {"T1": 120, "T2": -40, "T3": 300}),
        player("S", {"T1": 1, "T2": 1}, {"T1": 500, "T2": -100}),
    ]
    ranking = championship_rank(players, SEASON, Rules(method=Method.SUM, best_of=2))
    assert table(ranking) == [(1, "R", 420), (2, "S", 400)]
    r = ranking.ranked[0].row
    assert [s.counted for s in r.scored] == [True, False, True]


def test_a_withdrawn_players_result_counts_as_ranked():
    result = TournamentResult("T1", rank=12, total=-250, withdrawn=True)
    players = [PlayerResults(key="W", name="W", results=[result])]
    ranking = championship_rank(players, SEASON, Rules(scale=tuple(range(20, 0, -1))))
    assert ranking.ranked[0].row.total == 9  # the 12th place of 20, 19, … 1


def test_the_scale_is_read_from_what_the_arbiter_types():
    assert parse_scale("25,20,16, 13 ;11") == (25, 20, 16, 13, 11)
    assert parse_scale("25-20-16") == (25, 20, 16)
    with pytest.raises(ValueError):
        parse_scale("25,vingt")
    with pytest.raises(ValueError):
        parse_scale("25,1.5")
