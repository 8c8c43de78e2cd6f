"""A new version of a sent tournament replaces the previous one's content in place: the server's
tournament keeps its id, so its public link, its championships and circuits and anything else
pointing at it still do; the versions' documents stay in scoring.uploads.ReceivedVersion.

The new version is first written as a restore writes a backup (every check, the roster, the
licence checks), as a tournament of its own; its content then moves onto the kept tournament,
whose previous content is deleted, and the emptied new row goes. All in the caller's
transaction: a refusal later on rolls it all back.
"""

from __future__ import annotations

from typing import Any

from django.db import models

from scoring.documents.backup.plan import Plan
from scoring.models import Incident, LiveArtifact, ScoreSheet
from tournament.models import ChangeLog, Player, Position, Registration, Team, Tournament
from tournament.models.audit import revision_bump
from tournament.players.identity import Typed, roster_players_for

# What a backup holds of a tournament, by the models pointing at it directly (their own
# children, tables, seats, deals and scores, follow them). Children before parents.
CONTENT: tuple[type[models.Model], ...] = (
    Incident,
    ScoreSheet,
    Position,
    Registration,
    Team,
)
# Caches of the previous content: computed again from the new one.
CACHES: tuple[type[models.Model], ...] = (LiveArtifact,)


def unlicensed_players_match(plan: Plan, *, previous: Tournament) -> None:
    """The document's players without a licence are the previous version's same people (same
    name and club, by the one roster lookup), not new roster entries at each version: a restore
    copies them (no name guess on a whole file), a resend of the same tournament finds them."""
    unlicensed = [(key, player) for key, player in plan.rows(Player) if not player.licence]
    if not unlicensed:
        return
    among = Player.objects.filter(registrations__tournament=previous).distinct()
    typed = [Typed(p.last_name, p.first_name, p.club, "") for _key, p in unlicensed]
    taken: set[int] = set(plan.reused_players.values())
    for (key, _player), match in zip(
        unlicensed, roster_players_for(typed, among=among), strict=True
    ):
        # Two homonyms of one club in one tournament: each takes the next entry of that name.
        found = next((known for known in match.namesakes if known.pk not in taken), None)
        if found is not None:
            plan.reused_players[key] = found.pk
            taken.add(found.pk)


def _field_values(tournament: Tournament) -> dict[str, Any]:
    return {
        field.attname: getattr(tournament, field.attname)
        for field in Tournament._meta.concrete_fields
        if not field.primary_key
    }


def tournament_replace(*, kept: Tournament, new: Tournament) -> Tournament:
    """Give `kept` the content of `new` (just written from the next version) and delete `new`;
    returns `kept`, reloaded."""
    for model in CONTENT + CACHES:
        model._default_manager.filter(tournament=kept).delete()
    # The previous document's history records (a restore files them under no club and no
    # account); the server's own records of this tournament (entering a circuit) stay.
    ChangeLog.objects.filter(tournament=kept, club=None, user=None).delete()
    moved: tuple[type[models.Model], ...] = (*CONTENT, ChangeLog)
    for part in moved:
        part._default_manager.filter(tournament=new).update(tournament=kept)
    values = _field_values(new)
    new.delete()  # empty now; deleted first, its unique fields (a hall link) free again
    Tournament.objects.filter(pk=kept.pk).update(**values)
    revision_bump(kept.pk)  # moved by plain updates: the live pages' revision moves here
    kept.refresh_from_db()
    return kept
