"""Score sheets: creation, the version check every write passes, states (validated, extra deals,
paper bilans) and why a sheet refuses changes.

Each write runs in one transaction and checks the sheet's version (optimistic concurrency: two
people editing the same sheet never silently overwrite each other).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from scoring.models import ScoreSheet, SheetPlayer
from tournament.access.audit import change_record, revision_bump
from tournament.access.lifecycle import Locked, ensure_position_open, ensure_tournament_open
from tournament.models import (
    DIRECTIONS,
    ChangeLog,
    Position,
    Registration,
    Table,
    Tournament,
    start_codes_of,
)


class StaleSheetError(Exception):
    """The sheet changed since the editor loaded it; nothing was written."""

    def __init__(self, sheet: ScoreSheet, expected: int | None):
        self.sheet = sheet
        self.expected = expected
        super().__init__(
            _("La feuille a été modifiée par quelqu'un d'autre (version %(current)s).")
            % {"current": sheet.version}
        )


def sheet_locked(sheet: ScoreSheet, *, with_tournament: bool = False) -> ScoreSheet:
    """The sheet's row, fresh and locked until the end of the transaction, the tournament's
    live revision taken first, as every write takes it (bump_version, the lifecycle's locks):
    one lock order, no deadlock on PostgreSQL. A write of this sheet alone: the other tables'
    phones keep their revision (Revision.common)."""
    revision_bump(sheet.tournament_id, tables=False)
    rows = ScoreSheet.objects.select_for_update()
    if with_tournament:
        rows = rows.select_related("tournament")
    return rows.get(pk=sheet.pk)


def bump_version(
    sheet: ScoreSheet, expected: int | None, *, validating: bool = False, after_close: bool = False
) -> None:
    """Compare-and-swap on the sheet's version, refused on a locked sheet.

    The UPDATE's conditions are on the sheet row itself (version, status), so that a database
    re-checks them after waiting for a concurrent writer's row lock (PostgreSQL does not
    re-check a subquery). Closing a position or finishing a tournament bumps the versions of
    their sheets, so a save racing with them fails the version check; the position and
    tournament are then read under this row lock. Raises Locked or StaleSheetError;
    `validating` lets the arbiter's (un)validation through a validated sheet, `after_close` their
    acceptance of a late deal through a closed position (scoring.sheets.waiting).
    """
    # The live revision first, as every write takes it: one lock order, no deadlock. This
    # sheet's alone: the other tables' phones keep theirs (Revision.common).
    revision_bump(sheet.tournament_id, tables=False)
    rows = ScoreSheet.objects.filter(pk=sheet.pk)
    if expected is not None:
        rows = rows.filter(version=expected)
    if not validating:
        rows = rows.exclude(status=ScoreSheet.Status.VALIDATED)
    if rows.update(version=F("version") + 1) != 1:
        sheet.refresh_from_db(fields=["version", "status"])
        ensure_sheet_writable(sheet, validating=validating, after_close=after_close)
        raise StaleSheetError(sheet, expected)
    # Raises Locked inside the caller's transaction, which then rolls the bump back.
    ensure_sheet_writable(sheet, validating=True, after_close=after_close)
    sheet.version = (expected if expected is not None else sheet.version) + 1


def ensure_sheet_writable(
    sheet: ScoreSheet, *, validating: bool = False, after_close: bool = False
) -> None:
    """Raise Locked when the sheet, its position or its tournament refuses changes (with
    `after_close`, a closed position does not)."""
    if sheet.table_id is not None and not after_close:  # the position's asks its tournament
        position = Position.objects.select_related("tournament").get(tables__pk=sheet.table_id)
        ensure_position_open(position)
    else:
        ensure_tournament_open(Tournament.objects.get(pk=sheet.tournament_id))
    if not validating and sheet.status == ScoreSheet.Status.VALIDATED:
        raise Locked(
            _("Cette feuille est validée : un arbitre doit la dévalider avant toute modification."),
            code="validated",
        )


def sheet_field_write(
    sheet: ScoreSheet,
    *,
    field: str,
    before: Any,
    after: Any,
    kind: str,
    action: str = ChangeLog.Action.UPDATE,
    note: dict[str, Any] | None = None,
    user: Any = None,
    username: str = "",
) -> None:
    """Store one field of a sheet and record the change, in the caller's transaction (after
    its version bump); `note` adds to the history's picture after the change."""
    setattr(sheet, field, after)
    ScoreSheet.objects.filter(pk=sheet.pk).update(**{field: after})
    change_record(
        tournament=sheet.tournament_id,
        obj=sheet,
        kind=kind,
        sheet=sheet,
        action=action,
        before={field: before},
        after={field: after, **(note or {})},
        user=user,
        username=username,
    )


def sheet_field_update(
    sheet: ScoreSheet, *, expected_version: int | None, validating: bool = False, **change: Any
) -> None:
    """The version's compare-and-swap (`bump_version`), then `sheet_field_write(**change)`, in
    one transaction."""
    with transaction.atomic():
        bump_version(sheet, expected_version, validating=validating)
        sheet_field_write(sheet, **change)


def sheet_players_count(sheet: ScoreSheet) -> int:
    """How many players the sheet has (counted once per sheet object)."""
    count: int | None = getattr(sheet, "_players_count", None)
    if count is None:
        count = sheet.players.count()
        setattr(sheet, "_players_count", count)  # noqa: B010 - a cache, not a model field
    return count


def sheet_for_table(*, table: Table) -> ScoreSheet:
    """The table's sheet, created on first use with the players in their seats."""
    sheet = ScoreSheet.objects.filter(table=table).first()
    if sheet is not None:
        return sheet
    with transaction.atomic():
        sheet, created = ScoreSheet.objects.get_or_create(
            table=table, defaults={"tournament_id": table.position.tournament_id}
        )
        if created:
            seats = sorted(table.seats.select_related("registration"), key=lambda s: s.index)
            SheetPlayer.objects.bulk_create(
                SheetPlayer(
                    sheet=sheet,
                    registration=seat.registration,
                    seat=index,
                    direction=seat.direction,
                    start_label=start_label(seat.registration),
                )
                for index, seat in enumerate(seats)
            )
    return sheet


def start_label(registration: Registration) -> str:
    """How FFT sheets name a player: table and direction at the first position played (the one
    rule, `tournament.seats.start_codes`); the registration number before any seating.

    Stored in no language (`seat_code`); pages print it with `start_display`.
    """
    return start_codes_of(registration.seats.all()).get(registration.pk, str(registration.number))


def sheet_create_free(
    *,
    tournament: Tournament,
    registrations: Sequence[Registration],
    title: str = "",
    user: Any = None,
) -> ScoreSheet:
    """A sheet without a seating plan: any 3 to 5 registered players (a club evening)."""
    ensure_tournament_open(tournament)
    if not 3 <= len(registrations) <= 5:
        raise ValueError("a sheet needs 3 to 5 players")
    if len({r.pk for r in registrations}) != len(registrations):
        raise ValueError("a player appears twice on the sheet")
    with transaction.atomic():
        sheet = ScoreSheet.objects.create(tournament=tournament, title=title)
        SheetPlayer.objects.bulk_create(
            SheetPlayer(
                sheet=sheet,
                registration=registration,
                seat=index,
                direction=DIRECTIONS[index],
                start_label=str(registration.number),
            )
            for index, registration in enumerate(registrations)
        )
        change_record(
            tournament=tournament,
            obj=sheet,
            kind=ChangeLog.ObjectType.SHEET,
            sheet=sheet,
            action=ChangeLog.Action.CREATE,
            after={"title": title, "players": [r.pk for r in registrations]},
            user=user,
        )
    return sheet


def sheet_set_paper_bilans(
    *,
    sheet: ScoreSheet,
    bilans: Sequence[int | None] | None,
    user: Any = None,
    expected_version: int | None = None,
) -> ScoreSheet:
    """Store the bilans written on the paper sheet (by seat) for the cross-check."""
    sheet_field_update(
        sheet,
        expected_version=expected_version,
        field="paper_bilans",
        before=sheet.paper_bilans,
        after=list(bilans) if bilans is not None else None,
        kind=ChangeLog.ObjectType.PAPER_BILANS,
        user=user,
    )
    return sheet


def sheet_validate(
    *,
    sheet: ScoreSheet,
    validated: bool = True,
    reason: str = "",
    user: Any = None,
    expected_version: int | None = None,
) -> ScoreSheet:
    """The arbiter accepts the sheet, or takes the acceptance back (with a reason, logged).

    A validated sheet refuses every change until it is un-validated. When the organiser
    publishes only validated sheets, validating is what puts them on the public standings.
    """
    status = ScoreSheet.Status.VALIDATED if validated else ScoreSheet.Status.IN_PROGRESS
    reason = (reason or "").strip()[:500]
    if not validated and not reason:
        raise ValidationError({"reason": _("Indiquez pourquoi vous dévalidez la feuille.")})
    before = sheet.status  # as loaded: the version's check says it is still so
    reopening = not validated and before == ScoreSheet.Status.VALIDATED
    sheet_field_update(
        sheet,
        expected_version=expected_version,
        validating=True,
        field="status",
        before=before,
        after=status,
        kind=ChangeLog.ObjectType.SHEET_STATUS,
        action=ChangeLog.Action.REOPEN if reopening else ChangeLog.Action.UPDATE,
        note={"reason": reason} if reason else None,
        user=user,
    )
    return sheet


def sheet_allow_extra_deal(
    *, sheet: ScoreSheet, user: Any = None, expected_version: int | None = None
) -> ScoreSheet:
    """The arbiter lets a table's sheet hold one deal more than the tournament's count."""
    with transaction.atomic():
        bump_version(sheet, expected_version)
        before = ScoreSheet.objects.values_list("extra_deals", flat=True).get(pk=sheet.pk)
        sheet_field_write(
            sheet,
            field="extra_deals",
            before=before,
            after=before + 1,
            kind=ChangeLog.ObjectType.SHEET_EXTRA_DEALS,
            user=user,
        )
    return sheet


def sheet_lock_message(sheet: ScoreSheet) -> str:
    """Why the sheet refuses changes, or "" (from the loaded objects: no query)."""
    try:
        ensure_tournament_open(sheet.tournament)
        if sheet.table is not None:
            position = sheet.table.position
            position.tournament = sheet.tournament
            ensure_position_open(position)
    except Locked as err:
        return " ".join(err.messages)
    if sheet.status == ScoreSheet.Status.VALIDATED:
        return str(_("Feuille validée : elle ne peut plus changer tant qu'un arbitre ne l'a pas "
                     "dévalidée."))  # fmt: skip
    return ""
