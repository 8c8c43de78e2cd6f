"""A club's page for its administrators (its arbiters, invited and removed), and an account's
invitations, which it accepts or declines."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from tournament.access.permissions import Permission, club_required
from tournament.access.staff import TooManyNamings
from tournament.clubs import services
from tournament.clubs.selectors import (
    ROLE_CHOICES,
    Club,
    invitation_or_404,
    invitations_of,
    invitations_sent,
    member_or_404,
    members_of,
)


class ClubRequest(HttpRequest):
    """Behind club_required: the club the URL points at is on it."""

    club: Club


@club_required(Permission.CLUB_ADMINISTER)
@require_http_methods(["GET", "POST"])
def club_members(request: ClubRequest, pk: int) -> HttpResponse:
    club = request.club
    error = ""
    status = 200
    if request.method == "POST":
        try:
            services.member_name(
                club=club,
                username=request.POST.get("username", ""),
                role=request.POST.get("role", ""),
                user=request.user,
            )
        except ValidationError as refusal:
            error = " ".join(refusal.messages)
            status = 429 if isinstance(refusal, TooManyNamings) else 400
        else:
            messages.success(
                request,
                _(
                    "Enregistré : un compte qui n'est pas encore membre est invité, et ne "
                    "rejoint le club qu'en acceptant."
                ),
            )
            return redirect("club-members", pk)
    context = {
        "club": club,
        "members": members_of(club),
        "invitations": invitations_sent(club),
        "roles": ROLE_CHOICES,
        "error": error,
    }
    return render(request, "clubs/club_members.html", context, status=status)


@club_required(Permission.CLUB_ADMINISTER)
@require_POST
def club_member_remove(request: ClubRequest, pk: int, member: int) -> HttpResponse:
    entry = member_or_404(pk, member)
    try:
        services.member_remove(entry=entry, user=request.user)
    except ValidationError as refusal:
        for message in refusal.messages:
            messages.error(request, message)
    return redirect("club-members", pk)


@login_required
def club_invitations(request: HttpRequest) -> HttpResponse:
    """The account's own invitations into clubs."""
    return render(
        request, "clubs/club_invitations.html", {"invitations": invitations_of(request.user)}
    )


@login_required
@require_POST
def club_invitation_answer(request: HttpRequest, pk: int) -> HttpResponse:
    invitation = invitation_or_404(request.user, pk)
    accept = request.POST.get("accept") == "1"
    try:
        services.invitation_answer(invitation=invitation, user=request.user, accept=accept)
    except ValidationError as refusal:
        for message in refusal.messages:
            messages.error(request, message)
    else:
        messages.success(
            request,
            _("Vous êtes membre du club %(club)s.") % {"club": invitation.club.name}
            if accept
            else _("Invitation refusée."),
        )
    return redirect("club-invitations")


class IdentityForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Nom du club"), max_length=200)
    code = forms.CharField(
        label=gettext_lazy("Numéro de club FFT"),
        max_length=20,
        required=False,
        help_text=gettext_lazy(
            "Exactement comme sur le serveur du comité : il reconnaît les tournois envoyés "
            "par ce numéro (ou par le nom, quand l'un des deux n'en a pas)."
        ),
    )


@club_required(Permission.CLUB_ADMINISTER)
@require_http_methods(["GET", "POST"])
def club_identity(request: ClubRequest, pk: int) -> HttpResponse:
    club = request.club
    form = IdentityForm(request.POST or None, initial={"name": club.name, "code": club.code})
    if request.method == "POST" and form.is_valid():
        try:
            services.club_identity_set(
                club=club,
                name=form.cleaned_data["name"],
                code=form.cleaned_data["code"],
                user=request.user,
            )
        except ValidationError as refusal:
            form.add_error(None, refusal)
        else:
            messages.success(request, _("Nom et numéro du club enregistrés."))
            return redirect("club-identity", pk)
    return render(request, "clubs/club_identity.html", {"club": club, "form": form})
