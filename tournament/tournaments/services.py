"""Creating a tournament and editing its settings (logged field by field)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.access.audit import settings_save
from tournament.access.lifecycle import ensure_tournament_open, locked_tournament
from tournament.evening.plan_inputs import refuse_typed_drafts
from tournament.evening.selectors import last_played_position
from tournament.models import Club, Position, Tournament

TOURNAMENT_FIELDS = (
    "name",
    "date",
    "venue",
    "club",
    "format",
    "positions_count",
    "position_minutes",
    "deals_per_table_4",
    "deals_per_table_5",
    "deals_per_table_3",
    "remainder",
    "rule_set",
    "is_public",
    "entry_mode",
    "sheet_style",
    "public_requires_validation",
    "normalise_tables",
    "tie_breaks",
)


def tournament_create(*, data: dict[str, Any], owner=None, club: Club | None = None) -> Tournament:
    """A new tournament of `club`, one of the owner's clubs (by default the one it chose last:
    tournament.clubs.selectors.home_club)."""
    from tournament.clubs.selectors import clubs_of, home_club

    if club is not None and owner is not None and not owner.is_superuser:
        if not clubs_of(owner).filter(pk=club.pk).exists():
            raise ValidationError({"host_club": _("Choisissez l'un de vos clubs.")})
    tournament = Tournament(
        owner=owner,
        host_club=club if club is not None else home_club(owner),
        **{k: data[k] for k in TOURNAMENT_FIELDS if k in data},
    )
    tournament.full_clean()
    tournament.save()
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, data: dict[str, Any], user=None) -> Tournament:
    """The settings the form edits, on the tournament's fresh locked row: a finish, a hall link
    or sign-up settings saved since the page was read stay as they are."""
    tournament = locked_tournament(tournament)
    ensure_tournament_open(tournament)
    played = last_played_position(tournament)
    if data.get("positions_count", tournament.positions_count) < played:
        raise ValidationError(
            {
                "positions_count": _(
                    "%(played)s positions sont déjà publiées : le tournoi ne peut pas en "
                    "compter moins."
                )
                % {"played": played}
            }
        )
    if data.get("format", tournament.format) != tournament.format and tournament.teams.exists():
        raise ValidationError(
            {"format": _("Des équipes existent déjà : supprimez-les avant de changer de formule.")}
        )
    new_count = data.get("positions_count", tournament.positions_count)
    if new_count < tournament.positions_count:
        # Lowering the count deletes the drafts beyond it: never with typed sheets.
        refuse_typed_drafts(tournament, new_count + 1)
    settings_save(tournament, TOURNAMENT_FIELDS, data, user)
    # Drafts beyond the new count are not part of the tournament any more.
    tournament.positions.filter(
        number__gt=tournament.positions_count, status=Position.Status.DRAFT
    ).delete()
    return tournament
