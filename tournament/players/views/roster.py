"""A tournament's players: the list, registering (from the roster or new), the roster
search and merge, withdrawals, and a player's itinerary."""

from __future__ import annotations

import re

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.access.permissions import (
    Permission,
    TournamentRequest,
    permission_required,
    viewable_tournament,
)
from tournament.access.scopes import visible_players
from tournament.evening.selectors import last_played_position, start_labels
from tournament.pages import desk_context, desk_page, error_messages, form_errors
from tournament.players import identity, selectors
from tournament.players import registrations as registration_services
from tournament.players.forms import PlayerForm
from tournament.players.identity import LikelyDuplicate
from tournament.players.selectors import itinerary, registration_or_404
from tournament.players.tables import ItineraryTable, RegistrationTable
from tournament.players.views import registration_view


def _player_list_page(request, tournament, form=None, status=200, duplicates=()) -> HttpResponse:
    context = desk_context(
        request,
        tournament,
        "players",
        form=form or PlayerForm(),
        late=last_played_position(tournament) > 0,
        duplicates=duplicates,
    )
    # The table's edit buttons follow the rights the page's context has just worked out.
    context["table"] = RegistrationTable(
        tournament.registrations.select_related("player", "team"),
        can_edit=context["can_edit"],
        start_labels=start_labels(tournament),
    )
    return render(request, "tournament/player_list.html", context, status=status)


@permission_required(Permission.VIEW)
def player_list(request: TournamentRequest, pk: int) -> HttpResponse:
    return _player_list_page(request, request.tournament)


@permission_required(Permission.MANAGE)
@require_POST
def player_register(request: TournamentRequest, pk: int) -> HttpResponse:
    tournament = request.tournament
    form = PlayerForm(request.POST)
    try:
        if request.POST.get("player"):
            # Chosen from the roster search: the player exists already.
            if not request.POST["player"].isdecimal():
                raise Http404  # not an id at all (the ORM would raise ValueError: a 500)
            player = selectors.player_or_404(
                request.POST["player"], among=visible_players(request.user)
            )
            registration = registration_services.player_register(
                tournament=tournament, player=player, user=request.user
            )
        elif form.is_valid():
            registration = registration_services.player_register(
                tournament=tournament,
                user=request.user,
                # Set by "c'est un autre joueur" once the page has shown the likely duplicates.
                other_player=request.POST.get("other_player") == "1",
                **form.cleaned_data,
            )
        else:
            return _player_list_page(request, tournament, form, status=400)
    except LikelyDuplicate as duplicate:
        # Not an error: a question. The page asks it with the typed fields kept.
        return _player_list_page(request, tournament, form, duplicates=duplicate.players)
    except ValidationError as error:
        if request.POST.get("player"):
            error_messages(request, error)
            return redirect("player-list", pk)
        form_errors(form, error)
        return _player_list_page(request, tournament, form, status=400)
    if registration.first_position > 1:
        messages.success(
            request,
            _(
                "%(player)s inscrit (n° %(number)s), joue à partir de la position %(first)s : "
                "replanifiez les positions en brouillon."
            )
            % {
                "player": registration.player.full_name,
                "number": registration.number,
                "first": registration.first_position,
            },
        )
    else:
        messages.success(
            request,
            _("%(player)s inscrit (n° %(number)s).")
            % {"player": registration.player.full_name, "number": registration.number},
        )
    return redirect("player-list", pk)


SEARCH_RESULTS = 20  # names shown as the arbiter types; more asks for another letter


@permission_required(Permission.ROSTER, None)
def player_search(request: HttpRequest) -> HttpResponse:
    """Roster search as you type; returns a partial for htmx, a page otherwise."""
    query = request.GET.get("q", "").strip()
    tournament = None
    if re.fullmatch(r"[0-9]{1,9}", request.GET.get("tournoi", "")):
        tournament = viewable_tournament(request.user, request.GET["tournoi"])
    # One more than shown, to say when the list is cut.
    players = selectors.player_search(
        query=query, among=visible_players(request.user), limit=SEARCH_RESULTS + 1
    )
    more = len(players) > SEARCH_RESULTS
    players = players[:SEARCH_RESULTS]
    registered = set()
    if tournament is not None:
        registered = set(
            tournament.registrations.filter(player__in=players).values_list("player_id", flat=True)
        )
    context = {
        "query": query,
        "players": players,
        "registered": registered,
        "tournament": tournament,
        "more": more,
        "merging": request.GET.get("fusion") == "1",  # the merge page's search
    }
    template = "tournament/_player_search_results.html"
    return render(request, template, context)


@permission_required(Permission.ROSTER, None)
def player_merge(request: HttpRequest) -> HttpResponse:
    """Two roster players found to be one person: `garder` is kept, the chosen one merged in.

    The roster is shared, so identity.player_merge itself checks that the user runs every
    tournament either player is registered in (or is a superuser).
    """
    raw = request.POST.get("keep") or request.GET.get("garder", "")
    if not re.fullmatch(r"[0-9]{1,9}", raw):
        return render(request, "tournament/player_merge.html", {"keep": None})
    visible = visible_players(request.user)  # another club's entries: as if they did not exist
    keep = selectors.player_or_404(raw, among=visible)
    # Each entry's tournaments as this user may see them.
    candidates = identity.merge_candidates(keep, user=request.user, among=visible)
    error = None
    if request.method == "POST":
        drop_pk = request.POST.get("drop", "")
        others = {str(known.pk) for known, _played in candidates[1:]}
        if drop_pk not in others:
            error = _("Choisissez la fiche à fusionner dans celle-ci.")
        else:
            try:
                kept = identity.player_merge(
                    keep=keep,
                    drop=selectors.player_or_404(drop_pk, among=visible),
                    user=request.user,
                )
            except ValidationError as refusal:
                error = " ".join(refusal.messages)
            else:
                messages.success(
                    request,
                    _("Fiches fusionnées : %(player)s.") % {"player": kept.full_name},
                )
                return redirect(f"{reverse('player-merge')}?garder={kept.pk}")
    context = {"keep": candidates[0], "others": candidates[1:], "error": error}
    return render(request, "tournament/player_merge.html", context, status=400 if error else 200)


registration_withdraw = registration_view(
    registration_services.registration_withdraw,
    lambda withdrawn: (
        _(
            "%(player)s déclare forfait après la position %(after)s : "
            "replanifiez les positions en brouillon."
        )
        % {"player": withdrawn.player.full_name, "after": withdrawn.withdrawn_after}
    ),
    "player-list",
)
registration_reinstate = registration_view(
    registration_services.registration_reinstate,
    lambda back: _("%(player)s joue de nouveau.") % {"player": back.player},
    "player-list",
)


@permission_required(Permission.VIEW)
def player_itinerary(request: TournamentRequest, pk: int, registration: int) -> HttpResponse:
    entry = registration_or_404(request.tournament, registration)
    table = ItineraryTable(itinerary(entry))
    return desk_page(
        request,
        entry.tournament,
        "players",
        "tournament/player_itinerary.html",
        registration=entry,
        table=table,
    )
