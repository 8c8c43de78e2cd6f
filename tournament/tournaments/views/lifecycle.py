"""Finishing, closing and reopening (logged, with a reason) and naming a tournament's staff."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournament.access import lifecycle, staff
from tournament.access.permissions import Permission, TournamentRequest, permission_required
from tournament.evening.selectors import position_or_404
from tournament.pages import desk_page, error_messages, post_outcome

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise


def _lifecycle_view(
    service: Callable[..., object], message: StrPromise, *, reason: bool = False
) -> Callable[..., HttpResponse]:
    """A thin POST view (managers only) running a lifecycle `service` with the user: on the
    tournament, or on its position when the URL names a `number`, and with the `reason` posted
    when the service takes one. A refusal shows as messages, a success as `message` (which may
    name the position's number); back to the page of what it ran on either way."""

    @permission_required(Permission.MANAGE)
    @require_POST
    def view(request: TournamentRequest, pk: int, number: int | None = None) -> HttpResponse:
        if number is None:
            target: dict[str, object] = {"tournament": request.tournament}
            to, args = "tournament-detail", [pk]
        else:
            target = {"position": position_or_404(pk, number)}
            to, args = "position-detail", [pk, number]
        if reason:
            target["reason"] = request.POST.get("reason", "")
        return post_outcome(
            request,
            lambda: service(**target, user=request.user),
            lambda _done: message % {"number": number},
            to,
            *args,
        )

    return view


tournament_finish = _lifecycle_view(
    lifecycle.tournament_finish, gettext_lazy("Tournoi terminé : les résultats sont verrouillés.")
)
tournament_reopen = _lifecycle_view(
    lifecycle.tournament_reopen, gettext_lazy("Tournoi rouvert."), reason=True
)
position_close = _lifecycle_view(
    lifecycle.position_close, gettext_lazy("Position %(number)s close.")
)
position_reopen = _lifecycle_view(
    lifecycle.position_reopen, gettext_lazy("Position %(number)s rouverte."), reason=True
)


@permission_required(Permission.ADMINISTER)
def tournament_staff(request: TournamentRequest, pk: int) -> HttpResponse:
    """The owner names co-arbiters and scorers (existing accounts, by exact username), or
    removes them; a superuser may also create the account (tournament.access.staff)."""
    tournament = request.tournament
    typed = {"username": "", "role": staff.DEFAULT_ROLE}
    status = 200
    if request.method == "POST":
        typed = {
            "username": request.POST.get("username", "")[:150],
            "role": request.POST.get("role", ""),
        }
        try:
            staff.staff_add(
                tournament=tournament,
                user=request.user,
                password=request.POST.get("password", "")[:128],
                **typed,
            )
        except ValidationError as error:
            error_messages(request, error)
            status = 429 if isinstance(error, staff.TooManyNamings) else 400
        else:
            messages.success(request, _("%(name)s ajouté.") % {"name": typed["username"]})
            return redirect("tournament-staff", pk)
    return desk_page(
        request,
        tournament,
        "staff",
        "tournament/staff.html",
        status=status,
        entries=tournament.roles.select_related("user"),
        roles=staff.ROLE_CHOICES,
        typed=typed,
        creates_accounts=request.user.is_superuser,
    )


@permission_required(Permission.ADMINISTER)
@require_POST
def tournament_staff_remove(request: TournamentRequest, pk: int, role: int) -> HttpResponse:
    entry = staff.staff_entry_or_404(pk, role)
    staff.staff_remove(entry=entry, user=request.user)
    messages.success(request, _("%(name)s retiré.") % {"name": entry.user.get_username()})
    return redirect("tournament-staff", pk)
