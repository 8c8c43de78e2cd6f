"""Importing a file of players: upload, preview kept in the session, confirm."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.access.permissions import Permission, TournamentRequest, permission_required
from tournament.pages import desk_context
from tournament.players import importing
from tournament.players.forms import ImportForm
from tournament.players.imports import import_apply, import_check

if TYPE_CHECKING:
    from tournament.models import Tournament

IMPORT_SESSION_KEY = "import-rows-%s"


@permission_required(Permission.MANAGE)
def player_import(request: TournamentRequest, pk: int) -> HttpResponse:
    """Upload → preview (kept in the session) → confirm: all rows are created, or none."""
    tournament = request.tournament
    form = ImportForm()
    preview = None
    if request.method == "POST" and "confirm" in request.POST:
        confirmed = _import_confirm(request, tournament)
        if isinstance(confirmed, HttpResponse):
            return confirmed
        preview = confirmed
    elif request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        preview = _import_upload(request, tournament, form)
    return _import_page(request, tournament, form, preview)


def _import_confirm(
    request: TournamentRequest, tournament: Tournament
) -> HttpResponse | importing.ImportPreview:
    """Create the rows of the preview the session keeps, with the arbiter's decisions: back to
    the players' list, or the preview checked again when the import was refused."""
    key = IMPORT_SESSION_KEY % tournament.pk
    rows = [importing.ImportRow(**row) for row in request.session.get(key, [])]
    if not rows:
        messages.error(request, _("Rien à importer : envoyez d'abord un fichier."))
        return redirect("player-import", tournament.pk)
    # The arbiter's choice for each likely duplicate; a row left alone is skipped.
    decisions = {
        row.line: request.POST.get(f"decision-{row.line}", importing.SKIP)
        for row in rows
        if row.status == importing.DUPLICATE
    }
    try:
        created = import_apply(
            tournament=tournament, rows=rows, decisions=decisions, user=request.user
        )
    except ValidationError:
        # The roster or the tournament changed since the preview: show it again.
        preview = import_check(tournament=tournament, preview=importing.ImportPreview(rows=rows))
        messages.error(request, _("Rien n'a été importé."))
        return preview
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
    return redirect("player-list", tournament.pk)


def _import_upload(
    request: TournamentRequest, tournament: Tournament, form: ImportForm
) -> importing.ImportPreview | None:
    """The uploaded file read and checked; a preview without errors is kept in the session
    for the confirmation. None when the form itself is refused."""
    if not form.is_valid():
        return None
    key = IMPORT_SESSION_KEY % tournament.pk
    upload = form.cleaned_data["file"]
    preview = importing.parse_upload(upload.name, upload.read())
    import_check(tournament=tournament, preview=preview)
    if preview.ok:
        request.session[key] = [row.as_dict() for row in preview.rows]
    else:
        request.session.pop(key, None)
    return preview


def _import_page(
    request: TournamentRequest,
    tournament: Tournament,
    form: ImportForm,
    preview: importing.ImportPreview | None,
) -> HttpResponse:
    """The import page: the form, the preview with its counts and, for each likely duplicate,
    the arbiter's choices; 400 when the preview has errors."""
    counts = Counter(row.status for row in preview.rows) if preview else Counter()
    context = desk_context(
        request,
        tournament,
        "players",
        form=form,
        preview=preview,
        new_count=preview and counts[importing.NEW],
        roster_count=counts[importing.ROSTER],
        registered_count=counts[importing.REGISTERED],
        duplicate_count=counts[importing.DUPLICATE],
        to_register=counts[importing.NEW] + counts[importing.ROSTER],
        decisions=(
            (importing.SKIP, _("ignorer")),
            (importing.USE_EXISTING, _("c'est lui")),
            (importing.CREATE_NEW, _("un autre joueur")),
        ),
    )
    status = 400 if preview is not None and preview.errors else 200
    return render(request, "tournament/player_import.html", context, status=status)
