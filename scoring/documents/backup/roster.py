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
from tournament.players.identity import players_by_licence


def players_match(
    plan: Plan, *, club_id: int | None, fail: Callable[[str, str], BackupError]
) -> None:
    """Players with a licence on the restoring club's roster are that roster player (not
    copied). Any other is copied as the club's own entry, never matched to (nor showing)
    another club's: other clubs' rosters are not read here; the copies' licences are compared
    with them after the response (tournament.players.checks, issues 27 and 36)."""
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
    for licence, known in players_by_licence(licences, among=club_players(club_id)).items():
        plan.reused_players[licences[licence]] = known.pk
