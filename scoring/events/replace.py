"""A withdrawal after a cut, replaced by the next in line: the first player (or team) of the
cut's ranking who did not qualify and has not withdrawn since, moved from the consolante (or
from out) into the qualified bracket before its session starts."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.events.brackets import bracket_seat, registrations_copy
from tournament.access.audit import change_record, revisions_bump
from tournament.access.lifecycle import locked_tournament
from tournament.evening.selectors import last_played_position
from tournament.models import Cut, Registration, Tournament
from tournament.players.registrations import registration_withdraw


def next_in_line(cut: Cut) -> dict[str, Any] | None:
    """The cut's first non-qualified line still available, None when nobody is left."""
    taken = {r["replacement"] for r in cut.report.get("replacements", [])}
    source_regs = _source_registrations(cut)
    for line in cut.report.get("next_in_line", []):
        if line["key"] in taken:
            continue
        members = _members(cut, line["key"], source_regs)
        if cut.consolante_id is not None:
            playing = set(
                Registration.objects.filter(
                    tournament_id=cut.consolante_id,
                    player_id__in=[r.player_id for r in members],
                    status=Registration.Status.WITHDRAWN,
                ).values_list("player_id", flat=True)
            )
            if playing:
                continue  # withdrew from the consolante since: not available
        return line
    return None


def _source_registrations(cut: Cut) -> list[Registration]:
    return list(cut.source.registrations.select_related("player", "team"))


def _members(cut: Cut, key: Any, registrations: list[Registration]) -> list[Registration]:
    """The source's registrations a line of the report stands for (a player, or a team)."""
    if cut.by_team:
        return [r for r in registrations if r.team_id == key]
    return [r for r in registrations if r.pk == key]


def cut_withdrawal_replace(
    *, cut: Cut, registration: Registration, user=None
) -> list[Registration]:
    """`registration` (in the qualified bracket; with its team, by team) withdraws, and the next
    in line takes the place; the bracket's drafts are seated again. Refused once the qualified
    bracket or its consolante has started.

    The drafts are seated again once the replacement committed: seating takes seconds, and no
    lock the room's phones wait on is held meanwhile."""
    added = _replace(cut=cut, registration=registration, user=user)
    _seat_again(cut.qualified, user)
    if cut.consolante is not None:
        _seat_again(cut.consolante, user)
    return added


@transaction.atomic
def _replace(*, cut: Cut, registration: Registration, user) -> list[Registration]:
    """The withdrawal and the replacement, the drafts not seated again yet. Both brackets'
    revisions are taken first, in ascending order, as every write over several brackets takes
    them: two such writes (another replacement, the event's save) cannot deadlock."""
    revisions_bump([cut.qualified_id, *([cut.consolante_id] if cut.consolante_id else [])])
    qualified = locked_tournament(cut.qualified)
    cut = Cut.objects.select_for_update().get(pk=cut.pk)
    if registration.tournament_id != qualified.pk:
        raise ValidationError(_("Ce joueur ne joue pas dans le tableau des qualifiés."))
    # Read again under the lock: the same request sent twice must not bring in two players.
    registration = Registration.objects.select_related("player").get(pk=registration.pk)
    if registration.status == Registration.Status.WITHDRAWN:
        raise ValidationError(
            _("%(name)s a déjà déclaré forfait dans ce tableau.")
            % {"name": registration.player.full_name}
        )
    _ensure_not_started(cut, qualified)
    leaving = _leaving(cut, qualified, registration)
    line = next_in_line(cut)
    if line is None:
        raise ValidationError(
            _("Plus personne à repêcher : tous les suivants sont qualifiés ou forfaits.")
        )
    for member in leaving:
        if member.status != Registration.Status.WITHDRAWN:
            registration_withdraw(registration=member, user=user)
    coming = _members(cut, line["key"], _source_registrations(cut))
    if cut.consolante_id is not None:
        for member in Registration.objects.filter(
            tournament_id=cut.consolante_id, player_id__in=[r.player_id for r in coming]
        ):
            registration_withdraw(registration=member, user=user)
    added = registrations_copy(registrations=coming, into=qualified, user=user)
    before = dict(cut.report)
    cut.report = cut.report | {
        "replacements": [
            *cut.report.get("replacements", []),
            {
                "withdrawn": [m.player.full_name for m in leaving],
                "replacement": line["key"],
                "name": line["name"],
            },
        ]
    }
    cut.save(update_fields=["report"])
    change_record(
        tournament=qualified, obj=cut, action="update", before=before, after=cut.report, user=user
    )
    return added


def _ensure_not_started(cut: Cut, qualified: Tournament) -> None:
    """A replacement moves players between drafts only: refused once the qualified bracket, or
    the consolante the next in line plays in, has started."""
    if last_played_position(qualified) > 0:
        raise ValidationError(
            _("La séance a commencé : un forfait n'y est plus remplacé par le suivant.")
        )
    # The next in line plays in the consolante: once it has started they are seated at one of
    # its tables, and brought in they would be seated at two (their consolante code still
    # entering and confirming deals there).
    if cut.consolante is not None and last_played_position(locked_tournament(cut.consolante)):
        raise ValidationError(
            _("La consolante a commencé : le suivant y joue déjà, un forfait n'est plus remplacé.")
        )


def _leaving(cut: Cut, qualified: Tournament, registration: Registration) -> list[Registration]:
    """Who leaves the qualified bracket: the player, or their whole team in a cut by team."""
    if cut.by_team and registration.team_id is not None:
        return list(
            qualified.registrations.filter(team_id=registration.team_id).select_related("player")
        )
    return [registration]


def _seat_again(bracket: Tournament, user) -> str:
    """The bracket's drafts seated again around the change, as they were seated."""
    first = bracket.positions.filter(number=1).first()
    return bracket_seat(bracket, first.seating, user=user) if first is not None else ""
