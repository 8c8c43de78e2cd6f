"""How the laptop reaches the comité's server: HTTPS with the server's certificate checked
(the system's authorities, or settings.COMITE_CA_BUNDLE), plain http only when the laptop's
settings say so; and what went wrong on the way, said in French."""

from __future__ import annotations

import socket
import ssl
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


def url_check(url: str, *, allow_http: bool) -> None:
    """An https:// address, or http:// when the laptop's settings explicitly allow it."""
    scheme = urlsplit(url).scheme.lower()
    if scheme == "https" or (scheme == "http" and allow_http):
        return
    if scheme == "http":
        raise ValidationError(
            {
                "url": _(
                    "Adresse en http:// : l'envoi passe en clair. Utilisez l'adresse en "
                    "https:// du serveur, ou cochez « Autoriser http sans chiffrement »."
                )
            }
        )
    raise ValidationError({"url": _("Indiquez une adresse qui commence par https://.")})


def tls_context() -> ssl.SSLContext:
    """Certificate and host name checked; against the comité's own authority when set."""
    return ssl.create_default_context(cafile=settings.COMITE_CA_BUNDLE or None)


def open_url(request: urllib.request.Request, timeout: float) -> Any:
    """urlopen, with the checked TLS context for an https:// address."""
    if request.type == "https":
        return urllib.request.urlopen(request, timeout=timeout, context=tls_context())
    return urllib.request.urlopen(request, timeout=timeout)


def network_error(error: BaseException) -> str:
    """What failed on the way to the server, in French (the technical detail in brackets): a
    fragment without a final stop, placed inside a sentence."""
    reason = getattr(error, "reason", error)
    if isinstance(reason, ssl.SSLCertVerificationError):
        return _(
            "certificat du serveur refusé : il n'est signé par aucune autorité reconnue par ce "
            "portable, ou il est celui d'un autre nom (%(detail)s). Vérifiez l'adresse, ou "
            "indiquez le certificat du comité (COMITE_CA_BUNDLE)"
        ) % {"detail": getattr(reason, "verify_message", "") or str(reason)[:120]}
    if isinstance(reason, ssl.SSLError):
        return _("connexion chiffrée impossible (%(detail)s)") % {"detail": str(reason)[:120]}
    if isinstance(reason, socket.timeout | TimeoutError):
        return _("le serveur n'a pas répondu à temps")
    if isinstance(reason, socket.gaierror):
        return _("adresse du serveur introuvable (pas de réseau, ou adresse mal saisie)")
    if isinstance(reason, ConnectionRefusedError):
        return _("connexion refusée par le serveur")
    if isinstance(reason, ConnectionError):
        return _("connexion coupée en cours d'envoi")
    if isinstance(reason, OSError) and reason.errno in (101, 113):  # network/host unreachable
        return _("réseau inaccessible")
    if isinstance(error, urllib.error.URLError | OSError):
        return _("erreur de réseau (%(detail)s)") % {"detail": str(reason)[:120]}
    return _("adresse du serveur invalide (%(detail)s)") % {"detail": str(error)[:120]}
