"""Download a tournament's backup and restore one from a file (arbiters only)."""

from django import forms
from django.contrib import messages
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import filesizeformat
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from scoring.documents.backup import (
    MAX_BACKUP_BYTES,
    BackupError,
    tournament_export_json,
    tournament_import,
)
from tournament.access.permissions import Permission, TournamentRequest, permission_required
from tournament.clubs.selectors import home_club, restorable_clubs


class RestoreForm(forms.Form):
    file = forms.FileField(label=_("Fichier de sauvegarde (.json)"))
    # The restored tournament and its new roster entries are this club's: one of the
    # restorer's clubs (every club for a superuser), their first by default.
    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=restorable_clubs(None),
        required=False,
        empty_label=None,
        error_messages={
            "invalid_choice": _("Vous n'êtes pas membre de ce club : choisissez l'un de vos clubs.")
        },
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        club = self.fields["club"]
        assert isinstance(club, forms.ModelChoiceField)
        club.queryset = restorable_clubs(user)
        first = home_club(user)
        club.initial = first.pk if first is not None else None


@permission_required(Permission.EXPORT)
def backup_download(request: TournamentRequest, pk: int) -> HttpResponse:
    tournament = request.tournament
    response = HttpResponse(
        tournament_export_json(tournament), content_type="application/json; charset=utf-8"
    )
    filename = f"{slugify(tournament.name) or 'tournoi'}-{tournament.date:%Y%m%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@permission_required(Permission.CREATE, None)
@csrf_exempt  # checked by _restore, once the upload limit is in place
def backup_restore(request: HttpRequest) -> HttpResponse:
    # The limit must be installed before anything reads the body (the CSRF middleware would).
    limit = UploadLimit(request, MAX_BACKUP_BYTES)
    request.upload_handlers = [limit, *request.upload_handlers]
    return _restore(request, limit)


class UploadLimit(FileUploadHandler):
    """Stops reading an uploaded file past `limit` bytes: the rest is read and dropped, never
    written to a temporary file. Django has no such cap for files (DATA_UPLOAD_MAX_MEMORY_SIZE
    ignores them; FILE_UPLOAD_MAX_MEMORY_SIZE only chooses between memory and a temporary file)."""

    def __init__(self, request: HttpRequest, limit: int):
        super().__init__(request)
        self.limit = limit
        self.too_big = False

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        if start + len(raw_data) > self.limit:
            self.too_big = True
            raise StopUpload(connection_reset=False)
        return raw_data  # the next handlers keep it

    def file_complete(self, file_size: int) -> None:
        return None


@csrf_protect
def _restore(request: HttpRequest, limit: UploadLimit) -> HttpResponse:
    form = RestoreForm(request.POST or None, request.FILES or None, user=request.user)
    if request.method == "POST" and limit.too_big:
        form.is_valid()  # the file was dropped: say why rather than "required"
        form.errors["file"] = form.error_class(
            [
                gettext("Fichier trop volumineux : une sauvegarde fait au plus %(size)s.")
                % {"size": filesizeformat(limit.limit)}
            ]
        )
    elif request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            # tournament_import checks the size again, the depth, every row and every deal
            # before it writes anything; whoever restores the file owns the tournament.
            tournament = tournament_import(
                upload.read(), user=request.user, club=form.cleaned_data["club"]
            )
        except BackupError as exc:
            form.add_error("file", str(exc))
        else:
            messages.success(request, _("Tournoi restauré."))
            return redirect(tournament.get_absolute_url())
    return render(request, "tournament/backup_restore.html", {"form": form})
