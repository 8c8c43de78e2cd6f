"""Teams of a team tournament: forming them and taking a player out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.access.audit import change_record, save_recorded
from tournament.access.lifecycle import ensure_tournament_open
from tournament.models import Registration, Team, Tournament


def team_size(tournament: Tournament) -> int:
    """How many players a team of this tournament has; refused for an individual tournament."""
    size = tournament.team_size
    if size is None:
        raise ValidationError(_("Ce tournoi est individuel : il n'y a pas d'équipes."))
    return size


def check_team_room(team: Team, *, adding: int) -> None:
    """Refused when `adding` more players would make the team larger than the formula's."""
    size = team_size(team.tournament)
    current = team.members.count()
    if current + adding > size:
        raise ValidationError(
            _("L'équipe %(team)s aurait %(count)s joueurs : la formule en prévoit %(size)s.")
            % {"team": team.name, "count": current + adding, "size": size}
        )


@transaction.atomic
def team_assign(
    *, tournament: Tournament, name: str, registrations: Sequence[Registration], user=None
) -> Team:
    """Create the team (or complete an existing one of that name) with the given players."""
    ensure_tournament_open(tournament)
    team_size(tournament)  # refused before anything is looked at when there are no teams
    name = " ".join(name.split())
    if not name:
        raise ValidationError({"name": _("Donnez un nom à l'équipe.")})
    foreign = [r for r in registrations if r.tournament_id != tournament.pk]
    if foreign:
        raise ValueError("registrations from another tournament")
    team, _created = Team.objects.get_or_create(tournament=tournament, name=name)
    team.tournament = tournament  # loaded already: the room check reads its formula
    joining = [r for r in registrations if r.team_id != team.pk]
    others = [r for r in joining if r.team_id is not None]
    if others:
        other_team = cast(Team, others[0].team)  # team_id is set: the team exists
        raise ValidationError(
            _("%(player)s est déjà dans l'équipe %(team)s.")
            % {"player": others[0].player.full_name, "team": other_team.name}
        )
    check_team_room(team, adding=len(joining))
    Registration.objects.filter(pk__in=[r.pk for r in joining]).update(team=team)
    change_record(
        tournament=tournament,
        obj=team,
        action="update",
        before=None,
        after={"members": [r.number for r in joining]},
        user=user,
    )
    return team


@transaction.atomic
def team_remove_member(*, registration: Registration, user=None) -> None:
    ensure_tournament_open(registration.tournament)
    team = registration.team
    if team is None:  # in no team: nothing to change
        return
    registration.team = None
    save_recorded(
        registration,
        update_fields=["team"],
        tournament=registration.tournament,
        before={"team": team.name},
        after={"team": None},
        user=user,
    )
    if not team.members.exists():
        team.delete()
