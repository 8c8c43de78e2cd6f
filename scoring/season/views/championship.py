"""Season championships: the organisers' list, form, ranking and player breakdown, and the public
page (their PDF and XLSX: `scoring.documents.views.championship`)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from scoring.models import Championship
from scoring.season.access import ChampionshipRequest, championship_required, visible_championships
from scoring.season.championships import championship_save, championship_standings, lines
from scoring.season.circuits import invited_clubs
from scoring.season.forms import ChampionshipForm
from tournament.access.permissions import Permission, permission_required
from tournament.players.selectors import player_or_none


@permission_required(Permission.CHAMPIONSHIPS, lookup=None)
@require_safe
def championship_list(request: HttpRequest) -> HttpResponse:
    championships = visible_championships(request.user).order_by("-season", "name")
    return render(request, "championship/list.html", {"championships": championships})


def _save(
    request: HttpRequest, form: ChampionshipForm, championship: Championship | None
) -> Championship | None:
    """The form's values through the service; its refusals land on the form's fields."""
    if not form.is_valid():
        return None
    data = form.cleaned_data
    try:
        return championship_save(
            user=request.user,
            championship=championship,
            name=data["name"],
            season=data["season"],
            tournaments=list(data["tournaments"]),
            method=data["method"],
            scale=data["scale"],
            floor=data["floor"],
            best_of=data["best_of"],
            min_attendance=data["min_attendance"],
            tie_breaks=data["tie_breaks"],
            is_public=data["is_public"],
            organisers=data.get("organisers") if "organisers" in form.fields else None,
            host_club=data["host_club"],
            participating_clubs=list(data["participating_clubs"]),
        )
    except ValidationError as error:
        for field, errors in error.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
        return None


def _form_page(
    request: HttpRequest, championship: Championship | None, *, saved_message: str
) -> HttpResponse:
    """The championship's form (a new one when None); saved, back to its ranking."""
    form = ChampionshipForm(request.POST or None, user=request.user, championship=championship)
    if request.method == "POST":
        saved = _save(request, form, championship)
        if saved is not None:
            messages.success(request, saved_message)
            return redirect("championship-detail", pk=saved.pk)
    return render(request, "championship/form.html", {"form": form, "championship": championship})


@permission_required(Permission.CHAMPIONSHIPS, lookup=None)
@require_http_methods(["GET", "HEAD", "POST"])
def championship_create(request: HttpRequest) -> HttpResponse:
    return _form_page(request, None, saved_message=_("Championnat créé."))


@championship_required(Permission.CHAMPIONSHIP_MANAGE)
@require_http_methods(["GET", "HEAD", "POST"])
def championship_edit(request: ChampionshipRequest, pk: int) -> HttpResponse:
    return _form_page(request, request.championship, saved_message=_("Championnat enregistré."))


def _ranking_page(request: ChampionshipRequest, *, public: bool) -> HttpResponse:
    standings = championship_standings(request.championship, public=public)
    ranked, apart = lines(standings)
    return render(
        request,
        "championship/detail.html",
        {
            "championship": request.championship,
            "standings": standings,
            "ranked": ranked,
            "apart": apart,
            "public": public,
            "invited_clubs": [] if public else invited_clubs(request.championship),
            "player_url": "public-championship-player" if public else "championship-player",
        },
    )


@championship_required(Permission.CHAMPIONSHIP_MANAGE)
@require_safe
def championship_detail(request: ChampionshipRequest, pk: int) -> HttpResponse:
    return _ranking_page(request, public=False)


@championship_required(Permission.CHAMPIONSHIP_PUBLIC)
@require_safe
def public_championship(request: ChampionshipRequest, pk: int) -> HttpResponse:
    return _ranking_page(request, public=True)


def _player_page(request: ChampionshipRequest, player: int, *, public: bool) -> HttpResponse:
    standings = championship_standings(request.championship, public=public)
    found = standings.row_of(player)
    if found is None:
        raise Http404
    rank, row = found
    scored = row.by_tournament()
    results = [(t, scored.get(t.pk)) for t in standings.finished]
    upcoming = [t for t in standings.tournaments if t not in standings.finished]
    return render(
        request,
        "championship/player.html",
        {
            "championship": request.championship,
            "standings": standings,
            "player": player_or_none(player),
            "rank": rank,
            "row": row,
            "results": results,
            "upcoming": upcoming,
            "public": public,
        },
    )


@championship_required(Permission.CHAMPIONSHIP_MANAGE)
@require_safe
def championship_player(request: ChampionshipRequest, pk: int, player: int) -> HttpResponse:
    return _player_page(request, player, public=False)


@championship_required(Permission.CHAMPIONSHIP_PUBLIC)
@require_safe
def public_championship_player(request: ChampionshipRequest, pk: int, player: int) -> HttpResponse:
    return _player_page(request, player, public=True)
