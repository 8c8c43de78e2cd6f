"""A tournament's identity on the comité's server travels with its backup: the laptop's sending
(scoring.uploads.ResultsSend) names the tournament by its `source`, and the server files every
version under it. A restore of the same evening onto another laptop keeps that source, so a
send from there is version N+1 of the same tournament on the server, never a new one; an
explicit copy (or a restore next to the original, whose source is taken here) gets none, and
its first send draws a new one.
"""

from __future__ import annotations

import re
from typing import Any

from scoring.uploads import ResultsSend
from tournament.models import Tournament

KEY = "sent"
# What a source looks like (the laptop draws it with secrets.token_urlsafe).
SOURCE_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


def sending_export(tournament: Tournament) -> dict[str, Any] | None:
    """The laptop's sending of the tournament, as the backup keeps it (None: never sent)."""
    sending = ResultsSend.objects.filter(tournament=tournament).first()
    if sending is None:
        return None
    return {"source": sending.source, "status": sending.status, "version": sending.version}


def sending_restore(tournament: Tournament, sent: Any) -> ResultsSend | None:
    """Give the restored tournament the sending its backup names, when that source is free
    here; anything malformed is ignored (the first send draws a new source)."""
    if not isinstance(sent, dict):
        return None
    source, status, version = sent.get("source"), sent.get("status"), sent.get("version")
    if not isinstance(source, str) or not SOURCE_RE.match(source):
        return None
    if ResultsSend.objects.filter(source=source).exists():
        return None  # the original is on this laptop: the restored one is a copy
    if status not in ResultsSend.Status.values:
        status = ResultsSend.Status.WAITING
    if type(version) is not int or version < 1:
        version = None
    return ResultsSend.objects.create(
        tournament=tournament, source=source, status=status, version=version
    )
