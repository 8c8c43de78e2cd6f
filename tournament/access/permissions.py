"""Who may do what on which tournament: the one place every view, API, export, PDF and backup asks.

Roles are per tournament (django-rules predicates over the tournament object):

- the **owner** (who created or restored it) runs it and names the others;
- **co-arbiters** run it like the owner, except naming people and deleting it;
- **scorers** see the desk and enter and correct deals, nothing else;
- everybody reads the public pages of a tournament whose standings are public.

Superusers may do everything (Django answers has_perm for them before asking any backend).
Creating a tournament is the one global right: members of a club have it (the tournament is
their club's); a club's administrators name its arbiters. People of another club see nothing of
a club's tournaments but what is public, nor its roster entries (tournament.players.selectors).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from functools import wraps
from typing import Any

import rules
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext
from django_htmx.middleware import HtmxDetails

from tournament.access.clubs import is_club_admin, is_club_member, is_member_of
from tournament.models import (
    Club,
    Event,
    LicenceConflict,
    Registration,
    Tournament,
    TournamentRole,
)


class TournamentRequest(HttpRequest):
    """The request a view gets behind permission_required (with a lookup), public_page or
    hall_screen: the tournament the URL points at is on it, and django-htmx's middleware adds
    `htmx`. Views annotate their request with it instead of the plain HttpRequest."""

    tournament: Tournament
    htmx: HtmxDetails


class EventRequest(HttpRequest):
    """Behind event_required: the event the URL points at is on it."""

    event: Event


class SignupRequest(TournamentRequest):
    """Behind signup_code_page: the registration the code in the URL names is on it too."""

    registration: Registration


def _mark(wrapper: Callable, name: str, value: str) -> None:
    """Tag a decorated view (`permission`, `credential`): the tests that walk every URL read
    these tags to know what each view asks."""
    setattr(wrapper, name, value)


class Permission(StrEnum):
    """What a view asks; each is granted by the predicates registered below."""

    VIEW_PUBLIC = "tournament.view_public"  # public standings and player pages
    VIEW = "tournament.view_desk"  # desk pages, sheets, positions, rankings, printed sheets
    SCORE = "tournament.score"  # record, correct and delete deals, paper bilans
    MANAGE = "tournament.manage"  # settings, players, positions, incidents, validation, reopening
    EXPORT = "tournament.export"  # spreadsheets and backups: the whole tournament's data
    ADMINISTER = "tournament.administer"  # name co-arbiters and scorers, delete the tournament
    CREATE = "tournament.create"  # global: start a new tournament (no object)
    ROSTER = "tournament.roster"  # global: search the shared roster of players
    CHAMPIONSHIPS = "tournament.championships"  # global: define season championships
    CHAMPIONSHIP_MANAGE = "tournament.championship_manage"  # a championship's settings, files
    CHAMPIONSHIP_PUBLIC = "tournament.championship_public"  # a championship's public page
    CIRCUIT_CONTRIBUTE = "tournament.circuit_contribute"  # an invited club's circuit page
    CIRCUIT_ENTER = "tournament.circuit_enter"  # a tournament in or out (scoring.season.access)
    SIGN_UP = "tournament.sign_up"  # anyone: the online registration page, while it is open
    # A big event (tournament.models.events): its owner creates its brackets' sessions and
    # sees its pages; a cut is applied by whoever may MANAGE the bracket it cuts.
    EVENT_MANAGE = "tournament.event_manage"
    # The venue's desk and the event's documents: its owner and whoever runs one of its
    # brackets (owner or co-arbiter); the event's public pages: anyone, when it is public.
    EVENT_DESK = "tournament.event_desk"
    EVENT_PUBLIC = "tournament.event_public"
    CLUB_ADMINISTER = "tournament.club_administer"  # a club's members
    # A club's licence conflicts (its list; one conflict's page and resolution): the arbiters
    # and administrators of the club, or of either club a conflict concerns.
    LICENCE_CONFLICTS = "tournament.licence_conflicts"


def _roles(user) -> dict[int, str]:
    """The user's roles by tournament id, read once per request (cached on the user object)."""
    cached = getattr(user, "_tournament_roles", None)
    if cached is None:
        cached = dict(
            TournamentRole.objects.filter(user_id=user.pk).values_list("tournament_id", "role")
        )
        user._tournament_roles = cached
    return cached


@rules.predicate
def is_active(user) -> bool:
    return bool(user.is_authenticated and user.is_active)


@rules.predicate
def is_owner(user, tournament: Tournament) -> bool:
    return tournament.owner_id is not None and tournament.owner_id == user.pk


@rules.predicate
def is_co_arbiter(user, tournament: Tournament) -> bool:
    return _roles(user).get(tournament.pk) == TournamentRole.Role.ARBITER


@rules.predicate
def is_assigned_scorer(user, tournament: Tournament) -> bool:
    return _roles(user).get(tournament.pk) == TournamentRole.Role.SCORER


# The tournaments anyone may read, as a query (has_public_standings below, for one tournament):
# the one rule of which tournaments the public sees (scoring.live.counted builds on it).
PUBLIC_TOURNAMENTS = Q(is_public=True)


@rules.predicate
def has_public_standings(user, tournament: Tournament) -> bool:
    return tournament.is_public


@rules.predicate
def takes_sign_ups(user, tournament: Tournament) -> bool:
    return tournament.signup_open and tournament.status != Tournament.Status.FINISHED


@rules.predicate
def runs_some_tournament(user) -> bool:
    return (
        Tournament.objects.filter(owner_id=user.pk).exists()
        or TournamentRole.Role.ARBITER in _roles(user).values()
    )


@rules.predicate
def owns_event(user, event: Event) -> bool:
    return event.owner_id is not None and event.owner_id == user.pk


@rules.predicate
def runs_a_bracket(user, event: Event) -> bool:
    """Owner or co-arbiter of one of the event's brackets (one query)."""
    arbiter_of = [pk for pk, role in _roles(user).items() if role == TournamentRole.Role.ARBITER]
    runs = Q(owner_id=user.pk) | Q(pk__in=arbiter_of)
    return Tournament.objects.filter(runs, event_id=event.pk).exists()


runs = is_active & (is_owner | is_co_arbiter)
runs_the_venue = is_active & (owns_event | runs_a_bracket)
has_public_event = rules.predicate(lambda user, event: event.is_public, name="has_public_event")
works_on = is_active & (is_owner | is_co_arbiter | is_assigned_scorer)

rules.add_perm(Permission.VIEW_PUBLIC, has_public_standings | works_on)
rules.add_perm(Permission.VIEW, works_on)
rules.add_perm(Permission.SCORE, works_on)
rules.add_perm(Permission.MANAGE, runs)
rules.add_perm(Permission.EXPORT, runs)
rules.add_perm(Permission.ADMINISTER, is_active & is_owner)
rules.add_perm(Permission.CREATE, is_active & is_club_member)
rules.add_perm(Permission.ROSTER, is_active & (is_club_member | runs_some_tournament))
rules.add_perm(Permission.CLUB_ADMINISTER, is_active & is_club_admin)
rules.add_perm(Permission.LICENCE_CONFLICTS, is_active & is_member_of)
rules.add_perm(Permission.SIGN_UP, takes_sign_ups)
rules.add_perm(Permission.EVENT_MANAGE, is_active & owns_event)
rules.add_perm(Permission.EVENT_DESK, runs_the_venue)
rules.add_perm(Permission.EVENT_PUBLIC, has_public_event | runs_the_venue)


def may(user, permission: Permission, obj: object | None = None) -> bool:
    """May this user do this on this tournament (or on the season championship scoring registers
    rules for)? None for the global permissions."""
    return user.has_perm(permission, obj)


def capabilities(user, tournament: Tournament) -> dict[str, bool]:
    """What the templates need to show or hide buttons; the server still checks every write."""
    return {
        "view": may(user, Permission.VIEW, tournament),
        "score": may(user, Permission.SCORE, tournament),
        "manage": may(user, Permission.MANAGE, tournament),
        "export": may(user, Permission.EXPORT, tournament),
        "administer": may(user, Permission.ADMINISTER, tournament),
    }


def visible_tournaments(user) -> QuerySet[Tournament]:
    """The tournaments a user works on (all of them for a superuser)."""
    if not (user.is_authenticated and user.is_active):
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(Q(owner=user) | Q(roles__user=user)).distinct()


def public_tournaments(*, besides: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """The public tournaments but those in `besides` (the home page lists a user's own apart)."""
    return Tournament.objects.filter(PUBLIC_TOURNAMENTS).exclude(pk__in=besides.values("pk"))


def viewable_tournament(user, pk: int | str) -> Tournament | None:
    """Tournament `pk` when there is one and the user may view it, None otherwise."""
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is not None and not may(user, Permission.VIEW, tournament):
        return None
    return tournament


def tournament_copy(tournament: Tournament) -> Tournament:
    """The tournament read again, as its own instance: a settings form validating it changes
    the instance, and the page's header (request.tournament) must not change with it."""
    return Tournament.objects.get(pk=tournament.pk)


def readable_tournaments(user) -> QuerySet[Tournament]:
    """The tournaments whose name and results a user may see (Permission.VIEW_PUBLIC as a
    query): the public ones and those the user works on."""
    return Tournament.objects.filter(
        PUBLIC_TOURNAMENTS | Q(pk__in=visible_tournaments(user).values("pk"))
    )


def json_error(field: str | None, error: str, status: int = 400, **extra: Any) -> JsonResponse:
    """The one shape of a JSON answer that refuses (the deal API, the tables' phones, the
    refusals below): the field at fault, or None, and a French message."""
    return JsonResponse({"field": field, "error": error, **extra}, status=status)


def refuse(request: HttpRequest, *, api: bool = False):
    """Anonymous users are sent to log in; logged-in users get a 403. An API call is answered
    in JSON instead, like its other errors: 401 when not logged in, 403 without the role."""
    if api:
        if not request.user.is_authenticated:
            return json_error(None, gettext("Connexion requise."), 401)
        return json_error(None, gettext("Accès refusé."), 403)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied


def permission_required(
    permission: Permission, lookup: str | None = "pk", kwarg: str = "pk", *, api: bool = False
):
    """Check `permission` on the tournament the URL points at, then run the view.

    `lookup` is the path from Tournament to the URL's object: "pk" for a tournament's own pages,
    "sheets__pk" for a sheet, "sheets__deals__pk" for a deal, "positions__tables__pk" for a table.
    None checks a global permission. The tournament is left on `request.tournament` (a
    TournamentRequest), except for a global permission, which has none. `api`: refusals and an
    unknown object are answered in JSON (401, 403, 404), not with the login page.
    """

    def decorator(view: Callable):
        @wraps(view)
        def wrapper(request: TournamentRequest, *args, **kwargs):
            tournament = None
            if lookup is not None:
                tournament = Tournament.objects.filter(**{lookup: kwargs[kwarg]}).first()
                if tournament is None:
                    if api:
                        return json_error(None, gettext("Introuvable."), 404)
                    raise Http404
            if not may(request.user, permission, tournament):
                return refuse(request, api=api)
            if tournament is not None:
                request.tournament = tournament
            return view(request, *args, **kwargs)

        _mark(wrapper, "permission", permission)
        return wrapper

    return decorator


def event_required(
    permission: Permission = Permission.EVENT_MANAGE, kwarg: str = "pk", *, hidden: bool = False
):
    """Check `permission` on the event the URL points at, then run the view; the event is left
    on `request.event` (an EventRequest). `hidden`: refusals answer 404, as a private
    tournament's public pages do (the event's public page)."""
    return _object_required(Event, "event", permission, kwarg, hidden=hidden)


def club_required(permission: Permission = Permission.CLUB_ADMINISTER, kwarg: str = "pk"):
    """Check `permission` on the club the URL points at; the club is left on `request.club`."""
    return _object_required(Club, "club", permission, kwarg)


def conflict_required(permission: Permission = Permission.LICENCE_CONFLICTS, kwarg: str = "pk"):
    """Check `permission` on the conflict of the URL (`request.conflict`); 404 as if missing to
    staff who may not see it, the login page to visitors (sequential ids: no oracle, issue 36)."""
    return _object_required(LicenceConflict, "conflict", permission, kwarg, hidden="login")


def _object_required(
    model: type[Event | Club | LicenceConflict],
    attribute: str,
    permission: Permission,
    kwarg,
    *,
    hidden: bool | str = False,
):
    def decorator(view: Callable):
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs):
            if hidden == "login" and not request.user.is_authenticated:
                return refuse(request)  # to the login page, whether or not the object exists
            obj = model.objects.filter(pk=kwargs[kwarg]).first()
            if obj is None:
                raise Http404
            if not may(request.user, permission, obj):
                if hidden:
                    raise Http404
                return refuse(request)
            setattr(request, attribute, obj)
            return view(request, *args, **kwargs)

        _mark(wrapper, "permission", permission)
        return wrapper

    return decorator


def public_page(
    lookup: str = "pk", kwarg: str = "pk", permission: Permission = Permission.VIEW_PUBLIC
):
    """A public page: readable by anyone when the standings are public (or, for the registration
    page, while registration is open), 404 otherwise; its tournament read unordered (cheaper)."""

    def decorator(view: Callable):
        @wraps(view)
        def wrapper(request: TournamentRequest, *args, **kwargs):
            found = Tournament.objects.filter(**{lookup: kwargs[kwarg]}).order_by()[:1]
            if not found or not may(request.user, permission, found[0]):
                raise Http404
            request.tournament = found[0]
            return view(request, *args, **kwargs)

        _mark(wrapper, "permission", permission)
        return wrapper

    return decorator


def signup_code_page(view: Callable):
    """A player's sign-up confirmation: the code in the URL (given to them when they signed up)
    is the credential. An unknown code answers 404; the page shows only that registration.
    The registration is left on `request.registration`."""

    @wraps(view)
    def wrapper(request: SignupRequest, pk: int, code: str, *args, **kwargs):
        registration = None
        if len(code) == 8 and code.isascii() and code.isalnum():  # never NUL to PostgreSQL
            registration = (
                Registration.objects.select_related("tournament", "player")
                .filter(tournament_id=pk, signup_code=code.upper())
                .first()
            )
        if registration is None:
            raise Http404
        request.tournament = registration.tournament
        request.registration = registration
        return view(request, pk, code, *args, **kwargs)

    _mark(wrapper, "credential", "signup_code")
    return wrapper


def hall_screen(view: Callable):
    """The hall screen's pages: the tournament's secret hall link in the URL is the credential.
    No account is asked (the room's projector); a revoked or unknown link answers 404; the view
    reads only what that tournament published. The tournament is left on `request.tournament`."""

    @wraps(view)
    def wrapper(request: TournamentRequest, token: str, *args, **kwargs):
        tournament = Tournament.objects.filter(hall_token=token).first() if token else None
        if tournament is None:
            raise Http404
        request.tournament = tournament
        return view(request, token, *args, **kwargs)

    _mark(wrapper, "credential", "hall_token")
    return wrapper
