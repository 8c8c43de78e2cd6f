"""Who may not bid: a player barred by an incident of the sheet (FFT 004).

The culprit of a fausse donne may not bid on that deal (the same dealer deals it again); a
defender who revoked ("renonce consommée") may not bid on the next deal.
"""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Any

from django.db.models import Q

from scoring.core.deal import DealError, is_int
from scoring.models import Deal, Incident, ScoreSheet, SheetPlayer
from tournament.core.i18n import gettext_noop as _

BARRED_FAUSSE_DONNE = _("%(name)s a fait une fausse donne et ne peut pas enchérir sur cette donne.")
BARRED_RENONCE = _(
    "%(name)s a fait une renonce en défense à la donne %(number)s et ne peut pas enchérir "
    "sur cette donne."
)

# Which deal an incident bars its culprit from bidding on, counted from the deal it names: a
# fausse donne that same deal (dealt again), a renonce in defence the next one.
BARS_AFTER: dict[str, int] = {Incident.Kind.FAUSSE_DONNE: 0, Incident.Kind.RENONCE_DEFENCE: 1}


def barred_deal(incident: Incident) -> int | None:
    """The number of the deal this incident's culprit may not bid on, or None."""
    after = BARS_AFTER.get(incident.kind)
    if after is None or incident.deal_number is None:
        return None
    return incident.deal_number + after


def barring_incident(sheet: ScoreSheet, number: int, seat: int) -> Incident | None:
    """The incident that bars the player of `seat` from bidding on deal `number`, or None."""
    return (
        Incident.objects.filter(
            sheet=sheet,
            registration__in=SheetPlayer.objects.filter(sheet=sheet, seat=seat).values(
                "registration_id"
            ),
        )
        .filter(
            reduce(
                or_,
                (Q(kind=kind, deal_number=number - after) for kind, after in BARS_AFTER.items()),
            )
        )
        .select_related("registration__player")
        .order_by("pk")
        .first()
    )


def barred_message(incident: Incident, number: int) -> tuple[str, dict[str, Any]]:
    """Why the incident's player may not bid on deal `number` (a template and its params)."""
    registration = incident.registration
    name = str(registration.player) if registration is not None else ""
    if incident.kind == Incident.Kind.FAUSSE_DONNE:
        return BARRED_FAUSSE_DONNE, {"name": name}
    return BARRED_RENONCE, {"name": name, "number": number - 1}


def refuse_barred_taker(sheet: ScoreSheet, number: int, data: dict[str, Any]) -> None:
    """A barred player recorded as taker is refused on every path (desk, API, phones)."""
    taker = data.get("taker")
    if data.get("passed") or data.get("cancelled") or not is_int(taker):
        return
    incident = barring_incident(sheet, number, taker)
    if incident is not None:
        raise DealError("taker", *barred_message(incident, number))


def incident_barred_taker(incident: Incident) -> Deal | None:
    """A deal already typed whose taker this new incident bars from bidding (to correct)."""
    number = barred_deal(incident)
    if incident.sheet_id is None or number is None:
        return None
    seat = (
        SheetPlayer.objects.filter(
            sheet_id=incident.sheet_id, registration=incident.registration_id
        )
        .values_list("seat", flat=True)
        .first()
    )
    if seat is None:
        return None
    return Deal.objects.filter(sheet_id=incident.sheet_id, number=number, taker=seat).first()
