"""Generate a tournament of any size with realistic random deals (demos and benchmarks)."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from scoring.sheets.generate import GenerateOptions, tournament_generate
from tournament.core.seating import SeatingError
from tournament.models import Tournament


class Command(BaseCommand):
    help = (
        "Generate a tournament: players, seating, score sheets and random deals, e.g. "
        "`generate_tournament --players 800 --positions 6 --deals 5 --seed 1`."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=32)
        parser.add_argument("--positions", type=int, default=6)
        parser.add_argument("--deals", type=int, default=5, help="deals per table")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--name", default="")
        parser.add_argument(
            "--remainder",
            choices=[choice for choice, _label in Tournament.Remainder.choices],
            default=Tournament.Remainder.FIVE,
        )
        parser.add_argument("--teams", type=int, choices=[2, 4], default=None)
        parser.add_argument(
            "--played", type=int, default=None, help="positions played (default: all)"
        )
        parser.add_argument("--private", action="store_true", help="no public standings page")
        parser.add_argument(
            "--running", action="store_true", help="sheets complete but not validated"
        )

    def handle(self, *args, **options):
        # The options named as GenerateOptions names them, then the three the command words
        # otherwise (--teams, --private, --running).
        as_named = ("players", "positions", "deals", "seed", "name", "remainder", "played")
        generate_options = GenerateOptions(
            **{name: options[name] for name in as_named},
            team_size=options["teams"],
            public=not options["private"],
            finished=not options["running"],
        )
        try:
            tournament = tournament_generate(options=generate_options)
        except SeatingError as error:
            raise CommandError(gettext(error.template) % error.params) from error
        deals = tournament.sheets.values("deals").count()
        self.stdout.write(
            self.style.SUCCESS(
                f"Tournament {tournament.pk} « {tournament.name} »: {options['players']} players, "
                f"{options['positions']} positions, {deals} deals."
            )
        )
