"""Fragments inside live pages that move apart from the revision, in the live store beside what
@versioned serves (scoring.live.versioned), one row per kind and key (its language) replaced in
place under a version of its own (a digest of what it shows): the room plan inside the hall's
slides, a player's card deals.
"""

from __future__ import annotations

import gzip
import time

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


def shared_fragment(tournament: Tournament | int, kind: str, key: str, version: str) -> str | None:
    """The fragment of this kind and key stored at `version` (None if there is none, or if it
    is not one this code stored)."""
    found = LiveArtifact.objects.filter(
        tournament_id=_id(tournament), what=kind, variant=key, revision=version
    ).values_list("body", flat=True)
    try:
        return next((gzip.decompress(bytes(body)).decode() for body in found), None)
    except (OSError, EOFError, UnicodeDecodeError):
        return None


def store_fragment(
    tournament: Tournament | int, kind: str, key: str, version: str, body: str
) -> None:
    """Keep `body` as the fragment of this kind and key at `version`: one upsert, replacing the
    key's row in place."""
    revisions = (version, version)
    versioned._store(_id(tournament), kind, key, revisions, body.encode(), time.monotonic())


def _id(tournament: Tournament | int) -> int:
    return tournament if isinstance(tournament, int) else tournament.pk
