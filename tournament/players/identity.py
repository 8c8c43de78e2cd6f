"""Who is who on the shared roster.

- The same FFT licence is the same person: a registration or an import reuses that player.
- The same name and club, accents, case and punctuation ignored, is a *likely* duplicate: the
  desk asks ("c'est un autre joueur" or "le même"), the import preview flags the row. Two
  different licences are two people, whatever their names.
- Two roster players found to be one person are merged by an arbiter (player_merge): one is
  kept, the other's registrations move to it, and each tournament concerned keeps the history.

One function finds a person on the roster (roster_player_for): the desk, the sign-up, the
import and the restore all ask it. Lookups are batched (one query per 500 names or
licences), so an import's check costs the same few queries for 3 rows or 3,000.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from tournament.access.audit import change_record, revisions_bump
from tournament.core.collation import fold
from tournament.models import Player, Registration, Tournament, player_name
from tournament.players.folding import Fold

BATCH = 500  # values in one IN (…): well below SQLite's limit on query parameters
SAME = object()  # roster_players_for: names looked up among the same entries as licences


class LicenceTaken(Exception):
    """Another transaction saved the club's roster entry of this licence first."""


def roster_entry_save(player: Player) -> None:
    """Save a new roster entry, in a savepoint. Two tournaments of one club may add the same
    new licence at the same moment (a sign-up in each, or two desks): the licence is unique in
    a club, so the second INSERT waits for the first transaction and fails once it commits.
    LicenceTaken then tells the caller to look again: it finds the first one's entry."""
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError as error:
        if not player.licence:
            raise
        player.pk = None
        raise LicenceTaken(player.licence) from error


@dataclass(frozen=True)
class Known:
    """A roster player as the duplicate checks see it."""

    pk: int
    last_name: str
    first_name: str
    club: str
    licence: str | None
    origin_club_id: int | None = None  # the club whose entry it is (None: no club's)

    @property
    def key(self) -> tuple[str, str]:
        return (fold(self.last_name), fold(self.first_name))

    @property
    def full_name(self) -> str:
        return player_name(self.last_name, self.first_name)

    @property
    def label(self) -> str:
        """ "MARTIN Léa (TC Dijon, licence 0412345)": enough to tell homonyms apart."""
        details = [self.club] if self.club else []
        if self.licence:
            details.append(_("licence %(licence)s") % {"licence": self.licence})
        return f"{self.full_name} ({', '.join(details)})" if details else self.full_name


_FIELDS = ("pk", "last_name", "first_name", "club", "licence", "origin_club_id")


def _batches(values: Iterable[str]) -> Iterator[list[str]]:
    values = sorted(set(values))
    for start in range(0, len(values), BATCH):
        yield values[start : start + BATCH]


def players_by_licence(
    licences: Iterable[str], *, among: QuerySet[Player] | None = None
) -> dict[str, Known]:
    """Roster players (among `among`, by default all) holding these licences, by licence; the
    first entry by id when two clubs hold one (a licence conflict). The one licence lookup of
    the desk, the backup's restore and the conflicts."""
    found: dict[str, Known] = {}
    for batch in _batches(licence for licence in licences if licence):
        players = (Player.objects.all() if among is None else among).filter(licence__in=batch)
        for values in players.order_by("-pk").values_list(*_FIELDS):
            known = Known(*values)
            if known.licence:  # always: the query asked for these licences
                found[known.licence] = known
    return found


def players_by_name(
    last_names: Iterable[str], *, among: QuerySet[Player] | None = None
) -> dict[tuple[str, str], list[Known]]:
    """Roster players (among `among`, by default all) whose folded last name is one of these,
    by folded (last, first) name."""
    found: dict[tuple[str, str], list[Known]] = {}
    folded = (fold(name) for name in last_names)
    for batch in _batches(name for name in folded if name):
        players = (
            (Player.objects.all() if among is None else among)
            .annotate(folded_last=Fold("last_name"))
            .filter(folded_last__in=batch)
            .order_by("pk")
            .values_list(*_FIELDS)
        )
        for values in players:
            known = Known(*values)
            found.setdefault(known.key, []).append(known)
    return found


@dataclass(frozen=True)
class Typed:
    """A person as typed at the desk, signed up, imported or restored."""

    last_name: str
    first_name: str = ""
    club: str = ""
    licence: str = ""

    @property
    def key(self) -> tuple[str, str]:
        return (fold(self.last_name), fold(self.first_name))


@dataclass(frozen=True)
class RosterMatch:
    """What a roster holds for a typed person: the entry holding the licence typed, whether
    its name is the one typed; with no holder, the entries of that name and club (namesakes)."""

    typed: Typed
    holder: Known | None = None
    namesakes: tuple[Known, ...] = ()

    @property
    def same_name(self) -> bool:
        return self.holder is not None and self.holder.key == self.typed.key


def roster_players_for(
    people: Iterable[Typed], *, among: QuerySet[Player] | None, names_among: Any = SAME
) -> list[RosterMatch]:
    """The one way to find a person on the roster (desk, sign-up, import, restore; issue 39):
    by licence among `among`, else by name and club among `names_among` (by default `among`;
    None: the whole roster, as for `among`), names compared by one rule, fold (accents, case,
    spaces and punctuation ignored), two different licences being two people. Each caller
    decides what a match means (the desk asks, the sign-up takes the one namesake, the
    import flags it, a restore reuses holders only). Two queries per 500 people."""
    people = list(people)
    names_among = among if names_among is SAME else names_among
    by_licence = players_by_licence((person.licence for person in people), among=among)
    by_name = players_by_name((person.last_name for person in people), among=names_among)
    matches = []
    for person in people:
        holder = by_licence.get(person.licence) if person.licence else None
        namesakes = (
            ()
            if holder is not None
            else tuple(
                known
                for known in by_name.get(person.key, [])
                if may_be_the_same(known, club=person.club, licence=person.licence)
            )
        )
        matches.append(RosterMatch(person, holder, namesakes))
    return matches


def roster_player_for(
    person: Typed, *, among: QuerySet[Player] | None, names_among: Any = SAME
) -> RosterMatch:
    """roster_players_for for one person."""
    return roster_players_for([person], among=among, names_among=names_among)[0]


def may_be_the_same(known: Known, *, club: str, licence: str) -> bool:
    """Same club (folded), and not two different licences: a likely duplicate of a same-name row."""
    if licence and known.licence and licence != known.licence:
        return False
    return fold(known.club) == fold(club)


class LikelyDuplicate(ValidationError):
    """A new player who may already be on the roster: the arbiter says which."""

    def __init__(self, players: list[Known]):
        self.players = players
        super().__init__(
            _(
                "Ce joueur est peut-être déjà dans le fichier des joueurs : inscrivez le joueur "
                "existant, ou confirmez que c'est un autre joueur."
            ),
            code="likely_duplicate",
        )


# --- merging two roster players -------------------------------------------------------------


def _tournaments_of(*players: Player) -> list[Tournament]:
    return list(
        Tournament.objects.filter(registrations__player__in=players).distinct().order_by("pk")
    )


def may_merge(user, keep: Player, drop: Player) -> bool:
    """Players are shared: only who manages every tournament either plays in, or a superuser."""
    from tournament.access.permissions import Permission, may

    if not (user.is_authenticated and user.is_active):
        return False
    if user.is_superuser:
        return True
    return all(may(user, Permission.MANAGE, t) for t in _tournaments_of(keep, drop))


def _snapshot(player: Player) -> dict:
    return {
        "id": player.pk,
        "name": player.full_name,
        "licence": player.licence,
        "club": player.club,
        "tournaments": sorted(player.registrations.values_list("tournament_id", flat=True)),
    }


@transaction.atomic
def player_merge(*, keep: Player, drop: Player, user) -> Player:
    """`drop` becomes `keep`: its registrations move to `keep`, then it leaves the roster.

    Refused when both play the same tournament (one of them would have to be unregistered
    first, which changes results: an arbiter's decision of its own), when their licences
    differ (two people), or when the user does not manage every tournament concerned.
    The kept player takes the other's licence, club or first name where it has none.
    """
    from tournament.access.history import history_guard, merge_renames

    if keep.pk == drop.pk:
        raise ValidationError(_("Choisissez deux joueurs différents."))
    keep = Player.objects.select_for_update().get(pk=keep.pk)
    drop = Player.objects.select_for_update().get(pk=drop.pk)
    # The one guard of a person's history: every tournament concerned run by the user, none
    # finished (issue 36).
    tournaments = history_guard(
        players=[keep, drop], users=[user], renamed=merge_renames(keep=keep, drop=drop)
    )
    shared = shared_tournament(keep, drop)
    if shared is not None:
        raise ValidationError(
            _(
                "Fusion refusée : %(keep)s et %(drop)s sont tous deux inscrits au tournoi "
                "« %(tournament)s »."
            )
            % {"keep": keep.full_name, "drop": drop.full_name, "tournament": shared.name}
        )
    if keep.licence and drop.licence and keep.licence != drop.licence:
        raise ValidationError(
            _(
                "Fusion refusée : les licences diffèrent (%(keep)s et %(drop)s), ce sont deux "
                "personnes."
            )
            % {"keep": keep.licence, "drop": drop.licence}
        )
    # Every tournament's revision first, in ascending order, as every write over several
    # tournaments takes them (no deadlock with an event's save or a cut's replacement).
    revisions_bump(tournament.pk for tournament in tournaments)
    before, after = entries_merge(keep=keep, drop=drop)
    for tournament in tournaments:
        change_record(
            tournament=tournament, obj=keep, action="update", before=before, after=after, user=user
        )
    return keep


def entries_merge(*, keep: Player, drop: Player) -> tuple[dict, dict]:
    """The one move of a merge (player_merge, a licence conflict's): `drop`'s registrations go
    to `keep` with their results, `keep` takes the licence, club or first name it lacks, `drop`
    leaves the roster. Both rows locked by the caller, checked not to share a tournament.
    The snapshots before and after, for the history."""
    before = {"kept": _snapshot(keep), "merged": _snapshot(drop)}
    Registration.objects.filter(player=drop).update(player=keep)
    licence = keep.licence or drop.licence
    keep.club = keep.club or drop.club
    keep.first_name = keep.first_name or drop.first_name
    drop.delete()  # before the licence moves: it is unique in a club
    keep.licence = licence
    keep.save()
    return before, {"kept": _snapshot(keep), "merged": None}


def shared_tournament(keep: Player, drop: Player) -> Tournament | None:
    """A tournament both entries are registered in (a merge would seat one person twice)."""
    return (
        Tournament.objects.filter(registrations__player=keep)
        .filter(registrations__player=drop)
        .order_by("pk")
        .first()
    )


@dataclass(frozen=True)
class Played:
    """A roster player's tournaments as one user may see them: the names of those the user
    works on or of their clubs' public ones, and how many others there are (another club's
    names stay with it)."""

    names: list[str]
    hidden: int = 0


def merge_candidates(
    player: Player, *, user, among: QuerySet[Player]
) -> list[tuple[Known, Played]]:
    """Roster players among `among` (those `user` may see) who may be `player` (same last
    name, accents ignored), each with the tournaments they play in as `user` may see them;
    `player` first. Two queries."""
    from tournament.access.permissions import PUBLIC_TOURNAMENTS, visible_tournaments

    found = [
        known
        for group in players_by_name([player.last_name], among=among).values()
        for known in group
        if known.pk != player.pk
    ]
    everyone = [
        Known(
            player.pk,
            player.last_name,
            player.first_name,
            player.club,
            player.licence,
            player.origin_club_id,
        )
    ]
    everyone += sorted(found, key=lambda k: (k.key, fold(k.club), k.pk))
    # Named: the tournaments the user works on, and the public ones of the user's clubs (or of
    # no club). Another club's tournaments, public or not, are only counted: the merge page is
    # a desk page of this club (issue 27: no other club's tournament name on it).
    ours = Q(host_club=None) | Q(host_club__members__user=user)
    readable = Tournament.objects.filter(
        (PUBLIC_TOURNAMENTS & ours) | Q(pk__in=visible_tournaments(user).values("pk")),
        pk=OuterRef("tournament_id"),
    )
    played = played_by([known.pk for known in everyone], readable=readable)
    return [(known, played.get(known.pk, Played([]))) for known in everyone]


def played_by(ids: list[int], *, readable: QuerySet[Tournament]) -> dict[int, Played]:
    """The tournaments these roster players play in, by player id, in date order: named where
    `readable` (a subquery on OuterRef("tournament_id")) finds the tournament, else counted.
    One query; a player of no tournament is absent."""
    names: dict[int, list[str]] = {}
    hidden: dict[int, int] = {}
    for pk, name, shown in (
        Registration.objects.filter(player_id__in=ids)
        .annotate(shown=Exists(readable))
        .order_by("tournament__date", "tournament_id")
        .values_list("player_id", "tournament__name", "shown")
    ):
        if shown:
            names.setdefault(pk, []).append(name)
        else:
            hidden[pk] = hidden.get(pk, 0) + 1
    return {pk: Played(names.get(pk, []), hidden.get(pk, 0)) for pk in {*names, *hidden}}
