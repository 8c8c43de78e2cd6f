"""Small finished tournaments with chosen bilans, and generated seasons, for the championship
tests."""

from __future__ import annotations

import datetime

from scoring.models import Championship, Deal, DealScore, ScoreSheet, SheetPlayer
from scoring.sheets.generate import GenerateOptions, tournament_generate
from tournament.models import DIRECTIONS, Player, Position, Registration, Seat, Table, Tournament


def people(*names: str) -> dict[str, Player]:
    return {name: Player.objects.create(last_name=name, club="Club") for name in names}


def evening(
    name: str,
    day: int,
    positions: list[dict[Player, int]],
    *,
    withdrawn: dict[Player, int] | None = None,
    finished: bool = True,
    owner=None,
) -> Tournament:
    """A tournament whose every position is one table with one deal giving these bilans.

    `withdrawn` maps a player to the last position they played (0: registered, never seated).
    """
    withdrawn = withdrawn or {}
    tournament = Tournament.objects.create(
        name=name,
        date=datetime.date(2025, 9, day),
        positions_count=len(positions),
        status=Tournament.Status.FINISHED if finished else Tournament.Status.RUNNING,
        owner=owner,
    )
    everybody = list(dict.fromkeys([p for position in positions for p in position]))
    everybody += [p for p in withdrawn if p not in everybody]
    registrations = {
        player: Registration.objects.create(
            tournament=tournament,
            player=player,
            number=index,
            status=Registration.Status.WITHDRAWN
            if player in withdrawn
            else Registration.Status.ACTIVE,
            withdrawn_after=withdrawn.get(player),
        )
        for index, player in enumerate(everybody, start=1)
    }
    for number, bilans in enumerate(positions, start=1):
        assert sum(bilans.values()) == 0
        position = Position.objects.create(
            tournament=tournament, number=number, status=Position.Status.CLOSED
        )
        table = Table.objects.create(position=position, number=1)
        sheet = ScoreSheet.objects.create(
            tournament=tournament, table=table, status=ScoreSheet.Status.VALIDATED
        )
        scores = list(bilans.values())
        deal = Deal.objects.create(
            sheet=sheet, number=1, players=len(scores), scores=scores, adjusted=True
        )
        for seat, (player, points) in enumerate(bilans.items()):
            registration = registrations[player]
            Seat.objects.create(table=table, registration=registration, direction=DIRECTIONS[seat])
            SheetPlayer.objects.create(sheet=sheet, registration=registration, seat=seat)
            DealScore.objects.create(deal=deal, registration=registration, seat=seat, points=points)
    return tournament


def generated_season(count: int, *, players: int = 60, owner=None, first_seed: int = 1):
    """`count` finished tournaments of the same `players` people (a shared roster)."""
    roster = Player.objects.bulk_create(
        Player(last_name=f"Joueur{index:03d}", first_name="Saison", club="Club de la saison")
        for index in range(players)
    )
    tournaments = []
    for index in range(count):
        tournament = tournament_generate(
            options=GenerateOptions(
                players=players,
                positions=2,
                deals=1,
                seed=first_seed + index,
                name=f"Soirée {index + 1}",
            )
        )
        registrations = list(Registration.objects.filter(tournament=tournament))
        generated = [r.player_id for r in registrations]
        for registration in registrations:
            registration.player = roster[registration.number - 1]
        Registration.objects.bulk_update(registrations, ["player"])
        Player.objects.filter(pk__in=generated).delete()
        Tournament.objects.filter(pk=tournament.pk).update(
            owner=owner, date=datetime.date(2025, 9, 1) + datetime.timedelta(days=7 * index)
        )
        tournaments.append(tournament)
    return roster, tournaments


def championship(tournaments, *, owner=None, **settings) -> Championship:
    settings.setdefault("name", "Challenge du club")
    settings.setdefault("season", "2025-2026")
    settings.setdefault("scale", [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
    created = Championship.objects.create(owner=owner, **settings)
    created.tournaments.set(tournaments)
    return created
