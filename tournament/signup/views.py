"""Online pre-registration (a public page for phones) and the arbiter's check-in at the door.

Check-in needs MANAGE, like registering a player: who is present decides who is seated, which
is the arbiters' call, not the scorers' (they only enter deals)."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.access.permissions import (
    Permission,
    SignupRequest,
    TournamentRequest,
    json_error,
    permission_required,
    public_page,
    signup_code_page,
)
from tournament.core.collation import fold_words
from tournament.pages import desk_context, desk_page, form_errors, form_post, settings_form_post
from tournament.players.selectors import registration_or_404
from tournament.public_address import absolute_url
from tournament.settings import client_ip_address
from tournament.signup import checkin
from tournament.signup import services as signup
from tournament.signup.forms import CheckInForm, SignupForm, SignupSettingsForm, WalkInForm


def _signup_page(request, tournament, form, status=200) -> HttpResponse:
    refusal = signup.signup_refusal(tournament)
    context = {
        "tournament": tournament,
        "form": form,
        "refusal": refusal,
        "stamp": signup.form_stamp(),
        "places_left": signup.places_left(tournament),
    }
    return render(request, "tournament/signup.html", context, status=status)


@public_page(permission=Permission.SIGN_UP)
def signup_page(request: TournamentRequest, pk: int) -> HttpResponse:
    """Players sign up from their phones while the arbiter keeps the page open."""
    tournament = request.tournament
    if request.method != "POST":
        return _signup_page(request, tournament, SignupForm(tournament=tournament))
    form = SignupForm(request.POST, tournament=tournament)
    if signup.throttle_hit(client_ip_address(request)):
        form.add_error(
            None, _("Trop de tentatives depuis cette connexion : réessayez dans quelques minutes.")
        )
        return _signup_page(request, tournament, form, status=429)
    if form.is_valid():
        data = form.cleaned_data
        try:
            signup.spam_check(honeypot=data["website"], stamp=data["stamp"])
            registration = signup.signup_register(
                tournament=tournament,
                last_name=data["last_name"],
                first_name=data["first_name"],
                licence=data["licence"],
                club=data["club"],
            )
        except ValidationError as error:
            form_errors(form, error)
        else:
            code = cast(str, registration.signup_code)  # signup_register always gives one
            return redirect("signup-confirmation", tournament.pk, code.lower())
    return _signup_page(request, tournament, form, status=400)


@signup_code_page
def signup_confirmation(request: SignupRequest, pk: int, code: str) -> HttpResponse:
    """What the player shows at the door: name, number and code (bookmarkable)."""
    registration = request.registration
    context = {
        "tournament": registration.tournament,
        "registration": registration,
        "code": signup.format_code(registration.signup_code),
    }
    return render(request, "tournament/signup_confirmation.html", context)


@permission_required(Permission.MANAGE)
def signup_settings(request: TournamentRequest, pk: int) -> HttpResponse:
    """Open or close the public registration page; its link, capacity and closing time."""
    tournament = request.tournament
    form, saved = settings_form_post(
        request,
        SignupSettingsForm,
        lambda data: signup.signup_settings_update(
            tournament=tournament,
            data={key: data[key] for key in signup.SIGNUP_FIELDS},
            user=request.user,
        ),
        _("Inscriptions en ligne enregistrées."),
        "signup-settings",
    )
    if saved is not None:
        return saved
    context = desk_context(
        request,
        tournament,
        "checkin",
        form=form,
        public_url=absolute_url(request, reverse("signup", args=[pk])),
        refusal=signup.signup_refusal(tournament),
        places_left=signup.places_left(tournament),
    )
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "tournament/signup_settings.html", context, status=status)


def _checkin_page(request, tournament, walkin_form=None, status=200) -> HttpResponse:
    rows = checkin.check_in_rows(tournament)
    query = request.GET.get("q", "")[:100].replace("\x00", "")
    if query:  # without JavaScript the search is a plain GET, on each row's folded text
        words = fold_words(query)
        rows = [row for row in rows if words and all(word in row.search for word in words)]
    return desk_page(
        request,
        tournament,
        "checkin",
        "tournament/checkin.html",
        status=status,
        rows=rows,
        query=query,
        present=sum(1 for row in rows if row.present),
        expected=sum(1 for row in rows if not row.present and not row.withdrawn),
        walkin_form=walkin_form or WalkInForm(),
        licence_conflicts=signup.licence_conflicts(tournament),
    )


@permission_required(Permission.MANAGE)
def checkin_page(request: TournamentRequest, pk: int) -> HttpResponse:
    """At the door: search as you type, Enter marks the chosen player present (or not)."""
    return _checkin_page(request, request.tournament)


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@permission_required(Permission.MANAGE)
@require_POST
def checkin_toggle(request: TournamentRequest, pk: int, registration: int) -> HttpResponse:
    entry = registration_or_404(request.tournament, registration)
    form = CheckInForm(request.POST)
    error = None
    if not form.is_valid():
        present_errors = form.errors.get("present", [_("Présent : oui (1) ou non (0).")])
        error = " ".join(str(message) for message in present_errors)
    else:
        try:
            entry = checkin.registration_check_in(
                registration=entry, present=form.cleaned_data["present"], user=request.user
            )
        except ValidationError as exc:
            error = " ".join(exc.messages)
    if _wants_json(request):
        if error:
            return json_error("present", error)
        return JsonResponse(
            {
                "present": entry.status == entry.Status.ACTIVE,
                "status": entry.get_status_display(),
                **checkin.presence_counts(request.tournament),
            }
        )
    if error:
        messages.error(request, error)
    else:
        messages.success(
            request,
            _("%(player)s : %(status)s.")
            % {"player": entry.player.full_name, "status": entry.get_status_display()},
        )
    return redirect("checkin", pk)


@permission_required(Permission.MANAGE)
@require_POST
def checkin_walkin(request: TournamentRequest, pk: int) -> HttpResponse:
    """Someone at the door who did not sign up: registered and present at once."""
    tournament = request.tournament
    form = WalkInForm(request.POST)
    saved = form_post(
        request,
        form,
        lambda data: checkin.walkin_register(tournament=tournament, user=request.user, **data),
        lambda registration: (
            _("%(player)s inscrit (n° %(number)s) et présent.")
            % {"player": registration.player.full_name, "number": registration.number}
        ),
        "checkin",
        pk,
    )
    if saved is not None:
        return saved
    return _checkin_page(request, tournament, form, status=400)
