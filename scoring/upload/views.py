"""The sending of results: on the server, a club's upload keys and the endpoint that receives a
tournament; on the laptop, the comité server's settings and a finished tournament's sending."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from scoring.documents.backup import MAX_BACKUP_BYTES
from scoring.models import Championship
from scoring.upload import keys, send
from scoring.upload.receive import Refused, results_receive, too_big
from tournament.access.permissions import (
    Permission,
    TournamentRequest,
    club_required,
    may,
    permission_required,
)
from tournament.public_address import absolute_url
from tournament.settings import client_ip_address

if TYPE_CHECKING:
    from tournament.clubs.views import ClubRequest


class KeyForm(forms.Form):
    label = forms.CharField(label=gettext_lazy("Nom de la clé"), max_length=100, required=False)
    championships = forms.ModelMultipleChoiceField(
        label=gettext_lazy("Circuits où comptent les tournois envoyés"),
        queryset=Championship.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["championships"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = keys.enterable_championships(club)


ISSUED_SESSION_KEY = "upload-key-issued"


@club_required(Permission.CLUB_ADMINISTER)
@require_http_methods(["GET", "POST"])
def club_upload_keys(request: ClubRequest, pk: int) -> HttpResponse:
    club = request.club
    form = KeyForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        _row, issued = keys.upload_key_issue(
            club=club,
            user=request.user,
            label=form.cleaned_data["label"],
            championships=form.cleaned_data["championships"],
        )
        # Post/redirect/get: a reload issues no second key; the key is shown on the next page
        # only, then forgotten (it is never stored but as its digest).
        request.session[ISSUED_SESSION_KEY] = issued
        return redirect("club-upload-keys", pk)
    issued = request.session.pop(ISSUED_SESSION_KEY, "") if request.method == "GET" else ""
    context = {"club": club, "keys": keys.keys_of(club), "form": form, "issued": issued}
    return render(request, "clubs/upload_keys.html", context)


@club_required(Permission.CLUB_ADMINISTER)
@require_POST
def club_upload_key_revoke(request: ClubRequest, pk: int, key: int) -> HttpResponse:
    if keys.upload_key_revoke(club=request.club, key_id=key):
        messages.success(request, _("Clé révoquée : elle n'envoie plus rien."))
    return redirect("club-upload-keys", pk)


def client_address(request: HttpRequest) -> str:
    # The address the login and sign-up limits see (the trusted proxy setting applies).
    return client_ip_address(request) or "?"


def _answer(message: str, status: int, **extra) -> JsonResponse:
    status_word = "received" if status in (200, 201) else "refused"
    return JsonResponse(
        {"status": status_word, "message": message, **extra},
        status=status,
        json_dumps_params={"ensure_ascii": False},
    )


@csrf_exempt  # a laptop's program, not a browser: the upload key is the credential
def results_upload(request: HttpRequest) -> JsonResponse:
    if request.method != "POST":  # a person's browser or a wrong client: say it, in French
        response = _answer(
            _(
                "Cette adresse reçoit les tournois envoyés par le portable d'un club (POST "
                "avec la clé d'envoi) : il n'y a rien à y lire."
            ),
            405,
        )
        response["Allow"] = "POST"
        return response
    try:
        key = keys.key_authenticate(
            request.headers.get("Authorization", ""), address=client_address(request)
        )
    except keys.KeyRefused as refusal:
        return _answer(str(refusal), refusal.status)
    # Bounded before the body is read, as a restore's upload (Django's own reading of the body
    # would stop at DATA_UPLOAD_MAX_MEMORY_SIZE instead, far below a big tournament). The
    # document is checked as a backup file is (scoring.documents.backup), not by a schema.
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > MAX_BACKUP_BYTES:
        return _answer(too_big().message, 413)
    raw = request.read(MAX_BACKUP_BYTES + 1)
    # The laptop names the document by its digest: a body altered or cut on the way is refused.
    expected = request.headers.get("Idempotency-Key", "").strip().lower()
    if expected and expected != hashlib.sha256(raw).hexdigest():
        return _answer(
            _("Document incomplet ou altéré en route : renvoyez-le.")
            + " "
            + _("Rien n'a été enregistré."),
            400,
        )
    try:
        received = results_receive(key=key, raw=raw)
    except Refused as refusal:
        return _answer(refusal.message + " " + _("Rien n'a été enregistré."), refusal.status)
    version = received.version
    link = ""
    if version.tournament_id is not None:
        link = absolute_url(request, reverse("public-tournament", args=[version.tournament_id]))
    message = (
        _("Reçu : version %(number)s du tournoi, enregistrée par le serveur du comité.")
        if received.created
        else _("Déjà reçu : version %(number)s, ce document était déjà enregistré.")
    ) % {"number": version.number}
    return _answer(message, 201 if received.created else 200, version=version.number, link=link)


# No session and no CSRF token: the club's upload key is the credential (the tests that walk
# every URL read this tag).
setattr(results_upload, "credential", "upload_key")  # noqa: B010


class ServerForm(forms.Form):
    url = forms.URLField(
        label=gettext_lazy("Adresse du serveur du comité"),
        max_length=300,
        assume_scheme="https",
    )
    # Never shown again once kept: a blank field keeps the current key.
    key = forms.CharField(
        label=gettext_lazy("Clé d'envoi du club"),
        max_length=100,
        required=False,
        widget=forms.PasswordInput(render_value=False),
    )
    allow_http = forms.BooleanField(
        label=gettext_lazy("Autoriser http sans chiffrement"),
        required=False,
        help_text=gettext_lazy(
            "Non coché (conseillé) : l'envoi passe en https:// et le certificat du serveur est "
            "vérifié. Cochez seulement pour un serveur du comité sans https, sur un réseau de "
            "confiance : la clé et les résultats passent alors en clair."
        ),
    )


@permission_required(Permission.CREATE, None)
@require_http_methods(["GET", "POST"])
def comite_settings(request: HttpRequest) -> HttpResponse:
    server = send.comite_server()
    initial = {"url": server.url, "allow_http": server.allow_http} if server else {}
    form = ServerForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            send.comite_server_save(
                url=form.cleaned_data["url"],
                key=form.cleaned_data["key"],
                allow_http=form.cleaned_data["allow_http"],
            )
        except ValidationError as invalid:
            form.add_error(None, invalid)
        else:
            messages.success(request, _("Réglages du serveur du comité enregistrés."))
            return redirect("comite-settings")
    context = {
        "form": form,
        "server": server,
        "has_key": bool(server and server.key),
        # What the end of the evening left to send: the tournaments this user may send.
        "waiting": [
            (sending, send.unsendable_reason(sending.tournament))
            for sending in send.waiting_sends()
            if may(request.user, Permission.EXPORT, sending.tournament)
        ],
    }
    return render(request, "scoring/comite_settings.html", context)


@permission_required(Permission.EXPORT)
@require_http_methods(["GET", "POST"])
def tournament_send(request: TournamentRequest, pk: int) -> HttpResponse:
    tournament = request.tournament
    if request.method == "POST":
        try:
            send.results_send(tournament=tournament)
        except ValidationError as refusal:
            for message in refusal.messages:
                messages.error(request, message)
        return redirect("tournament-send", pk)
    sending = send.sending_of(tournament)
    context = {
        "tournament": tournament,
        "sending": sending,
        "outdated": sending is not None and send.sending_outdated(sending),
        "server": send.comite_server(),
    }
    return render(request, "scoring/tournament_send.html", context)


@permission_required(Permission.VIEW)
@require_http_methods(["GET"])
def tournament_versions(request: TournamentRequest, pk: int) -> HttpResponse:
    # The tournament's staff on the server (the key's issuer owns a received tournament) and
    # the comité's administrators: the versions' documents are the club's data, not public.
    tournament = request.tournament
    context = {"tournament": tournament, "versions": send.received_versions_of(tournament)}
    return render(request, "scoring/received_versions.html", context)
