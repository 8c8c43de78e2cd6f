"""Forms of a tournament itself: its settings."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament
from tournament.tournaments.services import TOURNAMENT_FIELDS
from tournament.tournaments.vocabulary import RULE_SET_CHOICES, TIE_BREAK_CHOICES

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
        (_("Le tournoi"), ("host_club", "name", "date", "venue", "club")),
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

    def __init__(self, *args, clubs=None, initial_club=None, **kwargs):
        super().__init__(*args, **kwargs)
        if clubs is not None:
            # A new tournament's club is chosen, never inferred from memberships (issue 36):
            # offered first, the one chosen last.
            self.fields["host_club"] = forms.ModelChoiceField(
                label=_("club du tournoi"),
                queryset=clubs,
                initial=initial_club,
                empty_label=None,
                required=False,
                help_text=_(
                    "Le club dont les arbitres et le fichier des joueurs servent ce tournoi."
                ),
            )
        self.fields["position_minutes"].required = False
        # Left out (an older form, a script), the entry mode and sheet style stay what they were.
        self.fields["entry_mode"].required = False
        self.fields["sheet_style"].required = False

    def sections(self) -> list[tuple[StrOrPromise, list[forms.BoundField]]]:
        return [
            (legend, [self[name] for name in names if name in self.fields])
            for legend, names in self.SECTIONS
        ]

    def clean_host_club(self):
        """Left out (an older form, a script), an account of one club gets that club; one of
        several clubs must say which."""
        value = self.cleaned_data.get("host_club")
        if value is None:
            clubs = list(self.fields["host_club"].queryset[:2])  # type: ignore[attr-defined]
            if len(clubs) != 1:
                raise ValidationError(_("Choisissez le club du tournoi."))
            value = clubs[0]
        return value

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
