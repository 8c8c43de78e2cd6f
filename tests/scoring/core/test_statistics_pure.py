"""scoring.core.statistics counts a player's game from plain deal records, without a database."""

import dataclasses
import datetime

from hypothesis import given
from hypothesis import strategies as st

from scoring.core.deal import CONTRACTS, POIGNEE_SIZES, Deal
from scoring.core.engine import score_deal
from scoring.core.statistics import (
    DEFENDER,
    PARTNER,
    TAKER,
    DealRecord,
    PenaltyRecord,
    contract_won,
    player_statistics,
    season_of,
    statistics_by_player,
    totals,
)

TABLE = ("ann", "bob", "cat", "dan")


# The fields a statistics record copies from the engine's deal (all they have in common).
SHARED_FIELDS = sorted(
    {f.name for f in dataclasses.fields(Deal)} & {f.name for f in dataclasses.fields(DealRecord)}
)


def record_of(deal: Deal, seats: tuple, round_=1) -> DealRecord:
    """The statistics record of an engine deal at these seats, scored by the engine."""
    copied = {name: getattr(deal, name) for name in SHARED_FIELDS}
    copied["poignees"] = tuple(tuple(p) for p in deal.poignees)
    return DealRecord(seats=tuple(seats), scores=score_deal(deal).scores, round=round_, **copied)


def record(**inputs) -> DealRecord:
    """A deal at TABLE (or the given seats), scored by the engine."""
    seats = inputs.pop("seats", TABLE)
    round_ = inputs.pop("round", 1)
    return record_of(Deal(players=len(seats), **inputs), seats, round_)


def test_a_garde_made_and_a_prise_lost_count_for_the_taker_and_the_defenders():
    deals = [
        record(taker=0, contract="garde", oudlers=2, points=50, round=1),
        record(taker=0, contract="prise", oudlers=1, points=40, round=2),
        DealRecord(seats=TABLE, scores=(0, 0, 0, 0), passed=True, round=2),
    ]
    ann = player_statistics(deals, "ann")
    assert ann.deals == 3 and ann.passed == 1 and ann.takes == 2
    assert (ann.contracts["garde"].taken, ann.contracts["garde"].won) == (1, 1)
    assert (ann.contracts["prise"].taken, ann.contracts["prise"].won) == (1, 0)
    assert ann.success_rate == 0.5
    assert ann.takes_per_deal == 2 / 3
    # Garde won by 9: (25 + 9) x 2 = 68 from each defender; prise lost by 11: 36.
    assert ann.roles[TAKER].total == 3 * 68 - 3 * 36
    assert ann.roles[TAKER].average == (3 * 68 - 3 * 36) / 2
    assert ann.rounds == {1: 204, 2: -108}
    bob = player_statistics(deals, "bob")
    assert bob.takes == 0 and bob.takes_per_deal == 0
    assert bob.roles[DEFENDER].deals == 2 and bob.roles[DEFENDER].average == (-68 + 36) / 2


def test_at_five_the_partner_and_the_mort_are_told_apart():
    five = ("ann", "bob", "cat", "dan", "eve")
    called = record(seats=five, taker=0, partner=2, contract="garde", oudlers=3, points=60)
    dead = record(seats=five, taker=1, dead=4, contract="prise", oudlers=1, points=55)
    stats = statistics_by_player([called, dead])
    assert stats["cat"].roles[PARTNER].deals == 1
    assert stats["cat"].roles[PARTNER].total == called.scores[2] > 0
    # The mort sits the deal out: no deal played, no score.
    assert stats["eve"].deals == 1 and stats["eve"].roles[DEFENDER].deals == 1
    assert stats["ann"].roles[DEFENDER].deals == 1 and stats["ann"].deals == 2


def test_poignees_petit_au_bout_and_chelems_belong_to_the_players_side():
    deals = [
        record(
            taker=0,
            contract="garde",
            oudlers=2,
            points=50,
            poignees=[[0, "double"]],
            petit_au_bout="defense",
        ),
        record(
            taker=1,
            contract="garde_sans",
            oudlers=3,
            points=91,
            chelem_announced=True,
            chelem="attack",
            petit_au_bout="attack",
            poignees=[[2, "simple"]],
        ),
    ]
    stats = statistics_by_player(deals)
    assert stats["ann"].poignees == {"simple": 0, "double": 1, "triple": 0}
    assert stats["cat"].poignees == {"simple": 1, "double": 0, "triple": 0}
    assert (stats["ann"].petit_made, stats["ann"].petit_lost) == (0, 2)
    assert (stats["bob"].petit_made, stats["bob"].petit_lost) == (2, 0)
    assert stats["bob"].chelems_made == 1 and stats["bob"].chelems_announced == 1
    assert stats["dan"].chelems_conceded == 1 and stats["dan"].chelems_announced == 0


def test_cancelled_deals_count_nowhere_and_penalties_are_added():
    deals = [DealRecord(seats=TABLE, scores=(0, 0, 0, 0), cancelled=True)]
    stats = statistics_by_player(deals, [PenaltyRecord("ann", 20), PenaltyRecord("ann", 10)])
    assert stats["ann"].deals == 0
    assert (stats["ann"].penalties, stats["ann"].penalty_points) == (2, 30)
    assert "bob" not in stats


def test_a_figure_only_deal_is_made_when_the_takers_figure_is_positive():
    made = DealRecord(seats=TABLE, scores=(150, -50, -50, -50), taker=0, contract="garde")
    lost = DealRecord(seats=TABLE, scores=(-150, 50, 50, 50), taker=0, contract="garde")
    assert contract_won(made) and not contract_won(lost)


def test_the_season_runs_from_september_to_august():
    assert season_of(datetime.date(2025, 3, 15)) == (
        datetime.date(2024, 9, 1),
        datetime.date(2025, 8, 31),
    )
    assert season_of(datetime.date(2025, 9, 1))[0] == datetime.date(2025, 9, 1)
    assert season_of(datetime.date(2025, 8, 31))[0] == datetime.date(2024, 9, 1)


@st.composite
def deals(draw):
    players = draw(st.sampled_from([3, 4, 5]))
    seats = tuple(draw(st.permutations(["ann", "bob", "cat", "dan", "eve"]))[:players])
    if draw(st.booleans()) and draw(st.integers(0, 5)) == 0:
        return DealRecord(seats=seats, scores=(0,) * players, passed=True)
    taker = draw(st.integers(0, players - 1))
    partner = None
    if players == 5 and draw(st.booleans()):
        partner = draw(st.integers(0, 4).filter(lambda s: s != taker))
    poignee_seat = draw(st.one_of(st.none(), st.integers(0, players - 1)))
    deal = Deal(
        players=players,
        taker=taker,
        partner=partner,
        contract=draw(st.sampled_from(CONTRACTS)),
        oudlers=draw(st.integers(0, 3)),
        points=draw(st.integers(20, 70)),
        poignees=[]
        if poignee_seat is None
        else [[poignee_seat, draw(st.sampled_from(POIGNEE_SIZES))]],
        petit_au_bout=draw(st.sampled_from([None, "attack", "defense"])),
    )
    return record_of(deal, seats, draw(st.integers(1, 4)))


@given(st.lists(deals(), max_size=30))
def test_counts_add_up_whatever_the_deals(records):
    stats = statistics_by_player(records)
    played = [d for d in records if not d.passed]
    total = totals(stats.values())
    # Every played deal has one taker: per-contract counts add up to the takes.
    assert total.takes == len(played)
    for one in stats.values():
        assert sum(c.taken for c in one.contracts.values()) == one.takes
        assert one.takes <= one.deals
        assert 0 <= one.won <= one.takes
        for count in one.contracts.values():
            assert count.success_rate is None or 0 <= count.success_rate <= 1
        assert one.takes_per_deal is None or 0 <= one.takes_per_deal <= 1
        assert sum(one.rounds.values()) == one.points
        assert sum(r.total for r in one.roles.values()) == one.points
    # A zero-sum game: everybody's points add up to nothing.
    assert total.points == 0
    # Seats filled = deals counted (nobody is a mort here).
    assert total.deals == sum(len(d.seats) for d in records)
    # The engine's own verdict: a contract made pays the taker.
    for deal in played:
        assert contract_won(deal) == (deal.scores[deal.taker] > 0)
