"""The checked rows a restore inserts, section by section, still keyed by the file."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import models

if TYPE_CHECKING:
    from scoring.documents.backup.fields import ModelField

M = TypeVar("M", bound=models.Model)


@dataclass
class Plan:
    """Checked rows ready to insert: unsaved instances whose foreign keys still hold the file's
    primary keys, with the file's key of each row (same order)."""

    objects: dict[str, list[models.Model]] = field(default_factory=lambda: defaultdict(list))
    keys: dict[str, list[Any]] = field(default_factory=lambda: defaultdict(list))
    # File keys of players matched to roster players already in the database.
    reused_players: dict[Any, int] = field(default_factory=dict)
    restorer: Any = None  # the account restoring (the guard of a person's history asks it)
    sent: Any = None  # the file's record of its sending to the comité (backup.sending)

    def rows(self, model: type[M]) -> Iterator[tuple[Any, M]]:
        """(file key, instance) of each checked row of a model's section."""
        label = model._meta.label_lower
        for key, obj in zip(self.keys[label], self.objects[label], strict=True):
            assert isinstance(obj, model)  # the section holds instances of its model only
            yield key, obj


def related_label(model_field: ModelField) -> str | None:
    """The section a foreign key points at; None for a user (accounts are never restored), for
    a club (the restorer's club is taken) and for a bracket's event (a restored bracket stands
    alone: the event is not in the file)."""
    related = model_field.related_model
    if not isinstance(related, type) or related is get_user_model():
        return None
    if related._meta.label_lower in ("tournament.event", "tournament.club"):
        return None
    return related._meta.label_lower
