"""Settling a licence conflict between two clubs, by consent (issue 36).

The club that already held the licence proposes (conflict_propose): merge the two entries
(keeping one: the real holder) or correct one entry's licence, with a note it chooses to share.
The other club, told of the conflict by that proposal only, accepts (the settlement applies)
or refuses (the conflict is open again, its note kept) (conflict_answer). A superuser may
settle alone (conflict_resolve). Every settlement goes through the guard of a person's history
(tournament.access.history): each tournament concerned run by the proposer or the consenting
account, none finished. Each step is logged in both clubs' histories, entries by id only.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.access.audit import change_record, revisions_bump
from tournament.access.clubs import club_roles
from tournament.access.history import history_guard, merge_renames
from tournament.access.scopes import club_players
from tournament.models import Club, LicenceConflict, Player
from tournament.players import identity
from tournament.players.checks import licence_check_queue
from tournament.players.conflicts import EXISTING, NEWCOMER
from tournament.players.licence import licence_clean

Status = LicenceConflict.Status
Resolution = LicenceConflict.Resolution


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


def _locked(conflict: LicenceConflict, *statuses: str) -> LicenceConflict:
    conflict = LicenceConflict.objects.select_for_update().get(pk=conflict.pk)
    if conflict.status == Status.RESOLVED:
        raise ValidationError(
            _("Ce conflit de licence est déjà résolu : il ne peut plus être modifié.")
        )
    if conflict.status not in statuses:
        raise ValidationError(_("Ce conflit a changé depuis : rechargez la page."))
    return conflict


def _member(user, club_id: int | None) -> bool:
    return bool(user.is_authenticated and user.is_active and club_id in club_roles(user))


def _checked(resolution: str, entry: str, licence: str) -> str:
    if resolution not in Resolution.values:
        raise ValidationError({"resolution": _("Choisissez une résolution.")})
    if entry not in (EXISTING, NEWCOMER):
        raise ValidationError({"entry": _("Choisissez l'une des deux fiches.")})
    if resolution != Resolution.CORRECT:
        return ""
    try:
        return licence_clean(licence)
    except ValidationError as invalid:
        raise ValidationError({"licence": invalid.messages}) from None


@transaction.atomic
def conflict_propose(
    *, conflict: LicenceConflict, user, resolution: str, entry: str, licence: str = "", note=""
) -> LicenceConflict:
    """The holding club's proposal, sent to the other club with `note` (what it shares)."""
    conflict = _locked(conflict, Status.OPEN)
    if not (user.is_superuser or _member(user, conflict.existing_club_id)):
        raise ValidationError(
            _("Seul le club qui détenait déjà cette licence propose une résolution.")
        )
    licence = _checked(resolution, entry, licence)
    conflict.status = Status.PROPOSED
    conflict.proposed_resolution, conflict.proposed_entry = resolution, entry
    conflict.proposed_licence, conflict.proposed_note = licence, (note or "").strip()[:500]
    conflict.proposed_by, conflict.proposed_at = user, timezone.now()
    conflict.answer_note = ""
    conflict.save()
    after = {"proposed": resolution, "entry": entry, "licence": licence}
    _record(conflict, action="update", before={"status": Status.OPEN}, after=after, user=user)
    return conflict


@transaction.atomic
def conflict_answer(
    *, conflict: LicenceConflict, user, accept: bool, note: str = ""
) -> LicenceConflict:
    """The other club accepts the proposal (it applies, with both accounts' authority) or
    refuses it (the conflict is open again, with its note for the holding club)."""
    conflict = _locked(conflict, Status.PROPOSED)
    if not (user.is_superuser or _member(user, conflict.newcomer_club_id)):
        raise ValidationError(_("Seul l'autre club accepte ou refuse cette proposition."))
    if not accept:
        conflict.status = Status.OPEN
        conflict.answer_note = (note or "").strip()[:500]
        conflict.save(update_fields=["status", "answer_note"])
        _record(conflict, action="update", before=None, after={"refused": True}, user=user)
        return conflict
    conflict.consented_by = user
    return _apply(
        conflict,
        resolution=conflict.proposed_resolution,
        entry=conflict.proposed_entry,
        licence=conflict.proposed_licence,
        users=[conflict.proposed_by, user],
        by=user,
    )


@transaction.atomic
def conflict_resolve(
    *,
    conflict: LicenceConflict,
    resolution: str,
    user,
    entry: str = NEWCOMER,
    licence: str = "",
) -> LicenceConflict:
    """A superuser settles the conflict alone: MERGE keeps `entry` (the real holder) and moves
    the other's registrations and results onto it; CORRECT gives `entry` (the false one)
    `licence` instead, or none. Anybody else proposes (conflict_propose)."""
    conflict = _locked(conflict, Status.OPEN, Status.PROPOSED)
    if not (user.is_authenticated and user.is_active and user.is_superuser):
        raise ValidationError(
            _(
                "Un conflit entre deux clubs se règle par le club qui détenait la licence, avec "
                "l'accord de l'autre club, ou par un administrateur du site."
            )
        )
    licence = _checked(resolution, entry, licence)
    return _apply(
        conflict, resolution=resolution, entry=entry, licence=licence, users=[user], by=user
    )


def _apply(
    conflict: LicenceConflict, *, resolution: str, entry: str, licence: str, users: list, by
) -> LicenceConflict:
    ids = [conflict.existing_id, conflict.newcomer_id]
    players = Player.objects.select_for_update().in_bulk([pk for pk in ids if pk])
    chosen = players.get(conflict.existing_id if entry == EXISTING else conflict.newcomer_id)
    other = players.get(conflict.newcomer_id if entry == EXISTING else conflict.existing_id)
    if resolution == Resolution.MERGE:
        before, after = _merge(keep=chosen, drop=other, users=users)
    else:
        before, after = _correct(conflict, wrong=chosen, licence=licence, users=users)
    conflict.status = Status.RESOLVED
    conflict.resolution = resolution
    conflict.resolved_by = by
    conflict.resolved_at = timezone.now()
    if resolution == Resolution.MERGE:
        conflict.existing = conflict.newcomer = chosen  # the one entry left
    conflict.save()
    _record(conflict, action="update", before=before, after=after, user=by)
    return conflict


def _merge(*, keep: Player | None, drop: Player | None, users: list):
    if keep is None or drop is None:
        raise ValidationError(_("L'une des deux fiches n'existe plus : corrigez l'autre."))
    concerned = history_guard(
        players=[keep, drop], users=users, renamed=merge_renames(keep=keep, drop=drop)
    )
    # The tournament is not named: it may be the other club's, and private.
    if identity.shared_tournament(keep, drop) is not None:
        raise ValidationError(
            _(
                "Fusion refusée : les deux fiches sont inscrites au même tournoi ; corrigez "
                "plutôt la licence de la fiche erronée."
            )
        )
    # Their tournaments' live pages show the kept entry from now on: each revision moves, in
    # ascending order, as every write over several tournaments takes them.
    revisions_bump(tournament.pk for tournament in concerned)
    identity.entries_merge(keep=keep, drop=drop)
    ids = {"kept": keep.pk, "merged": drop.pk}
    return {"resolution": Resolution.MERGE, **ids}, {"resolution": Resolution.MERGE, **ids}


def _correct(conflict: LicenceConflict, *, wrong: Player | None, licence: str, users: list):
    if wrong is None:
        raise ValidationError(_("Cette fiche n'existe plus."))
    history_guard(players=[wrong], users=users)
    # Checked against the entry's own club only: another club's roster is never an answer.
    if licence and (
        licence == conflict.licence
        or club_players(wrong.origin_club_id).filter(licence=licence).exists()
    ):
        raise ValidationError(
            {"licence": _("La licence %(licence)s est déjà utilisée.") % {"licence": licence}}
        )
    before = {"resolution": Resolution.CORRECT, "player": wrong.pk}
    wrong.licence = licence or None
    wrong.save(update_fields=["licence"])
    # Another club's entry with the new licence: a conflict for that club, silently, later.
    licence_check_queue(newcomer=wrong)
    return before, {"resolution": Resolution.CORRECT, "player": wrong.pk}
