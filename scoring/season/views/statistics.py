"""Statistics pages: a player's game over one tournament and over the season (public), and the
arbiter's per-player and per-club table of a tournament. Counting is scoring.core.statistics, the
rows come from scoring.season.statistics_loader, the charts from scoring.core.charts."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, cast

from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.formats import date_format, number_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring.core import charts
from scoring.core.statistics import (
    DEFENDER,
    PARTNER,
    TAKER,
    PlayerStats,
    player_statistics,
    season_of,
    statistics_by_player,
    totals,
    totals_by,
)
from scoring.live.counted import PUBLIC_TOURNAMENTS
from scoring.live.standings import (
    FREE_SHEETS,
    Standings,
    standings_for,
    standings_for_many,
    visible_sheets_of,
)
from scoring.models import Deal
from scoring.season.statistics_loader import BY_PLAYER, deal_records, penalty_records
from tournament.access.permissions import (
    Permission,
    TournamentRequest,
    permission_required,
    public_page,
    visible_tournaments,
)
from tournament.core.collation import person_key
from tournament.players.selectors import (
    players_by_pk,
    registration_or_404,
    registrations_by_player,
    registrations_by_tournament,
    tournaments_of_player,
)

if TYPE_CHECKING:
    from tournament.models import Tournament


def _percent(rate: float | None) -> str:
    return "—" if rate is None else f"{round(rate * 100)} %"


def _decimal(value: float | None, places: int = 1) -> str:
    return "—" if value is None else number_format(value, places)


def contracts_chart(stats: PlayerStats, *, who: str, ident: str) -> str:
    """Bars of the contracts taken, the part made darker, the success rate under each."""
    labels = dict(Deal.Contract.choices)
    bars = []
    said = []
    for contract, count in stats.contracts.items():
        label = str(labels.get(contract, contract))
        rate = _percent(count.success_rate)
        bars.append(
            charts.Bar(
                label=label,
                value=count.taken,
                part=count.won,
                note=rate,
                title=_("%(contract)s : %(taken)s prises, %(won)s réussies (%(rate)s)")
                % {"contract": label, "taken": count.taken, "won": count.won, "rate": rate},
            )
        )
        said.append(
            _("%(contract)s %(taken)s (réussite %(rate)s)")
            % {"contract": label, "taken": count.taken, "rate": rate}
        )
    return mark_safe(  # noqa: S308 - charts.bar_chart escapes every text it is given
        charts.bar_chart(
            bars,
            title=_("Contrats pris et réussis — %(who)s") % {"who": who},
            desc=_("Prises par contrat, la part réussie en foncé : %(list)s.")
            % {"list": ", ".join(said)},
            ident=ident,
        )
    )


def rounds_chart(
    values: Sequence[int], labels: Sequence[str], *, who: str, per: str, ident: str
) -> str:
    """Points per position (one tournament) or per tournament (the season), as a sparkline."""
    listed = ", ".join(f"{label} : {value:+d}" for label, value in zip(labels, values, strict=True))
    return mark_safe(  # noqa: S308 - charts.sparkline escapes every text it is given
        charts.sparkline(
            values,
            labels=labels,
            title=_("Points par %(per)s — %(who)s") % {"per": per, "who": who},
            desc=listed or _("Aucune donne."),
            ident=ident,
        )
    )


def figures(stats: PlayerStats) -> dict:
    """What the statistics block shows, formatted."""
    labels = dict(Deal.Contract.choices)
    return {
        "stats": stats,
        "takes_per_deal": _decimal(stats.takes_per_deal, 2),
        "success": _percent(stats.success_rate),
        "contracts": [
            {
                "label": labels.get(contract, contract),
                "taken": count.taken,
                "won": count.won,
                "rate": _percent(count.success_rate),
            }
            for contract, count in stats.contracts.items()
        ],
        "averages": [
            (_("Preneur"), stats.roles[TAKER].deals, _decimal(stats.roles[TAKER].average)),
            (
                _("Associé (à 5)"),
                stats.roles[PARTNER].deals,
                _decimal(stats.roles[PARTNER].average),
            ),
            (_("Défense"), stats.roles[DEFENDER].deals, _decimal(stats.roles[DEFENDER].average)),
        ],
    }


def _season_label(tournament: Tournament) -> str:
    start, end = season_of(tournament.date)
    return f"{start.year}-{end.year}"


def _round(key: Hashable) -> tuple[int, int]:
    """A deal's round as the statistics loader makes it: (tournament id, position number)."""
    match key:
        case (int(tournament_id), int(position)):
            return tournament_id, position
    raise TypeError(f"not a (tournament, position) round: {key!r}")


def _position_label(number: int) -> str:
    if number == FREE_SHEETS:
        return _("Feuilles libres")
    return _("Position %(number)s") % {"number": number}


@public_page()
@require_safe
def public_player_statistics(
    request: TournamentRequest, pk: int, registration: int
) -> HttpResponse:
    """A player's game in this tournament and over its season, published deals only.

    The season is the roster player's tournaments between September 1st and August 31st of the
    same host club (the club of this server the tournament belongs to, not the organiser's
    printed name, which two clubs may share) that the public may see (scoring.live.counted's
    rule), whoever visits: a public page shows its staff no private tournament, and one club's
    page no other club's.
    """
    tournament = request.tournament
    entry = registration_or_404(tournament, registration)
    player = entry.player
    start, end = season_of(tournament.date)
    seen = (PUBLIC_TOURNAMENTS & same_club(tournament)) | Q(pk=tournament.pk)
    season = tournaments_of_player(player, (start, end), seen=seen)
    entries = registrations_by_tournament(player, season)
    standings = standings_for_many(season, public=True)
    sheets = visible_sheets_of(season, public=True)
    records = deal_records(sheets.filter(players__registration__player=player), key=BY_PLAYER)
    penalties = penalty_records(season, sheets, key=BY_PLAYER, player=player.pk)

    here = [r for r in records if _round(r.round)[0] == tournament.pk]
    stats_here = player_statistics(here, player.pk, penalties.get(tournament.pk, ()))
    stats_season = player_statistics(
        records, player.pk, [p for found in penalties.values() for p in found]
    )
    by_tournament = _points_by_tournament(stats_season)
    context = {
        "tournament": tournament,
        "entry": entry,
        "season_label": _season_label(tournament),
        "rows": _season_rows(season, entries, standings, by_tournament),
        "here": figures(stats_here),
        "season": figures(stats_season),
        **_player_charts(
            tournament, season, stats_here, stats_season, by_tournament, who=player.full_name
        ),
    }
    return render(request, "statistics/player.html", context)


def _points_by_tournament(stats: PlayerStats) -> dict[int, int]:
    """The player's points in each tournament of the season (their rounds added up)."""
    by_tournament: dict[int, int] = {}
    for key, points in stats.rounds.items():
        tournament_id = _round(key)[0]
        by_tournament[tournament_id] = by_tournament.get(tournament_id, 0) + points
    return by_tournament


def _season_rows(
    season: Sequence[Tournament],
    entries: dict[int, int],
    standings: dict[int, Standings],
    by_tournament: dict[int, int],
) -> list[dict]:
    """One row per tournament of the season: the player's entry, rank and points there."""
    rows = []
    for one in season:
        entry_pk = entries.get(one.pk)
        rows.append(
            {
                "tournament": one,
                "registration": entry_pk,
                "ranked": None if entry_pk is None else standings[one.pk].rank_of(entry_pk),
                "players": len(standings[one.pk].players),
                "points": by_tournament.get(one.pk, 0),
            }
        )
    return rows


def _player_charts(
    tournament: Tournament,
    season: Sequence[Tournament],
    stats_here: PlayerStats,
    stats_season: PlayerStats,
    by_tournament: dict[int, int],
    *,
    who: str,
) -> dict[str, str]:
    """The player page's charts: contracts and points by position here, the same over the
    season by tournament."""
    positions = sorted(_round(key)[1] for key in stats_here.rounds)
    return {
        "here_contracts": contracts_chart(stats_here, who=who, ident="here-contracts"),
        "season_contracts": contracts_chart(stats_season, who=who, ident="season-contracts"),
        "here_rounds": rounds_chart(
            [stats_here.rounds[(tournament.pk, n)] for n in positions],
            [_position_label(n) for n in positions],
            who=who,
            per=_("position"),
            ident="here-rounds",
        ),
        "season_rounds": rounds_chart(
            [by_tournament.get(one.pk, 0) for one in season],
            [f"{one.name} ({date_format(one.date)})" for one in season],
            who=who,
            per=_("tournoi"),
            ident="season-rounds",
        ),
    }


def same_club(tournament: Tournament) -> Q:
    """The tournaments of the club that holds `tournament`: its host club, never the free
    "club organisateur" line (two clubs leaving it blank, or typing the same words, are not
    one club). A tournament of no club (a superuser's) goes with those of no club and the same
    line."""
    if tournament.host_club_id is not None:
        return Q(host_club=tournament.host_club_id)
    return Q(host_club=None, club=tournament.club)


@permission_required(Permission.VIEW)
@require_safe
def tournament_statistics(request: TournamentRequest, pk: int) -> HttpResponse:
    """The arbiter's view: every player's figures, the clubs' and the tournament's totals
    (every sheet counts, as on the arbiter's ranking). With ?saison=1, the same over the
    season's tournaments of the same host club that this user may see, by roster player."""
    tournament = request.tournament
    if request.GET.get("saison") == "1":
        return _season_statistics(request, tournament)
    standings = standings_for(tournament, public=False)
    sheets = visible_sheets_of([tournament], public=False)
    stats = statistics_by_player(
        deal_records(sheets),
        penalty_records([tournament], sheets).get(tournament.pk, ()),
    )
    players = []
    for ranked in standings.players:
        row = ranked.row
        players.append(
            {
                "rank": ranked.rank,
                "label": f"{row.number}. {row.name}",
                "club": row.club,
                "registration": row.key,
                **figures(stats.get(row.key, PlayerStats())),
            }
        )
    clubs_of = {ranked.row.key: ranked.row.club for ranked in standings.players if ranked.row.club}
    return _statistics_page(request, tournament, players, stats, clubs_of, season=None)


def _season_statistics(request: TournamentRequest, tournament: Tournament) -> HttpResponse:
    start, end = season_of(tournament.date)
    season = list(
        visible_tournaments(request.user)
        .filter(same_club(tournament), date__range=(start, end))
        .order_by("date", "name", "pk")
    )
    sheets = visible_sheets_of(season, public=False)
    records = deal_records(sheets, key=BY_PLAYER)
    penalties = penalty_records(season, sheets, key=BY_PLAYER)
    stats = statistics_by_player(records, [p for found in penalties.values() for p in found])
    people = players_by_pk(cast("list[int]", list(stats)))  # keyed BY_PLAYER: roster player ids
    here = registrations_by_player(tournament, people.values())
    ordered = sorted(
        people.values(), key=lambda p: (-stats[p.pk].points, person_key(p.last_name, p.first_name))
    )
    players = [
        {
            "rank": index,
            "label": person.full_name,
            "club": person.club,
            "registration": here.get(person.pk),
            **figures(stats[person.pk]),
        }
        for index, person in enumerate(ordered, start=1)
    ]
    clubs_of = {person.pk: person.club for person in people.values() if person.club}
    return _statistics_page(
        request,
        tournament,
        players,
        stats,
        clubs_of,
        season={"label": _season_label(tournament), "tournaments": season},
    )


def _statistics_page(request, tournament, players, stats, clubs_of, *, season) -> HttpResponse:
    clubs = [
        {"club": club, **figures(one)}
        for club, one in sorted(totals_by(stats, clubs_of).items(), key=lambda pair: str(pair[0]))
    ]
    total = totals(stats.values())
    context = {
        "tournament": tournament,
        "tab": "ranking",
        "players": players,
        "clubs": clubs,
        "season": season,
        "season_label": _season_label(tournament),
        "total": figures(total),
        "total_contracts": contracts_chart(total, who=tournament.name, ident="total-contracts"),
    }
    return render(request, "statistics/tournament.html", context)
