"""Results lifecycle: what is finished or closed refuses writes until an arbiter reopens it.

Every write service asks these gates, so the desk, the API, imports and restores all meet the
same refusal. Finishing, closing and reopening are logged with who, when and why.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament import hooks
from tournament.access.audit import revision_bump, save_recorded
from tournament.models import Cut, Position, Tournament


class Locked(ValidationError):
    """A write on something finished, closed or validated; an arbiter must reopen it first."""


def locked_tournament(tournament: Tournament) -> Tournament:
    """The tournament's row, fresh and locked until the end of the transaction: writes that
    read it first (status, counts, capacity) are serialised. The live revision is taken first,
    as every write takes it (one lock order: no deadlock on PostgreSQL)."""
    revision_bump(tournament.pk)
    return Tournament.objects.select_for_update(no_key=True, of=("self",)).get(pk=tournament.pk)


def locked_position(position: Position) -> Position:
    """The position's row, fresh and locked until the end of the transaction, with its
    tournament (the live revision first, as every write takes it)."""
    revision_bump(position.tournament_id)
    return (
        Position.objects.select_for_update(no_key=True, of=("self",))
        .select_related("tournament")
        .get(pk=position.pk)
    )


def ensure_tournament_open(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise Locked(
            _("Le tournoi est terminé : rouvrez-le (arbitre) avant de le modifier."),
            code="finished",
        )


def ensure_position_open(position: Position) -> None:
    ensure_tournament_open(position.tournament)
    if position.status == Position.Status.CLOSED:
        raise Locked(
            _("La position %(number)s est close : rouvrez-la (arbitre) avant de la modifier.")
            % {"number": position.number},
            code="closed",
        )


class DealsWaiting(ValidationError):
    """Deals still wait at some tables (unconfirmed or contested, unsent on a phone, arrived
    after a close): the arbiter decides each on the page of what waits before going on (`then`:
    "close", "finish", "seed" or "cut"; `position`: the number of the position to close)."""

    def __init__(
        self, waiting: list, *, tournament: Tournament, then: str, position: int | None = None
    ):
        self.waiting = waiting  # scoring.sheets.waiting.TableWaits, by position and table
        self.tournament_id = tournament.pk
        self.then = then
        self.position = position
        tables = ", ".join(str(w.number) for w in waiting)
        super().__init__(
            _(
                "Des donnes attendent encore une décision (tables %(tables)s) : décidez de "
                "chacune avant de %(doing)s."
            )
            % {"tables": tables, "doing": WAITING_ACTIONS[then]},
            code="waiting",
        )


# What the arbiter was doing when deals waited, as the refusal says it.
WAITING_ACTIONS = {
    "close": gettext_lazy("clore la position"),
    "finish": gettext_lazy("terminer le tournoi"),
    "seed": gettext_lazy("placer une position d'après le classement"),
    "cut": gettext_lazy("couper le tableau"),
}


def ensure_nothing_waits(
    tournament: Tournament, then: str, position: Position | None = None
) -> None:
    """Refuse (DealsWaiting) while a deal waits at a table of `position` (of the whole
    tournament when None): the one rule of a close, a finish, a cut and a seating by rank."""
    waiting = hooks.waiting_deals(tournament, [position] if position is not None else None)
    if waiting:
        number = position.number if position is not None else None
        raise DealsWaiting(waiting, tournament=tournament, then=then, position=number)


def _bump_sheets(**where) -> None:
    """Move the versions of the sheets being locked: a save racing with the lock then fails its
    version check (it waits for these row locks, then sees the new version) instead of slipping
    in after the lock."""
    from django.apps import apps
    from django.db.models import F

    sheets = apps.get_model("scoring", "ScoreSheet").objects.filter(**where)
    sheets.update(version=F("version") + 1)


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Indiquez pourquoi vous rouvrez.")})
    if "\x00" in reason:  # PostgreSQL refuses NUL in text and JSON: as the forms do
        raise ValidationError({"reason": ProhibitNullCharactersValidator.message})
    return reason[:500]


def _move(
    obj: Tournament | Position,
    tournament: Tournament,
    status: str,
    user,
    *,
    reason: str | None = None,
) -> None:
    """Give a tournament or a position its new status and record the move; with a reason, the
    move is a reopening, recorded as such."""
    before = {"status": str(obj.status)}
    obj.status = status
    after = {"status": str(status)}
    if reason is not None:
        after["reason"] = reason
    save_recorded(
        obj,
        update_fields=["status", "updated_at"] if isinstance(obj, Tournament) else ["status"],
        tournament=tournament,
        action="update" if reason is None else "reopen",
        before=before,
        after=after,
        user=user,
    )


@transaction.atomic
def tournament_finish(*, tournament: Tournament, user=None) -> Tournament:
    """Running → finished: results, players and positions are frozen."""
    tournament = locked_tournament(tournament)
    ensure_tournament_open(tournament)
    # Sheets first: their row locks make a deal being saved meanwhile finish before the check.
    _bump_sheets(tournament=tournament)
    ensure_nothing_waits(tournament, "finish")
    # A finished tournament has no open position left.
    tournament.positions.filter(status=Position.Status.PUBLISHED).update(
        status=Position.Status.CLOSED
    )
    _move(tournament, tournament, Tournament.Status.FINISHED, user)
    return tournament


@transaction.atomic
def tournament_reopen(*, tournament: Tournament, reason: str, user=None) -> Tournament:
    """Finished → running, with the reason in the history (positions stay closed)."""
    reason = _reason(reason)
    tournament = locked_tournament(tournament)
    if tournament.status != Tournament.Status.FINISHED:
        raise ValidationError(_("Le tournoi n'est pas terminé."))
    if Cut.objects.filter(source=tournament).exists():
        # Its results placed the next session's players and carry into their scores.
        raise Locked(
            _(
                "Ce tableau a été coupé : ses résultats ont décidé de la séance suivante, "
                "il ne peut plus être rouvert."
            ),
            code="cut",
        )
    _move(tournament, tournament, Tournament.Status.RUNNING, user, reason=reason)
    return tournament


@transaction.atomic
def position_close(*, position: Position, user=None) -> Position:
    """Published → closed: its sheets are frozen."""
    position = locked_position(position)
    ensure_position_open(position)
    if position.status != Position.Status.PUBLISHED:
        raise ValidationError(_("Seule une position publiée peut être close."))
    # Sheets first: their row locks make a deal being saved meanwhile finish before the check.
    _bump_sheets(table__position=position)
    ensure_nothing_waits(position.tournament, "close", position)
    _move(position, position.tournament, Position.Status.CLOSED, user)
    return position


@transaction.atomic
def position_reopen(*, position: Position, reason: str, user=None) -> Position:
    """Closed → published, with the reason in the history."""
    reason = _reason(reason)
    position = locked_position(position)
    ensure_tournament_open(position.tournament)
    if position.status != Position.Status.CLOSED:
        raise ValidationError(_("Cette position n'est pas close."))
    _move(position, position.tournament, Position.Status.PUBLISHED, user, reason=reason)
    return position
