"""What the hall screen shows: only what is published (the link and announcement are
tournament.evening.hall)."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.core.ranking import Ranked
from scoring.live.cockpit import current_position
from scoring.live.provisional import mark_provisional
from scoring.live.standings import Standings, standings_for
from tournament.evening.selectors import position_plan, who_sits_where
from tournament.models import Position, Seat, Table, Tournament


@dataclass
class HallContent:
    tournament: Tournament
    position: Position | None  # the published (or last closed) position; never a draft
    who: list[dict]  # alphabetical: name, table, seat
    tables: list[Table]  # with seat_list
    standings: list[Ranked]
    teams: list[Ranked]
    provisional: str = ""  # "Classement provisoire — position 2 en cours (7/12 tables)"

    @property
    def in_play(self) -> bool:
        return self.position is not None and self.position.status == Position.Status.PUBLISHED


def hall_content(tournament: Tournament, standings: Standings | None = None) -> HallContent:
    """Published data only: no draft position, and the public standings (pending phone deals,
    draft positions and, if the organiser asks, unvalidated sheets count nowhere): the shared
    ones given, their provisional positions filled in, or else freshly computed ones."""
    positions = list(
        Position.objects.filter(tournament=tournament)
        .exclude(status=Position.Status.DRAFT)
        .order_by("number")
    )
    position = current_position(positions)
    who: list[dict] = []
    tables: list[Table] = []
    if position is not None:
        who = who_sits_where(position)
        tables = position_plan(position)
    if standings is None:
        standings = mark_provisional(standings_for(tournament, public=True))
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
        teams=list(standings.teams) if played and tournament.team_size else [],
        provisional=standings.provisional,
    )
