"""On the laptop: a finished tournament sent to the comité's server, and the server's answer kept.

The document is the tournament's backup with the club it names, the tournament's `source` (an
identifier drawn once, sent with every version) and the arbiter's report (its staff and its
ranking's totals, which the server recomputes). With no network the sending waits: the page
and `manage.py send_results` try again. The server stores one document once, whatever the
number of tries (the document's digest is its idempotency key).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.documents.arbiter_report import arbiter_report
from scoring.documents.backup import tournament_export
from scoring.documents.backup.sending import KEY as SENT
from scoring.documents.report_records import incident_authors, records_document
from scoring.upload.transport import network_error, open_url, url_check
from scoring.uploads import ComiteServer, ReceivedVersion, ResultsSend
from tournament.models import Tournament

ENDPOINT = "/api/comite/resultats/"
TIMEOUT = 120  # seconds: a big tournament's document takes a while over a weak connection

Opener = Callable[..., Any]


def comite_server() -> ComiteServer | None:
    return ComiteServer.objects.order_by("pk").first()


def comite_server_save(*, url: str, key: str = "", allow_http: bool = False) -> ComiteServer:
    """Keep the server's address, and the key when one is given (a blank key keeps the old).
    An http:// address only when `allow_http` says so."""
    server = comite_server() or ComiteServer()
    server.url = url.strip().rstrip("/")
    server.allow_http = allow_http
    url_check(server.url, allow_http=allow_http)
    if key.strip():
        server.key = key.strip()
    if not server.key:
        raise ValidationError({"key": _("Indiquez la clé d'envoi que votre club vous a remise.")})
    server.save()
    return server


def upload_document(tournament: Tournament, *, source: str) -> bytes:
    """The document sent: the backup, its source and the arbiter's report's figures."""
    report = arbiter_report(tournament)
    data = tournament_export(tournament)
    # The backup's record of this laptop's sending changes at each try: not the server's.
    data.pop(SENT, None)
    data["source"] = source
    data["report"] = {
        # What a backup does not hold: the evening's arbiters, the calls for the arbiter and
        # who recorded each incident.
        **records_document(report.staff, report.calls, incident_authors(report.incidents)),
        "ranking": [
            {"rank": line.rank, "number": line.number, "licence": line.licence, "total": line.total}
            for line in report.ranking
        ],
        "penalty_total": report.penalty_total,
    }
    return json.dumps(data, ensure_ascii=False, sort_keys=True).encode("utf-8")


def unsendable_reason(tournament: Tournament) -> str | None:
    """Why the tournament cannot be sent now, in French (None: it can)."""
    if tournament.status != Tournament.Status.FINISHED:
        return _(
            "Seul un tournoi terminé s'envoie au serveur du comité : ce tournoi est en cours "
            "(rouvert depuis ?), terminez-le d'abord."
        )
    return None


def results_send(*, tournament: Tournament, opener: Opener | None = None) -> ResultsSend:
    """Send the finished tournament to the comité's server once; returns the sending with the
    server's answer, or waiting (the network failed: try again later)."""
    server = comite_server()
    if server is None:
        raise ValidationError(
            _("Renseignez d'abord l'adresse du serveur du comité et la clé de votre club.")
        )
    reason = unsendable_reason(tournament)
    if reason is not None:
        raise ValidationError(reason)
    url_check(server.url, allow_http=server.allow_http)
    sending, _created = ResultsSend.objects.get_or_create(
        tournament=tournament, defaults={"source": secrets.token_urlsafe(18)}
    )
    body = upload_document(tournament, source=sending.source)
    sending.digest = hashlib.sha256(body).hexdigest()
    sending.attempts += 1
    sending.tried_at = timezone.now()
    request = urllib.request.Request(
        server.url + ENDPOINT,
        data=body,
        method="POST",
        headers={
            "Authorization": f"Bearer {server.key}",
            "Content-Type": "application/json; charset=utf-8",
            "Idempotency-Key": sending.digest,
            "Accept": "application/json",
        },
    )
    try:
        with (opener or open_url)(request, timeout=TIMEOUT) as response:
            _answer(sending, response.status, response.read())
    except urllib.error.HTTPError as error:
        _answer(sending, error.code, error.read())
    except (OSError, ValueError) as error:  # no network, a cut, a timeout, a bad address
        sending.status = ResultsSend.Status.WAITING
        sending.message = _(
            "Serveur du comité injoignable : %(error)s. L'envoi attend : réessayez plus tard "
            "(bouton « Réessayer l'envoi » ou commande send_results)."
        ) % {"error": network_error(error).rstrip(".")}
    sending.save()
    return sending


def _answer(sending: ResultsSend, status: int, body: bytes) -> None:
    try:
        answer = json.loads(body.decode("utf-8"))
    except ValueError:
        answer = None
    if not isinstance(answer, dict) or not isinstance(answer.get("message"), str):
        sending.status = ResultsSend.Status.WAITING
        sending.message = _(
            "Réponse illisible du serveur du comité (code %(status)s) : l'envoi attend."
        ) % {"status": status}
        return
    sending.message = answer["message"][:2000]
    if status in (200, 201) and answer.get("status") == "received":
        sending.status = ResultsSend.Status.RECEIVED
        version = answer.get("version")
        sending.version = version if isinstance(version, int) else None
        link = answer.get("link")
        sending.link = link[:500] if isinstance(link, str) and link.startswith("http") else ""
    elif status >= 500:
        sending.status = ResultsSend.Status.WAITING
    else:
        sending.status = ResultsSend.Status.REFUSED


def waiting_sends() -> list[ResultsSend]:
    return list(
        ResultsSend.objects.filter(status=ResultsSend.Status.WAITING).select_related("tournament")
    )


def sending_of(tournament: Tournament) -> ResultsSend | None:
    return ResultsSend.objects.filter(tournament=tournament).first()


def sending_outdated(sending: ResultsSend) -> bool:
    """The server's copy is out of date: this laptop's tournament changed since the document
    the server received (reopened and corrected), by the digest the server stored it under."""
    if sending.status != ResultsSend.Status.RECEIVED:
        return False
    if sending.tournament.status != Tournament.Status.FINISHED:
        return True  # reopened: the version on the server is no longer the evening's last word
    body = upload_document(sending.tournament, source=sending.source)
    return hashlib.sha256(body).hexdigest() != sending.digest


def received_versions_of(tournament: Tournament) -> list[ReceivedVersion]:
    """On the server: every version of the tournament a club sent, the first first."""
    return list(
        ReceivedVersion.objects.filter(tournament=tournament)
        .select_related("key")
        .order_by("number")
        .defer("document")  # the documents themselves stay in the database
    )
