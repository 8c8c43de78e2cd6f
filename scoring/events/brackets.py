"""An event and its brackets: creating them, settings copied from bracket to bracket, and the
field copied by a cut (the same roster players, their numbers and teams)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.access.audit import change_record
from tournament.access.staff import staff_copy
from tournament.clubs.selectors import home_club
from tournament.evening.positions import position_generate
from tournament.models import Event, Registration, Team, Tournament
from tournament.tournaments.services import TOURNAMENT_FIELDS, tournament_create

EVENT_FIELDS = ("name", "date", "venue", "club", "is_public")
# What a bracket takes from the bracket it follows, besides the settings form's fields.
COPIED_FIELDS = (
    *(f for f in TOURNAMENT_FIELDS if f not in ("name", "date")),
    "share_penalties",
    "penalty_defaults",
)


@transaction.atomic
def event_create(*, data: dict[str, Any], owner=None) -> Event:
    """The event, and session 1's main bracket with the tournament settings in `data` (the
    tournament form's): the field registers there."""
    event = Event.objects.create(
        owner=owner, host_club=home_club(owner), **{k: data[k] for k in EVENT_FIELDS if k in data}
    )
    bracket = tournament_create(
        data={**data, "name": bracket_name(event, 1, Tournament.Bracket.MAIN)},
        owner=owner,
        club=event.host_club,
    )
    bracket.event, bracket.session = event, 1
    bracket.save(update_fields=["event", "session"])
    change_record(
        tournament=bracket,
        obj=event,
        action="create",
        after={k: str(data[k]) for k in EVENT_FIELDS if k in data},
        user=owner,
    )
    return event


def bracket_name(event: Event, session: int, bracket: str) -> str:
    if bracket == Tournament.Bracket.CONSOLANTE:
        return _("%(event)s — séance %(session)s, consolante") % {
            "event": event.name,
            "session": session,
        }
    return _("%(event)s — séance %(session)s") % {"event": event.name, "session": session}


def bracket_create(
    *, source: Tournament, bracket: str, carry_over_percent: int, first_table: int, user=None
) -> Tournament:
    """The next session's bracket, its settings and staff copied from `source` (no player
    yet)."""
    assert source.event is not None and source.session is not None
    session = source.session + 1
    created = Tournament(
        name=bracket_name(source.event, session, bracket),
        date=source.date,
        owner=source.owner,
        host_club_id=source.host_club_id,
        event=source.event,
        session=session,
        bracket=bracket,
        carry_over_percent=carry_over_percent,
        first_table=first_table,
        **{name: getattr(source, name) for name in COPIED_FIELDS},
    )
    created.full_clean(exclude=["owner", "event"])
    created.save()
    change_record(
        tournament=created,
        obj=created,
        action="create",
        after={
            "event": source.event_id,
            "session": session,
            "bracket": bracket,
            "carry_over_percent": carry_over_percent,
            "first_table": first_table,
            "from": source.pk,
        },
        user=user,
    )
    staff_copy(source=source, into=created, user=user)
    return created


def registrations_copy(
    *, registrations: Iterable[Registration], into: Tournament, user=None
) -> list[Registration]:
    """The same players into `into`, with their numbers and teams (a team created there by
    name when it is not yet), present and playing from the first position."""
    teams = {team.name: team for team in into.teams.all()}
    copied = []
    for registration in registrations:
        team = None
        if registration.team is not None:
            name = registration.team.name
            if name not in teams:
                teams[name] = Team.objects.create(tournament=into, name=name)
            team = teams[name]
        copy = Registration.objects.create(
            tournament=into,
            player_id=registration.player_id,
            team=team,
            number=registration.number,
            status=Registration.Status.ACTIVE,
        )
        change_record(
            tournament=into,
            obj=copy,
            action="create",
            after={"player": registration.player.full_name, "from": registration.tournament_id},
            user=user,
        )
        copied.append(copy)
    return copied


def event_brackets(event: Event) -> dict[int, list[Tournament]]:
    """The event's brackets by session, the main bracket first."""
    sessions: dict[int, list[Tournament]] = {}
    for bracket in event.brackets.order_by("session", "bracket"):
        sessions.setdefault(bracket.session or 0, []).append(bracket)
    for brackets in sessions.values():
        brackets.sort(key=lambda t: t.bracket != Tournament.Bracket.MAIN)
    return sessions


def bracket_seat(bracket: Tournament, method: str, *, seed: int | None = None, user=None) -> str:
    """Seat the bracket's positions as drafts (`method`: a Position.Seating). A field its
    settings cannot seat (3 players at tables of 4 and 5) is left to the positions page: the
    message is returned, "" when seated."""
    try:
        position_generate(tournament=bracket, start=1, seating_method=method, seed=seed, user=user)
    except ValidationError as error:  # position_generate's savepoint undid its writes
        return " ".join(error.messages)
    return ""
