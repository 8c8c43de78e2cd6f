"""What this app asks of the results app built on it (scoring), without importing it.

`tournament` never imports `scoring` (an import-linter contract in pyproject.toml). Where a
tournament write needs a result-side answer or effect, scoring plugs it in here from its
AppConfig.ready(): a Django signal for what follows a write, a registered function for a
question a write must ask first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.dispatch import Signal

# Sent by position_publish once the publication is committed (sender=Position, position=...):
# scoring gives every table its link and code for entering deals on the phones.
position_published = Signal()

# (tournament, positions) -> {position id: ToEnter}: the sheets still to enter per position.
SheetsToEnter = Callable[[Any, Sequence[Any]], dict[int, Any]]
_sheets_to_enter: SheetsToEnter | None = None


def provide_sheets_to_enter(func: SheetsToEnter) -> None:
    global _sheets_to_enter
    _sheets_to_enter = func


def sheets_to_enter(tournament: Any, positions: Sequence[Any]) -> dict[int, Any]:
    if _sheets_to_enter is None:  # a wiring mistake, never a user's: fail loudly
        raise ImproperlyConfigured("scoring is not installed: nothing counts the sheets to enter")
    return _sheets_to_enter(tournament, positions)


# (tournament) -> registration ids, best first: the current standings of the counted positions,
# for a position seated by rank or in a snake (tournament.core.seating.seeded).
StandingsOrder = Callable[[Any], list[int]]
_standings_order: StandingsOrder | None = None


def provide_standings_order(func: StandingsOrder) -> None:
    global _standings_order
    _standings_order = func


def standings_order(tournament: Any) -> list[int]:
    if _standings_order is None:  # a wiring mistake, never a user's: fail loudly
        raise ImproperlyConfigured("scoring is not installed: nothing ranks the players")
    return _standings_order(tournament)


# (tournament, positions or None for all) -> what waits at each table (scoring.sheets.waiting's
# TableWaits: `number`, `position_number`, `count`), tables with nothing waiting left out: a
# close, a finish and a seating by rank refuse while anything waits.
WaitingDeals = Callable[[Any, Sequence[Any] | None], list[Any]]
_waiting_deals: WaitingDeals | None = None


def provide_waiting_deals(func: WaitingDeals) -> None:
    global _waiting_deals
    _waiting_deals = func


def waiting_deals(tournament: Any, positions: Sequence[Any] | None = None) -> list[Any]:
    if _waiting_deals is None:  # a wiring mistake, never a user's: fail loudly
        raise ImproperlyConfigured("scoring is not installed: nothing tells what deals wait")
    return _waiting_deals(tournament, positions)
