"""The one way to write the history: every write that changes a result, a seating or a setting
calls change_record (tournament's services and scoring's alike). Every record moves the
tournament's live revision in the same transaction (revision_bump, in ChangeLog.save), the one
version of the live pages (scoring.live.versioned); the few writes that leave no record move it
themselves: a tournament or event saved (connect), a sheet's version bumped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import models
from django.db.models.signals import post_save

from tournament.models import ChangeLog, Club, Event, Tournament
from tournament.models.audit import revision_bump, revision_of, revisions_bump

__all__ = [
    "change_record",
    "revision_bump",
    "revision_of",
    "revisions_bump",
    "save_recorded",
    "settings_save",
]

Action = ChangeLog.Action
ObjectType = ChangeLog.ObjectType


def change_record(
    *,
    tournament: Tournament | int | None,
    obj: models.Model,
    action: str,
    before: Any = None,
    after: Any = None,
    user: Any = None,
    kind: str | None = None,
    sheet: models.Model | int | None = None,
    username: str = "",
    club: Club | None = None,
) -> ChangeLog:
    """Record who changed `obj`, when, with the state before and after.

        `tournament` and `sheet` may be given as objects or ids (no query either way); only what
        spans tournaments (a season championship) has no tournament; `club` files a record in a
    club's own history (its members, a merge or a licence conflict concerning it). `kind` tells
        which part of `obj` changed when it is not the object itself (a sheet's status, its paper
        bilans); by default the record is about the object's own type. `username` names an author
        without an account (a player confirming at the table); an account's name is kept otherwise.
    """
    kind = kind or obj._meta.model_name
    if kind not in ObjectType.values:  # a new kind of record must be named in ObjectType
        raise ValueError(f"unknown history object type: {kind!r}")
    change = ChangeLog(
        object_type=kind,
        object_id=obj.pk,
        action=Action(action),
        before=before,
        after=after,
        user=user if user is not None and user.is_authenticated else None,
        username=username,
        club=club,
    )
    if isinstance(tournament, Tournament):
        change.tournament = tournament
    else:
        change.tournament_id = tournament
    if isinstance(sheet, models.Model):
        change.sheet_id = sheet.pk
    else:
        change.sheet_id = sheet
    change.save()  # moves the tournament's live revision (ChangeLog.save)
    return change


def _tournament_saved(sender: type, instance: Tournament, raw: bool = False, **kwargs: Any) -> None:
    if not raw:  # a fixture's load
        revision_bump(instance.pk)


def _event_saved(sender: type, instance: Event, raw: bool = False, **kwargs: Any) -> None:
    """An event's page shows its own settings beside its brackets': each bracket moves (in
    ascending order, as every write over several brackets takes them)."""
    if not raw:
        revisions_bump(Tournament.objects.filter(event=instance).values_list("pk", flat=True))


def connect() -> None:
    """A tournament's or event's settings are saved without a record when nothing changed, or
    by a form's save: their revision moves all the same."""
    post_save.connect(_tournament_saved, sender=Tournament, dispatch_uid="revision-tournament")
    post_save.connect(_event_saved, sender=Event, dispatch_uid="revision-event")


def save_recorded(
    obj: models.Model,
    *,
    update_fields: list[str],
    tournament: Tournament | int | None,
    before: Any,
    after: Any,
    user: Any = None,
    action: str = "update",
) -> None:
    """Save the fields of `obj` a service just set, and record the change: the write-and-log
    step of every service that edits an object in place."""
    obj.save(update_fields=update_fields)
    change_record(
        tournament=tournament, obj=obj, action=action, before=before, after=after, user=user
    )


def json_value(value: Any) -> Any:
    """A setting as the history stores it (dates and times as ISO text)."""
    return value.isoformat() if hasattr(value, "isoformat") else value


def settings_save(
    tournament: Tournament, fields: Sequence[str], data: Mapping[str, Any], user: Any = None
) -> None:
    """A settings form's write: the tournament's `fields` found in `data` set and validated,
    only those columns saved, and the ones that changed recorded (before and after); no record
    when none did."""
    before = {key: json_value(getattr(tournament, key)) for key in fields}
    for key in fields:
        if key in data:
            setattr(tournament, key, data[key])
    tournament.full_clean()
    tournament.save(update_fields=[*fields, "updated_at"])
    after = {key: json_value(getattr(tournament, key)) for key in fields}
    changed = [key for key in fields if before[key] != after[key]]
    if changed:
        change_record(
            tournament=tournament,
            obj=tournament,
            action="update",
            before={k: before[k] for k in changed},
            after={k: after[k] for k in changed},
            user=user,
        )
