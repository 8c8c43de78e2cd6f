"""The hall screen's controls: a revocable secret link to a read-only page for the room's
projector or TV, and its announcement line (what it shows is scoring.live.hall).

The link's token is the only credential, like a table's link: a new token kills the old link.
Neither the link nor the announcement is a result, so a finished tournament still takes them:
the prize-giving shows the final standings on the hall screen.
"""

from __future__ import annotations

import secrets
from typing import Any, cast

from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.access.audit import save_recorded
from tournament.access.lifecycle import locked_tournament
from tournament.models import Tournament

# A CharField always has a max_length (the stubs type it Optional for the other fields).
MAX_ANNOUNCEMENT = cast(int, Tournament._meta.get_field("hall_announcement").max_length)


def new_hall_token() -> str:
    return secrets.token_urlsafe(32)  # 43 characters, as the field holds


def _save(
    tournament: Tournament, field: str, user, *, before: Any, after: Any, logged: str = ""
) -> Tournament:
    """Save one hall setting just set on the tournament, and record it under `logged` (the
    field's name by default: the token itself stays out of the history, it is a credential)."""
    key = logged or field
    save_recorded(
        tournament,
        update_fields=[field, "updated_at"],
        tournament=tournament,
        before={key: before},
        after={key: after},
        user=user,
    )
    return tournament


@transaction.atomic
def hall_link_create(*, tournament: Tournament, user=None) -> Tournament:
    """A new link for the hall screen; the previous one, if any, stops working."""
    tournament = locked_tournament(tournament)
    had_link = tournament.hall_token is not None
    tournament.hall_token = new_hall_token()
    return _save(tournament, "hall_token", user, logged="hall_link", before=had_link, after="new")


@transaction.atomic
def hall_link_revoke(*, tournament: Tournament, user=None) -> Tournament:
    tournament = locked_tournament(tournament)
    if tournament.hall_token is None:
        return tournament
    tournament.hall_token = None
    return _save(tournament, "hall_token", user, logged="hall_link", before=True, after=False)


@transaction.atomic
def hall_announcement_set(*, tournament: Tournament, text: str, user=None) -> Tournament:
    text = " ".join((text or "").split())  # one line on the screen
    if "\x00" in text:
        raise ValidationError({"hall_announcement": ProhibitNullCharactersValidator.message})
    if len(text) > MAX_ANNOUNCEMENT:
        raise ValidationError(
            {
                "hall_announcement": _(
                    "Annonce en salle : %(max)s caractères au plus (vous en avez tapé %(n)s)."
                )
                % {"max": MAX_ANNOUNCEMENT, "n": len(text)}
            }
        )
    tournament = locked_tournament(tournament)
    before = tournament.hall_announcement
    if before == text:
        return tournament
    tournament.hall_announcement = text
    return _save(tournament, "hall_announcement", user, before=before, after=text)
