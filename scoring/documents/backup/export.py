"""Writing a backup: every row of the tournament, section by section, as JSON-ready values."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models

from scoring.documents.backup.document import FORMAT, SECTIONS, VERSION
from scoring.documents.backup.sending import KEY, sending_export

if TYPE_CHECKING:
    from tournament.models import Tournament


def _row(obj: models.Model, usernames: dict[int, str | None]) -> dict[str, Any]:
    row: dict[str, Any] = {"pk": obj.pk}
    user_model = get_user_model()
    for model_field in obj._meta.concrete_fields:
        if model_field.primary_key:
            continue
        value = model_field.value_from_object(obj)
        if model_field.is_relation and model_field.related_model is user_model:
            # Users are not backed up; keep the name so the history still says who.
            row[model_field.name] = _username(value, usernames)
        else:
            row[model_field.name] = model_field.get_prep_value(value) if value is not None else None
            if not isinstance(row[model_field.name], (str, int, float, bool, list, dict)) and (
                row[model_field.name] is not None
            ):
                row[model_field.name] = model_field.value_to_string(obj)
    if "username" in row and not row["username"] and isinstance(row.get("user"), str):
        # History written before usernames were kept as text: name the account's holder.
        row["username"] = row["user"]
    return row


def _username(user_id: int | None, usernames: dict[int, str | None]) -> str | None:
    if user_id is None:
        return None
    if user_id not in usernames:
        user = get_user_model()._default_manager.filter(pk=user_id).first()
        usernames[user_id] = user.get_username() if user else None
    return usernames[user_id]


def _rows_of(label: str, lookup: str, tournament: Tournament) -> models.QuerySet[models.Model]:
    model = apps.get_model(label)
    return model._default_manager.filter(**{lookup: tournament.pk}).distinct().order_by("pk")


def tournament_export(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as a JSON-ready document."""
    usernames: dict[int, str | None] = {}
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "name": tournament.name}
    club = tournament.host_club
    # Named for a comité's server, which takes a club's tournament only with that club's key
    # (scoring.upload.receive); a restore ignores it (the restorer's club is taken).
    data["club"] = {"name": club.name, "code": club.code} if club is not None else None
    # The laptop's identity of the tournament on the comité's server (backup.sending).
    data[KEY] = sending_export(tournament)
    data["sections"] = {
        label: [_row(obj, usernames) for obj in _rows_of(label, lookup, tournament).iterator()]
        for label, lookup in SECTIONS
    }
    return data


def tournament_export_json(tournament: Tournament) -> str:
    return json.dumps(tournament_export(tournament), ensure_ascii=False, indent=1)
