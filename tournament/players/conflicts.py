"""Licence conflicts: one licence under two clubs' roster entries, flagged, then settled.

A registration is never refused because another club holds the licence (the evening goes on),
and the registering club is told nothing of it: its page, message, status code and history are
the same whether or not another club holds the licence (no licence oracle, issue 36). The
conflict goes to the club that already held the licence (and to superusers): conflict_flag,
at most CONFLICTS_PER_DAY a day from one club's registrations, counted atomically and logged.

The holding club proposes a settlement (merge the entries, or correct one licence) and the
other club learns of the conflict from that proposal, which it accepts or refuses; a superuser
may settle alone (tournament.clubs.settlement). Each side sees its own entry only, and what the
other chose to write to it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.db.models import OuterRef, Q, QuerySet
from django.shortcuts import get_object_or_404

from tournament.access import throttle
from tournament.access.audit import change_record
from tournament.access.clubs import club_roles
from tournament.access.permissions import readable_tournaments
from tournament.models import Club, LicenceConflict, Player
from tournament.players import identity

Status = LicenceConflict.Status
Resolution = LicenceConflict.Resolution
EXISTING, NEWCOMER = "existing", "newcomer"  # the two entries, as forms name them
DAY = 24 * 3600.0
logger = logging.getLogger("tournament.players.conflicts")


def conflicts_per_day() -> int:
    """How many conflicts one club's registrations may open in a day (a club registering
    licences it does not hold cannot flood another club, nor use it as an oracle)."""
    return int(settings.LICENCE_CONFLICTS_PER_DAY)


def conflict_flag(
    *, licence: str, existing: Player | identity.Known, newcomer: Player, user
) -> LicenceConflict | None:
    """Flag that `newcomer` (just put on its club's roster) holds the licence of `existing`,
    another club's entry: for the holding club only, logged in its history (entries by id)
    and in the server's log. Past the day's allowance of the newcomer's club, nothing is
    opened (logged only); the caller's answer is the same either way."""
    club_id = newcomer.origin_club_id
    if club_id is None or existing.origin_club_id in (None, club_id):
        return None  # no club's entry, or one club's two entries: not a conflict between clubs
    count = throttle.hit(f"licence-conflicts:{club_id}", DAY)
    if count > conflicts_per_day():
        logger.warning(
            "licence conflict not opened: club %s is past its %s a day (licence %s, entry %s)",
            club_id,
            conflicts_per_day(),
            licence,
            newcomer.pk,
        )
        return None
    conflict = LicenceConflict.objects.create(
        licence=licence,
        existing_id=existing.pk,
        newcomer=newcomer,
        existing_club_id=existing.origin_club_id,
        newcomer_club_id=club_id,
    )
    logger.info("licence conflict %s opened by club %s's registration", conflict.pk, club_id)
    change_record(
        tournament=None,
        obj=conflict,
        action="create",
        after={"licence": licence, "existing": existing.pk, "newcomer": newcomer.pk},
        user=None,  # the other club's account is none of the holder's business
        club=conflict.existing_club,
    )
    return conflict


# --- reading ------------------------------------------------------------------------------


def seen_by(club_ids) -> Q:
    """The conflicts these clubs may see: those of their entries that held the licence, and
    those of their new entries once the holding club proposed a settlement (or it is settled)."""
    return Q(existing_club_id__in=club_ids) | Q(
        newcomer_club_id__in=club_ids, status__in=[Status.PROPOSED, Status.RESOLVED]
    )


def conflicts_of(club: Club, *, resolved: bool = False) -> QuerySet[LicenceConflict]:
    """A club's licence conflicts (waiting ones, or resolved ones), newest first."""
    statuses = [Status.RESOLVED] if resolved else [Status.OPEN, Status.PROPOSED]
    return (
        LicenceConflict.objects.filter(seen_by([club.pk]))
        .filter(status__in=statuses)
        .select_related("existing_club", "newcomer_club")
    )


def waiting_on(conflict: LicenceConflict, club_id: int) -> bool:
    """Whether the club's move is awaited: the holder's while open, the other's once proposed."""
    if conflict.status == Status.OPEN:
        return conflict.existing_club_id == club_id
    return conflict.status == Status.PROPOSED and conflict.newcomer_club_id == club_id


def open_conflicts_by_club(user) -> list[tuple[Club, int]]:
    """The user's clubs with licence conflicts awaiting their move, and how many each (the
    home page's reminder); two queries."""
    if not (user.is_authenticated and user.is_active):
        return []
    clubs = {club.pk: club for club in Club.objects.filter(members__user=user)}
    counts: dict[int, int] = {}
    for conflict in LicenceConflict.objects.filter(seen_by(list(clubs))).filter(
        status__in=[Status.OPEN, Status.PROPOSED]
    ):
        for pk in clubs:
            if waiting_on(conflict, pk):
                counts[pk] = counts.get(pk, 0) + 1
    return [(clubs[pk], counts[pk]) for pk in sorted(counts, key=lambda pk: clubs[pk].name)]


def conflict_or_404(pk: int) -> LicenceConflict:
    return get_object_or_404(
        LicenceConflict.objects.select_related(
            "existing", "newcomer", "existing_club", "newcomer_club", "resolved_by"
        ),
        pk=pk,
    )


@dataclass(frozen=True)
class Entry:
    """One side of a conflict as a user may see it: its own side (the name under the licence,
    its club, the tournaments it played that the user may read, the others counted), or only
    that another club's entry exists (`player` and `club` None, `mine` False)."""

    role: str
    player: Player | None
    club: Club | None
    tournaments: list[str]
    hidden: int
    mine: bool = True


def conflict_entries(conflict: LicenceConflict, *, user) -> list[Entry]:
    """Both entries of the conflict, the existing one first (two queries): a superuser sees
    both, a club's member its own side only."""
    roles = club_roles(user)
    sides = [
        (EXISTING, conflict.existing, conflict.existing_club),
        (NEWCOMER, conflict.newcomer, conflict.newcomer_club),
    ]
    ids = [player.pk for _role, player, _club in sides if player is not None]
    readable = readable_tournaments(user).filter(pk=OuterRef("tournament_id"))
    played = identity.played_by(ids, readable=readable)
    entries = []
    for role, player, club in sides:
        if not (user.is_superuser or (club is not None and club.pk in roles)):
            entries.append(Entry(role, None, None, [], 0, mine=False))
            continue
        mine = played.get(player.pk, identity.Played([])) if player else identity.Played([])
        entries.append(Entry(role, player, club, mine.names, mine.hidden))
    return entries
