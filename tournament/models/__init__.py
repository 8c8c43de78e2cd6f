"""Tournament models, one module per capability; every model and public helper is importable here.

- tournaments: Tournament (the organiser's settings) and TournamentRole (co-arbiters, scorers)
- clubs: Club and ClubMember (a club's administrators and arbiters)
- players: Player, one roster entry per person, seen by the clubs it concerns (named by
  player_name, for plain rows too), and LicenceConflict (one licence under two clubs' entries)
- registrations: Team, Registration, new_pin and start_codes_of (where each player started)
- positions: Position, Table and Seat
- events: Event (a big event's sessions and brackets) and Cut (qualified, consolante, report)
- audit: ChangeLog, the one history of every write, and Revision, what live pages are versioned by
- limits: Counter, every attempts counter and lock (tournament.access.throttle)
- choices: the models' enumerations (Direction, and each model's own, named on the model too)
- fields: the relation kinds the models of both apps repeat (a tournament's part, optional links)
"""

# The seat vocabulary lives in tournament.seats; re-exported here, where it used to be.
from ..seats import (
    DIRECTIONS,
    SHEET_ORDER,
    seat_code,
    seat_label,
    sheet_order_key,
    start_display,
)
from .audit import ChangeLog, Revision
from .choices import DIRECTION_LABELS, Direction
from .clubs import Club, ClubInvitation, ClubMember
from .events import Cut, Event
from .limits import Counter
from .players import LicenceCheck, LicenceConflict, Player, player_name
from .positions import Position, Seat, Table
from .registrations import Registration, Team, new_pin, start_codes_of
from .tournaments import Tournament, TournamentRole

__all__ = [
    "DIRECTIONS",
    "SHEET_ORDER",
    "ChangeLog",
    "Club",
    "ClubInvitation",
    "ClubMember",
    "Counter",
    "Cut",
    "DIRECTION_LABELS",
    "Direction",
    "Event",
    "LicenceCheck",
    "LicenceConflict",
    "Player",
    "Position",
    "Registration",
    "Revision",
    "Seat",
    "Table",
    "Team",
    "Tournament",
    "TournamentRole",
    "new_pin",
    "player_name",
    "seat_code",
    "seat_label",
    "sheet_order_key",
    "start_codes_of",
    "start_display",
]
