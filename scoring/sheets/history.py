"""A sheet's history told in words: "Donne 3 : preneur Sud (DUPONT) → Est (DUBOIS)".

The ChangeLog keeps JSON pictures of what changed (deal snapshots, typed input, bilans,
incidents); this module turns them into translated lines with seats and players' names, so an
arbiter reads what happened without knowing the storage's English keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from scoring.models import Deal, Incident, ScoreSheet, SheetPlayer
from tournament.models import DIRECTION_LABELS, ChangeLog, Registration, sheet_order_key

CONTRACT_LABELS = dict(Deal.Contract.choices)
SIDE_LABELS = {"attack": _("attaque"), "defense": _("défense")}
ALONE_LABELS = {"dog": _("roi au chien"), "self": _("appelé soi-même")}
POIGNEE_LABELS = {"simple": _("simple"), "double": _("double"), "triple": _("triple")}
# Keyed by whatever a stored picture holds (JSON: a status, None, or anything restored).
STATUS_LABELS: dict[object, str | Promise] = dict(ScoreSheet.Status.choices)

# Deal snapshot keys in the order a line tells them, with their words.
DEAL_FIELDS: dict[str, Any] = {
    "passed": _("tous passent"),
    "cancelled": _("donne annulée"),
    "taker": _("preneur"),
    "contract": _("contrat"),
    "partner": _("partenaire"),
    "alone": _("seul"),
    "figure": _("chiffre du preneur"),
    "oudlers": _("bouts"),
    "points": _("points"),
    "poignees": _("poignées"),
    "petit_au_bout": _("petit au bout"),
    "chelem_announced": _("chelem annoncé"),
    "chelem": _("chelem"),
    "dealer": _("donneur"),
    "dead": _("mort"),
    "arbiter_called": _("arbitre appelé"),
    "scores": _("scores"),
    "adjusted": _("score arbitral"),
    "adjustment_reason": _("motif"),
    "score_not_recorded": _("score non marqué"),
    "pending": _("à confirmer"),
    "entered_by_player": _("saisie par"),
    "confirmed_by_player": _("confirmée par"),
}
SEAT_FIELDS = {"dealer", "dead", "taker", "partner"}
PLAYER_FIELDS = {"entered_by_player", "confirmed_by_player"}
# What the desk's form posts (a conflict keeps the typed input): its keys in words.
TYPED_FIELDS: dict[str, Any] = {
    **DEAL_FIELDS,
    "side": _("points de"),
    "version": _("version"),
    "number": _("donne n°"),
    "mode": _("mode de saisie"),
}


@dataclass
class HistoryEntry:
    change: ChangeLog
    title: str
    details: list[str] = field(default_factory=list)

    @property
    def summary(self) -> str:
        """The whole entry on one line: "Donne 3 : preneur Sud → Est ; contrat prise → garde"."""
        if not self.details:
            return self.title
        return f"{self.title} : {' ; '.join(self.details)}"


class _Words:
    """Turns stored values into words for one sheet (its seats and players)."""

    def __init__(self, players: Sequence[SheetPlayer], names: Mapping[int, str]):
        self.players = sorted(players, key=lambda p: (sheet_order_key(p.direction), p.seat))
        self.by_seat = {p.seat: p for p in players}
        self.names = names  # registration id → name, for players named by registration

    def seat(self, seat: Any) -> str:
        player = self.by_seat.get(seat) if isinstance(seat, int) else None
        if player is None:
            return "—" if seat is None else str(seat)
        direction = DIRECTION_LABELS.get(player.direction, player.direction or str(seat))
        return f"{direction} ({player.registration.player})"

    def registration(self, pk: Any) -> str:
        return self.names.get(pk, "—") if pk is not None else "—"

    def per_seat(self, values: Any) -> str:
        """Figures by seat ([-106, 318, …]) in the sheet's order: "Nord −106, Sud …"."""
        if not isinstance(values, list):
            return self.plain(values)
        parts = []
        for player in self.players:
            if player.seat < len(values) and values[player.seat] is not None:
                value = values[player.seat]
                shown = f"{value:+d}".replace("-", "−") if isinstance(value, int) else str(value)
                parts.append(f"{DIRECTION_LABELS.get(player.direction, player.direction)} {shown}")
        return ", ".join(parts) or "—"

    @staticmethod
    def plain(value: Any) -> str:
        if value is None or value == "" or value == []:
            return "—"
        if value is True:
            return gettext("oui")
        if value is False:
            return gettext("non")
        if isinstance(value, float):
            return f"{value:g}".replace(".", ",")
        return str(value)

    def value(self, key: str, value: Any) -> str:
        if key in SEAT_FIELDS:
            return self.seat(value)
        if key in PLAYER_FIELDS:
            return self.registration(value)
        if key == "contract":
            label = CONTRACT_LABELS.get(value)
            return str(label).lower() if label else self.plain(value)
        if key == "alone":
            return str(ALONE_LABELS.get(value, "")) or self.plain(value)
        if key in ("petit_au_bout", "chelem"):
            return str(SIDE_LABELS.get(value, "")) or self.plain(value)
        if key == "poignees":
            if not value:
                return gettext("aucune")
            return ", ".join(
                f"{POIGNEE_LABELS.get(size, size)} {self.seat(seat)}"
                for seat, size in _pairs(value)
            )
        if key == "scores":
            return self.per_seat(value)
        return self.plain(value)

    def described(self, data: Mapping[str, Any]) -> list[str]:
        """A whole deal snapshot: what it says, field by field ("preneur Est (DUBOIS)", …)."""
        if data.get("passed"):
            return [gettext("tous passent")]
        if data.get("cancelled"):
            return [gettext("donne annulée")]
        lines = []
        for key, label in DEAL_FIELDS.items():
            if key not in data or key in ("passed", "cancelled"):
                continue
            value = data[key]
            if value is None or value is False or value == "" or value == []:
                continue  # 0 is a value (seat 0, 0 bouts); False and empty say nothing
            lines.append(f"{label} {self.value(key, value)}")
        return lines

    def changed(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
        """Only what differs: "contrat prise → garde"."""
        lines = []
        keys = [k for k in DEAL_FIELDS if k in before or k in after]
        keys += sorted(k for k in {*before, *after} if k not in DEAL_FIELDS and k != "number")
        for key in keys:
            old, new = before.get(key), after.get(key)
            if old == new:
                continue
            label = DEAL_FIELDS.get(key, key)
            lines.append(f"{label} {self.value(key, old)} → {self.value(key, new)}")
        return lines

    def typed(self, data: Mapping[str, Any]) -> list[str]:
        """What someone typed or sent (a refused input): a deal picture or the form's fields."""
        if "players" in data or "scores" in data:
            return self.described(data)
        lines = []
        for key, value in data.items():
            if value in (None, ""):
                continue
            label = TYPED_FIELDS.get(key, key)
            lines.append(f"{label} {self.plain(value)}")
        return lines


def _pairs(value: Iterable[Any]) -> list[tuple[Any, Any]]:
    pairs = []
    for item in value:
        if isinstance(item, (list, tuple)) and len(item) == 2:
            pairs.append((item[0], item[1]))
    return pairs


def _number(change: ChangeLog) -> Any:
    for data in (change.after, change.before):
        if isinstance(data, dict) and data.get("number") is not None:
            return data["number"]
    return None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _deal_entry(change: ChangeLog, words: _Words) -> HistoryEntry:
    number = _number(change)
    before, after = _dict(change.before), _dict(change.after)
    if change.action == ChangeLog.Action.CREATE:
        title = gettext("Donne %(number)s saisie") % {"number": number}
        return HistoryEntry(change, title, words.described(after))
    if change.action == ChangeLog.Action.DELETE:
        title = gettext("Donne %(number)s supprimée") % {"number": number}
        return HistoryEntry(change, title, words.described(before))
    title = gettext("Donne %(number)s") % {"number": number}
    return HistoryEntry(change, title, words.changed(before, after))


def _conflict_entry(change: ChangeLog, words: _Words) -> HistoryEntry:
    before, after = _dict(change.before), _dict(change.after)
    typed = _dict(after.get("input"))
    title = gettext(
        "Saisie refusée : la feuille avait changé (version attendue %(expected)s, "
        "version enregistrée %(current)s)"
    ) % {
        "expected": words.plain(after.get("expected_version")),
        "current": words.plain(before.get("version")),
    }
    return HistoryEntry(change, title, words.typed(typed))


def _incident_entry(change: ChangeLog, words: _Words) -> HistoryEntry:
    after = _dict(change.after)
    kinds: dict[object, str | Promise] = dict(Incident.Kind.choices)
    title = gettext("Incident : %(kind)s") % {"kind": kinds.get(after.get("kind"), "—")}
    details = [gettext("joueur %(name)s") % {"name": words.registration(after.get("registration"))}]
    if after.get("deal_number") is not None:
        details.append(gettext("donne %(number)s") % {"number": after["deal_number"]})
    points = after.get("penalty_points") or 0
    details.append(
        ngettext("%(points)s point de pénalité", "%(points)s points de pénalité", points)
        % {"points": points}
    )
    if after.get("shared"):
        details.append(gettext("répartie entre les autres joueurs"))
    for key, label in (("decision", _("décision")), ("note", _("note"))):
        if after.get(key):
            details.append(f"{label} : {after[key]}")
    return HistoryEntry(change, title, details)


def _status_entry(change: ChangeLog, words: _Words) -> HistoryEntry:
    before, after = _dict(change.before), _dict(change.after)
    new = after.get("status")
    if change.action == ChangeLog.Action.REOPEN:
        title = gettext("Validation annulée")
    elif new == ScoreSheet.Status.VALIDATED:
        title = gettext("Feuille validée")
    elif after.get("signed_by") is not None:
        title = gettext("Feuille visée à la table")
    elif new == ScoreSheet.Status.COMPLETE and after.get("by_player") is not None:
        title = gettext("Feuille déclarée complète à la table")
    else:
        title = gettext("État de la feuille")
    details = [
        gettext("état %(before)s → %(after)s")
        % {
            "before": STATUS_LABELS.get(before.get("status"), words.plain(before.get("status"))),
            "after": STATUS_LABELS.get(new, words.plain(new)),
        }
    ]
    if after.get("reason"):
        details.append(gettext("motif : %(reason)s") % {"reason": after["reason"]})
    return HistoryEntry(change, title, details)


def _entry(change: ChangeLog, words: _Words) -> HistoryEntry:
    kind = change.object_type
    before, after = _dict(change.before), _dict(change.after)
    if kind == "deal":
        return _deal_entry(change, words)
    if change.action == ChangeLog.Action.CONFLICT:
        return _conflict_entry(change, words)
    if kind == "incident":
        return _incident_entry(change, words)
    if kind == "sheet_status":
        return _status_entry(change, words)
    if kind == "paper_bilans":
        return HistoryEntry(
            change,
            gettext("Bilans de la feuille papier"),
            [
                f"{words.per_seat(before.get('paper_bilans'))} → "
                f"{words.per_seat(after.get('paper_bilans'))}"
            ],
        )
    if kind == "sheet_extra_deals":
        return HistoryEntry(
            change,
            gettext("Donne supplémentaire autorisée"),
            [
                gettext("donnes en plus %(before)s → %(after)s")
                % {"before": before.get("extra_deals", 0), "after": after.get("extra_deals", 0)}
            ],
        )
    if kind == "deal_confirmation":
        title = gettext("Donne %(number)s confirmée") % {"number": _number(change)}
        return HistoryEntry(change, title, [])
    if kind == "deal_dispute":
        return _dispute_entry(change, after)
    if kind == "sheet" and change.action == ChangeLog.Action.CREATE:
        names = [words.registration(pk) for pk in after.get("players", [])]
        details = [gettext("joueurs : %(names)s") % {"names": ", ".join(names)}]
        if after.get("title"):
            details.insert(0, gettext("intitulé : %(title)s") % {"title": after["title"]})
        return HistoryEntry(change, gettext("Feuille créée"), details)
    # Anything else still reads as words, key by key.
    return HistoryEntry(change, change.get_action_display(), words.changed(before, after))


def _dispute_entry(change: ChangeLog, after: dict[str, Any]) -> HistoryEntry:
    """A deal contested at the table (by the history line's author), with the player's word."""
    title = gettext("Donne %(number)s contestée") % {"number": _number(change)}
    details = [gettext("déjà confirmée : l'arbitre décide")] if after.get("referred") else []
    if after.get("note"):
        details.append(gettext("motif : %(reason)s") % {"reason": after["note"]})
    return HistoryEntry(change, title, details)


def _registration_ids(changes: Iterable[ChangeLog]) -> set[int]:
    ids: set[int] = set()
    for change in changes:
        if change.object_type == "deal_confirmation":
            continue  # names its confirmer by registration number, shown by the author
        for data in (_dict(change.before), _dict(change.after)):
            for key in ("entered_by_player", "confirmed_by_player", "registration"):
                if isinstance(data.get(key), int):
                    ids.add(data[key])
            players = data.get("players")
            if isinstance(players, list):
                ids.update(p for p in players if isinstance(p, int))
    return ids


def sheet_history(sheet: ScoreSheet) -> list[HistoryEntry]:
    """The sheet's history, newest first, in words (three queries whatever its length)."""
    changes = list(ChangeLog.objects.filter(sheet=sheet).select_related("user"))
    players = list(SheetPlayer.objects.filter(sheet=sheet).select_related("registration__player"))
    names = {p.registration_id: str(p.registration.player) for p in players}
    missing = _registration_ids(changes) - set(names)
    if missing:
        names.update(
            (r.pk, str(r.player))
            for r in Registration.objects.filter(pk__in=missing).select_related("player")
        )
    words = _Words(players, names)
    return [_entry(change, words) for change in changes]
