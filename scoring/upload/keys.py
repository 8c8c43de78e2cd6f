"""A club's upload keys on the comité's server: issued by its administrator, shown once, stored as
a digest, revocable, each listed with its last use."""

from __future__ import annotations

import hashlib
import math
import secrets
import time
from collections.abc import Iterable

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Championship
from scoring.uploads import UploadKey
from tournament.access import throttle
from tournament.models import Club

KEY_PREFIX = "tdk_"


# Wrong keys from one address before it is locked, and the first lock (seconds; doubling).
WRONG_KEY_ALLOWANCE = 10
WRONG_KEY_LOCK = 15 * 60.0


class KeyRefused(Exception):
    """The request's key sends nothing: the message says why (in French)."""

    def __init__(self, message: str, status: int = 401):
        super().__init__(message)
        self.status = status


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def enterable_championships(club: Club) -> QuerySet[Championship]:
    """The circuits a club's sent tournaments may enter: those that invite it (the circuits'
    own rule, scoring.season.circuits). A club's own championship is its organisers' to fill,
    on its page: a sent tournament keeps its place there from one version to the next."""
    return (
        Championship.objects.filter(participating_clubs=club).distinct().order_by("-season", "name")
    )


def upload_key_issue(
    *, club: Club, user, label: str = "", championships: Iterable[Championship] = ()
) -> tuple[UploadKey, str]:
    """A new key for the club: (its row, the key itself, which is never shown again)."""
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    row = UploadKey.objects.create(
        club=club,
        label=label.strip()[:100],
        prefix=key[: len(KEY_PREFIX) + 6],
        digest=key_digest(key),
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    allowed = set(enterable_championships(club).values_list("pk", flat=True))
    row.championships.set([c for c in championships if c.pk in allowed])
    return row, key


def upload_key_revoke(*, club: Club, key_id: int) -> bool:
    """Revoke one of the club's keys; False when it was not the club's or already revoked."""
    return bool(
        UploadKey.objects.filter(club=club, pk=key_id, revoked_at=None).update(
            revoked_at=timezone.now()
        )
    )


def keys_of(club: Club) -> list[UploadKey]:
    return list(UploadKey.objects.filter(club=club).prefetch_related("championships"))


def wrong_keys_key(address: str) -> str:
    """The counter of wrong keys sent from one address (tournament.access.throttle)."""
    return f"upload-key:{address}"


def _wrong_key(address: str, refusal: str) -> KeyRefused:
    """Count one wrong key from `address` (one atomic statement shared by every server
    process, outside any transaction: a refusal stays counted); the WRONG_KEY_ALLOWANCE-th
    locks the address, doubling at each try after a lock. While locked, a wrong key is not
    even looked at further: the answer says how long to wait."""
    key = wrong_keys_key(address)
    if throttle.gate(key, allowance=WRONG_KEY_ALLOWANCE, lock=WRONG_KEY_LOCK):
        return KeyRefused(refusal)
    minutes = max(1, math.ceil((throttle.locked_until(key) - time.time()) / 60))
    return KeyRefused(
        _(
            "Trop de clés d'envoi erronées depuis cette adresse : réessayez dans %(minutes)s "
            "minutes, avec la clé que votre club vous a remise."
        )
        % {"minutes": minutes},
        status=429,
    )


def key_authenticate(authorization: str, *, address: str) -> UploadKey:
    """The key an `Authorization: Bearer …` header holds; KeyRefused otherwise.

    Wrong keys (unknown or revoked) are counted per source address and lock it. A valid key
    is taken whatever its address's count: a guesser sharing the club's network never locks
    the club out, and a key is 256 random bits, so the lock bounds a guesser's noise, not a
    search that could succeed. A valid key leaves the count as it is: a guesser on the club's
    network gets no fresh allowance from the club's sends (and the club is never stopped)."""
    scheme, _sep, key = authorization.strip().partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key:
        raise _wrong_key(address, _("Clé d'envoi manquante : indiquez la clé de votre club."))
    row = UploadKey.objects.filter(digest=key_digest(key[:200])).select_related("club").first()
    if row is None:
        raise _wrong_key(
            address, _("Clé d'envoi inconnue : vérifiez la clé saisie dans les réglages.")
        )
    if row.revoked_at is not None:
        raise _wrong_key(
            address,
            _("Clé d'envoi révoquée le %(date)s : demandez une nouvelle clé à votre club.")
            % {"date": timezone.localtime(row.revoked_at).strftime("%d/%m/%Y")},
        )
    return row
