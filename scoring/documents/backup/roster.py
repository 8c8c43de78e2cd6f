"""A backup's players and the roster: matched by licence within the restoring club only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from scoring.documents.backup.document import BackupError
from scoring.documents.backup.fields import row_name
from scoring.documents.backup.plan import Plan
from tournament.access.scopes import club_players
from tournament.models import Player

BATCH = 500


def players_match(
    plan: Plan, *, club_id: int | None, fail: Callable[[str, str], BackupError]
) -> None:
    """Players with a licence on the restoring club's roster are that roster player (not
    copied). One whose licence only another club's entry holds is copied as the club's own
    entry, never matched to (nor showing) the other club's: plan.licences_elsewhere, flagged as
    a licence conflict once written (issue 27)."""
    licences: dict[str, Any] = {}
    for key, player in plan.rows(Player):
        if player.licence:
            if player.licence in licences:
                raise fail(
                    row_name("tournament.player", key),
                    _("même licence que %(other)s.")
                    % {"other": row_name("tournament.player", licences[player.licence])},
                )
            licences[player.licence] = key
    numbers = list(licences)
    for start in range(0, len(numbers), BATCH):
        batch = numbers[start : start + BATCH]
        mine = club_players(club_id).filter(licence__in=batch)
        for licence, pk in mine.values_list("licence", "pk"):
            plan.reused_players[licences[licence or ""]] = pk  # matched by licence: never null
        others = Player.objects.filter(licence__in=batch).order_by("-pk")
        for licence, pk in others.values_list("licence", "pk"):
            key = licences[licence or ""]
            if key not in plan.reused_players:
                plan.licences_elsewhere[key] = pk  # the first entry by id, as at the desk
