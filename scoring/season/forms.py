"""The form defining a season championship."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.core.championship import TIE_BREAK_CHOICES, parse_scale
from scoring.models import Championship
from tournament.access.scopes import managed_tournaments
from tournament.models import Tournament
from tournament.players.forms import BoundedMultipleChoiceField
from tournament.tournaments.forms import tie_breaks_field

MAX_SCALE = 200  # places on a scale
MAX_POINTS = 10_000  # points of one place


class TournamentChoices(BoundedMultipleChoiceField):
    def label_from_instance(self, obj: Tournament) -> str:
        return f"{obj.date:%d/%m/%Y} — {obj.name} ({obj.get_status_display()})"


class ChampionshipForm(forms.Form):
    name = forms.CharField(
        label=_("nom"), max_length=120, widget=forms.TextInput(attrs={"autofocus": True})
    )
    season = forms.CharField(
        label=_("saison"), max_length=20, required=False, help_text=_("Par exemple 2025-2026.")
    )
    tournaments = TournamentChoices(
        label=_("tournois retenus"),
        queryset=Tournament.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Seuls les tournois que vous arbitrez peuvent être ajoutés ; seuls les tournois "
            "terminés comptent au classement."
        ),
    )
    method = forms.ChoiceField(
        label=_("points par tournoi"),
        choices=Championship.Method.choices,
        initial=Championship.Method.RANK,
        widget=forms.RadioSelect,
    )
    scale = forms.CharField(
        label=_("barème"),
        max_length=2000,
        required=False,
        initial="25,20,16,13,11,10,9,8,7,6,5,4,3,2,1",
        help_text=_("Points de la 1re place, de la 2e, etc., séparés par des virgules."),
    )
    floor = forms.IntegerField(
        label=_("points au-delà du barème"),
        min_value=0,
        max_value=MAX_POINTS,
        initial=0,
        help_text=_("Pour chaque place au-delà du barème (0 : aucun point)."),
    )
    best_of = forms.IntegerField(
        label=_("meilleurs résultats retenus"),
        min_value=1,
        max_value=500,
        required=False,
        help_text=_("Laisser vide : tous les résultats comptent."),
    )
    min_attendance = forms.IntegerField(
        label=_("participation minimale"),
        min_value=0,
        max_value=500,
        initial=0,
        help_text=_(
            "Nombre de tournois joués pour être classé ; les autres joueurs sont listés à part, "
            "sans rang."
        ),
    )
    tie_breaks = tie_breaks_field(TIE_BREAK_CHOICES)
    is_public = forms.BooleanField(
        label=_("classement public"),
        required=False,
        help_text=_("Tout le monde peut consulter le classement du championnat."),
    )
    organisers = forms.CharField(
        label=_("co-organisateurs"),
        max_length=1000,
        required=False,
        help_text=_("Identifiants des comptes, séparés par des virgules."),
    )

    def __init__(self, *args, user, championship: Championship | None = None, **kwargs):
        if championship is not None and "initial" not in kwargs:
            kwargs["initial"] = {
                "name": championship.name,
                "season": championship.season,
                "tournaments": list(championship.tournaments.all()),
                "method": championship.method,
                "scale": ",".join(str(p) for p in championship.scale or ()),
                "floor": championship.floor,
                "best_of": championship.best_of,
                "min_attendance": championship.min_attendance,
                "tie_breaks": championship.tie_breaks,
                "is_public": championship.is_public,
                "organisers": ", ".join(
                    u.get_username() for u in championship.organisers.order_by("username")
                ),
            }
        super().__init__(*args, **kwargs)
        self.championship = championship
        mine = managed_tournaments(user)
        if championship is not None:
            mine = Tournament.objects.filter(pk__in=mine.values("pk")) | Tournament.objects.filter(
                championships=championship
            )
        tournaments = cast(forms.ModelMultipleChoiceField, self.fields["tournaments"])
        tournaments.queryset = mine.distinct().order_by("-date", "name")
        # Only the owner names co-organisers.
        if championship is not None and not (championship.owner_id == user.pk or user.is_superuser):
            del self.fields["organisers"]

    def clean_scale(self) -> list[int]:
        text = self.cleaned_data.get("scale") or ""
        try:
            scale = parse_scale(text)
        except ValueError as error:
            raise forms.ValidationError(
                _("Barème : « %(item)s » n'est pas un nombre entier positif."),
                params={"item": str(error)[:20]},
            ) from None
        if len(scale) > MAX_SCALE:
            raise forms.ValidationError(
                _("Barème : au plus %(count)s places."), params={"count": MAX_SCALE}
            )
        if any(points > MAX_POINTS for points in scale):
            raise forms.ValidationError(
                _("Barème : au plus %(max)s points par place."), params={"max": MAX_POINTS}
            )
        return list(scale)

    def clean_organisers(self) -> list[str]:
        text = self.cleaned_data.get("organisers") or ""
        return sorted({name.strip() for name in text.split(",") if name.strip()})

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if cleaned.get("method") == Championship.Method.RANK and "scale" in cleaned:
            if not cleaned["scale"]:
                self.add_error("scale", _("Barème : indiquez les points de chaque place."))
        return cleaned
