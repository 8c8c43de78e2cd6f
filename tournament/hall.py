"""The hall screen: a revocable secret link to a read-only page for the room's projector or TV,
its announcement line, and what it shows (only what is published).

The link's token is the only credential, like a table's link: a new token kills the old link.
Neither the link nor the announcement is a result, so a finished tournament still takes them:
the prize-giving shows the final standings on the hall screen.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.ranking import Ranked
from scoring.standings import standings_for

from . import services
from .cockpit import current_position
from .models import Position, Seat, Table, Tournament

MAX_ANNOUNCEMENT = Tournament._meta.get_field("hall_announcement").max_length


def new_hall_token() -> str:
    return secrets.token_urlsafe(32)  # 43 characters, as the field holds


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update(no_key=True, of=("self",)).get(pk=tournament.pk)


@transaction.atomic
def hall_link_create(*, tournament: Tournament, user=None) -> Tournament:
    """A new link for the hall screen; the previous one, if any, stops working."""
    tournament = _locked(tournament)
    had_link = tournament.hall_token is not None
    tournament.hall_token = new_hall_token()
    tournament.save(update_fields=["hall_token", "updated_at"])
    # The token itself stays out of the history: it is a credential.
    services._log(
        tournament, tournament, "update", {"hall_link": had_link}, {"hall_link": "new"}, user
    )
    return tournament


@transaction.atomic
def hall_link_revoke(*, tournament: Tournament, user=None) -> Tournament:
    tournament = _locked(tournament)
    if tournament.hall_token is None:
        return tournament
    tournament.hall_token = None
    tournament.save(update_fields=["hall_token", "updated_at"])
    services._log(tournament, tournament, "update", {"hall_link": True}, {"hall_link": False}, user)
    return tournament


@transaction.atomic
def hall_announcement_set(*, tournament: Tournament, text: str, user=None) -> Tournament:
    text = " ".join((text or "").split())  # one line on the screen
    if "\x00" in text:
        raise ValidationError({"hall_announcement": ProhibitNullCharactersValidator.message})
    if len(text) > MAX_ANNOUNCEMENT:
        raise ValidationError(
            {
                "hall_announcement": _(
                    "Annonce en salle : %(max)s caractères au plus (vous en avez tapé %(n)s)."
                )
                % {"max": MAX_ANNOUNCEMENT, "n": len(text)}
            }
        )
    tournament = _locked(tournament)
    before = tournament.hall_announcement
    if before == text:
        return tournament
    tournament.hall_announcement = text
    tournament.save(update_fields=["hall_announcement", "updated_at"])
    services._log(
        tournament,
        tournament,
        "update",
        {"hall_announcement": before},
        {"hall_announcement": text},
        user,
    )
    return tournament


# --- what the screen shows ------------------------------------------------------------------


@dataclass
class HallContent:
    tournament: Tournament
    position: Position | None  # the published (or last closed) position; never a draft
    who: list[dict]  # alphabetical: name, table, seat
    tables: list[Table]  # with seat_list
    standings: list[Ranked]
    teams: list[Ranked]

    @property
    def in_play(self) -> bool:
        return self.position is not None and self.position.status == Position.Status.PUBLISHED


def hall_content(tournament: Tournament) -> HallContent:
    """Published data only: no draft position, and the public standings (pending phone deals,
    draft positions and, if the organiser asks, unvalidated sheets count nowhere)."""
    positions = list(
        Position.objects.filter(tournament=tournament)
        .exclude(status=Position.Status.DRAFT)
        .order_by("number")
    )
    position = current_position(positions)
    who: list[dict] = []
    tables: list[Table] = []
    if position is not None:
        who = services.who_sits_where(position)
        tables = services.position_plan(position)
    standings = standings_for(tournament, public=True)
    played = any(r.row.deals for r in standings.players)
    # Who has sat at a published table; a registration alone (a late arrival seated only in a
    # draft) is nothing to show yet.
    seated = set(
        Seat.objects.filter(table__position__tournament=tournament)
        .exclude(table__position__status=Position.Status.DRAFT)
        .values_list("registration_id", flat=True)
        .distinct()
    )
    return HallContent(
        tournament=tournament,
        position=position,
        who=who,
        tables=tables,
        standings=[r for r in standings.players if r.row.key in seated] if played else [],
        teams=standings.teams if played and tournament.team_size else [],
    )
