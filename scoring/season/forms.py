"""The form defining a season championship."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.core.championship import TIE_BREAK_CHOICES, parse_scale
from scoring.models import Championship
from tournament.access.scopes import managed_tournaments
from tournament.clubs.selectors import clubs_of
from tournament.models import Club, Tournament
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
    host_club = forms.ModelChoiceField(
        label=_("club organisateur"),
        queryset=Club.objects.none(),
        required=False,
        help_text=_("Le club ou le comité qui organise le championnat."),
    )
    participating_clubs = forms.CharField(
        label=_("clubs invités au circuit"),
        max_length=2000,
        required=False,
        help_text=_(
            "Pour un circuit entre clubs : noms exacts ou numéros FFT des clubs invités, "
            "séparés par des virgules ; les arbitres de chaque club invité y ajoutent eux-mêmes "
            "leurs tournois. Vide : le championnat de votre club."
        ),
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
                "host_club": championship.host_club_id,
                "participating_clubs": ", ".join(
                    championship.participating_clubs.order_by("name").values_list("name", flat=True)
                ),
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
        self._club_fields(user, championship)
        # Only the owner names co-organisers.
        if championship is not None and not (championship.owner_id == user.pk or user.is_superuser):
            del self.fields["organisers"]

    def _club_fields(self, user, championship: Championship | None) -> None:
        """The host club among the user's clubs (and the current one). Invited clubs are typed
        by name or number: the form lists no other club of the server."""
        clubs = Club.objects.all()
        if not user.is_superuser:
            hosts = Q(pk__in=clubs_of(user).values("pk"))
            if championship is not None and championship.host_club_id is not None:
                hosts |= Q(pk=championship.host_club_id)
            clubs = Club.objects.filter(hosts)
        host = cast(forms.ModelChoiceField, self.fields["host_club"])
        host.queryset = clubs.order_by("name")
        if championship is None and "host_club" not in self.initial:
            self.initial["host_club"] = clubs.order_by("name").values_list("pk", flat=True).first()

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

    def clean_participating_clubs(self) -> list[Club]:
        wanted = _names(self.cleaned_data.get("participating_clubs"))
        sound = [name for name in wanted if "\x00" not in name]  # never NUL to PostgreSQL
        clubs = list(Club.objects.filter(Q(name__in=sound) | Q(code__in=sound)))
        known = {club.name for club in clubs} | {club.code for club in clubs if club.code}
        missing = [name for name in wanted if name not in known]
        if missing:
            raise forms.ValidationError(
                _("Club inconnu : %(names)s."), params={"names": ", ".join(missing)[:200]}
            )
        return clubs

    def clean_organisers(self) -> list[str]:
        return _names(self.cleaned_data.get("organisers"))

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if cleaned.get("method") == Championship.Method.RANK and "scale" in cleaned:
            if not cleaned["scale"]:
                self.add_error("scale", _("Barème : indiquez les points de chaque place."))
        return cleaned


def _names(text: str | None) -> list[str]:
    """A comma-separated list as typed: each name trimmed, blanks and repeats dropped, sorted."""
    return sorted({name.strip() for name in (text or "").split(",") if name.strip()})
