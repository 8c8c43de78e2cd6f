"""Forms of the evening's structure: generating positions, swapping two seats; a choice of
registrations in French alphabetical order (also the teams' form in players)."""

from __future__ import annotations

from typing import cast

from django import forms
from django.forms.models import ModelChoiceIterator
from django.utils.translation import gettext_lazy as _

from tournament.core.collation import person_key
from tournament.models import Position, Registration


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


# How a position may be seated (the generator, or the standings for a final), for the form and
# the positions page's own select.
SEATING_CHOICES = Position.Seating.choices


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
        choices=SEATING_CHOICES,
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
