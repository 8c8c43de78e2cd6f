"""What the hall screen shows: only what is published (the link and announcement are
tournament.evening.hall)."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.core.ranking import Ranked
from scoring.live.cockpit import current_position
from scoring.live.provisional import mark_provisional
from scoring.live.standings import Standings, standings_for
from tournament.evening.selectors import RoomPlan, room_plan
from tournament.models import Position, Seat, Tournament


@dataclass
class HallContent:
    tournament: Tournament
    position: Position | None  # the published (or last closed) position; never a draft
    plan: RoomPlan | None  # the position's: who sits where, the tables, their version
    standings: list[Ranked]
    teams: list[Ranked]
    provisional: str = ""  # "Classement provisoire — position 2 en cours (7/12 tables)"

    @property
    def who(self) -> list[dict]:
        """Alphabetical: name, table, seat."""
        return self.plan.who if self.plan is not None else []

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
    plan = room_plan(position) if position is not None else None
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
        plan=plan,
        standings=[r for r in standings.players if r.row.key in seated] if played else [],
        teams=list(standings.teams) if played and tournament.team_size else [],
        provisional=standings.provisional,
    )
