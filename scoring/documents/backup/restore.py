"""Restoring a backup: check it all, then insert the rows in one short transaction."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connections, models, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.translation import gettext as _

from scoring.documents.backup.checker import Checker
from scoring.documents.backup.document import (
    BATCH_SIZE,
    LABELS,
    BackupError,
    check_document,
    parse_backup,
    unreadable,
)
from scoring.documents.backup.plan import Plan, related_label
from scoring.documents.backup.sending import KEY as SENT
from scoring.documents.backup.sending import sending_restore
from tournament.access.history import history_guard
from tournament.clubs.selectors import home_club, restorable_clubs
from tournament.evening.positions import published_on_commit
from tournament.models import Club, Player, Position, Tournament
from tournament.players.checks import licence_check_queue

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

logger = logging.getLogger("scoring.documents.backup")


@dataclass
class _Rows:
    """One section ready for INSERT: values already converted for the database, so that the
    write transaction only swaps the file's keys for the new ones and runs the statements."""

    model: type[models.Model]
    fields: list[models.Field[Any, Any]]
    keys: list[Any]  # the file's key of each row
    values: list[list[Any]]  # one list of database values per row, in `fields` order
    relations: list[tuple[int, str]]  # (index in `fields`, label of the section it points at)


def _prepare(plan: Plan, connection: BaseDatabaseWrapper) -> list[_Rows]:
    """Everything of the insert that can be done before taking the write lock."""
    prepared = []
    for label in LABELS:
        model = apps.get_model(label)
        fields = [f for f in model._meta.concrete_fields if not f.primary_key and not f.generated]
        relations = []
        for index, model_field in enumerate(fields):
            target = related_label(model_field) if model_field.is_relation else None
            if target is not None:
                relations.append((index, target))
        rows = _Rows(model, fields, [], [], relations)
        for key, obj in zip(plan.keys[label], plan.objects[label], strict=True):
            if model is Player and key in plan.reused_players:
                continue  # the roster player already in the database stands for it
            # Raw values, as loaddata saves them: no pre_save, so auto_now and auto_now_add
            # fields keep the recorded times.
            rows.keys.append(key)
            rows.values.append(
                [f.get_db_prep_save(getattr(obj, f.attname), connection) for f in fields]
            )
        prepared.append(rows)
    return prepared


def _insert(
    rows: _Rows, new_keys: dict[str, dict[Any, Any]], connection: BaseDatabaseWrapper
) -> None:
    """Insert a section in batches of multi-row INSERT … RETURNING (what bulk_create runs on
    PostgreSQL and SQLite ≥ 3.35); records the new key of each row."""
    if not rows.values:
        return
    for index, target in rows.relations:
        mapping = new_keys[target]
        for values in rows.values:
            if values[index] is not None:
                values[index] = mapping[values[index]]
    meta = rows.model._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in rows.fields)
    placeholders = "(" + ", ".join(["%s"] * len(rows.fields)) + ")"
    table, pk = quote(meta.db_table), quote(meta.pk.column)
    bulk = connection.features.can_return_rows_from_bulk_insert
    batch = max(1, min(BATCH_SIZE, connection.ops.bulk_batch_size(rows.fields, rows.values)))
    created = new_keys[meta.label_lower]
    with connection.cursor() as cursor:
        for start in range(0, len(rows.values), batch if bulk else 1):
            chunk = rows.values[start : start + (batch if bulk else 1)]
            sql = f"INSERT INTO {table} ({columns}) VALUES {', '.join([placeholders] * len(chunk))}"
            params = [value for values in chunk for value in values]
            if bulk:
                cursor.execute(f"{sql} RETURNING {pk}", params)
                new = [row[0] for row in cursor.fetchall()]
            else:
                cursor.execute(sql, params)
                new = [connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)]
            created.update(zip(rows.keys[start : start + len(chunk)], new, strict=True))


def _copied_licensed(plan: Plan) -> list[Any]:
    """File keys of the players copied (not matched to the roster) that carry a licence."""
    return [
        key
        for key, player in plan.rows(Player)
        if player.licence and key not in plan.reused_players
    ]


def _guard(plan: Plan, user) -> None:
    """The guard of a person's history (issue 36), as for a merge or an import: the roster
    entries the backup's players are matched to are entries the restorer may see; nothing
    else of anybody's history changes (the tournament and its other entries are new)."""
    if user is None:  # a script restores as nobody, as it imports
        return
    try:
        history_guard(players=(), reused=plan.reused_players.values(), users=[user])
    except ValidationError as refused:
        raise BackupError(" ".join(refused.messages)) from None


def _write(plan: Plan) -> Tournament:
    """Insert the checked rows in one short transaction; returns the new tournament."""
    connection = connections[router.db_for_write(Tournament)]
    prepared = _prepare(plan, connection)
    new_keys: dict[str, dict[Any, Any]] = {label: {} for label in LABELS}
    new_keys["tournament.player"].update(plan.reused_players)
    with transaction.atomic(using=connection.alias):
        for rows in prepared:
            _insert(rows, new_keys, connection)
        # The copied entries' licences, compared with other clubs' rosters after the response.
        copied = [new_keys["tournament.player"][key] for key in _copied_licensed(plan)]
        for newcomer in Player.objects.filter(pk__in=copied).order_by("pk"):
            licence_check_queue(newcomer=newcomer, user=plan.restorer)
        tournament_key = plan.keys["tournament.tournament"][0]
        restored = Tournament.objects.get(pk=new_keys["tournament.tournament"][tournament_key])
        # A backup holds no table link (their secrets stay where they were made): the
        # published positions get new ones, as when they were published.
        for position in restored.positions.filter(status=Position.Status.PUBLISHED):
            published_on_commit(position)
    return restored


def tournament_check(
    raw: str | bytes,
    *,
    user: AbstractBaseUser | AnonymousUser | None = None,
    club: Club | None = None,
    operator: bool = False,
) -> Plan:
    """Parse and check a backup without writing anything; raises BackupError. The tournament
    and its new roster entries go to `club` (the restorer's first club when not given), which
    must be one of the user's clubs unless `operator` (the server's own command: any club)."""
    data = parse_backup(raw)
    sections = check_document(data)
    club = club if club is not None else home_club(user)
    if (
        club is not None
        and not operator
        and getattr(user, "is_authenticated", False)
        and not restorable_clubs(user).filter(pk=club.pk).exists()
    ):  # the service's own check, whatever club a page or a caller offered (issue 36)
        raise BackupError(
            _(
                "Vous ne pouvez pas restaurer un tournoi dans le club « %(club)s » : "
                "vous n'en êtes pas membre."
            )
            % {"club": club.name}
        )
    checker = Checker(
        sections, owner_id=user.pk if user is not None else None, club_id=club.pk if club else None
    )
    try:
        plan = checker.check()
    except BackupError:
        raise
    except Exception as exc:  # a case the checks above missed: refuse the file, never a 500
        logger.exception("Unexpected error while checking a backup")
        raise unreadable() from exc
    plan.sent = data.get(SENT)
    return plan


def tournament_import(
    raw: str | bytes,
    *,
    user: AbstractBaseUser | AnonymousUser | None = None,
    club: Club | None = None,
    operator: bool = False,
    copy: bool = False,
) -> Tournament:
    """Restore a backup as a new tournament owned by `user`, in `club` (one of
    `restorable_clubs(user)`, chosen by the caller; the user's first club when not given);
    returns it. The same evening keeps its identity on the comité's server (backup.sending);
    a `copy` gets a new one at its first send.

    Raises BackupError, writing nothing, when the file is not a sound backup.
    """
    plan = tournament_check(raw, user=user, club=club, operator=operator)
    tournament = tournament_write(plan, user=user)
    if not copy:
        sending_restore(tournament, plan.sent)
    return tournament


def tournament_write(
    plan: Plan, *, user: AbstractBaseUser | AnonymousUser | None = None
) -> Tournament:
    """Insert a checked plan (tournament_check's) as a new tournament, through the guard of a
    person's history; BackupError, writing nothing, when the guard or the database refuses."""
    _guard(plan, user)
    try:
        plan.restorer = user  # who queued the licence checks the restore raises
        return _write(plan)
    except DatabaseError as exc:  # e.g. a licence registered meanwhile: nothing was written
        raise BackupError(
            _("La sauvegarde ne peut pas être restaurée : %(error)s") % {"error": exc}
        ) from exc
