"""The arbiter's desk: tournaments, players, teams and positions.

Every view asks tournament.access on the tournament it works on: scorers of a tournament may
read its plans and lists (they need them at the tables); only its arbiters change anything.
Views stay thin: look up, check the permission, call one service, respond.
"""

from __future__ import annotations

import re
from collections import Counter

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from . import hooks, identity, services
from .access import (
    Permission,
    TournamentRequest,
    capabilities,
    may,
    permission_required,
    visible_tournaments,
)
from .forms import GenerateForm, ImportForm, PlayerForm, SwapForm, TeamForm, TournamentForm
from .identity import LikelyDuplicate
from .importing import (
    CREATE_NEW,
    DUPLICATE,
    NEW,
    REGISTERED,
    ROSTER,
    SKIP,
    USE_EXISTING,
    ImportPreview,
    ImportRow,
    parse_upload,
)
from .models import Player, Position, Registration, Tournament
from .tables import ItineraryTable, RegistrationTable, TournamentTable, WhoSitsWhereTable


def _tournament(request: TournamentRequest) -> Tournament:
    """The tournament the permission check found (tournament.access left it on the request)."""
    return request.tournament


def _context(request: HttpRequest, tournament: Tournament, tab: str, **extra) -> dict:
    can = capabilities(request.user, tournament)
    return {"tournament": tournament, "tab": tab, "can_edit": can["manage"], "can": can, **extra}


def _form_errors(form, error: ValidationError) -> None:
    """Attach a service's ValidationError to the form, by field when it names one."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


# --- tournaments -----------------------------------------------------------------------------


@login_required
def tournament_list(request: HttpRequest) -> HttpResponse:
    """The tournaments the user works on, and only those."""
    table = TournamentTable(visible_tournaments(request.user))
    return render(
        request,
        "tournament/tournament_list.html",
        {"table": table, "can_edit": may(request.user, Permission.CREATE)},
    )


@permission_required(Permission.CREATE, None)
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(data=form.cleaned_data, owner=request.user)
        except ValidationError as error:
            _form_errors(form, error)
        else:
            messages.success(request, _("Tournoi créé."))
            return redirect(tournament)
    return render(request, "tournament/tournament_form.html", {"form": form})


@permission_required(Permission.MANAGE)
def tournament_edit(request: TournamentRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request)
    # The form gets its own copy: validating it changes the instance, the page header must not.
    form = TournamentForm(request.POST or None, instance=Tournament.objects.get(pk=pk))
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(
                tournament=tournament, data=form.cleaned_data, user=request.user
            )
        except ValidationError as error:
            _form_errors(form, error)
        else:
            messages.success(request, _("Tournoi enregistré."))
            return redirect("tournament-detail", pk)
    return render(
        request,
        "tournament/tournament_edit.html",
        _context(request, tournament, "dashboard", form=form),
    )


# --- players ---------------------------------------------------------------------------------


def _player_list_page(request, tournament, form=None, status=200, duplicates=()) -> HttpResponse:
    registrations = tournament.registrations.select_related("player", "team")
    table = RegistrationTable(
        registrations,
        can_edit=capabilities(request.user, tournament)["manage"],
        start_labels=services.start_labels(tournament),
    )
    context = _context(
        request,
        tournament,
        "players",
        table=table,
        form=form or PlayerForm(),
        late=services.last_played_position(tournament) > 0,
        duplicates=duplicates,
    )
    return render(request, "tournament/player_list.html", context, status=status)


@permission_required(Permission.VIEW)
def player_list(request: TournamentRequest, pk: int) -> HttpResponse:
    return _player_list_page(request, _tournament(request))


@permission_required(Permission.MANAGE)
@require_POST
def player_register(request: TournamentRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request)
    form = PlayerForm(request.POST)
    try:
        if request.POST.get("player"):
            # Chosen from the roster search: the player exists already.
            if not request.POST["player"].isdecimal():
                raise Http404  # not an id at all (the ORM would raise ValueError: a 500)
            player = get_object_or_404(Player, pk=request.POST["player"])
            registration = services.player_register(
                tournament=tournament, player=player, user=request.user
            )
        elif form.is_valid():
            registration = services.player_register(
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
            for message in error.messages:
                messages.error(request, message)
            return redirect("player-list", pk)
        _form_errors(form, error)
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
        tournament = Tournament.objects.filter(pk=request.GET["tournoi"]).first()
        if tournament is not None and not may(request.user, Permission.VIEW, tournament):
            tournament = None
    # One more than shown, to say when the list is cut.
    players = services.player_search(query=query, limit=SEARCH_RESULTS + 1)
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
    keep = get_object_or_404(Player, pk=raw)
    candidates = identity.merge_candidates(keep)
    error = None
    if request.method == "POST":
        drop_pk = request.POST.get("drop", "")
        others = {str(known.pk) for known, _played in candidates[1:]}
        if drop_pk not in others:
            error = _("Choisissez la fiche à fusionner dans celle-ci.")
        else:
            try:
                kept = identity.player_merge(
                    keep=keep, drop=Player.objects.get(pk=drop_pk), user=request.user
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


@permission_required(Permission.MANAGE)
@require_POST
def registration_withdraw(request: TournamentRequest, pk: int, registration: int) -> HttpResponse:
    entry = get_object_or_404(Registration, pk=registration, tournament_id=pk)
    try:
        services.registration_withdraw(registration=entry, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _(
                "%(player)s déclare forfait après la position %(after)s : "
                "replanifiez les positions en brouillon."
            )
            % {"player": entry.player.full_name, "after": entry.withdrawn_after},
        )
    return redirect("player-list", pk)


@permission_required(Permission.MANAGE)
@require_POST
def registration_reinstate(request: TournamentRequest, pk: int, registration: int) -> HttpResponse:
    entry = get_object_or_404(Registration, pk=registration, tournament_id=pk)
    try:
        services.registration_reinstate(registration=entry, user=request.user)
    except ValidationError as error:
        _errors(request, error)
    else:
        messages.success(
            request, _("%(player)s est de nouveau présent.") % {"player": entry.player}
        )
    return redirect("player-list", pk)


IMPORT_SESSION_KEY = "import-rows-%s"


@permission_required(Permission.MANAGE)
def player_import(request: TournamentRequest, pk: int) -> HttpResponse:
    """Upload → preview (kept in the session) → confirm: all rows are created, or none."""
    tournament = _tournament(request)
    key = IMPORT_SESSION_KEY % pk
    form = ImportForm()
    preview = None
    if request.method == "POST" and "confirm" in request.POST:
        rows = [ImportRow(**row) for row in request.session.get(key, [])]
        if not rows:
            messages.error(request, _("Rien à importer : envoyez d'abord un fichier."))
            return redirect("player-import", pk)
        # The arbiter's choice for each likely duplicate; a row left alone is skipped.
        decisions = {
            row.line: request.POST.get(f"decision-{row.line}", SKIP)
            for row in rows
            if row.status == DUPLICATE
        }
        try:
            created = services.import_apply(
                tournament=tournament, rows=rows, decisions=decisions, user=request.user
            )
        except ValidationError:
            # The roster or the tournament changed since the preview: show it again.
            preview = services.import_check(tournament=tournament, preview=ImportPreview(rows=rows))
            messages.error(request, _("Rien n'a été importé."))
        else:
            del request.session[key]
            skipped = len(rows) - len(created)
            imported = ngettext(
                "%(count)s joueur importé.", "%(count)s joueurs importés.", len(created)
            ) % {"count": len(created)}
            if skipped:
                imported += " " + ngettext(
                    "%(count)s ligne ignorée (déjà inscrit ou doublon probable).",
                    "%(count)s lignes ignorées (déjà inscrits ou doublons probables).",
                    skipped,
                ) % {"count": skipped}
            messages.success(request, imported)
            return redirect("player-list", pk)
    elif request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            preview = parse_upload(upload.name, upload.read())
            services.import_check(tournament=tournament, preview=preview)
            if preview.ok:
                request.session[key] = [row.as_dict() for row in preview.rows]
            else:
                request.session.pop(key, None)
    counts = Counter(row.status for row in preview.rows) if preview else Counter()
    context = _context(
        request,
        tournament,
        "players",
        form=form,
        preview=preview,
        new_count=preview and counts[NEW],
        roster_count=counts[ROSTER],
        registered_count=counts[REGISTERED],
        duplicate_count=counts[DUPLICATE],
        to_register=counts[NEW] + counts[ROSTER],
        decisions=(
            (SKIP, _("ignorer")),
            (USE_EXISTING, _("c'est lui")),
            (CREATE_NEW, _("un autre joueur")),
        ),
    )
    status = 400 if preview is not None and preview.errors else 200
    return render(request, "tournament/player_import.html", context, status=status)


# --- teams -----------------------------------------------------------------------------------


def _team_page(request, tournament, form=None, status=200) -> HttpResponse:
    teams = tournament.teams.prefetch_related("members__player")
    context = _context(
        request,
        tournament,
        "teams",
        teams=teams,
        form=form or TeamForm(tournament=tournament),
        loners=tournament.registrations.filter(team__isnull=True).select_related("player"),
    )
    return render(request, "tournament/team_list.html", context, status=status)


@permission_required(Permission.VIEW)
def team_list(request: TournamentRequest, pk: int) -> HttpResponse:
    return _team_page(request, _tournament(request))


@permission_required(Permission.MANAGE)
@require_POST
def team_assign(request: TournamentRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request)
    form = TeamForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            team = services.team_assign(
                tournament=tournament,
                name=form.cleaned_data["name"],
                registrations=list(form.cleaned_data["members"]),
                user=request.user,
            )
        except ValidationError as error:
            _form_errors(form, error)
        else:
            messages.success(request, _("Équipe %(team)s enregistrée.") % {"team": team.name})
            return redirect("team-list", pk)
    return _team_page(request, tournament, form, status=400)


@permission_required(Permission.MANAGE)
@require_POST
def team_member_remove(request: TournamentRequest, pk: int, registration: int) -> HttpResponse:
    entry = get_object_or_404(Registration, pk=registration, tournament_id=pk)
    try:
        services.team_remove_member(registration=entry, user=request.user)
    except ValidationError as error:
        _errors(request, error)
    return redirect("team-list", pk)


# --- positions -------------------------------------------------------------------------------


def _position(pk: int, number: int) -> Position:
    return get_object_or_404(
        Position.objects.select_related("tournament"), tournament_id=pk, number=number
    )


def _seated(position: Position):
    return (
        Registration.objects.filter(seats__table__position=position)
        .select_related("player", "team")
        .order_by("player__last_name", "player__first_name")
    )


@permission_required(Permission.VIEW)
def position_list(request: TournamentRequest, pk: int) -> HttpResponse:
    from .plan_quality import plan_quality

    tournament = _tournament(request)
    context = _context(
        request,
        tournament,
        "positions",
        positions=services.positions_overview(tournament),
        played=services.last_played_position(tournament),
        quality=plan_quality(tournament),  # so the arbiter sees the plan is fair before publishing
    )
    return render(request, "tournament/position_list.html", context)


@permission_required(Permission.VIEW)
def position_detail(request: TournamentRequest, pk: int, number: int) -> HttpResponse:
    """The table plan: each table with its players in seat order."""
    position = _position(pk, number)
    context = _context(
        request,
        position.tournament,
        "positions",
        position=position,
        played=services.last_played_position(position.tournament),
        tables=services.position_plan(position),
        swap_form=SwapForm(registrations=_seated(position)),
    )
    return render(request, "tournament/position_detail.html", context)


@permission_required(Permission.VIEW)
def position_who_sits_where(request: TournamentRequest, pk: int, number: int) -> HttpResponse:
    position = _position(pk, number)
    table = WhoSitsWhereTable(services.who_sits_where(position))
    context = _context(request, position.tournament, "positions", position=position, table=table)
    return render(request, "tournament/position_who_sits_where.html", context)


@permission_required(Permission.VIEW)
def player_itinerary(request: TournamentRequest, pk: int, registration: int) -> HttpResponse:
    entry = get_object_or_404(
        Registration.objects.select_related("player", "team", "tournament"),
        pk=registration,
        tournament_id=pk,
    )
    table = ItineraryTable(services.itinerary(entry))
    context = _context(request, entry.tournament, "players", registration=entry, table=table)
    return render(request, "tournament/player_itinerary.html", context)


def _errors(request: HttpRequest, error: ValidationError) -> None:
    for message in error.messages:
        messages.error(request, message)


@permission_required(Permission.MANAGE)
@require_POST
def position_generate(request: TournamentRequest, pk: int) -> HttpResponse:
    """Plan every position not yet published; also the re-plan after withdrawals and arrivals."""
    tournament = _tournament(request)
    form = GenerateForm(request.POST)
    seed = form.cleaned_data["seed"] if form.is_valid() else None
    try:
        positions = services.position_generate(tournament=tournament, seed=seed, user=request.user)
    except ValidationError as error:
        _errors(request, error)
    else:
        messages.success(
            request,
            _("Positions %(first)s à %(last)s planifiées en brouillon (graine %(seed)s).")
            % {
                "first": positions[0].number,
                "last": positions[-1].number,
                "seed": positions[0].seed,
            },
        )
    return redirect("position-list", pk)


@permission_required(Permission.MANAGE)
@require_POST
def position_regenerate(request: TournamentRequest, pk: int, number: int) -> HttpResponse:
    position = _position(pk, number)
    try:
        services.position_regenerate(position=position, user=request.user)
    except ValidationError as error:
        _errors(request, error)
    else:
        messages.success(request, _("Position %(number)s régénérée.") % {"number": number})
    return redirect("position-detail", pk, number)


@permission_required(Permission.MANAGE)
@require_POST
def position_publish(request: TournamentRequest, pk: int, number: int) -> HttpResponse:
    position = _position(pk, number)
    try:
        services.position_publish(
            position=position,
            user=request.user,
            unfinished_confirmed=request.POST.get("confirm") == "1",
        )
    except services.EarlierPositionsUnfinished as unfinished:
        # Asked, not refused: the same POST with confirm=1 publishes.
        context = _context(
            request,
            position.tournament,
            "positions",
            position=position,
            reasons=unfinished.messages,
            to_enter=unfinished.to_enter,
        )
        return render(request, "tournament/position_publish_confirm.html", context)
    except ValidationError as error:
        _errors(request, error)
    else:
        # Every table gets its link and code now (scoring listens): printed on its sheet,
        # scanned by players.
        hooks.position_published.send(sender=Position, position=position)
        messages.success(request, _("Position %(number)s publiée.") % {"number": number})
    return redirect("position-detail", pk, number)


@permission_required(Permission.MANAGE)
def seat_swap(request: TournamentRequest, pk: int, number: int) -> HttpResponse:
    """GET shows what the swap changes (E before and after); POST with confirm applies it."""
    position = _position(pk, number)
    seated = (
        Registration.objects.filter(seats__table__position=position)
        .select_related("player", "team")
        .order_by("player__last_name", "player__first_name")
    )
    form = SwapForm(request.POST or request.GET or None, registrations=seated)
    preview = None
    if form.is_bound and form.is_valid():
        first, second = form.cleaned_data["first"], form.cleaned_data["second"]
        try:
            if request.method == "POST":
                services.seat_swap(position=position, first=first, second=second, user=request.user)
                messages.success(
                    request,
                    _("%(a)s et %(b)s ont échangé leurs places.")
                    % {"a": first.player.full_name, "b": second.player.full_name},
                )
                return redirect("position-detail", pk, number)
            preview = services.seat_swap_preview(position=position, first=first, second=second)
        except ValidationError as error:
            _form_errors(form, error)
    context = _context(
        request, position.tournament, "positions", position=position, form=form, preview=preview
    )
    template = "tournament/_swap_preview.html" if request.htmx else "tournament/seat_swap.html"
    return render(request, template, context)
