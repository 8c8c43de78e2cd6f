"""The championship workbook: the season ranking, the players listed apart, every result."""

from __future__ import annotations

import io
from typing import Any

from django.utils.translation import gettext as _
from openpyxl import Workbook

from scoring.documents.exports.common import titled_sheet
from scoring.live.waiting import waiting_notes
from scoring.season.championships import ChampionshipStandings, lines


def build(standings: ChampionshipStandings) -> bytes:
    """Numbers stay numbers (a dropped result is a number too: the Détail sheet says which
    results count); names and clubs never become formulas. The ranking's title states the
    deals its tournaments' totals leave out while they wait."""
    championship = standings.championship
    workbook = Workbook(write_only=True)
    ranked, apart = lines(standings)
    title = " — ".join(p for p in (championship.name, championship.season) if p)
    columns = [f"{t.date:%d/%m/%Y} {t.name}" for t in standings.finished]

    header = [_("Rang"), _("Joueur"), _("Licence"), _("Club"), *columns]
    header += [_("Tournois joués"), _("Points retenus")]

    def values(line) -> list[Any]:
        cells = [cell.points if cell else None for cell in line.cells]
        return [line.name, line.licence, line.club, *cells, line.played, line.total]

    uncounted = waiting_notes(standings.finished)
    subject = " — ".join([title, _("Classement du championnat"), *uncounted])
    titled_sheet(workbook, _("Classement"), subject, header,
           [[line.rank, *values(line)] for line in ranked])  # fmt: skip
    if apart:
        titled_sheet(workbook, _("Non classés"),
               f"{title} — {_('Participation insuffisante (non classés)')}", header[1:],
               [values(line) for line in apart])  # fmt: skip

    detail_header = [_("Joueur"), _("Licence"), _("Tournoi"), _("Date"), _("Place"),
                     _("Score du tournoi"), _("Points"), _("Retenu"), _("Forfait")]  # fmt: skip
    by_pk = {t.pk: t for t in standings.finished}
    rows = []
    rows_of = [r.row for r in standings.ranking.ranked] + standings.ranking.below_attendance
    for row in rows_of:
        for scored in row.scored:
            tournament = by_pk[scored.result.tournament]
            rows.append([
                row.name, row.licence, tournament.name, tournament.date, scored.result.rank,
                scored.result.total, scored.points, _("oui") if scored.counted else _("non"),
                _("oui") if scored.result.withdrawn else "",
            ])  # fmt: skip
    titled_sheet(
        workbook, _("Détail"), f"{title} — {_('Résultats par tournoi')}", detail_header, rows
    )

    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
