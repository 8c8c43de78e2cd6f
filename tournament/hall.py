"""The hall screen's controls: a revocable secret link to a read-only page for the room's
projector or TV, and its announcement line (what it shows is scoring.hall).

The link's token is the only credential, like a table's link: a new token kills the old link.
Neither the link nor the announcement is a result, so a finished tournament still takes them:
the prize-giving shows the final standings on the hall screen.
"""

from __future__ import annotations

import secrets
from typing import cast

from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import transaction
from django.utils.translation import gettext as _

from .audit import change_record
from .models import Tournament

# A CharField always has a max_length (the stubs type it Optional for the other fields).
MAX_ANNOUNCEMENT = cast(int, Tournament._meta.get_field("hall_announcement").max_length)


def new_hall_token() -> str:
    return secrets.token_urlsafe(32)  # 43 characters, as the field holds


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update(no_key=True, of=("self",)).get(pk=tournament.pk)


@transaction.atomic
def hall_link_create(*, tournament: Tournament, user=None) -> Tournament:
    """A new link for the hall screen; the previous one, if any, stops working."""
    tournament = _locked(tournament)
    had_link = tournament.hall_token is not None
    tournament.hall_token = new_hall_token()
    tournament.save(update_fields=["hall_token", "updated_at"])
    # The token itself stays out of the history: it is a credential.
    change_record(
        tournament=tournament,
        obj=tournament,
        action="update",
        before={"hall_link": had_link},
        after={"hall_link": "new"},
        user=user,
    )
    return tournament


@transaction.atomic
def hall_link_revoke(*, tournament: Tournament, user=None) -> Tournament:
    tournament = _locked(tournament)
    if tournament.hall_token is None:
        return tournament
    tournament.hall_token = None
    tournament.save(update_fields=["hall_token", "updated_at"])
    change_record(
        tournament=tournament,
        obj=tournament,
        action="update",
        before={"hall_link": True},
        after={"hall_link": False},
        user=user,
    )
    return tournament


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
    tournament = _locked(tournament)
    before = tournament.hall_announcement
    if before == text:
        return tournament
    tournament.hall_announcement = text
    tournament.save(update_fields=["hall_announcement", "updated_at"])
    change_record(
        tournament=tournament,
        obj=tournament,
        action="update",
        before={"hall_announcement": before},
        after={"hall_announcement": text},
        user=user,
    )
    return tournament
