"""Fragments inside live pages that move apart from the revision, in the live store beside what
@versioned serves (scoring.live.versioned), one row per kind and key (its language) replaced in
place under a version of its own (a digest of what it shows): the room plan inside the hall's
slides, a player's card deals.
"""

from __future__ import annotations

import gzip
import time
from collections.abc import Callable

from django.utils.safestring import SafeString, mark_safe

from scoring.live import versioned
from scoring.models import LiveArtifact
from tournament.models import Tournament

# The room plan inside the hall's slides (scoring.live.views.hall): per language, under a digest
# of the plan (tournament.evening.selectors.room_plan), re-used by the slides of every ranking.
HALL_PLAN = "hall-plan"
# A player's deals on their public card (scoring.live.card): one row per player and language,
# under a digest of what they show.
CARD_DEALS = "card-deals"
# Pages of the public standings shared per language: past them (1,000 rows at 50 a page), a
# page is rendered for its viewer, as are searches, sorts and the other views.
MAX_PAGES = 20


def fragment(
    tournament: Tournament, kind: str, key: str, version: str, render: Callable[[], str]
) -> SafeString:
    """The fragment of this kind and key stored at `version`, else `render()`'s, stored in its
    key's row (one upsert). Rendered by our own templates, escaped there."""
    found = LiveArtifact.objects.filter(
        tournament_id=tournament.pk, what=kind, variant=key, revision=version
    ).values_list("body", flat=True)
    try:
        body = next((gzip.decompress(bytes(body)).decode() for body in found), None)
    except (OSError, EOFError, UnicodeDecodeError):  # not one this code stored
        body = None
    if body is None:
        body = render()
        started = time.monotonic()
        versioned._store(tournament.pk, kind, key, (version, version), body.encode(), started)
    return mark_safe(body)  # noqa: S308 - see the docstring
