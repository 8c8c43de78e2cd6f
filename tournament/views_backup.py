"""Download a tournament's backup and restore one from a file (arbiters only)."""

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from .access import Permission, permission_required
from .backup import BackupError, tournament_export_json, tournament_import
from .models import Tournament

MAX_BACKUP_BYTES = 50 * 1024 * 1024


class RestoreForm(forms.Form):
    file = forms.FileField(label=_("Fichier de sauvegarde (.json)"))


@permission_required(Permission.EXPORT)
def backup_download(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    response = HttpResponse(
        tournament_export_json(tournament), content_type="application/json; charset=utf-8"
    )
    filename = f"{slugify(tournament.name) or 'tournoi'}-{tournament.date:%Y%m%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@permission_required(Permission.CREATE, None)
def backup_restore(request: HttpRequest) -> HttpResponse:
    form = RestoreForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if upload.size > MAX_BACKUP_BYTES:
            form.add_error("file", _("Fichier trop volumineux."))
        else:
            try:
                tournament = tournament_import(upload.read(), user=request.user)
            except BackupError as exc:
                form.add_error("file", str(exc))
            else:
                messages.success(request, _("Tournoi restauré."))
                return redirect(tournament.get_absolute_url())
    return render(request, "tournament/backup_restore.html", {"form": form})
