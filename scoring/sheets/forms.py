"""Desk forms: a deal typed as the paper sheet says it, with short keys, made engine input."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.core.validators import MaxValueValidator
from django.db.models import QuerySet
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.core.deal import TOTAL_POINTS, DealError
from scoring.core.notation import reading as notation_parse
from scoring.core.notation import writing as notation_format
from scoring.core.notation.keys import NotationError, Row, SeatInfo
from scoring.models import Incident
from scoring.sheets.services import CARD_FIELDS, deal_figure
from tournament.core.schema import INT32_MAX
from tournament.models import DIRECTIONS, SHEET_ORDER, Direction, Registration, Table

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# The row's inputs before the card fields (or the figure), and the detailed sheet's card inputs.
HEAD_FIELDS = ("dealer", "taker", "contract", "partner")
DETAIL_FIELDS = ("oudlers", "points", "poignees", "petit_au_bout", "chelem")
# The inputs the notation reads as typed text.
TEXT_FIELDS = ("taker", "contract", "partner", *DETAIL_FIELDS, "figure")
# Engine fields a form does not have are shown with the field the arbiter typed them through.
ENGINE_TO_FORM = {
    "players": "__all__",
    "deal": "__all__",
    "dead": "dealer",
    "chelem_announced": "chelem",
    "alone": "partner",
}


def typed(label: StrOrPromise, max_length: int, help_text: StrOrPromise = "") -> forms.CharField:
    """A row's input typed as the paper sheet writes it: optional text the notation reads."""
    return forms.CharField(label=label, max_length=max_length, required=False, help_text=help_text)


class DealForm(forms.Form):
    """One row of the sheet, typed with short keys; `deal_data` is the engine's input."""

    mode = "detailed"  # the desk's entry mode this form types (FigureDealForm: "figures")

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=INT32_MAX)
    passed = forms.BooleanField(required=False, widget=forms.HiddenInput)
    dealer = forms.TypedChoiceField(label=_("Donneur"), coerce=int)
    taker = typed(_("Preneur"), 12, _("N, S, E, O ; T = tous passent ; A = donne annulée"))
    contract = typed(_("Contrat"), 16, _("P, G, GS, GC"))
    partner = typed(
        _("Roi appelé chez"),
        12,
        _("place ; C = roi au chien ; lettre du preneur = appelé soi-même"),
    )
    oudlers = typed(_("Bouts"), 4)
    points = typed(_("Points"), 12, _("d40 = défense 40"))
    side = forms.ChoiceField(
        label=_("Points de"),
        choices=[("attack", _("l'attaque")), ("defense", _("la défense"))],
        initial="attack",
        required=False,
        # Out of the Tab order: typing "d40" in the points field is the keyboard's way.
        widget=forms.Select(attrs={"tabindex": "-1"}),
    )
    poignees = typed(_("Poignées"), 40, _("E1 = Est simple, N2 = Nord double, S3 = Sud triple"))
    petit_au_bout = typed(_("Petit au bout"), 10, _("A ou D"))
    chelem = typed(
        _("Chelem"),
        4,
        _("R réussi, AR annoncé réussi, AC annoncé chuté, D défense, AD annoncé, défense"),
    )
    arbiter_called = forms.BooleanField(label=_("Arbitre appelé"), required=False)

    def __init__(self, *args, seats: SeatInfo, barred: dict[int, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        # Seats that may not bid on this deal, with the reason shown to the arbiter.
        self.barred = barred or {}
        dealer = cast(forms.TypedChoiceField, self.fields["dealer"])
        dealer.choices = [(seat, seats.labels[seat]) for seat in seats.in_order()]
        if not seats.called_king:
            del self.fields["partner"]
        if "X" in seats.directions:
            # At a table of 5 the fifth seat's key is 5: the hint says so.
            self.fields["taker"].help_text = _(
                "N, S, E, O, 5 ; T = tous passent ; A = donne annulée"
            )
        self.deal_data: dict[str, Any] | None = None

    def row(self, data: dict[str, Any]) -> Row:
        """The typed inputs as the notation reads them."""
        return Row(
            dealer=data.get("dealer"),
            **{name: data.get(name) or "" for name in TEXT_FIELDS if name in self.fields},
            side=data.get("side") or "attack",
            passed=bool(data.get("passed")),
            arbiter_called=bool(data.get("arbiter_called")),
        )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        try:
            self.deal_data = notation_parse.parse(
                self.row(data), self.seats, figures=self.mode == "figures", barred=self.barred
            )
        except NotationError as error:
            self.add_notation_errors(error)
        return data

    def add_notation_errors(self, error: NotationError) -> None:
        """Each field the notation could not read gets its message, in the user's language."""
        for field_error in error.errors:
            self.add_error(field_error.field, field_error.message(gettext))

    def add_deal_error(self, err: DealError) -> None:
        """Show an engine refusal next to the field it names, in the user's language."""
        field: str | None = ENGINE_TO_FORM.get(err.field, err.field)
        if field not in self.fields:
            field = "taker" if field == "partner" else None
        message = gettext(err.template) % err.params if err.params else gettext(err.template)
        self.add_error(field, message)


def deal_initial(deal, seats: SeatInfo) -> dict[str, Any]:
    """The form's values for an existing deal, written with the same short keys."""
    fields: dict[str, Any] = {
        name: getattr(deal, name)
        for name in ("dealer", "arbiter_called", "passed", "cancelled", "taker", "partner")
    }
    fields.update(contract=deal.contract, alone=deal.alone)
    if deal.passed or deal.cancelled:
        row = notation_format.format(fields, seats)
        return {"taker": row.taker, "dealer": row.dealer, "arbiter_called": row.arbiter_called}
    if deal.is_figure_only:
        row = notation_format.format({**fields, "figure": deal_figure(deal)}, seats)
        return {name: getattr(row, name) for name in (*HEAD_FIELDS, "figure", "arbiter_called")}
    fields.update({name: getattr(deal, name) for name in CARD_FIELDS})
    row = notation_format.format(fields, seats)
    return {
        name: getattr(row, name)
        for name in (*HEAD_FIELDS, *DETAIL_FIELDS, "side", "arbiter_called")
    }


class FigureDealForm(DealForm):
    """A row typed from the official FFT sheet, which carries only the contract and the figures.

    The arbiter types the contract, the taker (and the partner at 5) and the taker's figure; the
    other figures follow and the engine says whether a real deal gives it (scoring.core.figures).
    """

    mode = "figures"
    # The detailed form's fields the FFT sheet has no place for.
    OMITTED = ("oudlers", "points", "side", "poignees", "petit_au_bout", "chelem")

    figure = typed(_("Chiffre du preneur"), 12, _("tel qu'écrit sur la feuille : 318, -126"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.OMITTED:
            del self.fields[name]
        # After the partner (or the contract), before "arbitre appelé": as the row is typed.
        self.order_fields([name for name in self.fields if name != "arbiter_called"])

    def clean(self) -> dict[str, Any]:
        had_errors = bool(self.errors)
        data = super().clean()
        # An input refused by its field (too long…): the figure is still checked, unless the
        # taker is missing (its message is enough).
        if had_errors and not (self.has_error("taker") and not (data.get("taker") or "").strip()):
            try:
                notation_parse.parse_figure(data.get("figure") or "")
            except NotationError as error:
                self.add_notation_errors(error)
        return data


class SeatNumbersForm(forms.Form):
    """A form with one whole number per seat (`<seat_prefix>_<seat index>`, within ±`bound`),
    its fields listed in the paper sheet's order."""

    seat_prefix = "seat"
    bound = 0

    def __init__(self, *args: Any, labels: Sequence[str], order: Sequence[int] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.labels = list(labels)
        # Fields named by seat index, listed in the paper sheet's order.
        self.order = list(order) or list(range(len(self.labels)))
        for seat in self.order:
            self.fields[f"{self.seat_prefix}_{seat}"] = forms.IntegerField(
                label=self.labels[seat], required=False, min_value=-self.bound, max_value=self.bound
            )

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"{self.seat_prefix}_{seat}"] for seat in self.order]

    def seat_values(self) -> list[int | None]:
        """The cleaned value of each seat, by seat index (None where left empty)."""
        data = self.cleaned_data
        return [data.get(f"{self.seat_prefix}_{seat}") for seat in range(len(self.labels))]


class AdjustForm(SeatNumbersForm):
    """An arbiter's score for a deal: figures per seat, or 'contract lost by N points'."""

    seat_prefix = "score"
    bound = 100000

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=INT32_MAX)
    margin = forms.IntegerField(
        label=_("Contrat déclaré chuté de"),
        min_value=0,
        max_value=TOTAL_POINTS,
        required=False,
        help_text=_("points ; laisser vide pour saisir les scores de chaque joueur"),
    )
    reason = forms.CharField(label=_("Motif"), widget=forms.Textarea(attrs={"rows": 2}))

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        if data.get("margin") is None:
            values = self.seat_values()
            scores = [s for s in values if s is not None]
            if len(scores) != len(values):
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


class CrossCheckForm(SeatNumbersForm):
    """The bilans the players wrote on the paper sheet, typed in its order (N, S, E, O, 5e)."""

    seat_prefix = "bilan"
    bound = 1000000

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=INT32_MAX)

    def bilans(self) -> list[int | None] | None:
        """The typed bilans by seat index (None where left empty), or None when all are."""
        values = self.seat_values()
        return None if all(v is None for v in values) else values


class FreeSheetForm(forms.Form):
    """A sheet without a seating plan: any 3 to 5 registered players of the tournament."""

    title = forms.CharField(label=_("Intitulé"), max_length=120, required=False)

    # The seats as the tournament names them, the fifth in full.
    SEAT_LABELS = {**dict(Direction.choices), Direction.FIFTH: _("5e joueur")}

    def __init__(self, *args: Any, registrations: QuerySet[Registration], **kwargs: Any):
        super().__init__(*args, **kwargs)
        # By seat index (N, E, S, O, 5e), listed in the paper sheet's order: Nord, Sud, Est,
        # Ouest; a sheet of three seats Nord, Est and Sud.
        for direction in SHEET_ORDER:
            seat = DIRECTIONS.index(direction)
            self.fields[f"player_{seat}"] = forms.ModelChoiceField(
                queryset=registrations, label=self.SEAT_LABELS[direction], required=seat < 3
            )

    def players(self) -> list[Registration]:
        return [
            self.cleaned_data[f"player_{seat}"]
            for seat in range(5)
            if self.cleaned_data.get(f"player_{seat}")
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        chosen = self.players()
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
        widgets = dict.fromkeys(("decision", "note"), forms.Textarea(attrs={"rows": 2}))

    def __init__(
        self,
        *args: Any,
        registrations: QuerySet[Registration],
        tables: QuerySet[Table] | None = None,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        # A smallint, as the restore checks it (SQLite alone would store any 64-bit number).
        self.fields["deal_number"].validators.append(MaxValueValidator(2**15 - 1))
        cast(forms.ModelChoiceField, self.fields["registration"]).queryset = registrations
        self.fields["registration"].required = True
        if tables is not None:
            # From the Incidents tab: the position and table, among this tournament's only.
            self.fields["table"] = TableChoiceField(
                queryset=tables,
                required=False,
                label=_("Position et table"),
                empty_label=_("Aucune (incident du tournoi)"),
            )
            self.order_fields(["table", "kind", "deal_number", "registration"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        table, registration = data.get("table"), data.get("registration")
        if table is not None and registration is not None:
            if not any(seat.registration_id == registration.pk for seat in table.seats.all()):
                self.add_error("registration", _("Ce joueur n'est pas assis à cette table."))
        return data


class TableChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return str(
            _("Position %(position)s — table %(table)s")
            % {"position": obj.position.number, "table": obj.number}
        )


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
