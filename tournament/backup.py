"""Back up a whole tournament to one JSON document and restore it into any database.

The document lists every row that belongs to the tournament (players, teams, registrations,
positions, tables, seats, sheets, deals, scores, incidents, history) in dependency order. On
restore every row gets a new primary key and foreign keys are remapped, so a backup can be loaded
next to other tournaments; players are matched to the roster by licence number when they have one.
A file that is not such a backup, or that is damaged, is refused before anything is written.
"""

from __future__ import annotations

import json
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.utils.translation import gettext as _

FORMAT = "tarot-desk-backup"
VERSION = 1

# (model label, lookup from the model to its tournament). Parents come before children.
SECTIONS: list[tuple[str, str]] = [
    ("tournament.player", "registrations__tournament"),
    ("tournament.tournament", "id"),
    ("tournament.team", "tournament"),
    ("tournament.registration", "tournament"),
    ("tournament.position", "tournament"),
    ("tournament.table", "position__tournament"),
    ("tournament.seat", "table__position__tournament"),
    ("scoring.scoresheet", "tournament"),
    ("scoring.sheetplayer", "sheet__tournament"),
    ("scoring.deal", "sheet__tournament"),
    ("scoring.dealscore", "deal__sheet__tournament"),
    ("scoring.incident", "tournament"),
    ("scoring.changelog", "tournament"),
]


class BackupError(ValueError):
    """The file cannot be restored; the message says why, for the arbiter."""


def _model(label: str) -> type[models.Model]:
    return apps.get_model(label)


def _user_model() -> type[models.Model]:
    return get_user_model()


def _row(obj: models.Model) -> dict[str, Any]:
    row: dict[str, Any] = {"pk": obj.pk}
    for field in obj._meta.concrete_fields:
        if field.primary_key:
            continue
        value = field.value_from_object(obj)
        if field.is_relation and field.related_model is _user_model():
            # Users are not backed up; keep the name so the history still says who.
            row[field.name] = _username(value)
        else:
            row[field.name] = field.get_prep_value(value) if value is not None else None
            if not isinstance(row[field.name], (str, int, float, bool, list, dict, type(None))):
                row[field.name] = field.value_to_string(obj)
    return row


_usernames: dict[int, str] = {}


def _username(user_id: int | None) -> str | None:
    if user_id is None:
        return None
    if user_id not in _usernames:
        user = _user_model().objects.filter(pk=user_id).first()
        _usernames[user_id] = user.get_username() if user else None
    return _usernames[user_id]


def _rows_of(label: str, lookup: str, tournament) -> models.QuerySet:
    return _model(label).objects.filter(**{lookup: tournament.pk}).distinct().order_by("pk")


def tournament_export(tournament) -> dict[str, Any]:
    """The whole tournament as a JSON-ready document."""
    _usernames.clear()
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "name": tournament.name}
    data["sections"] = {
        label: [_row(obj) for obj in _rows_of(label, lookup, tournament)]
        for label, lookup in SECTIONS
    }
    return data


def tournament_export_json(tournament) -> str:
    return json.dumps(tournament_export(tournament), ensure_ascii=False, indent=1)


def _check_document(data: Any) -> dict[str, list[dict[str, Any]]]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(_("Ce fichier n'est pas une sauvegarde de tournoi Tarot Desk."))
    if data.get("version") != VERSION:
        raise BackupError(
            _("Version de sauvegarde %(version)s non prise en charge.")
            % {"version": data.get("version")}
        )
    sections = data.get("sections")
    if not isinstance(sections, dict) or [label for label, _s in SECTIONS] != list(sections):
        raise BackupError(_("La sauvegarde est incomplète ou endommagée."))
    for rows in sections.values():
        if not isinstance(rows, list) or not all(
            isinstance(row, dict) and "pk" in row for row in rows
        ):
            raise BackupError(_("La sauvegarde est incomplète ou endommagée."))
    if len(sections["tournament.tournament"]) != 1:
        raise BackupError(_("La sauvegarde doit contenir exactement un tournoi."))
    return sections


def tournament_import(raw: str | bytes, *, user=None):
    """Restore a backup as a new tournament; returns it. Raises BackupError, writing nothing."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise BackupError(_("Ce fichier n'est pas un JSON lisible.")) from exc
    sections = _check_document(data)
    user_model = _user_model()
    users = {u.get_username(): u.pk for u in user_model.objects.all()}
    pk_map: dict[str, dict[Any, Any]] = {}
    try:
        with transaction.atomic():
            for label, _lookup in SECTIONS:
                model = _model(label)
                pk_map[label] = {}
                for row in sections[label]:
                    obj = _restore_row(model, label, row, pk_map, users)
                    pk_map[label][row["pk"]] = obj.pk
            tournament = _model("tournament.tournament").objects.get(
                pk=pk_map["tournament.tournament"][sections["tournament.tournament"][0]["pk"]]
            )
            if user is not None and tournament.owner_id is None:
                tournament.owner = user
                tournament.save(update_fields=["owner"])
    except BackupError:
        raise
    except (KeyError, TypeError, ValueError, LookupError) as exc:
        raise BackupError(_("La sauvegarde est incomplète ou endommagée.")) from exc
    except Exception as exc:  # an IntegrityError and the like: refuse, nothing was written
        raise BackupError(
            _("La sauvegarde ne peut pas être restaurée : %(error)s") % {"error": exc}
        ) from exc
    return tournament


def _restore_row(model, label, row, pk_map, users) -> models.Model:
    values: dict[str, Any] = {}
    for field in model._meta.concrete_fields:
        if field.primary_key or field.name not in row:
            continue
        value = row[field.name]
        if field.is_relation:
            related = field.related_model
            if related is _user_model():
                value = users.get(value) if value else None
            elif value is not None:
                value = pk_map[related._meta.label_lower][value]
            values[field.attname] = value
        else:
            values[field.attname] = field.to_python(value) if value is not None else None
    if label == "tournament.player" and values.get("licence"):
        existing = model.objects.filter(licence=values["licence"]).first()
        if existing is not None:
            return existing
    obj = model(**values)
    obj.save(force_insert=True)
    # auto_now fields took the restore's time; put back the recorded ones (update() skips them).
    stamps = {
        f.attname: values[f.attname]
        for f in model._meta.concrete_fields
        if (getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False))
        and values.get(f.attname) is not None
    }
    if stamps:
        model.objects.filter(pk=obj.pk).update(**stamps)
    return obj
