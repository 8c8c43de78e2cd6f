"""What counts: the one rule saying which deals enter a total, for the arbiter as for the public.

A deal counts once it is confirmed, by a player of the other side (an opponent's proof) or by an
arbiter's act (typed at the desk, or confirmed there), and while nobody contests it. A deal a
phone entered that nobody vouched for yet, or that an opponent contested, is kept and shown
beside the totals (scoring.live.waiting), never inside them.

Every total reads its deals through `DealQuerySet.counted()` or `DealScoreQuerySet.counted()`;
the plain SQL reads embed `DealQuerySet.counted_sql()`, compiled from that same queryset; what
waits is `waiting()`, its complement. No other module filters deals on their confirmation
(tests/scoring/live/test_one_counting_rule.py holds that). Which *sheets* each audience sees is a
different question (scoring.live.counted.visible_sheets_of).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import connection, models
from django.db.models import Q

if TYPE_CHECKING:  # named in the querysets' type parameters; the models import this module
    from scoring.models import Deal, DealScore  # noqa: F401


def _rule(prefix: str = "") -> Q:
    """The rule, over the deal reached through `prefix` (a DealScore's `deal__`)."""
    # `pending`: entered on a phone, neither an opponent nor an arbiter vouched for it yet;
    # `disputed`: an opponent refused it at the table.
    return Q(**{f"{prefix}pending": False, f"{prefix}disputed": False})


def waiting_rule() -> Q:
    """The deals that do not count, as a condition (for an aggregate's filter)."""
    return ~_rule()


class DealQuerySet(models.QuerySet["Deal"]):
    def counted(self) -> DealQuerySet:
        """The deals that count in every total."""
        return self.filter(_rule())

    def waiting(self) -> DealQuerySet:
        """The deals kept but not counted: waiting for a confirmation, or contested."""
        return self.exclude(_rule())

    def counted_sql(self, alias: str) -> tuple[str, list[Any]]:
        """counted()'s condition in plain SQL over the deal table aliased `alias`, with its
        parameters: compiled from the queryset itself, so that the two can never differ."""
        query = DealQuerySet(self.model).counted().query.chain()
        query.change_aliases({query.get_initial_alias(): alias})
        sql, params = query.where.as_sql(query.get_compiler(connection=connection), connection)
        return sql, list(params)


class DealScoreQuerySet(models.QuerySet["DealScore"]):
    def counted(self) -> DealScoreQuerySet:
        """The players' scores of the deals that count (DealQuerySet.counted's rule)."""
        return self.filter(_rule("deal__"))
