"""Issue 26, pure: cumulative scores with a carry-over, and the cut (line, ties, withdrawals,
teams, a cut larger than the field)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.core import ranking
from scoring.core.events import (
    CumulativeRow,
    CutError,
    SessionFigures,
    SessionRow,
    carried_share,
    cumulative_rows,
    cut,
    cut_size,
    team_rows,
)

CRITERIA = ranking.criteria_for(["best_position"])


def row(name, points, *, session=1, team=None, charged=0):
    """A session row: `points` are the bilans of its positions."""
    figures = SessionFigures(
        session=session,
        total=sum(points) - charged,
        penalties_charged=charged,
        position_points=dict(enumerate(points, start=1)),
    )
    return SessionRow(key=name, person=name, name=name, figures=figures, team=team, team_key=team)


def first(rows):
    return cumulative_rows(rows, {}, 100)


def keys(ranked):
    return [r.row.key for r in ranked]


# --- cumulative scores --------------------------------------------------------------------


def test_half_the_qualifying_score_is_carried_exactly():
    session_1 = {r.key: r for r in first([row("A", [37]), row("B", [-37])])}
    session_2 = cumulative_rows(
        [row("A", [10], session=2), row("B", [5], session=2)], session_1, 50
    )
    totals = {r.key: r.total for r in session_2}
    assert totals == {"A": Fraction(37, 2) + 10, "B": Fraction(-37, 2) + 5}
    assert session_2[0].carried == Fraction(37, 2) and session_2[0].session_total == 10


def test_carrying_nothing_ranks_on_the_session_alone_tie_breaks_included():
    before = {r.key: r for r in first([row("A", [500]), row("B", [-500])])}
    final = cumulative_rows(
        [row("A", [20, 0], session=2), row("B", [10, 10], session=2)], before, 0
    )
    assert [r.total for r in final] == [20, 20]
    # A's best position in the final (20) beats B's (10); session 1's 500 counts for nothing.
    assert keys(ranking.rank(final, CRITERIA)) == ["A", "B"]
    assert final[0].earlier == ()


def test_a_full_carry_lets_the_tie_breaks_read_every_carried_session():
    before = {r.key: r for r in first([row("A", [0, 0]), row("B", [-40, 40])])}
    final = cumulative_rows([row("A", [5], session=2), row("B", [5], session=2)], before, 100)
    assert [r.total for r in final] == [5, 5]
    assert final[1].position_points == {1001: -40, 1002: 40, 2001: 5}
    assert keys(ranking.rank(final, CRITERIA)) == ["B", "A"]  # B's 40 in session 1


def test_a_carry_is_a_percentage():
    assert carried_share(Fraction(3, 2), 30) == Fraction(9, 20)
    with pytest.raises(ValueError):
        carried_share(10, 101)


def test_a_player_new_in_the_session_carries_nothing():
    [new] = cumulative_rows([row("Z", [12], session=2)], {}, 100)
    assert new.total == 12 and new.carried == 0


# --- the cut ------------------------------------------------------------------------------


def test_top_n_keeps_the_n_best():
    rows = first([row("A", [30]), row("B", [20]), row("C", [10]), row("D", [0])])
    result = cut(rows, rule="top_n", value=2, criteria=CRITERIA)
    assert keys(result.qualified) == ["A", "B"] and keys(result.others) == ["C", "D"]
    assert result.tie is None and result.extra == 0


@pytest.mark.parametrize(
    ("percent", "field", "places"), [(50, 25, 13), (50, 24, 12), (10, 9, 1), (100, 7, 7), (1, 3, 1)]
)
def test_a_percentage_is_rounded_up(percent, field, places):
    assert cut_size("top_percent", percent, field) == places


def test_a_tie_at_the_line_is_decided_by_the_tie_breaks_and_reported():
    rows = first([row("A", [30]), row("B", [0, 20]), row("C", [10, 10]), row("D", [0])])
    result = cut(rows, rule="top_n", value=2, criteria=CRITERIA)
    assert keys(result.qualified) == ["A", "B"]  # B's best position (20) beats C's (10)
    assert result.tie is not None
    assert result.tie.keys == ("B", "C") and result.tie.qualified == ("B",)
    assert result.tie.decided_by == "best_position" and not result.tie.all_qualify


def test_rows_tied_on_every_criterion_at_the_line_all_qualify():
    rows = first([row("A", [30]), row("B", [20]), row("C", [20]), row("D", [0])])
    result = cut(rows, rule="top_n", value=2, criteria=CRITERIA)
    assert keys(result.qualified) == ["A", "B", "C"] and keys(result.others) == ["D"]
    assert result.extra == 1
    assert result.tie is not None and result.tie.all_qualify
    assert result.tie.qualified == ("B", "C")


def test_a_tie_entirely_above_the_line_is_no_tie_at_the_line():
    rows = first([row("A", [20]), row("B", [20]), row("C", [10])])
    result = cut(rows, rule="top_n", value=2, criteria=CRITERIA)
    assert keys(result.qualified) == ["A", "B"] and result.tie is None


def test_withdrawn_players_are_left_out_before_the_cut():
    rows = first([row("A", [30]), row("B", [20]), row("C", [10]), row("D", [0])])
    result = cut(rows, rule="top_n", value=2, criteria=CRITERIA, withdrawn=lambda r: r.key == "A")
    assert keys(result.qualified) == ["B", "C"] and keys(result.others) == ["D"]
    assert result.withdrawn == ["A"] and result.eligible == 3


def test_a_cut_larger_than_the_field_is_refused_in_french():
    rows = first([row("A", [30]), row("B", [20]), row("C", [10])])
    with pytest.raises(CutError) as error:
        cut(rows, rule="top_n", value=3, criteria=CRITERIA, withdrawn=lambda r: r.key == "C")
    assert str(error.value) == (
        "La coupe retient 3 joueurs, mais 2 seulement sont en lice (forfaits exclus)."
    )
    assert isinstance(error.value, ValueError)


def test_a_cut_of_nobody_or_over_100_percent_is_refused():
    rows = first([row("A", [30])])
    with pytest.raises(CutError, match="au moins un"):
        cut(rows, rule="top_n", value=0, criteria=CRITERIA)
    with pytest.raises(CutError, match="de 1 à 100"):
        cut(rows, rule="top_percent", value=120, criteria=CRITERIA)


def test_a_duo_cut_keeps_whole_teams_on_the_sum_of_their_members():
    rows = first(
        [
            row("A1", [50], team="A"),
            row("A2", [-40], team="A"),  # team A: 10
            row("B1", [15], team="B"),
            row("B2", [5], team="B"),  # team B: 20
            row("C1", [0], team="C"),
            row("C2", [-30], team="C"),  # team C: -30
            row("X", [99]),  # in no team
        ]
    )
    teams, alone = team_rows(rows)
    assert [m.key for m in alone] == ["X"]
    result = cut(teams, rule="top_percent", value=50, criteria=CRITERIA, by_team=True)
    assert keys(result.qualified) == ["B", "A"] and keys(result.others) == ["C"]


def test_a_team_cut_larger_than_the_teams_in_play_names_teams():
    teams, _alone = team_rows(first([row("A1", [1], team="A"), row("A2", [1], team="A")]))
    with pytest.raises(CutError, match="2 équipes, mais 1 seulement"):
        cut(teams, rule="top_n", value=2, criteria=CRITERIA, by_team=True)


# --- properties ---------------------------------------------------------------------------

fields = st.lists(
    st.tuples(st.integers(-3, 3), st.integers(-2, 2), st.booleans()), min_size=1, max_size=24
)


@settings(max_examples=300, deadline=None)
@given(fields, st.sampled_from(["top_n", "top_percent"]), st.integers(1, 100))
def test_the_cut_splits_the_eligible_field_and_never_ranks_a_qualified_below(field, rule, value):
    rows: list[CumulativeRow] = first(
        [row(f"P{i}", [a * 10, b * 10]) for i, (a, b, _w) in enumerate(field)]
    )
    out = {f"P{i}" for i, (_a, _b, w) in enumerate(field) if w}
    eligible = len(rows) - len(out)
    try:
        result = cut(
            rows, rule=rule, value=value, criteria=CRITERIA, withdrawn=lambda r: r.key in out
        )
    except CutError:
        assert eligible == 0 or cut_size(rule, value, eligible) > eligible
        return
    qualified, others = keys(result.qualified), keys(result.others)
    assert sorted(qualified + others) == sorted(r.key for r in rows if r.key not in out)
    assert set(result.withdrawn) == out
    assert len(qualified) >= cut_size(rule, value, eligible)
    if others:
        # Nobody qualified ranks below a non-qualified player; the line never splits a rank.
        assert max(r.rank for r in result.qualified) < min(r.rank for r in result.others)
        assert len(qualified) == result.asked or result.tie is not None
