"""Licence conflicts: a club's list, and one conflict's page, where the holding club proposes a
settlement, the other club answers it, and a superuser may settle alone."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament.access.clubs import club_roles
from tournament.access.permissions import Permission, club_required, conflict_required
from tournament.clubs import settlement
from tournament.pages import form_errors
from tournament.players import conflicts
from tournament.players.forms import AnswerForm, ConflictForm, ProposalForm

RESOLVED_SHOWN = 20  # the latest resolved conflicts listed under the waiting ones


@club_required(Permission.LICENCE_CONFLICTS)
def licence_conflicts(request: HttpRequest, pk: int) -> HttpResponse:
    club = request.club  # type: ignore[attr-defined]
    context = {
        "club": club,
        "open": list(conflicts.conflicts_of(club)),
        "resolved": list(conflicts.conflicts_of(club, resolved=True)[:RESOLVED_SHOWN]),
    }
    return render(request, "tournament/licence_conflicts.html", context)


def _step(request: HttpRequest, conflict):
    """The form this user fills on this conflict, and the service it calls; None when none."""
    user = request.user
    data = request.POST or None
    status = conflict.status
    if user.is_superuser and status != conflicts.Status.RESOLVED:
        return ConflictForm(data), settlement.conflict_resolve
    roles = club_roles(user)
    if status == conflicts.Status.OPEN and conflict.existing_club_id in roles:
        return ProposalForm(data), settlement.conflict_propose
    if status == conflicts.Status.PROPOSED and conflict.newcomer_club_id in roles:
        return AnswerForm(data), settlement.conflict_answer
    return None, None


@conflict_required(Permission.LICENCE_CONFLICTS)
@require_http_methods(["GET", "POST"])
def licence_conflict(request: HttpRequest, pk: int) -> HttpResponse:
    conflict = request.conflict  # type: ignore[attr-defined]
    form, service = _step(request, conflict)
    status = 200
    if request.method == "POST":
        status = 400
        if form is not None and service is not None and form.is_valid():
            try:
                service(conflict=conflict, user=request.user, **form.cleaned_data)
            except ValidationError as refusal:
                form_errors(form, refusal)
            else:
                messages.success(request, _("Conflit de licence enregistré."))
                return redirect("licence-conflict", pk)
        conflict = conflicts.conflict_or_404(pk)  # as it now is (answered by someone else?)
    context = {
        "conflict": conflict,
        "entries": conflicts.conflict_entries(conflict, user=request.user),
        "form": form,
        "proposal_shown": conflict.status == conflicts.Status.PROPOSED,
    }
    return render(request, "tournament/licence_conflict.html", context, status=status)
