"""Forms of the arbiter's desk: tournament settings, registrations, imports, teams, swaps."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from django import forms
from django.forms.models import ModelChoiceIterator
from django.utils.translation import gettext_lazy as _

from .collation import person_key
from .licence import licence_clean
from .models import Position, Registration, Tournament
from .names import NameField
from .services import TOURNAMENT_FIELDS
from .vocabulary import RULE_SET_CHOICES, TIE_BREAK_CHOICES

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def tie_breaks_field(choices: Iterable[tuple[str, str]]) -> forms.MultipleChoiceField:
    """The organiser's tie-breaks among `choices` (a tournament's or a championship's), applied
    in order; their labels are only marked (gettext_noop) and translated per request here."""
    return forms.MultipleChoiceField(
        label=_("critères de départage"),
        choices=[(key, _(label)) for key, label in choices],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Sans critère, les ex æquo partagent le rang. Appliqués dans cet ordre."),
    )


class TournamentForm(forms.ModelForm):
    rule_set = forms.ChoiceField(label=_("règlement"), choices=RULE_SET_CHOICES)
    tie_breaks = tie_breaks_field(TIE_BREAK_CHOICES)

    class Meta:
        model = Tournament
        fields = list(TOURNAMENT_FIELDS)
        widgets = {
            "name": forms.TextInput(attrs={"autofocus": True}),
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "remainder": forms.RadioSelect,
        }

    # The page's sections: a legend and its fields, in the order the arbiter fills them in.
    SECTIONS = (
        (_("Le tournoi"), ("name", "date", "venue", "club")),
        (
            _("Déroulement"),
            ("format", "positions_count", "position_minutes")
            + ("deals_per_table_4", "deals_per_table_5", "deals_per_table_3")
            + ("remainder", "rule_set"),
        ),
        (_("Saisie des donnes"), ("entry_mode", "sheet_style")),
        (_("Classement public"), ("is_public", "public_requires_validation")),
        (_("Classement"), ("tie_breaks", "normalise_tables")),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["position_minutes"].required = False
        # Left out (an older form, a script), the entry mode and sheet style stay what they were.
        self.fields["entry_mode"].required = False
        self.fields["sheet_style"].required = False

    def sections(self) -> list[tuple[StrOrPromise, list[forms.BoundField]]]:
        return [(legend, [self[name] for name in names]) for legend, names in self.SECTIONS]

    def clean_entry_mode(self) -> str:
        value = self.cleaned_data.get("entry_mode")
        return value or self.instance.entry_mode or Tournament.EntryMode.PAPER

    def clean_sheet_style(self) -> str:
        value = self.cleaned_data.get("sheet_style")
        return value or self.instance.sheet_style or Tournament.SheetStyle.DETAILED

    def clean_position_minutes(self) -> int:
        value = self.cleaned_data.get("position_minutes")
        if value is None:  # left out (an older form, a script): as it was
            return self.instance.position_minutes or 50
        if not 1 <= value <= 600:
            raise forms.ValidationError(_("Entre 1 et 600 minutes."))
        return value

    def clean_positions_count(self) -> int:
        value = self.cleaned_data["positions_count"]
        if not 1 <= value <= 30:
            raise forms.ValidationError(_("Entre 1 et 30 positions."))
        return value


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


class FrenchOrderIterator(ModelChoiceIterator):
    """Registrations listed by name in French order (BÉNARD before BOYER), not byte order."""

    def __iter__(self):
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        people = sorted(
            self.queryset, key=lambda r: person_key(r.player.last_name, r.player.first_name)
        )
        for registration in people:
            yield self.choice(registration)


class PersonChoiceField(forms.ModelChoiceField):
    """One registration, chosen from a list in French alphabetical order."""

    iterator = FrenchOrderIterator


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


class GenerateForm(forms.Form):
    seed = forms.IntegerField(
        label=_("graine (facultatif)"),
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text=_("La même graine redonne le même placement ; vide pour un tirage au hasard."),
    )
    # Only the next position to play can be seated from the standings: they are known.
    seating = forms.ChoiceField(
        label=_("placement de la prochaine position"),
        choices=Position.Seating.choices,
        required=False,
    )


class SwapForm(forms.Form):
    """Two players of one position whose seats are exchanged."""

    first = PersonChoiceField(label=_("joueur"), queryset=Registration.objects.none())
    second = PersonChoiceField(label=_("avec"), queryset=Registration.objects.none())

    def __init__(self, *args, registrations, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            field = cast(PersonChoiceField, self.fields[name])
            field.queryset = registrations
        self.fields["first"].widget.attrs["autofocus"] = True

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError(_("Choisissez deux joueurs différents."))
        return data
