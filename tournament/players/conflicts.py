"""Licence conflicts: one licence under two clubs' roster entries, flagged, then resolved.

A registration is never refused because another club holds the licence (the evening goes on):
the registering club gets its own entry and the conflict is flagged (conflict_flag). An
arbiter or administrator of either club, or a superuser, resolves it later (conflict_resolve):
by merging the two entries (the same person; every registration and result of both ends on the
kept one) or by correcting the false entry's licence (it keeps its history). Each step is
written in the history of both clubs.

Until then a club sees of the other's entry only what the conflict needs: its name under the
licence and the tournaments it played that the viewer may read anyway (the others counted,
never named).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import OuterRef, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.access.audit import change_record
from tournament.access.permissions import Permission, may, readable_tournaments
from tournament.models import Club, LicenceConflict, Player
from tournament.players import identity
from tournament.players.licence import licence_clean

Status = LicenceConflict.Status
Resolution = LicenceConflict.Resolution
EXISTING, NEWCOMER = "existing", "newcomer"  # the two entries, as forms name them


def conflict_notice() -> str:
    """What the registering club is told: nothing of the other club's entry."""
    return _("Ce numéro de licence est aussi utilisé dans un autre club ; un conflit est signalé.")


def _record(conflict: LicenceConflict, *, action: str, before, after, user) -> None:
    """One record in the history of each club the conflict concerns."""
    for club in Club.objects.filter(pk__in=conflict.club_ids).order_by("pk"):
        change_record(
            tournament=None,
            obj=conflict,
            action=action,
            before=before,
            after=after,
            user=user,
            club=club,
        )


def conflict_flag(
    *, licence: str, existing: Player | identity.Known, newcomer: Player, user
) -> LicenceConflict:
    """Flag that `newcomer` (just put on its club's roster) holds the licence of `existing`,
    another club's entry; logged in both clubs (entries by id only)."""
    conflict = LicenceConflict.objects.create(
        licence=licence,
        existing_id=existing.pk,
        newcomer=newcomer,
        existing_club_id=existing.origin_club_id,
        newcomer_club_id=newcomer.origin_club_id,
    )
    after = {"licence": licence, "existing": existing.pk, "newcomer": newcomer.pk}
    _record(conflict, action="create", before=None, after=after, user=user)
    return conflict


def open_conflict_of(player: Player) -> LicenceConflict | None:
    """The open conflict a just-registered entry raised, if any."""
    return LicenceConflict.objects.filter(newcomer=player, status=Status.OPEN).first()


# --- reading ------------------------------------------------------------------------------


def conflicts_of(club: Club, *, resolved: bool = False) -> QuerySet[LicenceConflict]:
    """A club's licence conflicts (open ones, or resolved ones), newest first."""
    status = Status.RESOLVED if resolved else Status.OPEN
    return (
        LicenceConflict.objects.filter(Q(existing_club=club) | Q(newcomer_club=club))
        .filter(status=status)
        .select_related("existing", "newcomer", "existing_club", "newcomer_club")
    )


def open_conflicts_by_club(user) -> list[tuple[Club, int]]:
    """The user's clubs with open licence conflicts, and how many each (the home page's
    reminder); two queries."""
    if not (user.is_authenticated and user.is_active):
        return []
    clubs = {club.pk: club for club in Club.objects.filter(members__user=user)}
    counts: dict[int, int] = {}
    for pair in (
        LicenceConflict.objects.filter(status=Status.OPEN)
        .filter(Q(existing_club_id__in=clubs) | Q(newcomer_club_id__in=clubs))
        .values_list("existing_club_id", "newcomer_club_id")
    ):
        for pk in set(pair) & set(clubs):
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
    """One side of a conflict as a user may see it: the name under the licence, its club, and
    the tournaments it played (names of those the user may read; the others only counted)."""

    role: str
    player: Player | None
    club: Club | None
    tournaments: list[str]
    hidden: int


def conflict_entries(conflict: LicenceConflict, *, user) -> list[Entry]:
    """Both entries of the conflict, the existing one first (two queries)."""
    sides = [
        (EXISTING, conflict.existing, conflict.existing_club),
        (NEWCOMER, conflict.newcomer, conflict.newcomer_club),
    ]
    ids = [player.pk for _role, player, _club in sides if player is not None]
    readable = readable_tournaments(user).filter(pk=OuterRef("tournament_id"))
    played = identity.played_by(ids, readable=readable)
    entries = []
    for role, player, club in sides:
        mine = played.get(player.pk, identity.Played([])) if player else identity.Played([])
        entries.append(Entry(role, player, club, mine.names, mine.hidden))
    return entries


# --- resolving ----------------------------------------------------------------------------


@transaction.atomic
def conflict_resolve(
    *,
    conflict: LicenceConflict,
    resolution: str,
    user,
    entry: str = NEWCOMER,
    licence: str = "",
) -> LicenceConflict:
    """Resolve an open conflict once: MERGE keeps `entry` (the real holder) and moves the other's
    registrations and results onto it; CORRECT gives `entry` (the false one) `licence` instead,
    or none. Logged in both clubs. A resolved conflict is locked."""
    conflict = LicenceConflict.objects.select_for_update().get(pk=conflict.pk)
    if conflict.status == Status.RESOLVED:
        raise ValidationError(
            _("Ce conflit de licence est déjà résolu : il ne peut plus être modifié.")
        )
    if not may(user, Permission.LICENCE_CONFLICTS, conflict):
        raise ValidationError(_("Seul un arbitre de l'un des deux clubs peut résoudre ce conflit."))
    if entry not in (EXISTING, NEWCOMER):
        raise ValidationError({"entry": _("Choisissez l'une des deux fiches.")})
    ids = [conflict.existing_id, conflict.newcomer_id]
    players = Player.objects.select_for_update().in_bulk([pk for pk in ids if pk])
    chosen = players.get(conflict.existing_id if entry == EXISTING else conflict.newcomer_id)
    other = players.get(conflict.newcomer_id if entry == EXISTING else conflict.existing_id)
    if resolution == Resolution.MERGE:
        before, after = _merge(conflict, keep=chosen, drop=other)
    elif resolution == Resolution.CORRECT:
        before, after = _correct(conflict, wrong=chosen, licence=licence)
    else:
        raise ValidationError({"resolution": _("Choisissez une résolution.")})
    conflict.status = Status.RESOLVED
    conflict.resolution = resolution
    conflict.resolved_by = user
    conflict.resolved_at = timezone.now()
    if resolution == Resolution.MERGE:
        conflict.existing = conflict.newcomer = chosen  # the one entry left
    conflict.save()
    _record(conflict, action="update", before=before, after=after, user=user)
    return conflict


def _merge(conflict: LicenceConflict, *, keep: Player | None, drop: Player | None):
    if keep is None or drop is None:
        raise ValidationError(_("L'une des deux fiches n'existe plus : corrigez l'autre."))
    # The tournament is not named: it may be the other club's, and private.
    if identity.shared_tournament(keep, drop) is not None:
        raise ValidationError(
            _(
                "Fusion refusée : les deux fiches sont inscrites au même tournoi ; corrigez "
                "plutôt la licence de la fiche erronée."
            )
        )
    before, after = identity.entries_merge(keep=keep, drop=drop)
    return {"resolution": Resolution.MERGE, **before}, {"resolution": Resolution.MERGE, **after}


def _correct(conflict: LicenceConflict, *, wrong: Player | None, licence: str):
    if wrong is None:
        raise ValidationError(_("Cette fiche n'existe plus."))
    try:
        licence = licence_clean(licence)
    except ValidationError as invalid:
        raise ValidationError({"licence": invalid.messages}) from None
    if licence and (licence == conflict.licence or Player.objects.filter(licence=licence).exists()):
        raise ValidationError(
            {"licence": _("La licence %(licence)s est déjà utilisée.") % {"licence": licence}}
        )
    before = {"resolution": Resolution.CORRECT, "player": wrong.pk, "licence": wrong.licence}
    wrong.licence = licence or None
    wrong.save(update_fields=["licence"])
    return before, {"resolution": Resolution.CORRECT, "player": wrong.pk, "licence": licence}
