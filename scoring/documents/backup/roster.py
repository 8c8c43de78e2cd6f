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
from tournament.players.identity import Typed, roster_players_for


def players_match(
    plan: Plan, *, club_id: int | None, fail: Callable[[str, str], BackupError]
) -> None:
    """Players with a licence on the restoring club's roster are that roster player (not
    copied), found as every path finds a person (identity.roster_player_for). Any other is
    copied as the club's own entry, never matched to (nor showing) another club's: other
    clubs' rosters are not read here; the copies' licences are compared with them after the
    response (tournament.players.checks, issues 27 and 36)."""
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
    players = dict(plan.rows(Player))
    typed = [
        Typed(players[key].last_name, players[key].first_name, players[key].club, licence)
        for licence, key in licences.items()
    ]
    # By licence only: a backup's own players come back onto the entries they were, even
    # renamed since; a player without a licence is copied (no name guess on a whole file).
    for match in roster_players_for(
        typed, among=club_players(club_id), names_among=Player.objects.none()
    ):
        if match.holder is not None:
            plan.reused_players[licences[match.typed.licence]] = match.holder.pk
