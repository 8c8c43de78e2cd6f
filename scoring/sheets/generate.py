"""Generate a whole tournament with random deals, in bulk (demos, benchmarks, tests).

The deals are scored by the engine and written with bulk_create (Deal rows with their stored
scores and the DealScore rows), so 800 players over 6 positions take seconds. Seating comes from
the seating generator.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from decimal import Decimal

from django.apps import apps
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from scoring.core.random_deals import random_table_deals
from scoring.models import Deal, DealScore, ScoreSheet, SheetPlayer
from tournament.core import seating
from tournament.evening.positions import position_tables_store, published_on_commit
from tournament.models import (
    DIRECTIONS,
    Player,
    Position,
    Registration,
    Table,
    Team,
    Tournament,
)
from tournament.seats import start_codes

LAST_NAMES = (
    "Martin Bernard Thomas Petit Robert Richard Durand Dubois Moreau Laurent Simon Michel "
    "Lefebvre Leroy Roux David Bertrand Morel Fournier Girard Bonnet Dupont Lambert Fontaine "
    "Rousseau Vincent Muller Lefevre Faure Andre Mercier Blanc Guerin Boyer Garnier Chevalier "
    "Francois Legrand Gauthier Garcia Perrin Robin Clement Morin Nicolas Henry Roussel Mathieu "
    "Gautier Masson Marchand Duval Denis Dumont Marie Lemaire Noel Meyer Dufour Meunier Brun "
    "Blanchard Giraud Joly Riviere Lucas Brunet Gaillard Barbier Arnaud Martinez Gerard Roche "
    "Renard Schmitt Roy Leroux Colin Vidal Caron Picard Roger Fabre Aubert Lemoine Renaud Dumas"
).split()
FIRST_NAMES = (
    "Jean Michel Philippe Alain Patrick Nicolas Christophe Pierre Christian Eric Frédéric "
    "Laurent Stéphane David Pascal Daniel Sébastien Julien Thierry Olivier Bernard Thomas "
    "Marie Nathalie Isabelle Sylvie Catherine Martine Christine Françoise Valérie Sandrine "
    "Stéphanie Véronique Sophie Céline Chantal Patricia Anne Brigitte Julie Monique Aurélie "
    "Nicole Laurence Annie Émilie Dominique Virginie Corinne Élodie Christelle Camille Caroline"
).split()
CLUBS = (
    "Tarot Club Angevin",
    "Excuse Nantaise",
    "Petit au Bout Rennais",
    "Cercle du Tarot de Tours",
    "Les Bouts du Mans",
    "Tarot Club Choletais",
    "Garde Contre Lavalloise",
    "",
)


@dataclass(frozen=True)
class GenerateOptions:
    players: int = 32
    positions: int = 6
    deals: int = 5
    seed: int = 1
    name: str = ""
    remainder: str = Tournament.Remainder.FIVE
    team_size: int | None = None
    played: int | None = None  # positions with deals; the others stay drafts
    public: bool = True
    finished: bool = True


def tournament_generate(*, options: GenerateOptions) -> Tournament:
    """Create a tournament with players, seating, sheets and random scored deals."""
    rng = random.Random(options.seed)
    played = options.positions if options.played is None else options.played
    fmt = {2: Tournament.Format.DUO, 4: Tournament.Format.TEAM4}.get(
        options.team_size or 0, Tournament.Format.INDIVIDUAL
    )
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=options.name or f"Tournoi généré ({options.players} joueurs)",
            date=datetime.date(2025, 3, 15),
            venue="Salle des fêtes",
            club="Tarot Club Angevin",
            format=fmt,
            positions_count=options.positions,
            **{f"deals_per_table_{size}": options.deals for size in (3, 4, 5)},
            remainder=options.remainder,
            status=(
                Tournament.Status.FINISHED
                if options.finished and played == options.positions
                else Tournament.Status.RUNNING
            ),
            is_public=options.public,
            seating_seed=options.seed,
        )
        registrations = _register(tournament, options, rng)
        plan = seating.generate(
            [seating.SeatingPlayer(r.number, r.team_id) for r in registrations],
            options.positions,
            policy=options.remainder,
            seed=options.seed,
            exact_budget=settings.SEATING_EXACT_BUDGET,
            search_steps=settings.SEATING_SEARCH_STEPS,
        )
        by_number = {r.number: r for r in registrations}
        _seat_and_play(tournament, plan, by_number, options, played, rng)
        for position in tournament.positions.filter(status=Position.Status.PUBLISHED):
            published_on_commit(position)
        _refresh_statistics()
    return tournament


# Every table of the two apps: what a generated tournament writes, named by the models.
ANALYSED_APPS = ("tournament", "scoring")


def _refresh_statistics() -> None:
    """Let PostgreSQL's planner see the rows just written.

    Until autovacuum analyses them (and never inside a test's transaction), the planner
    believes these tables nearly empty and nested-loops joins over thousands of rows: a
    page of a generated tournament took minutes. ANALYZE counts our own uncommitted rows.
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        tables = [
            model._meta.db_table
            for app in ANALYSED_APPS
            for model in apps.get_app_config(app).get_models()
        ]
        cursor.execute("ANALYZE " + ", ".join(connection.ops.quote_name(t) for t in tables))


def _register(tournament: Tournament, options: GenerateOptions, rng: random.Random):
    players = Player.objects.bulk_create(
        Player(
            last_name=rng.choice(LAST_NAMES),
            first_name=rng.choice(FIRST_NAMES),
            club=rng.choice(CLUBS),
        )
        for _ in range(options.players)
    )
    teams: list[Team] = []
    if options.team_size:
        count = options.players // options.team_size
        teams = Team.objects.bulk_create(
            Team(tournament=tournament, name=f"Équipe {index + 1}") for index in range(count)
        )

    def team_of(index: int) -> Team | None:
        # Players beyond the last full team play alone.
        slot = index // options.team_size if options.team_size else len(teams)
        return teams[slot] if slot < len(teams) else None

    return Registration.objects.bulk_create(
        Registration(tournament=tournament, player=player, number=index + 1, team=team_of(index))
        for index, player in enumerate(players)
    )


def _seat_and_play(tournament, plan, by_number, options, played, rng) -> None:
    """Every position seated as the plan says; the played ones with their sheets and deals."""
    positions = _positions_create(tournament, options, played)
    seated = _tables_seat(positions, plan, by_number)
    # How sheets name a player: table and direction at the first position (tables are in
    # position order).
    starts = start_codes(
        (player, table.number, DIRECTIONS[index])
        for table, players in seated
        for index, player in enumerate(players)
    )
    played_tables = [
        (table, players) for table, players in seated if table.position.number <= played
    ]
    sheets = _sheets_create(tournament, played_tables, by_number, starts, options)
    _deals_play(tournament, sheets, played_tables, by_number, options, rng)


def _positions_create(
    tournament: Tournament, options: GenerateOptions, played: int
) -> list[Position]:
    """The positions: the first `played` published (closed when finished), the others drafts."""
    now = timezone.now()
    return Position.objects.bulk_create(
        Position(
            tournament=tournament,
            number=number,
            seed=options.seed,
            status=(
                Position.Status.DRAFT
                if number > played
                else Position.Status.CLOSED
                if options.finished
                else Position.Status.PUBLISHED
            ),
            published_at=now if number <= played else None,
        )
        for number in range(1, options.positions + 1)
    )


def _tables_seat(positions, plan, by_number) -> list[tuple[Table, tuple[int, ...]]]:
    """Each position's tables stored with their seats; every table with its players' numbers."""
    tables: list[Table] = []
    table_players: list[tuple[int, ...]] = []
    for position, position_tables in zip(positions, plan.positions, strict=True):
        seated = [[by_number[player].pk for player in players] for players in position_tables]
        tables += position_tables_store(position=position, tables=seated)
        table_players += position_tables
    return list(zip(tables, table_players, strict=True))


def _sheets_create(tournament, played_tables, by_number, starts, options) -> list[ScoreSheet]:
    """A sheet per played table (validated when finished, else complete) with its players."""
    sheets = ScoreSheet.objects.bulk_create(
        ScoreSheet(
            tournament=tournament,
            table=table,
            status=ScoreSheet.Status.VALIDATED if options.finished else ScoreSheet.Status.COMPLETE,
            version=options.deals,
        )
        for table, _players in played_tables
    )
    SheetPlayer.objects.bulk_create(
        SheetPlayer(
            sheet=sheet,
            registration=by_number[player],
            seat=index,
            direction=DIRECTIONS[index],
            start_label=starts[player],
        )
        for sheet, (_table, players) in zip(sheets, played_tables, strict=True)
        for index, player in enumerate(players)
    )
    return sheets


def _deals_play(tournament, sheets, played_tables, by_number, options, rng) -> None:
    """Random deals on every sheet, scored by the engine, with their per-seat scores."""
    deal_rows, score_rows = [], []
    for sheet, (table, players) in zip(sheets, played_tables, strict=True):
        generated = random_table_deals(
            rng, len(players), options.deals, dead=table.game == Table.Game.FIVE_DEAD
        )
        for number, deal in enumerate(generated, start=1):
            deal_rows.append(_deal_row(sheet, number, deal, tournament.rule_set))
            score_rows.append([(by_number[p].pk, seat) for seat, p in enumerate(players)])
    deals = Deal.objects.bulk_create(deal_rows, batch_size=2000)
    DealScore.objects.bulk_create(
        (
            DealScore(deal=deal, registration_id=registration, seat=seat, points=deal.scores[seat])
            for deal, seats in zip(deals, score_rows, strict=True)
            for registration, seat in seats
        ),
        batch_size=5000,
    )


def _deal_row(sheet: ScoreSheet, number: int, deal, rule_set: str) -> Deal:
    row = Deal(
        sheet=sheet,
        number=number,
        dealer=deal.dealer,
        players=deal.players,
        rule_set=rule_set,
        scores=list(deal.scores),
        computed_scores=list(deal.scores),
        passed=deal.passed,
    )
    if deal.inputs is not None:
        data = deal.inputs
        row.taker = data["taker"]
        row.partner = data.get("partner")
        row.dead = data.get("dead")
        row.contract = data["contract"]
        row.oudlers = data["oudlers"]
        row.points = Decimal(str(data["points"]))
        row.poignees = data.get("poignees") or []
        row.petit_au_bout = data.get("petit_au_bout") or ""
        row.chelem_announced = bool(data.get("chelem_announced"))
        row.chelem = data.get("chelem") or ""
        # The arbiter is called for every garde sans, garde contre and chelem announcement.
        row.arbiter_called = row.contract in ("garde_sans", "garde_contre") or row.chelem_announced
    elif deal.players == 5 and sheet.table and sheet.table.game == Table.Game.FIVE_DEAD:
        row.dead = deal.dealer
    return row
