"""Incidents and penalties: record a fault, the organiser's defaults, the totals the rankings
subtract."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from scoring.core.engine_fields import ENGINE_FIELDS
from scoring.core.penalties import Penalty, default_penalty
from scoring.models import Deal, Incident, ScoreSheet
from scoring.sheets.services.deal_input import ENTRY_FIELDS
from scoring.sheets.services.deals import deal_snapshot, deal_update
from scoring.sheets.services.sheets import bump_version, ensure_sheet_writable
from tournament.access.audit import change_record
from tournament.access.lifecycle import ensure_tournament_open
from tournament.models import ChangeLog, Registration, Tournament


def incident_record(
    *,
    tournament: Tournament,
    kind: str,
    registration: Registration | None,
    sheet: ScoreSheet | None = None,
    deal_number: int | None = None,
    decision: str = "",
    note: str = "",
    penalty_points: int | None = None,
    user: Any = None,
) -> Incident:
    """Record a fault; default penalty from the organiser's settings; a petit sec cancels."""
    if sheet is not None:
        ensure_sheet_writable(sheet)
    else:
        ensure_tournament_open(tournament)
    if penalty_points is None:
        penalty_points = default_penalty(kind, tournament.penalty_defaults)
        if penalty_points is None:
            # Neither the organiser nor the rules give an amount: charging 0 silently would
            # hide a forgotten penalty, so the arbiter is asked for it.
            raise ValidationError({"penalty_points": missing_penalty_message(kind)})
    with transaction.atomic():
        deal = None
        if sheet is not None and deal_number is not None:
            deal = Deal.objects.filter(sheet=sheet, number=deal_number).first()
        incident = Incident.objects.create(
            tournament=tournament,
            sheet=sheet,
            deal=deal,
            deal_number=deal_number,
            registration=registration,
            kind=kind,
            decision=decision,
            note=note,
            penalty_points=penalty_points,
            shared=tournament.share_penalties and sheet is not None,
            created_by=user,
        )
        change_record(
            tournament=tournament,
            obj=incident,
            sheet=sheet,
            action=ChangeLog.Action.CREATE,
            after=incident_snapshot(incident),
            user=user,
        )
        if kind == Incident.Kind.PETIT_SEC and deal is not None and not deal.cancelled:
            kept = (*ENGINE_FIELDS, *ENTRY_FIELDS)
            data = {k: v for k, v in deal_snapshot(deal).items() if k in kept}
            data["cancelled"] = True
            deal_update(deal=deal, data=data, user=user)
        elif sheet is not None:
            # Penalties change the sheet's totals: editors holding the old page must reload.
            bump_version(sheet, None)
    return incident


def missing_penalty_message(kind: str) -> str:
    label = Incident.Kind(kind).label if kind in Incident.Kind.values else kind
    return _(
        "Points de pénalité : ni le tournoi ni le règlement ne donnent de montant pour "
        "« %(kind)s ». Indiquez le montant (0 s'il n'y a pas de pénalité)."
    ) % {"kind": label}


def incident_snapshot(incident: Incident) -> dict[str, Any]:
    return {
        "kind": incident.kind,
        "registration": incident.registration_id,
        "deal_number": incident.deal_number,
        "decision": incident.decision,
        "note": incident.note,
        "penalty_points": incident.penalty_points,
        "shared": incident.shared,
    }


def penalty_defaults_set(
    *, tournament: Tournament, defaults: dict[str, int], share: bool, user: Any = None
) -> Tournament:
    """The organiser's default penalty per incident type, and whether penalties are shared."""
    ensure_tournament_open(tournament)
    with transaction.atomic():
        before = {
            "penalty_defaults": tournament.penalty_defaults,
            "share": tournament.share_penalties,
        }
        tournament.penalty_defaults = dict(defaults)
        tournament.share_penalties = share
        tournament.save(update_fields=["penalty_defaults", "share_penalties", "updated_at"])
        change_record(
            tournament=tournament,
            obj=tournament,
            kind=ChangeLog.ObjectType.PENALTY_DEFAULTS,
            action=ChangeLog.Action.UPDATE,
            before=before,
            after={"penalty_defaults": tournament.penalty_defaults, "share": share},
            user=user,
        )
    return tournament


def penalties_for(
    incidents: Iterable[Incident], table_players: dict[int, list[int]]
) -> list[Penalty]:
    """Pure-layer Penalty objects for incidents; table_players maps sheet id → registration ids."""
    return [
        Penalty(
            culprit=incident.registration_id,
            points=incident.penalty_points,
            shared=incident.shared,
            table=() if incident.sheet_id is None else table_players.get(incident.sheet_id, ()),
        )
        for incident in incidents
        if incident.registration_id is not None and incident.penalty_points
    ]
