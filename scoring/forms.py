"""Desk forms: a deal typed as the paper sheet says it, with short keys, made engine input."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.engine import TOTAL_POINTS, DealError
from scoring.models import Incident
from scoring.services import CARD_FIELDS, deal_figure
from tournament.models import DIRECTIONS, Registration, sheet_order_key

CONTRACT_KEYS = {
    "P": "prise",
    "PRISE": "prise",
    "G": "garde",
    "GARDE": "garde",
    "GS": "garde_sans",
    "GARDESANS": "garde_sans",
    "GC": "garde_contre",
    "GARDECONTRE": "garde_contre",
}
CONTRACT_CODES = {"prise": "P", "garde": "G", "garde_sans": "GS", "garde_contre": "GC"}
# Seat keys by direction: the French initials, W accepted for Ouest, 5 or X for the fifth seat.
DIRECTION_KEYS = {"N": ("N",), "E": ("E",), "S": ("S",), "W": ("O", "W"), "X": ("5", "X")}
DIRECTION_CODES = {"N": "N", "E": "E", "S": "S", "W": "O", "X": "5"}
PASSED_KEY = "T"
CANCELLED_KEY = "A"
# Alone at 5: the called king was in the chien (C), or the taker called themself (their own
# letter, or SOI). SEUL keeps "alone, reason unknown", as deals typed before it was recorded.
CHIEN_KEYS = ("C", "CHIEN", "ROIAUCHIEN")
SELF_KEYS = ("SOI", "SOIMEME")
ALONE_KEYS = ("SEUL",)
POIGNEE_SIZES = {
    "": "simple",
    "1": "simple",
    "S": "simple",
    "2": "double",
    "D": "double",
    "3": "triple",
    "T": "triple",
}
POIGNEE_CODES = {"simple": "1", "double": "2", "triple": "3"}
SIDE_KEYS = {"A": "attack", "ATTAQUE": "attack", "D": "defense", "DEFENSE": "defense"}
SIDE_CODES = {"attack": "A", "defense": "D"}
# Chelem: made (réussi), announced and made, announced and failed, by the defence.
CHELEM_KEYS = {
    "R": ("attack", False),
    "AR": ("attack", True),
    "AC": (None, True),
    "D": ("defense", False),
    "AD": ("defense", True),
}
# Engine fields a form does not have are shown with the field the arbiter typed them through.
ENGINE_TO_FORM = {
    "players": "__all__",
    "deal": "__all__",
    "dead": "dealer",
    "chelem_announced": "chelem",
    "alone": "partner",
}


@dataclass(frozen=True)
class SeatInfo:
    """What the form needs to know about a sheet's seats."""

    players: int
    directions: Sequence[str]  # by seat index, e.g. ("N", "E", "S", "W")
    labels: Sequence[str]  # by seat index, e.g. ("N — DURAND", ...)
    called_king: bool  # 5-player game with a called king (not a mort)
    dead_is_dealer: bool  # table of 5 with a mort: the dealer sits out
    order: Sequence[int] = ()  # seat indexes in the FFT sheet's order (N, S, E, O, 5e)

    def in_order(self) -> list[int]:
        """Seat indexes as the paper sheet lists them (index order when not given)."""
        return list(self.order) or list(range(self.players))

    def seat_for_key(self, key: str) -> int | None:
        key = key.strip().upper()
        for seat, direction in enumerate(self.directions):
            if key in DIRECTION_KEYS.get(direction, (direction,)):
                return seat
        return None

    def key_for_seat(self, seat: int | None) -> str:
        if seat is None:
            return ""
        return DIRECTION_CODES.get(self.directions[seat], str(seat))


def _normalise(value: str) -> str:
    return re.sub(r"[\s.\-_]", "", (value or "").upper()).replace("É", "E")


class DealForm(forms.Form):
    """One row of the sheet, typed with short keys; `deal_data` is the engine's input."""

    mode = "detailed"  # the desk's entry mode this form types (FigureDealForm: "figures")

    version = forms.IntegerField(widget=forms.HiddenInput)
    passed = forms.BooleanField(required=False, widget=forms.HiddenInput)
    dealer = forms.TypedChoiceField(label=_("Donneur"), coerce=int)
    taker = forms.CharField(
        label=_("Preneur"),
        max_length=12,
        required=False,
        help_text=_("N, S, E, O ; T = tous passent ; A = donne annulée"),
    )
    contract = forms.CharField(
        label=_("Contrat"), max_length=16, required=False, help_text=_("P, G, GS, GC")
    )
    partner = forms.CharField(
        label=_("Roi appelé chez"),
        max_length=12,
        required=False,
        help_text=_("place ; C = roi au chien ; lettre du preneur = appelé soi-même"),
    )
    oudlers = forms.CharField(label=_("Bouts"), max_length=4, required=False)
    points = forms.CharField(
        label=_("Points"), max_length=12, required=False, help_text=_("d40 = défense 40")
    )
    side = forms.ChoiceField(
        label=_("Points de"),
        choices=[("attack", _("l'attaque")), ("defense", _("la défense"))],
        initial="attack",
        required=False,
        # Out of the Tab order: typing "d40" in the points field is the keyboard's way.
        widget=forms.Select(attrs={"tabindex": "-1"}),
    )
    poignees = forms.CharField(
        label=_("Poignées"),
        max_length=40,
        required=False,
        help_text=_("E1 = Est simple, N2 = Nord double, S3 = Sud triple"),
    )
    petit_au_bout = forms.CharField(
        label=_("Petit au bout"), max_length=10, required=False, help_text=_("A ou D")
    )
    chelem = forms.CharField(
        label=_("Chelem"),
        max_length=4,
        required=False,
        help_text=_(
            "R réussi, AR annoncé réussi, AC annoncé chuté, D défense, AD annoncé, défense"
        ),
    )
    arbiter_called = forms.BooleanField(label=_("Arbitre appelé"), required=False)

    def __init__(self, *args, seats: SeatInfo, barred: dict[int, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        # Seats that may not bid on this deal, with the reason shown to the arbiter.
        self.barred = barred or {}
        self.fields["dealer"].choices = [(seat, seats.labels[seat]) for seat in seats.in_order()]
        if not seats.called_king:
            del self.fields["partner"]
        self.deal_data: dict[str, Any] | None = None

    # --- parsing ---------------------------------------------------------------------------

    def _seat(self, field: str, value: str) -> int | None:
        seat = self.seats.seat_for_key(value)
        if seat is None:
            self.add_error(
                field,
                gettext("%(value)s n'est pas une place de la table (%(keys)s).")
                % {"value": value, "keys": ", ".join(self._keys())},
            )
        return seat

    def _keys(self) -> list[str]:
        return [self.seats.key_for_seat(seat) for seat in self.seats.in_order()]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        taker_key = _normalise(data.get("taker", ""))
        passed = data.get("passed") or taker_key in (PASSED_KEY, "TP", "TOUSPASSENT")
        cancelled = taker_key in (CANCELLED_KEY, "ANNULEE")
        deal: dict[str, Any] = {
            "players": self.seats.players,
            "dealer": data.get("dealer"),
            "arbiter_called": bool(data.get("arbiter_called")),
            "passed": bool(passed),
            "cancelled": bool(cancelled) and not passed,
            "dead": data.get("dealer") if self.seats.dead_is_dealer else None,
        }
        if passed or cancelled:
            self.deal_data = deal
            return data
        if not taker_key:
            self.add_error("taker", gettext("Indiquez le preneur (%(keys)s), ou T si tous passent.")
                           % {"keys": ", ".join(self._keys())})  # fmt: skip
            return data
        taker = self._seat("taker", taker_key)
        if taker is not None and taker in self.barred:
            self.add_error("taker", self.barred[taker])
        deal["taker"] = taker
        deal["contract"] = self._contract(data.get("contract", ""))
        deal["partner"], deal["alone"] = self._partner(data.get("partner", ""), taker)
        deal["oudlers"] = self._oudlers(data.get("oudlers", ""))
        deal["points"] = self._points(data.get("points", ""), data.get("side") or "attack")
        deal["poignees"] = self._poignees(data.get("poignees", ""))
        deal["petit_au_bout"] = self._side("petit_au_bout", data.get("petit_au_bout", ""))
        deal["chelem"], deal["chelem_announced"] = self._chelem(data.get("chelem", ""))
        if not self.errors:
            self.deal_data = deal
        return data

    def _contract(self, value: str) -> str | None:
        key = _normalise(value)
        if not key:
            self.add_error("contract", gettext("Indiquez le contrat : P, G, GS ou GC."))
            return None
        if key not in CONTRACT_KEYS:
            self.add_error(
                "contract",
                gettext("%(value)s n'est pas un contrat (P, G, GS ou GC).") % {"value": value},
            )
            return None
        return CONTRACT_KEYS[key]

    def _partner(self, value: str, taker: int | None) -> tuple[int | None, str]:
        """(partner seat, why alone): a place, C for the king in the chien (Deal.Alone.DOG),
        or the taker's own letter when they called themself (Deal.Alone.SELF)."""
        if not self.seats.called_king:
            return None, ""
        key = _normalise(value)
        if not key:
            self.add_error(
                "partner",
                gettext(
                    "Indiquez qui avait le roi appelé : une place, C s'il était au chien, "
                    "ou la lettre du preneur s'il s'est appelé (seul)."
                ),
            )
            return None, ""
        if key in CHIEN_KEYS:
            return None, "dog"
        if key in SELF_KEYS:
            return None, "self"
        if key in ALONE_KEYS:
            return None, ""
        seat = self._seat("partner", key)
        if seat is not None and seat == taker:
            return None, "self"
        return seat, ""

    def _oudlers(self, value: str) -> int | None:
        value = value.strip()
        if not value:
            self.add_error("oudlers", gettext("Indiquez le nombre de bouts (0 à 3)."))
            return None
        if not (value.isascii() and value.isdigit()):
            self.add_error(
                "oudlers", gettext("%(value)s n'est pas un nombre de bouts.") % {"value": value}
            )
            return None
        return int(value)

    def _points(self, value: str, side: str) -> int | float | None:
        text = value.strip().lower().replace(",", ".").replace(" ", "")
        match = re.fullmatch(r"(d|a|déf|def|att)?(\d+(?:\.\d+)?)", text)
        if not text:
            self.add_error("points", gettext("Indiquez les points (d40 pour « défense 40 »)."))
            return None
        if not match:
            self.add_error(
                "points", gettext("%(value)s n'est pas un nombre de points.") % {"value": value}
            )
            return None
        try:
            points = Decimal(match.group(2))
        except InvalidOperation:  # pragma: no cover - the regex only lets digits through
            self.add_error("points", gettext("%(value)s n'est pas un nombre.") % {"value": value})
            return None
        prefix = match.group(1) or ""
        defence = prefix.startswith("d") or (not prefix and side == "defense")
        if points > TOTAL_POINTS:
            self.add_error(
                "points", gettext("%(value)s n'est pas entre 0 et 91.") % {"value": value}
            )
            return None
        if defence:
            points = TOTAL_POINTS - points
        return int(points) if points == int(points) else float(points)

    def _poignees(self, value: str) -> list[list[Any]]:
        poignees = []
        for token in re.split(r"[\s,;+]+", value.strip().upper()):
            if not token:
                continue
            seat = self.seats.seat_for_key(token[0])
            size = POIGNEE_SIZES.get(token[1:])
            if seat is None or size is None:
                self.add_error(
                    "poignees",
                    gettext("%(value)s : une place suivie de 1, 2 ou 3 (E1 = Est simple).")
                    % {"value": token},
                )
                continue
            poignees.append([seat, size])
        return poignees

    def _side(self, field: str, value: str) -> str | None:
        key = _normalise(value)
        if not key:
            return None
        if key not in SIDE_KEYS:
            self.add_error(
                field, gettext("%(value)s : A (attaque) ou D (défense).") % {"value": value}
            )
            return None
        return SIDE_KEYS[key]

    def _chelem(self, value: str) -> tuple[str | None, bool]:
        key = _normalise(value)
        if not key:
            return None, False
        if key not in CHELEM_KEYS:
            self.add_error(
                "chelem",
                gettext("%(value)s : R, AR, AC, D ou AD.") % {"value": value},
            )
            return None, False
        return CHELEM_KEYS[key]

    def add_deal_error(self, err: DealError) -> None:
        """Show an engine refusal next to the field it names, in the user's language."""
        field = ENGINE_TO_FORM.get(err.field, err.field)
        if field not in self.fields:
            field = "taker" if field == "partner" else None
        message = gettext(err.template) % err.params if err.params else gettext(err.template)
        self.add_error(field, message)


def deal_initial(deal, seats: SeatInfo) -> dict[str, Any]:
    """The form's values for an existing deal, written with the same short keys."""
    if deal.passed or deal.cancelled:
        taker = PASSED_KEY if deal.passed else CANCELLED_KEY
        return {"taker": taker, "dealer": deal.dealer or 0, "arbiter_called": deal.arbiter_called}
    # Alone: C when the king was in the chien, the taker's letter when they called themself,
    # SEUL when the reason was not recorded (saved again, it stays unknown).
    if deal.partner is None and deal.alone == "dog":
        partner = CHIEN_KEYS[0]
    elif deal.partner is None and not deal.alone and seats.called_king:
        partner = ALONE_KEYS[0]
    else:
        partner = seats.key_for_seat(deal.partner if deal.partner is not None else deal.taker)
    if deal.is_figure_only:
        return {
            "dealer": deal.dealer or 0,
            "taker": seats.key_for_seat(deal.taker),
            "contract": CONTRACT_CODES.get(deal.contract, ""),
            "partner": partner,
            "figure": str(deal_figure(deal)),
            "arbiter_called": deal.arbiter_called,
        }
    points = deal.points
    points_text = str(int(points)) if points == int(points) else str(points).replace(".", ",")
    chelem = next(
        (k for k, v in CHELEM_KEYS.items() if v == (deal.chelem or None, deal.chelem_announced)),
        "",
    )
    return {
        "dealer": deal.dealer or 0,
        "taker": seats.key_for_seat(deal.taker),
        "contract": CONTRACT_CODES.get(deal.contract, ""),
        "partner": partner,
        "oudlers": str(deal.oudlers),
        "points": points_text,
        "side": "attack",
        "poignees": " ".join(
            f"{seats.key_for_seat(seat)}{POIGNEE_CODES[size]}" for seat, size in deal.poignees
        ),
        "petit_au_bout": SIDE_CODES.get(deal.petit_au_bout, ""),
        "chelem": chelem,
        "arbiter_called": deal.arbiter_called,
    }


class FigureDealForm(DealForm):
    """A row typed from the official FFT sheet, which carries only the contract and the figures.

    The arbiter types the contract, the taker (and the partner at 5) and the taker's figure; the
    other figures follow and the engine says whether a real deal gives it (scoring.figures).
    """

    mode = "figures"
    # The detailed form's fields the FFT sheet has no place for.
    OMITTED = ("oudlers", "points", "side", "poignees", "petit_au_bout", "chelem")

    figure = forms.CharField(
        label=_("Chiffre du preneur"),
        max_length=12,
        required=False,
        help_text=_("tel qu'écrit sur la feuille : 318, -126"),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.OMITTED:
            del self.fields[name]
        # After the partner (or the contract), before "arbitre appelé": as the row is typed.
        self.order_fields([name for name in self.fields if name != "arbiter_called"])

    # The sheet has no card fields: DealForm's parsers find nothing to read.
    def _oudlers(self, value: str) -> None:
        return None

    def _points(self, value: str, side: str) -> None:
        return None

    def _poignees(self, value: str) -> list:
        return []

    def _side(self, field: str, value: str) -> None:
        return None

    def _chelem(self, value: str) -> tuple[None, bool]:
        return None, False

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        deal = self.deal_data
        if deal is not None and (deal["passed"] or deal["cancelled"]):
            return data
        if self.has_error("taker") and not (data.get("taker") or "").strip():
            return data  # nothing typed yet: the taker's message is enough
        figure = self._figure(data.get("figure") or "")
        if self.errors or deal is None:
            self.deal_data = None
            return data
        for name in CARD_FIELDS:  # the engine's card fields: the figure stands for them
            deal.pop(name, None)
        deal["figure"] = figure
        return data

    def _figure(self, value: str) -> int | None:
        text = re.sub(r"\s", "", value).replace("\N{MINUS SIGN}", "-")
        if not text:
            self.add_error(
                "figure",
                gettext("Indiquez le chiffre du preneur, tel qu'écrit sur la feuille (318, -126)."),
            )
            return None
        if not re.fullmatch(r"[+-]?\d{1,6}", text):
            self.add_error(
                "figure",
                gettext("Chiffre du preneur : %(value)s n'est pas un nombre entier.")
                % {"value": value},
            )
            return None
        return int(text)


class AdjustForm(forms.Form):
    """An arbiter's score for a deal: figures per seat, or 'contract lost by N points'."""

    version = forms.IntegerField(widget=forms.HiddenInput)
    margin = forms.IntegerField(
        label=_("Contrat déclaré chuté de"),
        min_value=0,
        max_value=91,
        required=False,
        help_text=_("points ; laisser vide pour saisir les scores de chaque joueur"),
    )
    reason = forms.CharField(label=_("Motif"), widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, labels: Sequence[str], order: Sequence[int] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.labels = list(labels)
        # Fields named by seat index, listed in the paper sheet's order.
        self.order = list(order) or list(range(len(self.labels)))
        for seat in self.order:
            self.fields[f"score_{seat}"] = forms.IntegerField(
                label=self.labels[seat], required=False, min_value=-100000, max_value=100000
            )

    def seat_fields(self):
        return [self[f"score_{seat}"] for seat in self.order]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        if data.get("margin") is None:
            scores = [data.get(f"score_{seat}") for seat in range(len(self.labels))]
            if any(s is None for s in scores):
                raise forms.ValidationError(
                    gettext("Donnez un score à chaque joueur, ou la marge de chute.")
                )
            if sum(scores) != 0:
                raise forms.ValidationError(
                    gettext("Les scores d'une donne doivent faire zéro (ici %(total)s).")
                    % {"total": sum(scores)}
                )
            data["scores"] = scores
        return data


class CrossCheckForm(forms.Form):
    """The bilans the players wrote on the paper sheet."""

    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, labels: Sequence[str], order: Sequence[int] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.labels = list(labels)
        # Typed in the paper sheet's order (N, S, E, O, 5e), stored by seat index.
        self.order = list(order) or list(range(len(self.labels)))
        for seat in self.order:
            self.fields[f"bilan_{seat}"] = forms.IntegerField(
                label=self.labels[seat], required=False, min_value=-1000000, max_value=1000000
            )

    def seat_fields(self):
        return [self[f"bilan_{seat}"] for seat in self.order]

    def bilans(self) -> list[int] | None:
        """The typed bilans by seat index (None where left empty), or None when all are."""
        values = [self.cleaned_data.get(f"bilan_{seat}") for seat in range(len(self.labels))]
        return None if all(v is None for v in values) else values


class FreeSheetForm(forms.Form):
    """A sheet without a seating plan: any 3 to 5 registered players of the tournament."""

    title = forms.CharField(label=_("Intitulé"), max_length=120, required=False)

    def __init__(self, *args, registrations, **kwargs):
        super().__init__(*args, **kwargs)
        # By seat index (N, E, S, O, 5e), listed in the paper sheet's order: Nord, Sud, Est,
        # Ouest; a sheet of three seats Nord, Est and Sud.
        labels = [_("Nord"), _("Est"), _("Sud"), _("Ouest"), _("5e joueur")]
        for seat in sorted(range(5), key=lambda seat: sheet_order_key(DIRECTIONS[seat])):
            self.fields[f"player_{seat}"] = forms.ModelChoiceField(
                queryset=registrations, label=labels[seat], required=seat < 3
            )

    def players(self) -> list[Registration]:
        return [
            self.cleaned_data[f"player_{seat}"]
            for seat in range(5)
            if self.cleaned_data.get(f"player_{seat}")
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = [data.get(f"player_{seat}") for seat in range(5) if data.get(f"player_{seat}")]
        if len({r.pk for r in chosen}) != len(chosen):
            raise forms.ValidationError(gettext("Un joueur est choisi deux fois."))
        return data


class IncidentForm(forms.ModelForm):
    """A fault on a sheet or a deal: the player, the arbiter's decision, optional penalty."""

    penalty_points = forms.IntegerField(
        label=_("Points de pénalité"),
        min_value=0,
        max_value=10000,
        required=False,
        help_text=_(
            "vide = montant par défaut du tournoi (ou du règlement) pour ce type d'incident ; "
            "sans montant par défaut, il faut l'indiquer"
        ),
    )

    class Meta:
        model = Incident
        fields = ["kind", "deal_number", "registration", "decision", "note", "penalty_points"]
        widgets = {
            "decision": forms.Textarea(attrs={"rows": 2}),
            "note": forms.Textarea(attrs={"rows": 2}),
        }

    def __init__(self, *args, registrations, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["registration"].queryset = registrations
        self.fields["registration"].required = True


# What the FFT rules (004, 000) say of each fault's sanction, shown beside its default amount.
PENALTY_RULE_HELP = {
    "fausse_donne": _(
        "Règlement FFT : le même donneur redistribue et le fautif ne peut pas enchérir sur "
        "cette donne ; pas de points fixés (0 par défaut)."
    ),
    "renonce_defence": _(
        "Règlement FFT : le fautif ne peut pas enchérir à la donne suivante ; en cas de chute, "
        "le preneur choisit de marquer ou non le score ; pas de points fixés (0 par défaut)."
    ),
    "petit_sec": _("Règlement FFT : la donne est annulée et redistribuée (0 par défaut)."),
}
PENALTY_NO_RULE_HELP = _(
    "Le règlement ne fixe pas de montant (code d'arbitrage FFT) : laissé vide, l'arbitre "
    "indique le montant à chaque incident."
)


class PenaltyDefaultsForm(forms.Form):
    """The organiser's default penalty per incident type, and whether penalties are shared."""

    share_penalties = forms.BooleanField(
        label=_("Répartir les pénalités entre les autres joueurs de la table"), required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for kind, label in Incident.Kind.choices:
            self.fields[f"kind_{kind}"] = forms.IntegerField(
                label=label,
                min_value=0,
                max_value=10000,
                required=False,
                help_text=PENALTY_RULE_HELP.get(kind, PENALTY_NO_RULE_HELP),
            )

    def kind_fields(self):
        return [self[f"kind_{kind}"] for kind in Incident.Kind.values]

    def defaults(self) -> dict[str, int]:
        return {
            kind: self.cleaned_data[f"kind_{kind}"]
            for kind in Incident.Kind.values
            if self.cleaned_data.get(f"kind_{kind}") is not None  # 0 is an amount too
        }
