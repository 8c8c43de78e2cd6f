"""Check-in at the door: marking a registered player present (or not), registering and
checking in someone who did not sign up, and the list the arbiter searches as people arrive.

Present from the first position not yet published, so a late arrival joins the next one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Unpack

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.access.audit import json_value, save_recorded
from tournament.access.lifecycle import ensure_tournament_open
from tournament.core.collation import fold, person_key
from tournament.evening.selectors import last_played_position
from tournament.models import Registration, Seat, Tournament
from tournament.players.registrations import player_register
from tournament.signup.services import TypedPerson, clean_person, duplicate_of


def _has_played(registration: Registration) -> bool:
    return Seat.objects.filter(
        registration=registration, table__position__status__in=["published", "closed"]
    ).exists()


@transaction.atomic
def registration_check_in(*, registration: Registration, present: bool, user=None):
    """Mark a player present (or not present after all); logged with who and when.

    Present from the first position not yet published, so a late arrival joins the next one;
    drafts planned before must then be re-planned (publishing a stale draft is refused).
    Asking for the state the player is already in changes nothing (a key pressed twice).
    """
    registration = (
        Registration.objects.select_for_update(of=("self",))
        .select_related("tournament", "player")
        .get(pk=registration.pk)
    )
    tournament = registration.tournament
    ensure_tournament_open(tournament)
    name = registration.player.full_name
    if registration.status == Registration.Status.WITHDRAWN:
        raise ValidationError(
            _("%(player)s a déclaré forfait : annulez d'abord le forfait (page Joueurs).")
            % {"player": name}
        )
    wanted = Registration.Status.ACTIVE if present else Registration.Status.EXPECTED
    if registration.status == wanted:
        return registration
    if not present and _has_played(registration):
        raise ValidationError(
            _("%(player)s a déjà joué une position : déclarez plutôt un forfait.")
            % {"player": name}
        )
    before = _check_in_state(registration)
    registration.status = wanted
    if present:
        registration.checked_in_at = timezone.now()
        registration.first_position = last_played_position(tournament) + 1
    else:
        registration.checked_in_at = None
    save_recorded(
        registration,
        update_fields=["status", "checked_in_at", "first_position"],
        tournament=tournament,
        before=before,
        after=_check_in_state(registration),
        user=user,
    )
    return registration


def _check_in_state(registration: Registration) -> dict[str, Any]:
    return {
        "status": registration.status,
        "checked_in_at": json_value(registration.checked_in_at),
        "first_position": registration.first_position,
    }


@transaction.atomic
def walkin_register(
    *, tournament: Tournament, user=None, **typed: Unpack[TypedPerson]
) -> Registration:
    """Someone who did not sign up, registered and checked in on the spot."""
    person = clean_person(typed)
    person["licence"] = person["licence"].replace(" ", "")
    same = duplicate_of(tournament, **person)
    if same is not None:
        raise ValidationError(
            _("%(player)s a déjà une inscription (n° %(number)s) : pointez-la dans la liste.")
            % {"player": same.player.full_name, "number": same.number}
        )
    registration = player_register(tournament=tournament, user=user, **person)
    before = _check_in_state(registration)
    registration.checked_in_at = timezone.now()
    save_recorded(
        registration,
        update_fields=["checked_in_at"],
        tournament=tournament,
        before=before,
        after=_check_in_state(registration),
        user=user,
    )
    return registration


# --- the check-in list ---------------------------------------------------------------------


@dataclass(frozen=True)
class CheckInRow:
    registration: Registration
    present: bool
    withdrawn: bool
    # Everything the search box matches, folded (accents and case ignored).
    search: str


def check_in_rows(tournament: Tournament) -> list[CheckInRow]:
    """Every registration, alphabetically, with what the search matches (one query)."""
    registrations = tournament.registrations.select_related("player")
    rows = [
        CheckInRow(
            registration=r,
            present=r.status == Registration.Status.ACTIVE,
            withdrawn=r.status == Registration.Status.WITHDRAWN,
            search=" ".join(
                fold(part)
                for part in (
                    r.player.last_name,
                    r.player.first_name,
                    r.player.club,
                    r.player.licence,
                    str(r.number),
                    r.signup_code,
                )
                if part
            ),
        )
        for r in registrations
    ]
    rows.sort(
        key=lambda row: person_key(
            row.registration.player.last_name, row.registration.player.first_name or ""
        )
    )
    return rows


def presence_counts(tournament: Tournament) -> dict[str, int]:
    """How many players are present and how many still expected (the page's counters)."""
    registrations = tournament.registrations
    return {
        "present_count": registrations.filter(status=Registration.Status.ACTIVE).count(),
        "expected_count": registrations.filter(status=Registration.Status.EXPECTED).count(),
    }
