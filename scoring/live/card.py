"""The deals a player's public card lists, cheap enough to poll at every change of the standings.

The card is asked again whenever the standings move (any deal of the field), but the deals it
lists move only when the player's own tables enter one. They are read as plain rows (no model
instances), and their HTML is rendered once per content: stored (LiveArtifact, one row per
player and language, replaced in place) under a digest of the rows it shows, so a poll whose
rows are unchanged reads the stored HTML instead of rendering it again. Being keyed by its
content, a stored render can never be stale, whatever write moved the rows.
"""

from __future__ import annotations

import hashlib
from decimal import Decimal
from typing import Any

from django.template.loader import render_to_string
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from scoring.live.counted import (
    PLAYER_DEAL_COLUMNS,
    deal_role,
    player_counted_deals,
    player_counted_penalties,
)
from scoring.live.rendered import CARD_DEALS, fragment
from scoring.models import Deal, Incident
from tournament.models import Tournament, player_name


def card_deals_html(tournament: Tournament, registration_id: int) -> tuple[Any, SafeString]:
    """The card's deals and penalties (card_deals, built only if asked for), and their HTML
    in the active language: read from the stored render of the same rows when there is one."""
    rows = player_counted_deals(tournament, registration_id)
    penalties = player_counted_penalties(tournament, registration_id)
    deals = SimpleLazyObject(lambda: card_deals(rows, penalties))
    key = f"{get_language()}:{registration_id}"
    version = hashlib.sha256(repr((rows, penalties)).encode()).hexdigest()[:32]
    template = "scoring/_public_deals.html"
    render = lambda: render_to_string(template, {"deals": deals})  # noqa: E731
    return deals, fragment(tournament, CARD_DEALS, key, version, render)


def card_deals(rows: list[tuple[Any, ...]], penalties: list[tuple[Any, ...]]) -> dict[str, Any]:
    """The counted deals the player played (counted.player_counted_deals' rows), by position,
    with the running total, and the player's penalties (player_counted_penalties' rows)."""
    running = 0
    lines = []
    for row in rows:
        line = dict(zip(PLAYER_DEAL_COLUMNS, row, strict=True))
        running += line["points"]
        line.update(
            running=running,
            deal_points=_decimal(line["deal_points"]),
            contract_label=Deal.Contract(line["contract"]).label if line["contract"] else "",
            role=deal_role(
                line["seat"],
                (line["taker"], line["partner"], line["dead"]),
                played=not (line["passed"] or line["cancelled"]),
            ),
            taker=player_name(line.pop("taker_last"), line.pop("taker_first")),
            partner=player_name(line.pop("partner_last"), line.pop("partner_first")),
        )
        lines.append(line)
    # The penalties' template is the arbiter's too: it reads them as incidents.
    ids = [penalty[0] for penalty in penalties]
    found = Incident.objects.filter(pk__in=ids).select_related("sheet__table__position")
    by_id = {incident.pk: incident for incident in found} if ids else {}
    incidents = [by_id[pk] for pk in ids if pk in by_id]
    return {"lines": lines, "incidents": incidents, "deal_total": running}


def _decimal(value: Any) -> Decimal | None:
    """The deal's points as the ORM reads them (SQLite's driver gives a float)."""
    return None if value is None else Decimal(str(value))
