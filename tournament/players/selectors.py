"""Reads of players: the roster, a registration a URL names, player search, a player's
tournaments and itinerary. Nothing here writes."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournament.core.collation import fold_words, person_key
from tournament.models import (
    Player,
    Registration,
    Seat,
    Tournament,
    sheet_order_key,
)
from tournament.players.folding import Fold


def registration_or_404(tournament: Tournament, pk: int) -> Registration:
    """One of the tournament's registrations, with its player, team and that tournament (no
    query for it again); 404 otherwise."""
    entry = get_object_or_404(
        Registration.objects.select_related("player", "team"), pk=pk, tournament=tournament
    )
    entry.tournament = tournament
    return entry


def player_or_404(pk: int | str, *, among: QuerySet[Player] | None = None) -> Player:
    """A roster player by id, among those `among` lets through (tournament.access.scopes'
    visible_players: another club's entry is not found); 404 when there is none."""
    return get_object_or_404(Player.objects.all() if among is None else among, pk=pk)


def player_or_none(pk: int) -> Player | None:
    """A roster player by id, None when there is none."""
    return Player.objects.filter(pk=pk).first()


def roster(tournament: Tournament) -> QuerySet[Registration]:
    """The tournament's registrations with their players, by number."""
    return Registration.objects.filter(tournament=tournament).select_related("player")


# --- A roster player across tournaments (the season's statistics) ------------------------------


def tournaments_of_player(player: Player, dates: tuple[date, date], *, seen: Q) -> list[Tournament]:
    """The tournaments between the two dates (included) where the roster player is registered,
    among those `seen` lets through, by date, name and id."""
    return list(
        Tournament.objects.filter(seen, date__range=dates, registrations__player=player)
        .distinct()
        .order_by("date", "name", "pk")
    )


def registrations_by_tournament(player: Player, tournaments: list[Tournament]) -> dict[int, int]:
    """Tournament id → the player's registration id, in those of `tournaments` they entered."""
    return dict(
        Registration.objects.filter(player=player, tournament__in=tournaments).values_list(
            "tournament_id", "pk"
        )
    )


def registrations_by_player(tournament: Tournament, players: Iterable[Player]) -> dict[int, int]:
    """Roster player id → their registration id in the tournament, for those who entered it."""
    return dict(
        Registration.objects.filter(tournament=tournament, player__in=list(players)).values_list(
            "player_id", "pk"
        )
    )


def players_by_pk(pks: Iterable[int]) -> dict[int, Player]:
    """Roster players by id, with their names and club only."""
    return {
        player.pk: player
        for player in Player.objects.filter(pk__in=list(pks)).only(
            "last_name", "first_name", "club"
        )
    }


def player_search(*, query: str, among: QuerySet[Player], limit: int = 20) -> list[Player]:
    """Roster players among `among` (the entries the user may see) whose name or club holds
    each of the query's words, or whose licence holds it; accents, case and punctuation ignored
    ("cote" finds CÔTÉ). One query."""
    words = fold_words(query)
    if not words or len(query.strip()) < 2:
        return []
    players = among.annotate(
        folded_last=Fold("last_name"), folded_first=Fold("first_name"), folded_club=Fold("club")
    )
    for word in words:
        players = players.filter(
            Q(folded_last__contains=word)
            | Q(folded_first__contains=word)
            | Q(licence__contains=word)  # "412345" finds 0412345
            | Q(folded_club__contains=word)
        )
    found = players.order_by("folded_last", "folded_first", "pk")[:limit]
    return sorted(found, key=lambda p: person_key(p.last_name, p.first_name))


def itinerary(registration: Registration) -> list[dict[str, Any]]:
    """The player's table, seat and opponents at every position of the tournament."""
    tournament = registration.tournament
    seats = {
        seat.table.position_id: seat
        for seat in registration.seats.select_related("table__position")
    }
    # Everyone at those tables, in one query.
    at_table: dict[int, list[Seat]] = {}
    for other in (
        Seat.objects.filter(table_id__in=[seat.table_id for seat in seats.values()])
        .exclude(pk__in=[seat.pk for seat in seats.values()])
        .select_related("registration__player")
    ):
        at_table.setdefault(other.table_id, []).append(other)
    rows = []
    for position in tournament.positions.all():
        seat = seats.get(position.pk)
        if seat is None:
            rows.append(
                {
                    "position": position.number,
                    "status": position.get_status_display(),
                    "table": "—",
                    "seat": _("ne joue pas"),
                    "opponents": "",
                }
            )
            continue
        others = at_table.get(seat.table_id, [])
        rows.append(
            {
                "position": position.number,
                "status": position.get_status_display(),
                "table": seat.table.number,
                "seat": seat.get_direction_display(),
                "opponents": ", ".join(
                    o.registration.player.full_name
                    for o in sorted(others, key=lambda s: sheet_order_key(s.direction))
                ),
            }
        )
    return rows
