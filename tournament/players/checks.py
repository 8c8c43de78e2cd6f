"""Licence checks: a new entry's licence compared with other clubs' rosters after the response.

Registering, importing, signing up, restoring and correcting a licence queue one check per
licensed entry they put on a club's roster (licence_check_queue: one INSERT), whatever other
clubs' rosters hold: the request reads nothing of them, so its statements, answer and time are
the same whether or not another club holds the licence (no licence oracle, issue 36). The
queue is looked at once the response is sent (request_finished, in the process that queued),
and by `manage.py licence_checks` for what a script or a stopped process left: a licence an
earlier entry of another club holds opens a conflict for that club (conflicts.conflict_flag).
"""

from __future__ import annotations

import logging
import threading

from django.db import transaction

from tournament.models import LicenceCheck, Player
from tournament.players import identity
from tournament.players.conflicts import conflict_flag

logger = logging.getLogger("tournament.players.checks")
_due = threading.local()  # this thread queued a check: look at the queue after the response


def licence_check_queue(*, newcomer: Player, user=None) -> None:
    """Queue the comparison of a club's new (or corrected) entry with other clubs' rosters."""
    if not newcomer.licence or newcomer.origin_club_id is None:
        return  # nothing to compare, or an entry of no club (an install from before clubs)
    account = user if getattr(user, "is_authenticated", False) else None
    LicenceCheck.objects.create(newcomer=newcomer, user=account)
    _due.pending = True


def licence_checks_process(*, limit: int = 500) -> int:
    """Look at the queued checks, oldest first, each in its own transaction (taken by deleting
    it: two processes never flag one twice); how many conflicts were opened. The holder is
    the first entry by id of another club with the licence, among entries not waiting for
    their own check (two clubs' entries queued together: the older check's entry holds)."""
    opened = 0
    for pk in LicenceCheck.objects.order_by("pk").values_list("pk", flat=True)[:limit]:
        with transaction.atomic():
            check = LicenceCheck.objects.select_related("newcomer", "user").filter(pk=pk).first()
            if check is None or not LicenceCheck.objects.filter(pk=pk).delete()[0]:
                continue  # taken by another process
            newcomer = check.newcomer
            if not newcomer.licence or newcomer.origin_club_id is None:
                continue
            others = (
                Player.objects.exclude(pk=newcomer.pk)
                .exclude(origin_club_id=newcomer.origin_club_id)
                .exclude(origin_club_id=None)
                .exclude(pk__in=LicenceCheck.objects.values("newcomer_id"))
            )
            holder = identity.players_by_licence([newcomer.licence], among=others)
            existing = holder.get(newcomer.licence)
            if existing is not None and conflict_flag(
                licence=newcomer.licence, existing=existing, newcomer=newcomer, user=check.user
            ):
                opened += 1
    return opened


def checks_after_response(**_kwargs) -> None:
    """request_finished: the response is sent; look at the checks this thread queued."""
    if not getattr(_due, "pending", False):
        return
    _due.pending = False
    try:
        licence_checks_process()
    except Exception:  # never the visitor's problem: the command picks the checks up later
        logger.exception("licence checks left for manage.py licence_checks")


def _forget(**_kwargs) -> None:
    """request_started: only what this request queues is looked at after it (a check queued
    outside any request, by a script, waits for the command or the next request's)."""
    _due.pending = False


def connect() -> None:
    from django.core.signals import request_finished, request_started

    request_started.connect(_forget, dispatch_uid="licence-checks-forget")
    request_finished.connect(checks_after_response, dispatch_uid="licence-checks")
