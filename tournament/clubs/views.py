"""A club's page for its administrators: its arbiters, named and removed."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournament.access.permissions import Permission, club_required
from tournament.access.staff import TooManyNamings
from tournament.clubs import services
from tournament.clubs.selectors import ROLE_CHOICES, Club, member_or_404, members_of


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
            messages.success(request, _("Membre du club enregistré."))
            return redirect("club-members", pk)
    context = {
        "club": club,
        "members": members_of(club),
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
