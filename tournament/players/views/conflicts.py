"""Licence conflicts: a club's list, and one conflict's page where either club resolves it."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament.access.permissions import Permission, club_required, conflict_required
from tournament.pages import form_errors
from tournament.players import conflicts
from tournament.players.forms import ConflictForm

RESOLVED_SHOWN = 20  # the latest resolved conflicts listed under the open ones


@club_required(Permission.LICENCE_CONFLICTS)
def licence_conflicts(request: HttpRequest, pk: int) -> HttpResponse:
    club = request.club  # type: ignore[attr-defined]
    context = {
        "club": club,
        "open": list(conflicts.conflicts_of(club)),
        "resolved": list(conflicts.conflicts_of(club, resolved=True)[:RESOLVED_SHOWN]),
    }
    return render(request, "tournament/licence_conflicts.html", context)


@conflict_required(Permission.LICENCE_CONFLICTS)
@require_http_methods(["GET", "POST"])
def licence_conflict(request: HttpRequest, pk: int) -> HttpResponse:
    conflict = request.conflict  # type: ignore[attr-defined]
    form = ConflictForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                conflicts.conflict_resolve(
                    conflict=conflict, user=request.user, **form.cleaned_data
                )
            except ValidationError as refusal:
                form_errors(form, refusal)
            else:
                messages.success(request, _("Conflit de licence résolu."))
                return redirect("licence-conflict", pk)
        status = 400
        conflict = conflicts.conflict_or_404(pk)  # as it now is (resolved by someone else?)
    context = {
        "conflict": conflict,
        "entries": conflicts.conflict_entries(conflict, user=request.user),
        "form": form,
    }
    return render(request, "tournament/licence_conflict.html", context, status=status)
