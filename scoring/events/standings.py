"""A bracket's cumulative standings: its own standings (scoring.live.standings) plus each
player's carried share of the previous sessions (scoring.core.events), ranked with its
tie-break criteria."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import cast

from django.db.models import Q
from django.utils.formats import number_format

from scoring.core import events, ranking
from scoring.live.standings import Standings, standings_for_many
from tournament.models import Cut, Registration, Tournament


@dataclass
class EventStandings:
    """A bracket's cumulative ranking; `players` holds `ranking.Ranked` of CumulativeRow,
    `teams` of TeamRow (empty in an individual event)."""

    tournament: Tournament
    session: int
    carry_over_percent: int  # into this session (100 and meaningless in session 1)
    criteria: tuple[ranking.Criterion, ...]
    players: list[ranking.Ranked]
    teams: list[ranking.Ranked]
    chain: list[Tournament]  # the brackets played, session 1 first, this one last
    cut: Cut | None  # the cut this bracket came from (None in session 1)
    registrations: dict[Hashable, Registration] = field(default_factory=dict)

    def rank_of(self, key: Hashable) -> ranking.Ranked | None:
        return next((r for r in self.players if r.row.key == key), None)


def bracket_chain(tournament: Tournament) -> tuple[list[Tournament], Cut | None]:
    """The brackets a bracket's players came through, session 1 first (one query a session),
    and the cut that made this bracket."""
    chain = [tournament]
    made_by: Cut | None = None
    current = tournament
    while current.event_id is not None and (current.session or 1) > 1:
        cut = (
            Cut.objects.select_related("source")
            .filter(Q(qualified=current) | Q(consolante=current))
            .first()
        )
        if cut is None:
            break
        made_by = made_by or cut
        current = cut.source
        chain.insert(0, current)
    return chain, made_by


def session_rows(standings: Standings, session: int) -> list[events.SessionRow]:
    """A bracket's standings as the pure core reads a session: one row per ranked player."""
    rows = []
    for ranked in standings.players:
        row = cast(ranking.PlayerRow, ranked.row)
        registration = standings.registrations[row.key]
        rows.append(
            events.SessionRow(
                key=row.key,
                person=registration.player_id,
                name=row.name,
                number=row.number,
                club=row.club,
                team=row.team,
                team_key=row.team_key,
                figures=events.SessionFigures(
                    session=session,
                    total=row.total,
                    penalties_charged=row.penalties_charged,
                    position_points=row.position_points,
                    tables_won=row.tables_won,
                ),
            )
        )
    return rows


def cumulative_standings(tournament: Tournament, *, public: bool = False) -> EventStandings:
    """The bracket's cumulative standings (a tournament of its own: its plain standings)."""
    chain, made_by = bracket_chain(tournament)
    standings = standings_for_many(chain, public=public)
    previous: dict[Hashable, events.CumulativeRow] = {}
    rows: list[events.CumulativeRow] = []
    for index, bracket in enumerate(chain, start=1):
        percent = bracket.carry_over_percent if index > 1 else 100
        rows = events.cumulative_rows(session_rows(standings[bracket.pk], index), previous, percent)
        previous = {row.row.person: row for row in rows}
    own = standings[tournament.pk]
    if len(chain) > 1:
        rows = [row for row in rows if not _left_unplayed(row, own.registrations)]
    teams, _alone = events.team_rows(rows)
    return EventStandings(
        tournament=tournament,
        session=len(chain),
        carry_over_percent=tournament.carry_over_percent if len(chain) > 1 else 100,
        criteria=own.criteria,
        players=ranking.rank(rows, own.criteria),
        teams=ranking.rank(teams, own.criteria) if tournament.team_size else [],
        chain=chain,
        cut=made_by,
        registrations=own.registrations,
    )


def _left_unplayed(row: events.CumulativeRow, registrations: dict) -> bool:
    """A player a cut brought into the bracket who withdrew before playing in it (replaced by
    the next in line, or moved out of the consolante as that replacement): not in it."""
    figures = row.row.figures
    return (
        registrations[row.key].status == Registration.Status.WITHDRAWN
        and not figures.position_points
        and not figures.total
        and not figures.penalties_charged
    )


def standings_order(tournament: Tournament) -> list[int]:
    """Registration ids, best first, for a position seated by rank: the cumulative ranking of
    an event's later session, the bracket's own standings otherwise."""
    if tournament.event_id is None or (tournament.session or 1) < 2:
        standings = standings_for_many([tournament])[tournament.pk]
        return [cast(int, ranked.row.key) for ranked in standings.players]
    cumulative = cumulative_standings(tournament)
    # A bracket carrying nothing starts everyone at 0, all tied: ties are taken in the order of
    # the bracket its players came from (the cut's ranking), so a final seated by rank still
    # puts the cut's leaders together.
    before: dict[Hashable, int] = {}
    if len(cumulative.chain) > 1:
        came_from = cumulative_standings(cumulative.chain[-2]).players
        before = {ranked.row.row.person: index for index, ranked in enumerate(came_from)}
    ordered = sorted(
        cumulative.players, key=lambda r: (r.rank, before.get(r.row.row.person, len(before)))
    )
    return [cast(int, ranked.row.key) for ranked in ordered]


def points_text(value: Fraction | int) -> str:
    """A cumulative score as pages show it: exact when whole, else to the hundredth."""
    value = Fraction(value)
    if value.denominator == 1:
        return number_format(value.numerator)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return number_format(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
