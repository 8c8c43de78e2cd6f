"""The rankings workbook: individual, per position, teams and clubs, one worksheet each."""

from __future__ import annotations

import io
from typing import Any

from django.utils.translation import gettext as _
from openpyxl import Workbook

from scoring.documents.exports.common import title_line, titled_sheet
from scoring.live.standings import FREE_SHEETS, Standings


def build(standings: Standings) -> bytes:
    """The workbook as bytes; numbers are stored as numbers, header rows frozen."""
    workbook = Workbook(write_only=True)
    tournament = standings.tournament
    normalised = standings.normalised
    has_teams = standings.has_teams

    partial = standings.partial_numbers
    provisional = standings.provisional

    def position_label(number: int) -> str:
        if number == FREE_SHEETS:
            return _("Libres")
        if number in partial:
            return _("P%(number)s (en cours)") % {"number": number}
        return _("P%(number)s") % {"number": number}

    def subject_of(subject: str) -> str:
        # Partial results never look final: every sheet's title says so.
        return f"{subject} — {provisional}" if provisional else subject

    # The tournament number and the licence beside each name: homonyms are never ambiguous.
    header = [_("Rang"), _("N°"), _("Joueur"), _("Licence"), _("Club")]
    if has_teams:
        header.append(_("Équipe"))
    header += [position_label(n) for n in standings.positions]
    header += [_("Donnes"), _("Pénalités"), _("Total")]
    rows = []
    for item in standings.players:
        row = item.row
        values: list[Any] = [item.rank, row.number, row.name, row.licence or None, row.club]
        if has_teams:
            values.append(row.team)
        points = row.position_points
        values += [points.get(n, 0) for n in standings.positions]
        values += [row.deal_points, row.penalty, row.total]
        rows.append(values)
    title = title_line(tournament, subject_of(_("Classement individuel")), normalised=normalised)
    titled_sheet(workbook, _("Individuel"), title, header, rows)

    for number in standings.positions:
        header = [_("Rang"), _("N°"), _("Joueur"), _("Licence"), _("Table"), _("Bilan")]
        if normalised:
            header.append(_("Bilan normalisé"))
        header += [_("Pénalités"), _("Total")]
        rows = []
        for item in standings.by_position(number):
            result = item.row.results[number]
            values = [
                item.rank,
                item.row.number,
                item.row.name,
                item.row.licence or None,
                result.table,
                result.raw_points,
            ]
            if normalised:
                values.append(result.points)
            values += [item.row.penalty, item.row.total]
            rows.append(values)
        label = _("Position %(number)s") % {"number": number}
        subject = label
        if number == FREE_SHEETS:
            label = subject = _("Feuilles libres")
        elif number in partial:
            subject = _("Position %(number)s — résultats partiels") % {"number": number}
        titled_sheet(
            workbook,
            label,
            title_line(tournament, subject_of(subject), normalised=normalised),
            header,
            rows,
        )

    for ranked, label in ((standings.teams, _("Équipes")), (standings.clubs, _("Clubs"))):
        if not ranked:
            continue
        header = [_("Rang"), _("Nom"), _("Joueurs"), _("Donnes"), _("Pénalités"), _("Total")]
        rows = [
            [
                item.rank,
                item.row.name,
                ", ".join(f"{m.number} – {m.name}" for m in item.row.members),
                item.row.deal_points,
                item.row.penalty,
                item.row.total,
            ]
            for item in ranked
        ]
        subject = (
            _("Classement par équipes") if ranked is standings.teams else _("Classement par clubs")
        )
        titled_sheet(
            workbook,
            label,
            title_line(tournament, subject_of(subject), normalised=normalised),
            header,
            rows,
        )

    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
