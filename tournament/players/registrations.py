"""Registering players (from the roster or new), late arrivals, withdrawals and their undo."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournament.access.audit import change_record, save_recorded
from tournament.access.lifecycle import ensure_tournament_open
from tournament.access.scopes import club_players, visible_players
from tournament.evening.selectors import last_played_position
from tournament.models import Player, Registration, Team, Tournament
from tournament.players import identity
from tournament.players.checks import licence_check_queue
from tournament.players.licence import licence_clean
from tournament.players.names import person_clean
from tournament.players.teams import check_team_room


def next_number(tournament: Tournament) -> int:
    return (tournament.registrations.aggregate(n=Max("number"))["n"] or 0) + 1


def _typed_player(
    *,
    tournament: Tournament,
    last_name: str,
    first_name: str,
    licence: str,
    club: str,
    other_player: bool,
    user,
) -> Player:
    """The roster player the typed fields name: the holder of the licence in the tournament's
    club (refused when the names differ), else a new player saved on the roster as the
    tournament's club's entry, unless the name and club are those of a roster player the user
    may see and `other_player` does not say the arbiter checked (identity.LikelyDuplicate).
    A licence another club's entry holds flags a licence conflict later (players.checks)."""
    typed = person_clean({"last_name": last_name, "first_name": first_name, "club": club})
    last_name, first_name, club = typed["last_name"], typed["first_name"], typed["club"]
    try:
        licence = licence_clean(licence)
    except ValidationError as invalid:
        raise ValidationError({"licence": invalid.messages}) from None
    # The licence is checked against this club's roster only: another club's entry is none of
    # its business, and never blocks the evening (compared later: players.checks). Namesakes
    # are looked for among the entries the user may see, unless the arbiter checked already.
    seen = None if user is None else visible_players(user)
    match = identity.roster_player_for(
        identity.Typed(last_name, first_name, club, licence),
        among=club_players(tournament.host_club_id),
        names_among=Player.objects.none() if other_player else seen,
    )
    if match.holder is not None:
        if not match.same_name:
            raise ValidationError(
                {
                    "licence": _("La licence %(licence)s est déjà celle de %(player)s.")
                    % {"licence": licence, "player": match.holder.full_name}
                }
            )
        return Player.objects.get(pk=match.holder.pk)  # the same licence: the same person
    if match.namesakes:
        raise identity.LikelyDuplicate(list(match.namesakes))
    player = Player(
        last_name=last_name,
        first_name=first_name,
        licence=licence,
        club=club,
        origin_club_id=tournament.host_club_id,
    )
    player.full_clean(validate_constraints=False)
    identity.roster_entry_save(player)
    # Compared with other clubs' rosters after the response, whatever they hold (issue 36).
    licence_check_queue(newcomer=player, user=user)
    return player


@transaction.atomic
def player_register(
    *,
    tournament: Tournament,
    player: Player | None = None,
    last_name: str = "",
    first_name: str = "",
    licence: str = "",
    club: str = "",
    team: Team | None = None,
    other_player: bool = False,
    user=None,
) -> Registration:
    """Register a roster player, or a new one created on the roster from the given fields.

    A new player whose licence is on the roster is that roster player (refused when the names
    differ: a mistyped licence). One with the name and club of a roster player raises
    identity.LikelyDuplicate unless `other_player` says the arbiter checked it is someone else.
    Once positions have been published, the player joins at the first position still to play.
    """
    ensure_tournament_open(tournament)
    if player is None:
        typed = partial(
            _typed_player,
            tournament=tournament,
            user=user,
            last_name=last_name,
            first_name=first_name,
            licence=licence,
            club=club,
            other_player=other_player,
        )
        try:
            player = typed()
        except identity.LicenceTaken:  # saved by another desk or sign-up of the club just now:
            player = typed()  # that entry, found this time (or refused if another name)
    if tournament.registrations.filter(player=player).exists():
        raise ValidationError(
            _("%(player)s a déjà une inscription à ce tournoi.") % {"player": player.full_name}
        )
    _ensure_not_in_another_bracket(tournament, player)
    if team is not None:
        check_team_room(team, adding=1)
    registration = Registration.objects.create(
        tournament=tournament,
        player=player,
        team=team,
        number=next_number(tournament),
        first_position=last_played_position(tournament) + 1,
    )
    change_record(
        tournament=tournament,
        obj=registration,
        action="create",
        before=None,
        after={"player": player.full_name, "first_position": registration.first_position},
        user=user,
    )
    return registration


def _ensure_not_in_another_bracket(tournament: Tournament, player: Player) -> None:
    """A player plays one bracket of an event's session at a time: registered in the main
    bracket and the consolante both, they would be seated at two tables at once."""
    if tournament.event_id is None:
        return
    elsewhere = (
        Registration.objects.filter(
            tournament__event_id=tournament.event_id,
            tournament__session=tournament.session,
            player=player,
        )
        .exclude(tournament=tournament)
        .exclude(status=Registration.Status.WITHDRAWN)
        .select_related("tournament")
        .first()
    )
    if elsewhere is not None:
        raise ValidationError(
            _("%(player)s joue déjà dans un autre tableau de cette séance (%(bracket)s).")
            % {"player": player.full_name, "bracket": elsewhere.tournament.get_bracket_display()}
        )


@transaction.atomic
def registration_withdraw(*, registration: Registration, user=None) -> Registration:
    """The player stops after the last published position; drafts must then be re-planned."""
    ensure_tournament_open(registration.tournament)
    if registration.status == Registration.Status.WITHDRAWN:
        raise ValidationError(_("Ce joueur a déjà déclaré forfait."))
    before = _withdrawal(registration)
    registration.status = Registration.Status.WITHDRAWN
    registration.withdrawn_after = last_played_position(registration.tournament)
    save_recorded(
        registration,
        update_fields=["status", "withdrawn_after"],
        tournament=registration.tournament,
        before=before,
        after=_withdrawal(registration),
        user=user,
    )
    return registration


@transaction.atomic
def registration_reinstate(*, registration: Registration, user=None) -> Registration:
    """Undo a withdrawal recorded by mistake."""
    ensure_tournament_open(registration.tournament)
    if registration.status != Registration.Status.WITHDRAWN:
        raise ValidationError(_("Ce joueur n'a pas déclaré forfait."))
    _ensure_not_in_another_bracket(registration.tournament, registration.player)
    before = _withdrawal(registration)
    registration.status = Registration.Status.ACTIVE
    registration.withdrawn_after = None
    save_recorded(
        registration,
        update_fields=["status", "withdrawn_after"],
        tournament=registration.tournament,
        before=before,
        after={"status": "active"},
        user=user,
    )
    return registration


def _withdrawal(registration: Registration) -> dict[str, Any]:
    return {"status": registration.status, "withdrawn_after": registration.withdrawn_after}
