"""The one guard for changing a person's history (issue 36).

Merging two roster entries, settling a licence conflict (a merge or a licence correction),
importing a file of players and restoring a backup all ask history_guard before they move a
registration or change an entry that tournaments name. It refuses:

- a registration in a tournament none of the acting accounts runs (owner or co-arbiter; a
  superuser runs every one). A licence conflict between two clubs is settled by two accounts,
  the holding club's and the consenting one's: each tournament must be run by one of them;
- a roster entry none of them may see (another club's, unknown to theirs);
- a finished tournament whose names or results would change (a registration moving to another
  entry, an entry's name or club filled in), whoever asks, until its organiser reopens it:
  they are what was played. A licence correction changes neither and may reach one.

The tournament is never named in the refusal: it may be another club's, and private.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _

from tournament.access.scopes import visible_players
from tournament.models import Player, Tournament, TournamentRole


def history_tournaments(players: Iterable[Player | int]) -> list[Tournament]:
    """The tournaments these roster entries are registered in, by id."""
    ids = [player if isinstance(player, int) else player.pk for player in players]
    return list(Tournament.objects.filter(registrations__player__in=ids).distinct().order_by("pk"))


def _runs(user, tournament: Tournament) -> bool:
    if not (user is not None and user.is_authenticated and user.is_active):
        return False
    if user.is_superuser or tournament.owner_id == user.pk:
        return True
    return TournamentRole.objects.filter(
        Q(role=TournamentRole.Role.ARBITER), tournament=tournament, user=user
    ).exists()


def _ensure_seen(ids: set[int], users: list) -> None:
    if not ids:
        return
    seen: set[int] = set()
    for user in users:
        seen |= set(visible_players(user).filter(pk__in=ids).values_list("pk", flat=True))
    if ids - seen:
        raise ValidationError(
            _("Refusé : cette fiche n'appartient pas au fichier des joueurs de votre club."),
            code="not_seen",
        )


def history_guard(
    *,
    players: Iterable[Player | int],
    users: Iterable,
    renamed: Iterable[Player | int] = (),
    into: Iterable[Tournament] = (),
    reused: Iterable[Player | int] = (),
) -> list[Tournament]:
    """Check that the acting `users` may change the history of these roster entries, and
    that no finished tournament of the `renamed` ones (those whose tournaments would show
    another name or other results) would change; `into`: tournaments the change registers
    people in (an import's), which must be run by them and open; `reused`: entries the change
    registers in a new tournament (a restore's), which they must see, their past untouched.
    The tournaments concerned (ValidationError otherwise, naming none of them)."""
    users = [user for user in users if user is not None]
    players = list(players)
    ids = {player if isinstance(player, int) else player.pk for player in players}
    _ensure_seen({player if isinstance(player, int) else player.pk for player in reused}, users)
    _ensure_seen(ids, users)
    tournaments = history_tournaments(ids)
    into = list(into)
    for tournament in [*tournaments, *into]:
        if not any(_runs(user, tournament) for user in users):
            raise ValidationError(
                _(
                    "Refusé : ces fiches sont inscrites à un tournoi que vous n'arbitrez pas ; "
                    "seul son arbitre (ou le club qui l'organise) peut modifier cet historique."
                ),
                code="not_run",
            )
    for tournament in [*history_tournaments(renamed), *into]:
        if tournament.status == Tournament.Status.FINISHED:
            raise ValidationError(
                _(
                    "Refusé : ces fiches ont joué un tournoi terminé ; ses noms et ses "
                    "résultats ne changent pas tant que son organisateur ne l'a pas rouvert."
                ),
                code="finished",
            )
    return tournaments


def merge_renames(*, keep: Player, drop: Player) -> list[Player]:
    """The entries a merge shows differently in their tournaments: the dropped one always (its
    registrations move), the kept one when it takes the other's first name or club."""
    fills = (not keep.first_name and drop.first_name) or (not keep.club and drop.club)
    return [drop, keep] if fills else [drop]
