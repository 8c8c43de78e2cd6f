"""The change log: the one history of every write, for both apps."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, models
from django.utils.translation import gettext_lazy as _

from . import choices
from .clubs import Club
from .fields import account_link, optional_link
from .tournaments import Tournament


class ChangeLog(models.Model):
    """Who changed what, when, with the state before and after: nothing is overwritten.

    The one history of every write (results, seating, settings), in this lower app so that both
    apps record through tournament.access.audit.change_record. Its table keeps the name it had when
    it lived in scoring (no data moved); `sheet` points up at scoring's sheets by name only.
    """

    Action = choices.Action
    ObjectType = choices.ObjectType

    # Empty only for what spans tournaments (a season championship's settings).
    tournament = optional_link(
        Tournament, _("tournoi"), on_delete=models.CASCADE, related_name="changes"
    )
    # The club a record concerns beyond any one tournament (its members, a roster merge or a
    # licence conflict: one record in each club concerned).
    club = optional_link(Club, _("club"), on_delete=models.CASCADE, related_name="changes")
    sheet = models.ForeignKey(
        "scoring.ScoreSheet",
        verbose_name=_("feuille"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="changes",
    )
    object_type = models.CharField(_("objet"), max_length=40, choices=ObjectType.choices)
    object_id = models.PositiveBigIntegerField(_("identifiant"), null=True, blank=True)
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    before = models.JSONField(_("avant"), null=True, blank=True)
    after = models.JSONField(_("après"), null=True, blank=True)
    user = account_link(_("par"))
    # The author's username as text: the history stays readable when the account goes, and a
    # restored history names its authors without being credited to any local account.
    username = models.CharField(_("auteur"), max_length=150, blank=True)
    at = models.DateTimeField(_("le"), auto_now_add=True)

    class Meta:
        db_table = "scoring_changelog"  # where it was created, in the scoring app
        verbose_name = _("historique")
        verbose_name_plural = _("historique")
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.object_type} {self.object_id}"

    def save(self, *args, **kwargs):
        if self.user_id and not self.username and self.user is not None:
            self.username = self.user.get_username()
        super().save(*args, **kwargs)
        if self.tournament_id is not None:  # every record moves the live pages' version
            # A record about one sheet (its deals, signatures, incidents) leaves the other
            # tables' phones as they were: only the whole revision moves.
            revision_bump(self.tournament_id, tables=self.sheet_id is None)


class Revision(models.Model):
    """The tournament's live revision: a number that moves, in the same transaction, with every
    write that can change what a live page shows (tournament.access.audit.revision_bump, called
    by the history's one writer). Live pages are versioned by it (scoring.live.versioned); a
    read never moves it. Its own row, so that saving a tournament's settings from a form can
    never write an older number back.

    `common` moves with the same writes except those no table's phone page shows but its own
    sheet's (its deals, confirmations, signatures, incidents: bump_version, a record naming the
    sheet): a table's phone page is versioned by it and its own sheet's
    (scoring.live.views.table), so a deal at one table leaves the other tables' phones a 304.

    `attempts` counts the attempts at the tournament's codes (tournament.access.throttle), which
    the cockpit alone shows (a locked code): neither number moves with them, so a phone typing
    its code, or a stranger guessing one, re-sends no public page. The cockpit is versioned by
    `number + attempts` (each only grows, so the sum moves whenever either does)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="revision"
    )
    number = models.PositiveBigIntegerField(_("révision"), default=0)
    common = models.PositiveBigIntegerField(_("révision hors feuilles"), default=0)
    attempts = models.PositiveBigIntegerField(_("tentatives de code"), default=0, db_default=0)

    class Meta:
        verbose_name = _("révision en direct")
        verbose_name_plural = _("révisions en direct")

    def __str__(self) -> str:
        return f"{self.tournament_id}@{self.number}"


def revision_bump(tournament_id: int, *, tables: bool = True) -> None:
    """Move the tournament's live revision by one, in the caller's transaction: one upsert, which
    holds the revision's row lock until the transaction ends, so revisions follow commit order
    (a page computed at revision N holds every write numbered N or below). `common` moves too,
    unless no table's phone page shows the write but its own sheet's (`tables=False`: a sheet's
    own write; Revision's docstring). A code attempt moves `attempts` instead (attempt_bump)."""
    q = connection.ops.quote_name
    table, key, number = q(Revision._meta.db_table), q("tournament_id"), q("number")
    common, step = q("common"), 1 if tables else 0
    sql = (
        f"INSERT INTO {table} ({key}, {number}, {common}) VALUES (%s, 1, %s) "
        f"ON CONFLICT ({key}) DO UPDATE SET {number} = {table}.{number} + 1, "
        f"{common} = {table}.{common} + %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament_id, step, step])


def attempt_bump(tournament_id: int) -> None:
    """One more attempt at one of the tournament's codes, for the cockpit's version alone (one
    upsert; the revision itself stays: Revision's docstring)."""
    q = connection.ops.quote_name
    table, key, attempts = q(Revision._meta.db_table), q("tournament_id"), q("attempts")
    sql = (
        f"INSERT INTO {table} ({key}, {q('number')}, {q('common')}, {attempts}) "
        f"VALUES (%s, 0, 0, 1) "
        f"ON CONFLICT ({key}) DO UPDATE SET {attempts} = {table}.{attempts} + 1"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament_id])


def revisions_bump(tournament_ids: Iterable[int]) -> None:
    """Move several tournaments' revisions (an event's brackets, a player's tournaments) in
    ascending id order, whatever order they are given in: two writes over the same brackets
    then take their row locks in one order and cannot deadlock on PostgreSQL. A write over
    several brackets takes them all here first, before any other lock."""
    for tournament_id in sorted(set(tournament_ids)):
        revision_bump(tournament_id)


def revision_of(tournament_id: int, *, attempts: bool = False) -> int:
    """The tournament's live revision (0 before its first write), plus the attempts at its codes
    when asked (the cockpit's version). Asked by every live page's poll: one plain statement
    (through the ORM, building it cost ten times running it)."""
    q = connection.ops.quote_name
    column = f"{q('number')} + {q('attempts')}" if attempts else q("number")
    sql = f"SELECT {column} FROM {q(Revision._meta.db_table)} WHERE {q('tournament_id')} = %s"
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament_id])
        found = cursor.fetchone()
    return found[0] if found else 0
