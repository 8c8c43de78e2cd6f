"""Issue 26, what must hold: a small event's brackets rebuilt by hand from their deals and the
carry-over — 3 sessions, a cut of half the field after session 1 (the others to a
consolante), half the qualifying score carried into session 2, a final seated by rank."""

from fractions import Fraction

import pytest

from scoring.events.cuts import cut_apply
from scoring.events.standings import cumulative_standings
from tests.scoring.events.event_helpers import new_event, numbers_by_table, play, seat

pytestmark = pytest.mark.django_db

# Session 1: four tables; at each, seats 0, 1, 2 take a prise with 2 oudlers and 41 + a points.
SESSION_1 = [[5, 9, 2], [7, 1, 12], [3, 14, 8], [11, 6, 4]]
# Table 1, V = 30, 34, 27 (S = 91): P1 = 90 − 61 = 29, P2 = 136 − 91 = 45, P3 = 108 − 91 = 17,
# P4 = −91; and so on for the other tables.
TOTALS_1 = {
    "P1": 29, "P2": 45, "P3": 17, "P4": -91, "P5": 33, "P6": 9, "P7": 53, "P8": -95,
    "P9": 12, "P10": 56, "P11": 32, "P12": -100, "P13": 48, "P14": 28, "P15": 20, "P16": -96,
}  # fmt: skip


def ranking_of(standings):
    return [(r.rank, r.row.name.split()[0], r.row.total) for r in standings.players]


def by_hand(totals):
    """(rank, name, total) best first, ranks shared on equal totals (no tie-break set)."""
    ordered = sorted(totals.items(), key=lambda item: (-item[1], item[0]))
    ranks = []
    for index, (name, total) in enumerate(ordered, start=1):
        shared = ranks and ranks[-1][2] == total
        ranks.append((ranks[-1][0] if shared else index, name, total))
    return ranks


def test_three_sessions_with_a_cut_a_consolante_a_carry_and_a_final_by_rank(arbiter):
    event, session_1 = new_event(16, owner=arbiter)
    seat(session_1, [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]])
    assert play(session_1, SESSION_1) == TOTALS_1
    assert ranking_of(cumulative_standings(session_1)) == by_hand(TOTALS_1)

    # The cut: half of 16, the others to the consolante; half the score carried.
    cut = cut_apply(
        source=session_1,
        rule="top_percent",
        value=50,
        consolante=True,
        carry_over_percent=50,
        seed=1,
        user=arbiter,
    )
    qualified = {"P10", "P7", "P13", "P2", "P5", "P11", "P1", "P14"}  # 56 down to 28
    assert {line["name"] for line in cut.report["qualified"]} == {f"{n} Jo" for n in qualified}
    assert cut.report["tie"] is None and cut.report["withdrawn"] == []
    main, consolante = cut.qualified, cut.consolante
    assert (main.session, main.bracket, consolante.bracket) == (2, "main", "consolante")
    assert {r.player.last_name for r in main.registrations.all()} == qualified
    # One venue: the consolante's tables come after the main bracket's.
    assert sorted(main.positions.get().tables.values_list("number", flat=True)) == [1, 2]
    assert sorted(consolante.positions.get().tables.values_list("number", flat=True)) == [3, 4]

    # Session 2: cumulative = 50 % of session 1 + session 2, exactly.
    main_2 = play(main, [[4, 10, 6], [2, 8, 13]])
    cons_2 = play(consolante, [[1, 5, 9], [7, 3, 11]])
    cumulative_2 = {n: Fraction(TOTALS_1[n], 2) + s for n, s in main_2.items()}
    assert ranking_of(cumulative_standings(main)) == by_hand(cumulative_2)
    cumulative_cons = {n: Fraction(TOTALS_1[n], 2) + s for n, s in cons_2.items()}
    assert ranking_of(cumulative_standings(consolante)) == by_hand(cumulative_cons)
    assert any(total.denominator == 2 for total in cumulative_2.values())  # 29 / 2 carried

    # The final: all 8, no consolante, everything carried, seated by the cumulative ranking.
    final = cut_apply(
        source=main,
        rule="top_n",
        value=8,
        consolante=False,
        carry_over_percent=100,
        seating_method="rank",
        user=arbiter,
    ).qualified
    order = [name for _rank, name, _total in by_hand(cumulative_2)]
    assert cumulative_2[order[3]] != cumulative_2[order[4]]  # the honour table is unambiguous
    assert numbers_by_table(final) == [sorted(order[:4]), sorted(order[4:])]
    assert final.positions.get().seating == "rank"

    final_3 = play(final, [[6, 2, 10], [9, 4, 1]])
    cumulative_3 = {n: cumulative_2[n] + s for n, s in final_3.items()}
    assert ranking_of(cumulative_standings(final)) == by_hand(cumulative_3)
    assert [b.session for b in cumulative_standings(final).chain] == [1, 2, 3]
