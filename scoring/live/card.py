"""The deals a player's public card lists, cheap enough to poll at every change of the standings.

The card is asked again whenever the standings move (any deal of the field), but the deals it
lists move only when the player's own tables enter one. They are read as plain rows (no model
instances), and their HTML is rendered once per content: stored (SharedRender, one row per
player and language, replaced in place) under a digest of the rows it shows, so a poll whose
rows are unchanged reads the stored HTML instead of rendering it again. Being keyed by its
content, a stored render can never be stale, whatever write moved the rows.
"""

from __future__ import annotations

import hashlib
from decimal import Decimal
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from scoring.live.counted import (
    PLAYER_DEAL_COLUMNS,
    player_counted_deals,
    player_visible_incidents,
)
from scoring.live.rendered import CARD_DEALS, shared_fragment, store_fragment
from scoring.models import Deal, Incident
from tournament.models import Tournament


def card_deals_html(tournament: Tournament, registration_id: int) -> tuple[dict, SafeString]:
    """The card's deals and penalties (card_deals), and their HTML in the active language."""
    deals, shown = card_deals(tournament, registration_id)
    key = f"{get_language()}:{registration_id}"
    version = hashlib.sha256(repr(shown).encode()).hexdigest()[:32]
    body = shared_fragment(tournament, CARD_DEALS, key, version)
    if body is None:
        body = render_to_string("scoring/_public_deals.html", {"deals": deals})
        store_fragment(tournament, CARD_DEALS, key, version, body, drop_other_versions=False)
    return deals, mark_safe(body)  # noqa: S308 - rendered by our own template, escaped there


def card_deals(tournament: Tournament, registration_id: int) -> tuple[dict[str, Any], Any]:
    """The counted deals the player played, by position, with the running total (what the
    public sees: counted.player_counted_deals), and the player's penalties; and all that the
    rendered deals show of them, as plain values (their digest names the render)."""
    rows = player_counted_deals(tournament, registration_id)
    running = 0
    lines = []
    for row in rows:
        line = dict(zip(PLAYER_DEAL_COLUMNS, row, strict=True))
        running += line["points"]
        played = not (line["passed"] or line["cancelled"])
        line.update(
            running=running,
            deal_points=_decimal(line["deal_points"]),
            contract_label=Deal.Contract(line["contract"]).label if line["contract"] else "",
            role=_role(line) if played else "",
            taker=_name(line.pop("taker_last"), line.pop("taker_first")),
            partner=_name(line.pop("partner_last"), line.pop("partner_first")),
        )
        lines.append(line)
    incidents = list(
        player_visible_incidents(tournament, registration_id)
        .select_related("sheet__table__position")
        .order_by("created_at")
    )
    shown = (rows, [_incident_shown(i) for i in incidents])
    return {"lines": lines, "incidents": incidents, "deal_total": running}, shown


def _incident_shown(incident: Incident) -> tuple[Any, ...]:
    table = incident.sheet.table if incident.sheet else None
    return (
        incident.pk,
        incident.kind,
        incident.penalty_points,
        incident.shared,
        incident.decision,
        table.position.number if table else None,
        table.number if table else None,
    )


def _decimal(value: Any) -> Decimal | None:
    """The deal's points as the ORM reads them (SQLite's driver gives a float)."""
    return None if value is None else Decimal(str(value))


def _name(last: str | None, first: str | None) -> str:
    """Player.full_name, of a seat that may be empty."""
    return f"{(last or '').upper()} {first or ''}".strip()


def _role(line: dict[str, Any]) -> str:
    seat = line["seat"]
    if seat == line["taker"]:
        return "taker"
    if seat == line["partner"]:
        return "partner"
    if seat == line["dead"]:
        return "dead"
    return "defence"
