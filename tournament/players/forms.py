"""Forms of a tournament's players: registering one, importing a file, forming a team."""

from __future__ import annotations

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.evening.forms import FrenchOrderIterator
from tournament.models import LicenceConflict, Registration, Tournament
from tournament.players.licence import licence_clean
from tournament.players.names import NameField


class PlayerForm(forms.Form):
    """A new player typed in at the desk (the roster search covers known players)."""

    last_name = NameField(
        label=_("nom"), max_length=80, widget=forms.TextInput(attrs={"autofocus": True})
    )
    first_name = NameField(label=_("prénom"), max_length=80, required=False)
    licence = forms.CharField(
        label=_("licence FFT"),
        max_length=20,
        required=False,
        help_text=_("7 chiffres ; les zéros en tête sont rétablis."),
    )
    club = NameField(label=_("club"), max_length=120, required=False)

    def clean_licence(self) -> str:
        return licence_clean(self.cleaned_data.get("licence"))


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("fichier CSV ou Excel (.xlsx)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,.xlsx", "autofocus": True}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 2 * 1024 * 1024:
            raise forms.ValidationError(_("Fichier trop gros (2 Mo au plus)."))
        return upload


class BoundedMultipleChoiceField(forms.ModelMultipleChoiceField):
    """Several objects chosen by id; an id beyond 64 bits is an unknown choice like any other
    (it would reach `pk__in` and fail there: SQLite raises OverflowError, a 500)."""

    def _check_values(self, value):
        for pk in value if isinstance(value, list | tuple) else ():
            try:
                out_of_range = abs(int(pk)) >= 2**63
            except (TypeError, ValueError):
                continue  # Django answers these itself
            if out_of_range:
                raise forms.ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": str(pk)[:20]},
                )
        # Django's own check (a private method django-stubs does not declare).
        return super()._check_values(value)  # type: ignore[misc]


class RegistrationsField(BoundedMultipleChoiceField):
    """Registrations in French alphabetical order."""

    iterator = FrenchOrderIterator


class TeamForm(forms.Form):
    name = forms.CharField(
        label=_("nom de l'équipe"),
        max_length=120,
        widget=forms.TextInput(attrs={"autofocus": True}),
    )
    members = RegistrationsField(
        label=_("joueurs"),
        queryset=Registration.objects.none(),
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        members = cast(RegistrationsField, self.fields["members"])
        members.queryset = tournament.registrations.filter(team__isnull=True).select_related(
            "player"
        )


class ConflictForm(forms.Form):
    """Resolving a licence conflict: merge (keeping one entry) or correct one entry's licence."""

    resolution = forms.ChoiceField(
        label=_("résolution"),
        choices=LicenceConflict.Resolution.choices,
        widget=forms.RadioSelect,
    )
    entry = forms.ChoiceField(
        label=_("fiche"),
        choices=[("existing", _("fiche existante")), ("newcomer", _("nouvelle fiche"))],
        widget=forms.RadioSelect,
        help_text=_("Fusion : la fiche gardée (le vrai titulaire). Correction : la fiche erronée."),
    )
    licence = forms.CharField(
        label=_("nouvelle licence de la fiche erronée"),
        max_length=20,
        required=False,
        help_text=_("Correction seulement ; vide, la fiche erronée n'a plus de licence."),
    )


class ProposalForm(ConflictForm):
    """The holding club's proposal to the other club: a resolution, and what it shares."""

    note = forms.CharField(
        label=_("message à l'autre club"),
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_(
            "Facultatif : ce que vous voulez dire à l'autre club (il ne voit rien d'autre de "
            "votre fiche)."
        ),
    )


class AnswerForm(forms.Form):
    """The other club's answer to a proposal."""

    accept = forms.TypedChoiceField(
        label=_("réponse"),
        choices=[("1", _("J'accepte cette résolution")), ("0", _("Je la refuse"))],
        coerce=lambda value: value == "1",
        widget=forms.RadioSelect,
    )
    note = forms.CharField(
        label=_("message au club qui détient la licence"),
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
