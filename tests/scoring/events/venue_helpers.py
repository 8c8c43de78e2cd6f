"""A small event for the venue's tests: 8 players, session 1 played on two tables, cut to the
top 4 (the others to a consolante) with half the score carried; session 2's positions drafted.
Every total is known by hand (tests/scoring/events/event_helpers.play)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from scoring.events.cuts import cut_apply
from scoring.sheets.services.deals import deal_record
from scoring.sheets.services.sheets import sheet_for_table
from tests.scoring.events.event_helpers import new_event, play, seat
from tournament.evening.positions import position_publish
from tournament.models import Cut, Event, Tournament

# Table 1: V = 30, 34, 27; table 2: V = 32, 26, 37 (event_helpers.play's stakes, 25 + a).
SESSION_1 = [[5, 9, 2], [7, 1, 12]]
TOTALS_1 = {"P1": 29, "P2": 45, "P3": 17, "P4": -91, "P5": 33, "P6": 9, "P7": 53, "P8": -95}
# The top 4 (53, 45, 33, 29) go on; 17, 9, −91, −95 to the consolante.
QUALIFIED = {"P7", "P2", "P5", "P1"}


@dataclass
class CutEvent:
    event: Event
    session_1: Tournament
    cut: Cut

    @property
    def main(self) -> Tournament:
        return self.cut.qualified

    @property
    def consolante(self) -> Tournament:
        assert self.cut.consolante is not None
        return self.cut.consolante


def cut_event(owner, *, players: int = 8, public: bool = False) -> CutEvent:
    """The event with its cut applied (session 2 seated by the generator, drafts)."""
    event, session_1 = new_event(players, owner=owner, is_public=public)
    tables = [list(range(n, n + 4)) for n in range(1, players + 1, 4)]
    seat(session_1, tables)
    values = (SESSION_1 * (players // 8 + 1))[: players // 4]
    play(session_1, values)
    cut = cut_apply(
        source=session_1,
        rule="top_n",
        value=players // 2,
        consolante=True,
        carry_over_percent=50,
        seed=1,
        user=owner,
    )
    return CutEvent(event=event, session_1=session_1, cut=cut)


def session_2_scores(result: CutEvent) -> dict[str, Fraction]:
    """Play session 2 in both brackets (one table each, 8 players): cumulative totals by hand."""
    main = play(result.main, [[4, 10, 6]])
    consolante = play(result.consolante, [[1, 5, 9]])
    return {
        name: Fraction(TOTALS_1[name], 2) + score for name, score in (main | consolante).items()
    }


def deal(sheet, taker: int = 0) -> None:
    deal_record(
        sheet=sheet,
        data={"players": 4, "taker": taker, "contract": "prise", "oudlers": 2, "points": 46},
    )


def start_session_2(result: CutEvent) -> None:
    """Session 2 under way: both brackets' position 1 published; at the main bracket's first
    table one deal typed (in play), at the consolante's first table all three (complete, to
    validate); the other tables not started."""
    for bracket, deals in ((result.main, 1), (result.consolante, 3)):
        position = bracket.positions.get(number=1)
        position_publish(position=position, unfinished_confirmed=True)
        first = position.tables.order_by("number").first()
        sheet = sheet_for_table(table=first)
        for taker in range(deals):
            deal(sheet, taker)
