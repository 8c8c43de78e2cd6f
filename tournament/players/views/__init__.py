"""Pages of a tournament's players: the list and registering, importing a file, teams."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.http import HttpResponse
from django.views.decorators.http import require_POST

from tournament.access.permissions import Permission, TournamentRequest, permission_required
from tournament.pages import post_outcome
from tournament.players.selectors import registration_or_404

T = TypeVar("T")


def registration_view(
    service: Callable[..., T], success: Callable[[T], str] | None, to: str
) -> Callable[..., HttpResponse]:
    """A thin POST view (managers only) on one registration of tournament `pk`: the registration
    looked up (404 if it is not one of this tournament's), `service(registration=…, user=…)` run
    as post_outcome does, then back to the tournament's page `to`."""

    @permission_required(Permission.MANAGE)
    @require_POST
    def view(request: TournamentRequest, pk: int, registration: int) -> HttpResponse:
        entry = registration_or_404(request.tournament, registration)
        return post_outcome(
            request, lambda: service(registration=entry, user=request.user), success, to, pk
        )

    return view
