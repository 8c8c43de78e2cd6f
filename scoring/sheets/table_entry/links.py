"""A table's link: the secret token (QR code) or short code that opens one table's phone page,
while its position is published and the tournament lets players enter deals."""

from __future__ import annotations

import re
import secrets

from django.db import IntegrityError, transaction
from django.db.models import Max, Subquery

from scoring.models import ScoreSheet, TableLink
from tournament.access.audit import change_record
from tournament.models import ChangeLog, Position, Revision, Tournament

# Unambiguous letters and digits for a code read off paper (no 0/O, 1/I/L).
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6


def phones_enabled(tournament: Tournament) -> bool:
    """Whether players may enter deals on their phones (not paper only)."""
    return tournament.entry_mode != Tournament.EntryMode.PAPER


class TableClosed(Exception):
    """The link is unknown, revoked, or its table may not be written any more."""


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def links_for_position(position: Position) -> list[TableLink]:
    """Every table of the position gets its link (created once; idempotent)."""
    tables = list(position.tables.all())
    existing = {link.table_id: link for link in TableLink.objects.filter(table__in=tables)}
    for table in tables:
        if table.pk in existing:
            continue
        for _attempt in range(10):
            try:
                with transaction.atomic():
                    existing[table.pk] = TableLink.objects.create(
                        table=table, token=secrets.token_urlsafe(24), code=_new_code()
                    )
                break
            except IntegrityError:  # a code already taken: draw again
                continue
    return [existing[t.pk] for t in tables if t.pk in existing]


def normalise_code(code: str) -> str:
    return re.sub(r"[^0-9A-Z]", "", (code or "").upper())[:12]


def link_for(token: str) -> TableLink:
    """The usable link of a token, or TableClosed."""
    if not token or len(token) > 64:
        raise TableClosed
    link = (
        TableLink.objects.select_related("table__position__tournament").filter(token=token).first()
    )
    if link is None:
        raise TableClosed
    check_open(link)
    return link


def check_open(link: TableLink) -> None:
    position = link.table.position
    tournament = position.tournament
    if (
        link.revoked
        or position.status != Position.Status.PUBLISHED
        or tournament.status == Tournament.Status.FINISHED
        or tournament.entry_mode == Tournament.EntryMode.PAPER
    ):
        raise TableClosed


def link_revoke(*, link: TableLink, user=None) -> TableLink:
    """The arbiter cuts a table's link (a lost sheet, a leaked QR code); a new one replaces it."""
    table = link.table
    with transaction.atomic():
        link.delete()
        change_record(
            tournament=table.position.tournament_id,
            obj=table,
            kind=ChangeLog.ObjectType.TABLE_LINK,
            action=ChangeLog.Action.DELETE,
            before={"table": table.number, "position": table.position.number},
            user=user,
        )
    return next(new for new in links_for_position(table.position) if new.table_id == table.pk)


def table_revision(tournament_id: int, table_id: int) -> int:
    """What a table's phone page shows moves this number, in one statement: the tournament's
    writes other than one sheet's own (Revision.common: seats, names, settings, positions),
    plus the table's sheet's own writes, each of which moves its version (bump_version) or
    leaves a record naming it (the history's ids only grow): their sum, each part only growing.
    A deal at another table moves none of them."""
    sheets = ScoreSheet.objects.filter(table_id=table_id)
    logged = (
        ChangeLog.objects.filter(sheet__table_id=table_id)
        .order_by()
        .values("sheet_id")
        .annotate(last=Max("pk"))
        .values("last")
    )
    found = (
        Revision.objects.filter(pk=tournament_id)
        .annotate(version=Subquery(sheets.values("version")[:1]), logged=Subquery(logged[:1]))
        .values_list("common", "version", "logged")
        .first()
    )
    if found is None:  # nothing written yet
        return 0
    common, version, last = found
    # A sheet counts one from the moment it exists (its version starts at 0).
    return common + (0 if version is None else version + 1) + (last or 0)


def table_sheet(link: TableLink) -> ScoreSheet | None:
    """The table's sheet if it exists (a GET never creates it)."""
    return (
        ScoreSheet.objects.select_related("tournament", "table__position")
        .filter(table=link.table)
        .first()
    )
