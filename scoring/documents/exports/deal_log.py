"""The deal log's rows, shared by the XLSX and CSV documents: one row per deal, every input
and each player's score, loaded with a fixed number of queries and streamed.

The seat columns follow the score sheet's order (Nord, Sud, Est, Ouest, 5e), each with its seat
label; incidents and penalties are rows of their own after their sheet's deals (their columns
are the last ones, blank on a deal's row).

A deal entered on a phone is a row like any other; its last two columns say who entered it and
who confirmed it (a player, or an arbiter), and stay blank for a deal typed at the desk. The log
keeps every deal: one still waiting, or contested, says so there, and that it counts in no
total (scoring.counting).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from scoring.core.engine_fields import ENGINE_FIELDS
from scoring.documents.printing.phone_entry import arbiter_label, player_label
from scoring.live.standings import FREE_SHEETS
from scoring.models import Deal, Incident, SheetPlayer
from tournament.models import Tournament, player_name
from tournament.models.choices import DIRECTION_LABELS
from tournament.seats import sheet_order_key

MAX_SEATS = 5
FIELDS = (
    "id",
    "sheet_id",
    "sheet__table__position__number",
    "sheet__table__number",
    "number",
    "dealer",
    "alone",
    *ENGINE_FIELDS,
    "passed",
    "cancelled",
    "arbiter_called",
    "score_not_recorded",
    "adjusted",
    "adjustment_reason",
    "scores",
    "computed_scores",
    # Deals entered on phones: who entered and who confirmed (joined in the same query).
    "pending",
    "disputed",
    "entered_by_player__number",
    "entered_by_player__player__last_name",
    "entered_by_player__player__first_name",
    "confirmed_by_player__number",
    "confirmed_by_player__player__last_name",
    "confirmed_by_player__player__first_name",
    "confirmed_by__username",
)


def header() -> list[str]:
    columns = [
        _("Position"),
        _("Table"),
        _("Donne"),
        _("Joueurs"),
        _("Donneur"),
        _("Preneur"),
        _("Associé"),
        _("Mort"),
        _("Contrat"),
        _("Bouts"),
        _("Points"),
        _("Poignées"),
        _("Petit au bout"),
        _("Chelem annoncé"),
        _("Chelem"),
        _("Tous passent"),
        _("Annulée"),
        _("Arbitre appelé"),
        _("Score arbitral"),
        _("Motif de l'ajustement"),
        _("Scores calculés"),
    ]
    for seat in range(1, MAX_SEATS + 1):
        # In the sheet's seat order; the seat's label, then name, tournament number and
        # licence: homonyms are told apart, and a federation or club spreadsheet joins the log
        # on the licence.
        columns += [
            _("Place %(n)s") % {"n": seat},
            _("Joueur %(n)s") % {"n": seat},
            _("N° %(n)s") % {"n": seat},
            _("Licence %(n)s") % {"n": seat},
            _("Score %(n)s") % {"n": seat},
        ]
    # Last, so that the columns above keep their places in spreadsheets built on older logs.
    columns += [_("Saisie par"), _("Confirmée par")]
    # An incident's own row: what, who, the penalty and the decision (blank on a deal's row).
    columns += [_("Incident"), _("Joueur fautif"), _("Pénalité"), _("Décision")]
    return columns


INCIDENT_COLUMNS = 4


def entered_by(deal: dict[str, Any]) -> str:
    """The player who typed the deal on a phone; "" for a deal typed at the desk."""
    if deal["entered_by_player__number"] is None:
        return ""
    return player_label(
        deal["entered_by_player__number"],
        deal["entered_by_player__player__last_name"] or "",
        deal["entered_by_player__player__first_name"] or "",
    )


def confirmed_by(deal: dict[str, Any], waiting: str, contested: str = "") -> str:
    """The player or the arbiter who confirmed a phone-entered deal; `waiting` while pending,
    `contested` once an opponent contested it."""
    if deal["disputed"] and contested:
        return contested
    if deal["confirmed_by_player__number"] is not None:
        return player_label(
            deal["confirmed_by_player__number"],
            deal["confirmed_by_player__player__last_name"] or "",
            deal["confirmed_by_player__player__first_name"] or "",
        )
    if deal["confirmed_by__username"]:
        return arbiter_label(deal["confirmed_by__username"])
    return waiting if deal["pending"] else ""


@dataclass(frozen=True)
class SeatPlayer:
    """Who sat at a seat: the name, and what tells homonyms apart."""

    name: str
    number: int
    licence: str | None
    direction: str = ""

    @property
    def label(self) -> str:
        """As the role columns name a player: "12 – GARCIA Valérie"."""
        return f"{self.number} – {self.name}"


def seat_names(tournament: Tournament) -> dict[tuple[int, int], SeatPlayer]:
    """(sheet id, seat) → who sat there, for every sheet of the tournament (one query)."""
    rows = SheetPlayer.objects.filter(sheet__tournament=tournament).values_list(
        "sheet_id",
        "seat",
        "registration__player__last_name",
        "registration__player__first_name",
        "registration__number",
        "registration__player__licence",
        "direction",
    )
    return {
        (sheet, seat): SeatPlayer(player_name(last, first), number, licence, direction)
        for sheet, seat, last, first, number, licence, direction in rows
    }


def sheet_seat_order(names: dict[tuple[int, int], SeatPlayer], sheet: int, size: int) -> list[int]:
    """The sheet's seat indexes in the FFT sheet's order (N, S, E, O, 5e); a free sheet's seats
    (no direction) keep their order."""
    return sorted(
        range(size),
        key=lambda seat: (
            sheet_order_key(getattr(names.get((sheet, seat)), "direction", "") or "?"),
            seat,
        ),
    )


def _incidents(tournament: Tournament) -> dict[int | None, list[dict[str, Any]]]:
    """The tournament's incidents by sheet id (None: on no sheet), by deal number (one query)."""
    by_sheet: dict[int | None, list[dict[str, Any]]] = {}
    for incident in (
        Incident.objects.filter(tournament=tournament)
        .order_by("sheet_id", "deal_number", "pk")
        .values(
            "sheet_id",
            "sheet__table__position__number",
            "sheet__table__number",
            "deal_number",
            "kind",
            "registration__number",
            "registration__player__last_name",
            "registration__player__first_name",
            "penalty_points",
            "shared",
            "decision",
        )
    ):
        by_sheet.setdefault(incident["sheet_id"], []).append(dict(incident))
    return by_sheet


def _incident_row(incident: dict[str, Any], width: int) -> list[Any]:
    """An incident as a row of the log: where, which deal, then its own columns."""
    kinds = dict(Incident.Kind.choices)
    position = incident["sheet__table__position__number"]
    culprit = ""
    if incident["registration__number"] is not None:
        culprit = player_label(
            incident["registration__number"],
            incident["registration__player__last_name"] or "",
            incident["registration__player__first_name"] or "",
        )
    penalty = incident["penalty_points"] or None
    row: list[Any] = [
        FREE_SHEETS if position is None and incident["sheet_id"] else position,
        incident["sheet__table__number"],
        incident["deal_number"],
    ]
    row += [None] * (width - len(row) - INCIDENT_COLUMNS)
    row += [
        str(kinds.get(incident["kind"], incident["kind"])),
        culprit or None,
        -penalty if penalty else None,
        incident["decision"] or None,
    ]
    return row


def rows(
    tournament: Tournament, names: dict[tuple[int, int], SeatPlayer] | None = None
) -> Iterator[list]:
    """One list per deal, in position, table and deal order; numbers stay numbers, blanks None."""
    if names is None:
        names = seat_names(tournament)
    width = len(header())
    incidents = _incidents(tournament)
    words = _Words.translated()
    deals = (
        Deal.objects.filter(sheet__tournament=tournament)
        .order_by("sheet__table__position__number", "sheet__table__number", "sheet_id", "number")
        .values_list(*FIELDS)
    )
    previous: int | None = None
    for values in deals.iterator(chunk_size=2000):
        deal = dict(zip(FIELDS, values, strict=True))
        sheet = deal["sheet_id"]
        if sheet != previous:
            # The previous sheet's incidents follow its deals.
            if previous is not None:
                yield from _incident_rows(incidents.pop(previous, []), width)
            previous = sheet
        yield _deal_row(deal, names, words)
    if previous is not None:
        yield from _incident_rows(incidents.pop(previous, []), width)
    # Incidents of sheets without a deal, then those on no sheet.
    for sheet_id in sorted(incidents, key=lambda k: (k is None, k or 0)):
        yield from _incident_rows(incidents[sheet_id], width)


@dataclass(frozen=True)
class _Words:
    """The words a deal's row writes, translated once per log."""

    contracts: dict[str, Any]
    sides: dict[str, Any]
    # Alone at 5, in the partner's column: why (the columns keep their places).
    alone: dict[str, str]
    yes: str
    waiting: str
    contested: str

    @classmethod
    def translated(cls) -> _Words:
        return cls(
            contracts=dict(Deal.Contract.choices),
            sides=dict(Deal.Side.choices),
            alone={"dog": _("seul : roi au chien"), "self": _("seul : appelé soi-même")},
            yes=_("oui"),
            waiting=_("à confirmer, non comptée"),
            contested=_("contestée, non comptée"),
        )


def _deal_row(
    deal: dict[str, Any], names: dict[tuple[int, int], SeatPlayer], words: _Words
) -> list[Any]:
    """A deal's row: its inputs, each seat's player and score, who entered and confirmed it."""
    row = _deal_columns(deal, names, words)
    row += _seat_columns(deal["sheet_id"], deal["scores"] or [], names)
    row += [entered_by(deal), confirmed_by(deal, words.waiting, words.contested)]
    row += [None] * INCIDENT_COLUMNS
    # Empty cells are None: the XLSX writer skips them (a third of the cells, and time).
    return [value if value != "" else None for value in row]


def _deal_columns(
    deal: dict[str, Any], names: dict[tuple[int, int], SeatPlayer], words: _Words
) -> list[Any]:
    """The deal's own columns: where, who dealt, took and partnered, and every input."""
    sheet = deal["sheet_id"]

    def name(seat: int | None) -> str:
        if seat is None:
            return ""
        player = names.get((sheet, seat))
        return player.label if player is not None else str(seat + 1)

    position = deal["sheet__table__position__number"]
    yes = words.yes
    return [
        FREE_SHEETS if position is None else position,
        deal["sheet__table__number"],
        deal["number"],
        deal["players"],
        name(deal["dealer"]),
        name(deal["taker"]),
        name(deal["partner"]) or words.alone.get(deal["alone"], ""),
        name(deal["dead"]),
        str(words.contracts.get(deal["contract"], deal["contract"])),
        deal["oudlers"],
        _number(deal["points"]),
        ", ".join(f"{name(seat)} ({size})" for seat, size in deal["poignees"] or []),
        str(words.sides.get(deal["petit_au_bout"], "")),
        yes if deal["chelem_announced"] else "",
        str(words.sides.get(deal["chelem"], "")),
        yes if deal["passed"] else "",
        yes if deal["cancelled"] else "",
        yes if deal["arbiter_called"] else "",
        yes if deal["adjusted"] else "",
        deal["adjustment_reason"],
        " ".join(str(s) for s in deal["computed_scores"] or []) if deal["adjusted"] else "",
    ]


def _seat_columns(
    sheet: int, scores: list[int], names: dict[tuple[int, int], SeatPlayer]
) -> list[Any]:
    """Each of the MAX_SEATS seats in the sheet's order: label, name, number, licence, score."""
    columns: list[Any] = []
    order = sheet_seat_order(names, sheet, len(scores))
    for index in range(MAX_SEATS):
        seat = order[index] if index < len(order) else None
        player = names.get((sheet, seat)) if seat is not None else None
        if player is not None and seat is not None:
            label = str(DIRECTION_LABELS.get(player.direction, "")) or str(seat + 1)
            columns += [label, player.name, player.number, player.licence, scores[seat]]
        elif seat is not None:
            columns += [str(seat + 1), str(seat + 1), None, None, scores[seat]]
        else:
            columns += ["", "", None, None, None]
    return columns


def _incident_rows(incidents: list[dict[str, Any]], width: int) -> Iterator[list[Any]]:
    """A sheet's incidents as rows of the log, empty cells None."""
    for incident in incidents:
        yield [value if value != "" else None for value in _incident_row(incident, width)]


def _number(value: Decimal | None) -> int | float | None:
    if value is None:
        return None
    return int(value) if value == value.to_integral_value() else float(value)
