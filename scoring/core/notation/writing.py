"""Writing a deal's fields back as a sheet row with the desk's keys. Pure: no Django."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from scoring.core.notation.keys import (
    ALONE_KEYS,
    CANCELLED_KEY,
    CHELEM_KEYS,
    CHIEN_KEYS,
    CONTRACT_CODES,
    PASSED_KEY,
    POIGNEE_CODES,
    SIDE_CODES,
    Row,
    SeatInfo,
)


def format(fields: Mapping[str, Any], seats: SeatInfo) -> Row:
    """A deal's fields written with the desk's keys (a `figure` key: typed by figures)."""
    dealer = fields.get("dealer") or 0
    arbiter_called = bool(fields.get("arbiter_called"))
    if fields.get("passed") or fields.get("cancelled"):
        taker = PASSED_KEY if fields.get("passed") else CANCELLED_KEY
        return Row(dealer=dealer, taker=taker, arbiter_called=arbiter_called)
    partner = fields.get("partner")
    alone = fields.get("alone") or ""
    # Alone: C when the king was in the chien, the taker's letter when they called themself,
    # SEUL when the reason was not recorded (read again, it stays unknown).
    if not seats.called_king:
        partner_text = ""
    elif partner is None and alone == "dog":
        partner_text = CHIEN_KEYS[0]
    elif partner is None and not alone:
        partner_text = ALONE_KEYS[0]
    else:
        partner_text = seats.key_for_seat(partner if partner is not None else fields["taker"])
    head = Row(
        dealer=dealer,
        taker=seats.key_for_seat(fields["taker"]),
        contract=CONTRACT_CODES.get(fields.get("contract") or "", ""),
        partner=partner_text,
        arbiter_called=arbiter_called,
    )
    if "figure" in fields:
        return replace(head, figure=str(fields["figure"]))
    points = fields["points"]
    points_text = str(int(points)) if points == int(points) else str(points).replace(".", ",")
    announced = bool(fields.get("chelem_announced"))
    chelem = next(
        (k for k, v in CHELEM_KEYS.items() if v == (fields.get("chelem") or None, announced)), ""
    )
    return replace(
        head,
        oudlers=str(fields["oudlers"]),
        points=points_text,
        poignees=" ".join(
            f"{seats.key_for_seat(seat)}{POIGNEE_CODES[size]}"
            for seat, size in fields.get("poignees") or ()
        ),
        petit_au_bout=SIDE_CODES.get(fields.get("petit_au_bout") or "", ""),
        chelem=chelem,
    )
