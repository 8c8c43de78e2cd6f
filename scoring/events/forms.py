"""Forms of an event: the cut (rule, value, teams, consolante, carry-over, seating) and the
replacement of a withdrawal. An event is created with the tournament form (its session 1)."""

from __future__ import annotations

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from tournament.models import Cut, Position, Registration, Tournament


class CutForm(forms.Form):
    rule = forms.ChoiceField(label=_("règle"), choices=Cut.Rule.choices, initial=Cut.Rule.TOP_N)
    value = forms.IntegerField(
        label=_("valeur (N joueurs, ou P %)"),
        validators=[MinValueValidator(1), MaxValueValidator(2000)],
        required=False,
        help_text=_("Sans objet pour « tout le champ »."),
    )
    by_team = forms.BooleanField(label=_("par équipe (équipes entières)"), required=False)
    consolante = forms.BooleanField(
        label=_("les autres jouent une consolante"), required=False, initial=True
    )
    carry_over_percent = forms.IntegerField(
        label=_("report du cumul dans la séance suivante (%)"),
        initial=100,
        validators=[MinValueValidator(0), MaxValueValidator(100)],
        help_text=_("100 : tout le score cumulé ; 0 : rien ; 50 : la moitié."),
    )
    seating = forms.ChoiceField(
        label=_("placement de la première position"),
        choices=Position.Seating.choices,
        initial=Position.Seating.GENERATOR,
        help_text=_("Pour le tableau principal et pour la consolante."),
    )

    def clean(self) -> dict:
        data = super().clean() or {}
        if data.get("rule") == Cut.Rule.ALL:
            data["value"] = 100  # the whole field: 100 % (kept in the cut's report)
        elif data.get("rule") and data.get("value") is None and "value" not in self.errors:
            self.add_error("value", _("Valeur : indiquez N (joueurs) ou P (%)."))
        return data


class ReplaceForm(forms.Form):
    registration = forms.ModelChoiceField(
        label=_("joueur forfait"), queryset=Registration.objects.none()
    )

    def __init__(self, *args, qualified: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["registration"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = qualified.registrations.exclude(
            status=Registration.Status.WITHDRAWN
        ).select_related("player")
