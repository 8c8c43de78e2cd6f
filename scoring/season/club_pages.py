"""What a club's public pages and a licence holder's page read: a club's coming tournaments,
its results archive and its championships, and one person's results in every club's public
tournaments. Every read goes through the public rule (PUBLIC_TOURNAMENTS, scoring.live.counted;
PUBLIC_CHAMPIONSHIPS, scoring.season.access): a private tournament or championship is never
read here, whoever visits."""

from __future__ import annotations

import datetime

from django.core.paginator import Page, Paginator
from django.db.models import Exists, OuterRef, QuerySet
from django.shortcuts import get_object_or_404

from scoring.live.counted import PUBLIC_TOURNAMENTS
from scoring.live.standings import standings_for_many
from scoring.models import Championship
from scoring.season.access import PUBLIC_CHAMPIONSHIPS
from tournament.access.permissions import takes_sign_ups
from tournament.models import Club, LicenceConflict, Player, Registration, Tournament

ARCHIVE_PAGE = 20  # finished tournaments a page of a club's archive
RESULTS_PAGE = 20  # tournaments a page of a person's results


def _public_tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.filter(PUBLIC_TOURNAMENTS)


def public_clubs() -> QuerySet[Club]:
    """The clubs with something public: a public tournament or a public championship. A club
    with none has no public page (404), so its name is not given away either."""
    tournaments = _public_tournaments().filter(host_club=OuterRef("pk"))
    championships = Championship.objects.filter(PUBLIC_CHAMPIONSHIPS, host_club=OuterRef("pk"))
    return Club.objects.filter(Exists(tournaments) | Exists(championships)).order_by("name", "pk")


def public_club_or_404(pk: int) -> Club:
    return get_object_or_404(public_clubs(), pk=pk)


def club_calendar(club: Club, today: datetime.date) -> list[Tournament]:
    """The club's public tournaments still to come (or under way today), soonest first."""
    return list(
        _public_tournaments()
        .filter(host_club=club, date__gte=today)
        .exclude(status=Tournament.Status.FINISHED)
        .order_by("date", "name", "pk")
    )


def club_archive(club: Club, page: str | None) -> Page:
    """One page of the club's finished public tournaments, newest first (two queries)."""
    finished = (
        _public_tournaments()
        .filter(host_club=club, status=Tournament.Status.FINISHED)
        .order_by("-date", "-pk")
    )
    return Paginator(finished, ARCHIVE_PAGE).get_page(page)


def club_championships(club: Club) -> list[Championship]:
    """The club's public season championships, latest season first."""
    return list(
        Championship.objects.filter(PUBLIC_CHAMPIONSHIPS, host_club=club).order_by(
            "-season", "name", "pk"
        )
    )


def same_person(player: Player) -> QuerySet[Player]:
    """The roster entries of one person: those of the player's own club sharing its licence,
    or the entry alone when it has none (a name proves nothing) or while that licence is
    disputed. Entries of two clubs are never joined by a licence: anyone can type one, and a
    club could then read or add to another club's person's public history (issue 36); two
    clubs' entries become one person only when the conflict is settled by consent, which
    merges them into one entry."""
    disputed = LicenceConflict.objects.filter(
        licence=player.licence, status=LicenceConflict.Status.OPEN
    )
    if player.licence and not disputed.exists():
        return Player.objects.filter(licence=player.licence, origin_club_id=player.origin_club_id)
    return Player.objects.filter(pk=player.pk)


def person_results(player: Player, page: str | None) -> tuple[Page, list[dict]]:
    """One page of the person's entries in public tournaments of any club, newest first, each
    with its rank and score from the public standings (a constant number of queries)."""
    entries = (
        Registration.objects.filter(
            player__in=same_person(player), tournament__in=_public_tournaments()
        )
        .select_related("tournament", "tournament__host_club")
        .order_by("-tournament__date", "-tournament_id")
    )
    shown = Paginator(entries, RESULTS_PAGE).get_page(page)
    tournaments = [entry.tournament for entry in shown]
    standings = standings_for_many(tournaments, public=True)
    rows = []
    for entry in shown:
        table = standings[entry.tournament_id]
        rows.append(
            {
                "tournament": entry.tournament,
                "registration": entry.pk,
                "ranked": table.rank_of(entry.pk),
                "players": len(table.players),
            }
        )
    return shown, rows


def signup_open_now(tournament: Tournament, now: datetime.datetime) -> bool:
    """Whether the tournament's online sign-up takes players now (the sign-up page's rule,
    tournament.access.permissions takes_sign_ups, and its closing time)."""
    closes = tournament.signup_closes_at
    return bool(takes_sign_ups(None, tournament)) and (closes is None or now < closes)
