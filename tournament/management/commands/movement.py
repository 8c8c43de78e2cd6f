"""Print a movement chart (who sits where at each position) for players numbered 1..N."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from tournament.core.seating import (
    DIRECTIONS,
    Plan,
    SeatingError,
    generate,
    numbered_field,
    plan_figures,
    starting_positions,
)
from tournament.models import sheet_order_key

# Letters as printed on French sheets: West is "O" (Ouest), the fifth seat "5e".
SHEET_LETTERS = dict(zip(DIRECTIONS, ("N", "E", "S", "O", "5e"), strict=True))


class Command(BaseCommand):
    help = (
        "Print a movement chart for players 1..N, e.g. "
        "`movement --players 32 --positions 8 --teams 4 --format json`. With --teams K, players "
        "1..K form team 1, K+1..2K team 2, and so on; teammates never meet."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--positions", type=int, required=True)
        parser.add_argument("--teams", type=int, default=None, help="team size")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--tables",
            choices=["five", "three"],
            default="five",
            help="tables of 5 or of 3 for the players beyond a multiple of 4",
        )
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def handle(self, *args, players, positions, teams, seed, tables, format, **options):
        if teams is not None and teams < 1:
            raise CommandError("--teams doit être au moins 1.")
        try:
            plan = generate(numbered_field(players, teams), positions, tables, seed=seed)
        except SeatingError as error:
            raise CommandError(gettext(error.template) % error.params) from error
        if format == "json":
            self.stdout.write(json.dumps({"positions": plan.to_lists()}))
            for note in plan.notes:  # beside the JSON, whose shape scripts rely on
                self.stderr.write(note.message(gettext))
        else:
            self.stdout.write(chart_text(plan))


def chart_text(plan: Plan) -> str:
    """The chart an arbiter pins up: tables per position, then each player's starting seat."""
    lines = []
    for number, position in enumerate(plan.positions, start=1):
        lines.append(f"Position {number}")
        for table_number, table in enumerate(position, start=1):
            # Seats in the score sheet's order: N, S, E, O, 5e.
            seated = sorted(enumerate(table), key=lambda item: sheet_order_key(DIRECTIONS[item[0]]))
            seats = "  ".join(f"{SHEET_LETTERS[DIRECTIONS[k]]} {player:>3}" for k, player in seated)
            lines.append(f"  Table {table_number:>2} : {seats}")
        lines.append("")
    lines.append("Positions de départ")
    for player, (start_table, direction) in sorted(starting_positions(plan).items()):
        lines.append(f"  Joueur {player:>3} : table {start_table} {SHEET_LETTERS[direction]}")
    lines.append("")
    figures = plan_figures(plan)
    proven = ", optimal prouvé" if figures.repeats_optimal else ""
    lines.append(
        f"Rencontres répétées (E) : {figures.repeats} (au moins {figures.repeats_floor}{proven})"
    )
    lines.append(
        f"Écart des tables de 3 ou 5 : {figures.odd_spread} (au mieux {figures.odd_spread_floor})"
    )
    lines.append(
        f"Écart des directions : {figures.direction_spread} "
        f"(au mieux {figures.direction_spread_floor})"
    )
    lines.extend(note.message(gettext) for note in plan.notes)
    return "\n".join(lines)
