"""Build fixtures/demo.json: a finished 33-player tournament with penalties and an adjusted deal.

Run on an empty throw-away database, e.g.
`DATABASE_URL=sqlite:////tmp/demo.sqlite3 manage.py migrate && DATABASE_URL=… manage.py
build_demo_fixture`. `make run` loads the result with `load_demo`.
"""

from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from scoring.models import Deal, Incident, SheetPlayer
from scoring.sheets.generate import GenerateOptions, tournament_generate
from scoring.sheets.services import deal_adjust
from tournament.models import Tournament

OUTPUT = Path(settings.BASE_DIR) / "fixtures" / "demo.json"


class Command(BaseCommand):
    help = "Generate the demo tournament into an empty database and dump it to fixtures/demo.json."

    def add_arguments(self, parser):
        parser.add_argument("--output", default=str(OUTPUT))

    def handle(self, *args, **options):
        if Tournament.objects.exists():
            raise CommandError("Run this on an empty database: it dumps everything it holds.")
        tournament = tournament_generate(
            options=GenerateOptions(
                players=33,
                positions=6,
                deals=5,
                seed=2025,
                name="Open de tarot d'Angers (démonstration)",
            )
        )
        sheets = list(tournament.sheets.order_by("table__position__number", "table__number"))
        # An exposed card at position 2, a lateness at position 4 (shared), a revoke at 5.
        for sheet, seat, kind, points, shared in (
            (sheets[9], 1, Incident.Kind.CARTE_EXPOSEE, 20, False),
            (sheets[26], 0, Incident.Kind.LATENESS, 40, True),
            (sheets[35], 2, Incident.Kind.RENONCE_DEFENCE, 50, False),
        ):
            player = SheetPlayer.objects.get(sheet=sheet, seat=seat)
            Incident.objects.create(
                tournament=tournament,
                sheet=sheet,
                registration=player.registration,
                kind=kind,
                penalty_points=points,
                shared=shared,
                decision="Pénalité décidée par l'arbitre.",
            )
        deal = Deal.objects.filter(sheet=sheets[20], passed=False).order_by("number").first()
        if deal is None or deal.taker is None:
            raise CommandError("The demo tournament has no played deal on its 21st sheet.")
        players = deal.players
        scores = [-60] * players
        scores[deal.taker] = 60 * (players - 1)
        deal_adjust(
            deal=deal,
            scores=scores,
            reason="Jeu hors tour de la défense : score arbitral, prise réputée faite de 35.",
        )
        call_command(
            "dumpdata",
            "tournament",
            "scoring",
            natural_foreign=True,
            indent=1,
            output=options["output"],
            verbosity=0,
        )
        self.stdout.write(self.style.SUCCESS(f"Demo fixture written to {options['output']}."))
