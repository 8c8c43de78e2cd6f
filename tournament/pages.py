"""What the desk's views share: the page context, a service's refusal shown on a form or as
messages, the body of a thin POST view or a form's POST (the position a URL names is
tournament.evening.selectors.position_or_404, which scoring's views use too)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import BaseForm, BaseModelForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode

from tournament.access.lifecycle import DealsWaiting
from tournament.access.permissions import TournamentRequest, capabilities, tournament_copy

if TYPE_CHECKING:
    from tournament.models import Tournament

T = TypeVar("T")
F = TypeVar("F", bound=BaseModelForm)


def desk_context(request: HttpRequest, tournament: Tournament, tab: str, **extra: Any) -> dict:
    """What every desk page's template reads: the tournament, the tab, the user's rights."""
    can = capabilities(request.user, tournament)
    return {"tournament": tournament, "tab": tab, "can_edit": can["manage"], "can": can, **extra}


def form_errors(form: BaseForm, error: ValidationError) -> None:
    """Attach a service's ValidationError to the form, by field when it names one."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


def waiting_url(error: DealsWaiting) -> str:
    """The page of what waits (scoring's), where the arbiter decides each deal then does what
    `error` refused."""
    query = {"pour": error.then}
    if error.position is not None:
        query["position"] = str(error.position)
    return f"{reverse('deals-waiting', args=[error.tournament_id])}?{urlencode(query)}"


def error_messages(request: HttpRequest, error: ValidationError) -> None:
    """A service's refusal as error messages on the next page, one per message."""
    for message in error.messages:
        messages.error(request, message)


def post_outcome(
    request: HttpRequest,
    run: Callable[[], T],
    success: Callable[[T], str] | None,
    to: str,
    *args: Any,
) -> HttpResponse:
    """The body of a thin POST view: run the service; its refusal shows as error messages,
    its success as the message `success` makes of its result; back to the page `to` either way.
    """
    try:
        result = run()
    except DealsWaiting as error:
        # The arbiter decides what waits, table by table, then goes on from that page.
        error_messages(request, error)
        return redirect(waiting_url(error))
    except ValidationError as error:
        error_messages(request, error)
    else:
        if success is not None:
            messages.success(request, success(result))
    return redirect(to, *args)


def form_post(
    request: HttpRequest,
    form: BaseForm,
    save: Callable[[dict[str, Any]], T],
    success: Callable[[T], str],
    to: str,
    *args: Any,
) -> HttpResponse | None:
    """The body of a form's POST: when the form is posted and valid, `save(cleaned_data)` runs
    the service; its success queues the message `success` makes of its result and redirects to
    the page `to`. None when the page is to be shown again: not posted, invalid, or refused (the
    service's refusal attached to the form)."""
    if request.method != "POST" or not form.is_valid():
        return None
    try:
        result = save(form.cleaned_data)
    except ValidationError as error:
        form_errors(form, error)
        return None
    messages.success(request, success(result))
    return redirect(to, *args)


def settings_form_post(
    request: TournamentRequest,
    form_class: type[F],
    save: Callable[[dict[str, Any]], Any],
    success: str,
    to: str,
) -> tuple[F, HttpResponse | None]:
    """A form on the URL's tournament's own settings, and its POST as form_post runs it (back to
    the tournament's page `to` when saved). The form gets its own copy of the tournament:
    validating it changes the instance, the page's header (request.tournament) must not."""
    tournament = request.tournament
    form = form_class(request.POST or None, instance=tournament_copy(tournament))
    return form, form_post(request, form, save, lambda _done: success, to, tournament.pk)


def desk_page(
    request: HttpRequest,
    tournament: Tournament,
    tab: str,
    template: str,
    status: int = 200,
    **extra: Any,
) -> HttpResponse:
    """Render a desk page: `template` with desk_context and the page's own `extra`."""
    return render(request, template, desk_context(request, tournament, tab, **extra), status=status)
