"""The arbiter's report's figures as CSV (UTF-8 with a BOM and semicolons, as French
spreadsheets expect): one block per section of the PDF, each a title line, its column headings
and its rows, blocks apart by an empty line. Text never becomes a formula; numbers stay numbers."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.documents.arbiter_report import ArbiterReport
from scoring.documents.exports.common import safe_csv_value

DELIMITER = ";"
# A column: its heading, and the line's attribute it shows or a function of the line.
Column = tuple[Any, str | Callable[[Any], Any]]


def when(moment: datetime | None) -> str:
    return timezone.localtime(moment).strftime("%d/%m/%Y %H:%M") if moment else ""


def yes_no(value: bool) -> str:
    return _("oui") if value else _("non")


STAFF: list[Column] = [(gettext_lazy("Nom"), "name"), (gettext_lazy("Rôle"), "role")]
FIELD: list[Column] = [
    (gettext_lazy("N°"), "number"),
    (gettext_lazy("Nom Prénom"), "name"),
    (gettext_lazy("Licence"), "licence"),
    (gettext_lazy("Club"), "club"),
    (gettext_lazy("Équipe"), "team"),
    (gettext_lazy("Arrivé à la position"), "first_position"),
    (gettext_lazy("Forfait après la position"), "withdrawn_after"),
]
POSITIONS: list[Column] = [
    (gettext_lazy("Position"), "number"),
    (gettext_lazy("État"), "status"),
    (gettext_lazy("Tables"), "tables"),
    (gettext_lazy("Donnes"), "deals"),
    (gettext_lazy("Passes"), "passed"),
    (gettext_lazy("Annulées"), "cancelled"),
    (gettext_lazy("Scores arbitraux"), "adjusted"),
    (gettext_lazy("À confirmer"), "pending"),
]
INCIDENTS: list[Column] = [
    (gettext_lazy("Position"), "position"),
    (gettext_lazy("Table"), "table"),
    (gettext_lazy("Donne"), "deal"),
    (gettext_lazy("Joueur"), "player"),
    (gettext_lazy("Licence"), "licence"),
    (gettext_lazy("Faute"), "kind"),
    (gettext_lazy("Règle appliquée"), "rule"),
    (gettext_lazy("Décision"), "decision"),
    (gettext_lazy("Note"), "note"),
    (gettext_lazy("Pénalité"), "penalty"),
    (gettext_lazy("Répartie"), lambda line: yes_no(line.shared)),
    (gettext_lazy("Arbitre"), "arbiter"),
    (gettext_lazy("Enregistré le"), lambda line: when(line.recorded_at)),
]
ADJUSTED: list[Column] = [
    (gettext_lazy("Position"), "position"),
    (gettext_lazy("Table"), "table"),
    (gettext_lazy("Donne"), "deal"),
    (gettext_lazy("Joueur"), "player"),
    (gettext_lazy("Licence"), "licence"),
    (gettext_lazy("Calculé"), "computed"),
    (gettext_lazy("Arbitral"), "adjusted"),
    (gettext_lazy("Motif"), "reason"),
]
CALLS: list[Column] = [
    (gettext_lazy("Position"), "position"),
    (gettext_lazy("Table"), "table"),
    (gettext_lazy("Donne"), "deal"),
    (gettext_lazy("Message"), "note"),
    (gettext_lazy("Appel le"), lambda line: when(line.called_at)),
    (gettext_lazy("Pris en charge le"), lambda line: when(line.taken_at)),
    (gettext_lazy("Pris en charge par"), "taken_by"),
]
RANKING: list[Column] = [
    (gettext_lazy("Rang"), "rank"),
    (gettext_lazy("Ex æquo"), lambda line: yes_no(line.tied)),
    (gettext_lazy("N°"), "number"),
    (gettext_lazy("Nom Prénom"), "name"),
    (gettext_lazy("Licence"), "licence"),
    (gettext_lazy("Club"), "club"),
    (gettext_lazy("Points des donnes"), "deal_points"),
    (gettext_lazy("Pénalités"), "penalty"),
    (gettext_lazy("Total"), "total"),
]


def identity_rows(report: ArbiterReport) -> list[tuple[str, Any]]:
    tournament = report.tournament
    return [
        (_("Tournoi"), tournament.name),
        (_("Date"), tournament.date.strftime("%d/%m/%Y")),
        (_("Lieu"), tournament.venue),
        (_("Club organisateur"), report.club),
        (_("Formule"), report.format),
        (_("Règlement"), report.rule_set),
        (_("Joueurs en surnombre"), report.remainder),
        (_("Donnes"), report.deals_per_table),
        (_("Positions prévues"), tournament.positions_count),
        (_("Joueurs"), len(report.field)),
        (_("Classement"), report.provisional or _("définitif")),
    ]


def rows_of(columns: list[Column], lines: Iterable[Any]) -> list[list[Any]]:
    return [
        [show(line) if callable(show) else getattr(line, show) for _heading, show in columns]
        for line in lines
    ]


Block = tuple[str, Sequence[Any], Sequence[Sequence[Any]]]


def blocks(report: ArbiterReport) -> list[Block]:
    """The report's sections, in the PDF's order: (title, headings, rows)."""
    sections: list[tuple[str, list[Column], Iterable[Any]]] = [
        (_("Arbitrage"), STAFF, report.staff),
        (_("Joueurs"), FIELD, report.field),
        (_("Positions et donnes jouées"), POSITIONS, report.positions),
        (_("Incidents et pénalités"), INCIDENTS, report.incidents),
        (_("Scores arbitraux"), ADJUSTED, report.adjusted),
        (_("Appels de l'arbitre"), CALLS, report.calls),
        (_("Classement final"), RANKING, report.ranking),
    ]
    identity: Block = (_("Tournoi"), (_("Rubrique"), _("Valeur")), identity_rows(report))
    return [
        identity,
        *(
            (title, [str(heading) for heading, _show in columns], rows_of(columns, lines))
            for title, columns, lines in sections
        ),
    ]


def build(report: ArbiterReport) -> str:
    """The whole CSV, a BOM first."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=DELIMITER)
    for index, (title, header, rows) in enumerate(blocks(report)):
        if index:
            writer.writerow([])
        writer.writerow([safe_csv_value(title)])
        writer.writerow([safe_csv_value(value) for value in header])
        for row in rows:
            writer.writerow([safe_csv_value(value) for value in row])
    return out.getvalue()
