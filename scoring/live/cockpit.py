"""The arbiter's cockpit: what is being played, what is missing, what waits, who leads, what next.

One loader reads it all in a fixed number of queries, whatever the size of the tournament; the
table states are `scoring.sheets.screen`'s, the standings those of the ranking pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import islice

from django.db.models import Count, Q
from django.utils.translation import gettext, ngettext

from scoring.core.ranking import Ranked
from scoring.live.reprints import Reprint, cards_to_reprint
from scoring.live.standings import Standings, standings_for
from scoring.live.waiting import WaitingDeals, waiting_deals_of
from scoring.models import Incident, TableCall
from scoring.sheets.position_overview import TableRow, position_overview
from scoring.sheets.summary import State
from scoring.sheets.table_entry import CodeAlert, code_alerts, open_calls
from tournament.evening.clock import ClockState, state_of
from tournament.evening.selectors import position_in_play
from tournament.models import Position, Registration, Tournament

# How many leaders and waiting items the cockpit lists (the full pages are one click away).
TOP = 10
WAITING = 10

VALIDATED = State.VALIDATED
STATE_LABELS = State.LABELS
STATE_TONES = State.TONES
# The order of the state counts shown above the tables.
STATE_ORDER = (
    State.MISSING,
    State.IN_PROGRESS,
    State.WAITING,
    State.DISAGREEMENT,
    State.COMPLETE,
    State.CHECKED,
    VALIDATED,
)


@dataclass
class CockpitTable:
    """A table of the position in play: the desk's row, validation on top of its state."""

    row: TableRow
    state: str

    @property
    def label(self) -> str:
        return str(STATE_LABELS[self.state])

    @property
    def tone(self) -> str:
        return STATE_TONES[self.state]


@dataclass
class Waiting:
    """Something the arbiter must look at: an undecided incident, a deal to confirm, a mismatch."""

    text: str
    table: CockpitTable | None = None
    incident: Incident | None = None


@dataclass
class Cockpit:
    tournament: Tournament
    positions: list[Position]
    current: Position | None  # the position in play (else the last one played)
    upcoming: Position | None  # the draft that "Publier" publishes next
    clock: ClockState | None
    tables: list[CockpitTable]
    waiting: list[Waiting]
    waiting_count: int
    top: list[Ranked]
    top_teams: list[Ranked]
    active: int
    withdrawn: int
    teams: int
    counts: list[tuple[str, str, str, int]] = field(default_factory=list)  # state, label, tone, n
    # Tables calling the arbiter from a phone, and players whose code was mistyped again and
    # again: shown first, until an arbiter acts.
    calls: list[TableCall] = field(default_factory=list)
    code_alerts: list[CodeAlert] = field(default_factory=list)
    # Itinerary cards out of date since printed (a new code, a seat changed): to reprint.
    reprints: list[Reprint] = field(default_factory=list)
    # The deals the leaders' totals leave out (to confirm, contested): listed beside them.
    uncounted: WaitingDeals = field(default_factory=WaitingDeals)

    @property
    def reprint_numbers(self) -> str:
        return ",".join(str(r.registration.number) for r in self.reprints)

    @property
    def missing(self) -> int:
        return sum(1 for t in self.tables if t.state == State.MISSING)

    @property
    def in_play(self) -> bool:
        return self.current is not None and self.current.status == Position.Status.PUBLISHED


# The position in play: one answer for the cockpit, the player's card, the hall and the desk.
current_position = position_in_play


def upcoming_position(positions: list[Position]) -> Position | None:
    """The draft right after the last played position: the only one that may be published."""
    played = max((p.number for p in positions if p.status != Position.Status.DRAFT), default=0)
    return next(
        (p for p in positions if p.number == played + 1 and p.status == Position.Status.DRAFT),
        None,
    )


def cockpit_load(tournament: Tournament, standings: Standings | None = None) -> Cockpit:
    """Everything the cockpit shows; the leaders from `standings` (the arbiter's, shared) or
    else freshly computed ones."""
    positions = list(Position.objects.filter(tournament=tournament).order_by("number"))
    for position in positions:
        position.tournament = tournament  # the overview reads its settings: no query per use
    current = current_position(positions)
    tables = _tables(current) if current is not None else []
    waiting, waiting_count = _waiting(tournament, tables)
    if standings is None:
        standings = standings_for(tournament)
    top = _played(standings.players)
    people = Registration.objects.filter(tournament=tournament).aggregate(
        active=Count("pk", filter=Q(status=Registration.Status.ACTIVE)),
        withdrawn=Count("pk", filter=Q(status=Registration.Status.WITHDRAWN)),
        teams=Count("team", distinct=True),
    )
    cockpit = Cockpit(
        tournament=tournament,
        positions=positions,
        current=current,
        upcoming=(
            upcoming_position(positions)
            if tournament.status != Tournament.Status.FINISHED
            else None
        ),
        clock=state_of(current) if current is not None else None,
        tables=tables,
        waiting=waiting,
        waiting_count=waiting_count,
        top=top,
        top_teams=list(standings.teams[:TOP]) if top and tournament.team_size else [],
        active=people["active"],
        withdrawn=people["withdrawn"],
        teams=people["teams"],
        calls=open_calls(tournament),
        code_alerts=code_alerts(tournament),
        reprints=cards_to_reprint(tournament),
        uncounted=waiting_deals_of(tournament.pk),
    )
    cockpit.counts = [
        (state, str(STATE_LABELS[state]), STATE_TONES[state], n)
        for state in STATE_ORDER
        if (n := sum(1 for t in tables if t.state == state))
    ]
    return cockpit


def _played(ranked: Sequence[Ranked]) -> list[Ranked]:
    """The leaders who played a deal (before any deal everyone ties at zero: no leader to
    show yet), reading the ranking only as far as the TOP first."""
    return list(islice((r for r in ranked if r.row.deals), TOP))


def _tables(position: Position) -> list[CockpitTable]:
    return [CockpitTable(row=row, state=row.shown_state) for row in position_overview(position)]


def _waiting(tournament: Tournament, tables: list[CockpitTable]) -> tuple[list[Waiting], int]:
    items = []
    paper_differs = gettext("Bilans papier différents")  # the desk's flag, in this language
    for table in tables:
        row = table.row
        name = gettext("Table %(number)s") % {"number": row.table.number}
        pending = ngettext(
            "%(table)s : %(count)s donne saisie au téléphone à confirmer",
            "%(table)s : %(count)s donnes saisies au téléphone à confirmer",
            row.pending,
        )
        disputed = ngettext(
            "%(table)s : %(count)s donne contestée à trancher",
            "%(table)s : %(count)s donnes contestées à trancher",
            row.disputed,
        )
        for count, text in ((row.pending, pending), (row.disputed, disputed)):
            if count:
                items.append(Waiting(text % {"table": name, "count": count}, table=table))
        if table.state == State.DISAGREEMENT:
            items.append(Waiting(f"{name} : {table.label}", table=table))
        elif paper_differs in row.flags:
            items.append(Waiting(f"{name} : {paper_differs}", table=table))
    undecided = list(
        # Neither a decision written nor a penalty given: the arbiter has not ruled yet.
        Incident.objects.filter(tournament=tournament, decision="", penalty_points=0)
        .select_related("registration__player", "sheet__table__position")
        .order_by("-created_at", "-pk")
    )
    items += [Waiting(_incident_text(incident), incident=incident) for incident in undecided]
    return items[:WAITING], len(items)


def _incident_text(incident: Incident) -> str:
    where = ""
    sheet = incident.sheet
    if sheet is not None and sheet.table is not None:
        where = gettext("position %(position)s, table %(table)s") % {
            "position": sheet.table.position.number,
            "table": sheet.table.number,
        }
    elif sheet is not None:
        where = str(sheet)
    who = incident.registration.player.full_name if incident.registration else ""
    parts = [str(incident.get_kind_display()), who, where]
    return gettext("Incident sans décision : %(what)s") % {
        "what": " — ".join(p for p in parts if p)
    }
