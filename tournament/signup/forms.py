"""Forms of online pre-registration (the public page and its settings) and of the check-in."""

from __future__ import annotations

from typing import cast

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament
from tournament.players.names import NameField
from tournament.signup.services import SIGNUP_FIELDS


def _message(template, **params) -> str:
    """A message built when shown, in the reader's language (not once, at import)."""
    return lazy(lambda: str(template) % {k: str(v) for k, v in params.items()}, str)()


def _text(label, *, max_length: int, required: bool = True, **attrs) -> NameField:
    """A bounded name field whose messages name it (the page is read on a phone, out of sight
    of the label once scrolled); tournament.players.names' rule for what a name may hold."""
    return NameField(
        label=label,
        max_length=max_length,
        required=required,
        widget=forms.TextInput(attrs={"maxlength": max_length, **attrs}),
        error_messages={
            "required": _message(_("%(field)s : à remplir."), field=label),
            "max_length": _message(
                _("%(field)s : %(max)s caractères au plus."), field=label, max=max_length
            ),
        },
    )


def _licence(required: bool = False) -> forms.RegexField:
    label = _("Licence FFT")
    return forms.RegexField(
        label=label,
        max_length=20,
        required=required,
        regex=r"^[0-9A-Za-z -]*$",
        widget=forms.TextInput(
            attrs={"maxlength": 20, "inputmode": "numeric", "autocomplete": "off"}
        ),
        error_messages={
            "invalid": _("Licence FFT : chiffres et lettres seulement."),
            "required": _("Licence FFT : elle est obligatoire pour ce tournoi."),
            "max_length": _("Licence FFT : 20 caractères au plus."),
        },
    )


class SignupForm(forms.Form):
    """What a player types on their phone, plus the two spam traps (hidden to people)."""

    last_name = _text(_("Nom"), max_length=80, autocomplete="family-name")
    first_name = _text(_("Prénom"), max_length=80, autocomplete="given-name")
    licence = _licence()
    club = _text(_("Club"), max_length=120, required=False)
    # Honeypot: hidden by the stylesheet and from screen readers; people leave it empty.
    website = forms.CharField(
        label=_("Laissez ce champ vide"),
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"tabindex": "-1", "autocomplete": "off"}),
    )
    # Time trap: when the form was shown, signed by the server.
    stamp = forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        if tournament.signup_licence_required:
            self.fields["licence"].required = True


class SignupSettingsForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = list(SIGNUP_FIELDS)
        widgets = {
            "signup_closes_at": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
            "signup_capacity": forms.NumberInput(attrs={"min": 1, "max": 2000}),
        }
        error_messages = {
            "signup_capacity": {
                "invalid": _("Nombre maximum d'inscrits : un nombre entier."),
                "min_value": _("Nombre maximum d'inscrits : au moins 1."),
                "max_value": _("Nombre maximum d'inscrits : 2000 au plus."),
            },
            "signup_closes_at": {
                "invalid": _("Clôture des inscriptions : une date et une heure."),
            },
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        closes_at = cast(forms.DateTimeField, self.fields["signup_closes_at"])
        closes_at.input_formats = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]


class WalkInForm(forms.Form):
    """Someone who turns up without having signed up: registered and present at once."""

    last_name = _text(_("Nom"), max_length=80)
    first_name = _text(_("Prénom"), max_length=80, required=False)
    licence = _licence()
    club = _text(_("Club"), max_length=120, required=False)


class CheckInForm(forms.Form):
    present = forms.TypedChoiceField(
        label=_("présent"),
        choices=[("1", _("présent")), ("0", _("absent"))],
        coerce=lambda value: value == "1",
        error_messages={
            "required": _("Présent : oui (1) ou non (0)."),
            "invalid_choice": _("Présent : oui (1) ou non (0)."),
        },
    )
