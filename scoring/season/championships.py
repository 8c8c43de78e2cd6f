"""Season championships against the database: define them, and rank them from the final
standings of their finished tournaments (scoring.core.championship does the ranking).

The ranking is computed on read: the championship's tournaments and the standings of the
finished ones cost the same six queries whatever their number (`standings.standings_for_many`),
and the whole page over 24 evenings of 60 players takes about 0.1 s of CPU
(bench/championship.py), so there is no cache to invalidate: finishing or reopening a
tournament changes the ranking on the next read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.core import championship as pure
from scoring.core.ranking import PlayerRow, Ranked
from scoring.live.counted import public_tournaments
from scoring.live.standings import standings_for_many
from scoring.models import Championship
from scoring.season.access import participating_club_ids
from tournament.access.audit import change_record
from tournament.access.scopes import managed_tournaments
from tournament.clubs.selectors import clubs_of, home_club
from tournament.models import ChangeLog, Club, Registration, Tournament


@dataclass(frozen=True)
class ChampionshipStandings:
    """What the championship's pages, PDF and XLSX show."""

    championship: Championship
    tournaments: list[Tournament]  # every tournament of the championship shown, by date
    finished: list[Tournament]  # the ones that count so far
    ranking: pure.ChampionshipRanking
    # Private tournaments of a public championship: left out of it, named to its organisers.
    withheld: list[Tournament] = field(default_factory=list)
    # Private tournaments of a circuit: counted on its organisers' pages, not on its public page.
    private_counted: list[Tournament] = field(default_factory=list)

    @property
    def criteria_labels(self) -> list[str]:
        return [c.label for c in self.ranking.criteria[1:]]

    def row_of(self, key: Hashable) -> tuple[int | None, pure.ChampionshipRow] | None:
        """A player's rank (None when below the minimum attendance) and row."""
        for ranked in self.ranking.ranked:
            if ranked.row.key == key:
                return ranked.rank, ranked.row
        for row in self.ranking.below_attendance:
            if row.key == key:
                return None, row
        return None


def rules_of(championship: Championship) -> pure.Rules:
    return pure.Rules(
        method=pure.Method(championship.method),
        scale=tuple(championship.scale or ()),
        floor=championship.floor,
        best_of=championship.best_of,
        min_attendance=championship.min_attendance,
        tie_breaks=tuple(championship.tie_breaks or ()),
    )


def counted_tournaments(
    championship: Championship, everything: list[Tournament], *, public: bool
) -> list[Tournament]:
    """The championship's tournaments that count for this audience.

    The public counts only public tournaments. A club's public championship is the same
    published ranking for its organisers. A circuit's organisers count every tournament the
    invited clubs put in it (each club chose to), private ones included; its public page still
    counts only the public ones.
    """
    if public:
        return public_tournaments(everything)
    if championship.is_public and not participating_club_ids(championship):
        return public_tournaments(everything)
    return everything


def championship_standings(
    championship: Championship, *, public: bool = False
) -> ChampionshipStandings:
    """Rank the season from the final standings of the championship's finished tournaments.

    Players are the shared roster's Player rows. A registration that played no position (a
    no-show, a withdrawal before the first position) is not a tournament played, and does not
    count in the ranks; a player who withdrew during it keeps their place in its final
    standings (their positions played, nothing for the others).

    A championship is a published ranking, whoever reads it (its page, PDF and XLSX are the
    same): each tournament counts as its own public pages show it (scoring.live.counted's public
    view, so an unconfirmed phone deal or, where the tournament asks, an unvalidated sheet
    counts nowhere), and a public championship holds only public tournaments
    (`counted_tournaments`; `public`: the public page's audience).
    """
    everything = list(championship.tournaments.order_by("date", "pk"))
    tournaments = counted_tournaments(championship, everything, public=public)
    withheld = [t for t in everything if t not in tournaments]
    shown_publicly = public_tournaments(tournaments)
    private_counted = [] if public else [t for t in tournaments if t not in shown_publicly]
    if public:
        withheld = []  # never named on the public page
    finished = [t for t in tournaments if t.status == Tournament.Status.FINISHED]
    players: dict[int, pure.PlayerResults] = {}
    for tournament_id, standings in standings_for_many(finished, public=True).items():
        for rank, tied, row in _ranks_of_players_who_played(standings.players):
            registration = standings.registrations[row.key]
            person = registration.player
            if person.pk not in players:
                players[person.pk] = pure.PlayerResults(
                    key=person.pk,
                    name=person.full_name,
                    club=person.club,
                    licence=person.licence or "",
                )
            players[person.pk].results.append(
                pure.TournamentResult(
                    tournament=tournament_id,
                    rank=rank,
                    total=row.total,
                    tied=tied,
                    withdrawn=registration.status == Registration.Status.WITHDRAWN
                    or registration.withdrawn_after is not None,
                )
            )
    ranking = pure.championship_rank(
        players.values(), [t.pk for t in finished], rules_of(championship)
    )
    return ChampionshipStandings(
        championship=championship,
        tournaments=tournaments,
        finished=finished,
        ranking=ranking,
        withheld=withheld,
        private_counted=private_counted if participating_club_ids(championship) else [],
    )


def _ranks_of_players_who_played(ranked: Sequence[Ranked]) -> list[tuple[int, bool, PlayerRow]]:
    """The final standings without the registrations that played nothing (a no-show stands at
    0 there, above every negative total): the others keep their order and ties, and move up
    past them."""
    played = [r for r in ranked if r.row.results]
    sizes = Counter(r.rank for r in played)
    result = []
    previous, current = None, 0
    for index, entry in enumerate(played, start=1):
        if entry.rank != previous:
            previous, current = entry.rank, index
        result.append((current, sizes[entry.rank] > 1, entry.row))
    return result


# --- defining a championship -----------------------------------------------------------------


def _check_tournaments(
    *, user, championship: Championship | None, tournaments: Sequence[Tournament]
) -> None:
    """Only tournaments the user runs may be added; those already in stay (a co-organiser may
    edit a championship holding the owner's tournaments)."""
    current = set(championship.tournaments.values_list("pk", flat=True)) if championship else set()
    added = {t.pk for t in tournaments} - current
    if not added:
        return
    allowed = set(managed_tournaments(user).filter(pk__in=added).values_list("pk", flat=True))
    if added - allowed:
        raise ValidationError(
            {"tournaments": _("Vous ne pouvez ajouter que des tournois que vous arbitrez.")}
        )


def _organisers(usernames: Sequence[str]):
    users = list(get_user_model().objects.filter(username__in=usernames, is_active=True))
    missing = sorted(set(usernames) - {u.get_username() for u in users})
    if missing:
        raise ValidationError(
            {"organisers": _("Compte inconnu : %(names)s.") % {"names": ", ".join(missing)}}
        )
    return users


@transaction.atomic
def championship_save(
    *,
    user,
    championship: Championship | None = None,
    name: str,
    season: str,
    tournaments: Sequence[Tournament],
    method: str,
    scale: Sequence[int],
    floor: int,
    best_of: int | None,
    min_attendance: int,
    tie_breaks: Sequence[str],
    is_public: bool,
    organisers: Sequence[str] | None = None,
    host_club: Club | None = None,
    participating_clubs: Sequence[Club] | None = None,
) -> Championship:
    """Create (championship None) or update a championship.

    `organisers` (usernames) is applied only when given and only by the owner or a superuser:
    co-organisers define it but name nobody. `host_club` (one of the user's clubs; by default
    the owner's home club) and `participating_clubs` (a circuit's invited clubs): when given.
    """
    pure.criteria_for(tie_breaks)  # unknown keys are a programming error
    if method == Championship.Method.RANK and not scale:
        raise ValidationError({"scale": _("Indiquez le barème des points par place.")})
    _check_tournaments(user=user, championship=championship, tournaments=tournaments)
    creating = championship is None
    if championship is None:
        owner = user if user.is_authenticated else None
        championship = Championship(owner=owner, host_club=home_club(owner))
    before = None if creating else _snapshot(championship)
    may_name = championship.owner_id in (None, user.pk) or user.is_superuser
    people = _organisers(organisers) if organisers is not None and may_name else None
    for attribute, value in (
        ("name", name), ("season", season), ("method", method), ("scale", list(scale)),
        ("floor", floor), ("best_of", best_of), ("min_attendance", min_attendance),
        ("tie_breaks", list(tie_breaks)), ("is_public", is_public),
    ):  # fmt: skip
        setattr(championship, attribute, value)
    if host_club is not None and host_club.pk != championship.host_club_id:
        championship.host_club = _host_club(user, host_club)
    championship.save()
    championship.tournaments.set(tournaments)
    if participating_clubs is not None:
        _invite(championship, participating_clubs)
    if people is not None:
        championship.organisers.set([p for p in people if p.pk != championship.owner_id])
    after = _snapshot(championship)
    if after != before:
        change_record(
            tournament=None,
            obj=championship,
            action=ChangeLog.Action.CREATE if creating else ChangeLog.Action.UPDATE,
            before=before,
            after=after,
            user=user,
        )
    return championship


def _invite(championship: Championship, clubs: Sequence[Club]) -> None:
    """The clubs a circuit invites (none: a club's own championship)."""
    championship.participating_clubs.set(clubs)
    vars(championship).pop("_participating_club_ids", None)  # read again when asked


def _host_club(user, chosen: Club) -> Club:
    """The club organising the championship, when chosen: one of the user's clubs (any for a
    superuser). Unchosen, a new championship's is the owner's home club."""
    if not (user.is_superuser or clubs_of(user).filter(pk=chosen.pk).exists()):
        raise ValidationError({"host_club": _("Le club organisateur doit être l'un de vos clubs.")})
    return chosen


def _snapshot(championship: Championship) -> dict:
    """A championship's settings as the history keeps them (tournaments by id and name)."""
    return {
        "name": championship.name,
        "season": championship.season,
        "method": championship.method,
        "scale": list(championship.scale),
        "floor": championship.floor,
        "best_of": championship.best_of,
        "min_attendance": championship.min_attendance,
        "tie_breaks": list(championship.tie_breaks),
        "is_public": championship.is_public,
        "tournaments": [[t.pk, t.name] for t in championship.tournaments.order_by("pk")],
        "organisers": sorted(championship.organisers.values_list("username", flat=True)),
        "host_club": championship.host_club.name if championship.host_club else None,
        "participating_clubs": sorted(
            championship.participating_clubs.values_list("name", flat=True)
        ),
    }


# --- what the pages, the PDF and the XLSX show -----------------------------------------------


@dataclass(frozen=True)
class Cell:
    """One tournament's column for one player: the points and whether they count."""

    points: int
    counted: bool
    rank: int
    withdrawn: bool


@dataclass(frozen=True)
class Line:
    rank: int | None  # None: below the minimum attendance, listed apart
    tied: bool
    key: Hashable
    name: str
    club: str
    licence: str
    played: int
    cells: list[Cell | None]  # by finished tournament; None: did not play it
    total: int


def lines(standings: ChampionshipStandings) -> tuple[list[Line], list[Line]]:
    """The ranked lines, then the players listed apart (below the minimum attendance)."""
    columns = [t.pk for t in standings.finished]

    def line(rank: int | None, tied: bool, row: pure.ChampionshipRow) -> Line:
        scored = row.by_tournament()
        cells = []
        for pk in columns:
            s = scored.get(pk)
            cells.append(
                None
                if s is None
                else Cell(
                    points=s.points,
                    counted=s.counted,
                    rank=s.result.rank,
                    withdrawn=s.result.withdrawn,
                )
            )
        return Line(
            rank=rank,
            tied=tied,
            key=row.key,
            name=row.name,
            club=row.club,
            licence=row.licence,
            played=row.played,
            cells=cells,
            total=row.total,
        )

    ranked = [line(r.rank, r.tied, r.row) for r in standings.ranking.ranked]
    apart = [line(None, False, row) for row in standings.ranking.below_attendance]
    return ranked, apart
