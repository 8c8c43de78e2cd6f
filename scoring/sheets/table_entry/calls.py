"""A table calls the arbiter from a phone; the cockpit and the desk show the call until an
arbiter takes it."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import TableCall, TableLink
from scoring.sheets.table_entry.deals import clean_note
from tournament.access import throttle
from tournament.access.audit import change_record
from tournament.models import ChangeLog, Tournament

CALLS_PER_HOUR = 20  # per table: a stuck button or a prankster can't flood the desk
# How long the table's phones say "L'arbitre arrive" after an arbiter clicked "J'y vais".
TAKEN_SHOWN = datetime.timedelta(minutes=10)


class CallRefused(Exception):
    """Too many calls from one table; the message says what to do (in French)."""


def arbiter_call(*, link: TableLink, deal_number: Any = None, note: Any = "") -> TableCall:
    """Open the table's call (a second tap while one is open answers the open one)."""
    table = link.table
    number = (
        deal_number
        if isinstance(deal_number, int)
        and not isinstance(deal_number, bool)
        and 0 < deal_number < 1000
        else None
    )
    text = clean_note(note)
    open_call = TableCall.objects.filter(table=table, taken_at=None).first()
    if open_call is not None:
        return open_call
    if throttle.hit(f"call:{table.pk}", 3600) > CALLS_PER_HOUR:
        raise CallRefused(_("Trop d'appels depuis cette table : faites signe à l'arbitre."))
    try:
        with transaction.atomic():
            call = TableCall.objects.create(table=table, deal_number=number, note=text)
            change_record(
                tournament=table.position.tournament_id,
                obj=call,
                action=ChangeLog.Action.CREATE,
                after={"table": table.number, "deal": number, "note": text},
                username=_("Table %(number)s") % {"number": table.number},
            )
    except IntegrityError:  # two taps at once: the other one opened it
        return TableCall.objects.get(table=table, taken_at=None)
    return call


def table_call_shown(table_id: int) -> TableCall | None:
    """The call the table's phones show (one query): the open one ("Appel envoyé, l'arbitre va
    venir"), else one an arbiter took in the last TAKEN_SHOWN ("L'arbitre arrive")."""
    call = TableCall.objects.filter(table_id=table_id).order_by("-created_at", "-pk").first()
    if call is None or call.taken_at is None:
        return call
    return call if timezone.now() - call.taken_at < TAKEN_SHOWN else None


def open_calls(tournament: Tournament) -> list[TableCall]:
    """Calls no arbiter has taken yet, oldest first (one query)."""
    return list(
        TableCall.objects.filter(table__position__tournament=tournament, taken_at=None)
        .select_related("table__position")
        .order_by("created_at", "pk")
    )


def call_take(*, call: TableCall, user: Any) -> TableCall:
    """An arbiter goes to the table: the call leaves every screen, logged."""
    with transaction.atomic():
        updated = TableCall.objects.filter(pk=call.pk, taken_at=None).update(
            taken_at=timezone.now(), taken_by=user
        )
        if updated:
            change_record(
                tournament=call.table.position.tournament_id,
                obj=call,
                action=ChangeLog.Action.UPDATE,
                before={"table": call.table.number, "taken": False},
                after={"table": call.table.number, "taken": True},
                user=user,
            )
    call.refresh_from_db()
    return call
