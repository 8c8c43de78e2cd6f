"""The rankings workbook: individual, per position, teams and clubs, one worksheet each."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from itertools import chain
from typing import Any, NamedTuple

from django.utils.translation import gettext as _
from openpyxl import Workbook

from scoring.core import ranking
from scoring.documents.exports.common import title_line, titled_sheet
from scoring.live.standings import FREE_SHEETS, Standings
from scoring.live.waiting import WaitingDeals


class _Sheet(NamedTuple):
    """One worksheet: its tab's label, the subject its title names, the headings and rows;
    `position`: the position whose ranking it is, if one."""

    label: str
    subject: str
    header: list[str]
    rows: list[list[Any]]
    position: int | None = None


def subject_of(sheet: _Sheet, standings: Standings, waiting: WaitingDeals) -> str:
    """What a ranking's title says of it: its subject, partial results, the deals it leaves
    out (waiting: kept, not counted), as every printed or exported ranking states them."""
    left_out = waiting.at(sheet.position) if sheet.position is not None else waiting
    notes = [text for text in (standings.provisional, left_out.summary) if text]
    return " — ".join([sheet.subject, *notes])


def build(standings: Standings, waiting: WaitingDeals | None = None) -> bytes:
    """The workbook as bytes; numbers are stored as numbers, header rows frozen. Each title
    states the deals `waiting` (kept, not counted) that its ranking leaves out."""
    workbook = Workbook(write_only=True)
    waiting = waiting or WaitingDeals()
    sheets = chain(
        [individual(standings)],
        (_position(standings, number) for number in standings.positions),
        _groups(standings),
    )
    for sheet in sheets:
        # Partial results never look final, nor do totals leaving deals out: the title says so.
        subject = subject_of(sheet, standings, waiting)
        title = title_line(standings.tournament, subject, normalised=standings.normalised)
        titled_sheet(workbook, sheet.label, title, sheet.header, sheet.rows)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _position_column(standings: Standings, number: int) -> str:
    if number == FREE_SHEETS:
        return _("Libres")
    if number in standings.partial_numbers:
        return _("P%(number)s (en cours)") % {"number": number}
    return _("P%(number)s") % {"number": number}


def individual(standings: Standings) -> _Sheet:
    """The individual ranking: each player's points by position, deals, penalties, total."""
    has_teams = standings.has_teams
    # The tournament number and the licence beside each name: homonyms are never ambiguous.
    header = [_("Rang"), _("N°"), _("Joueur"), _("Licence"), _("Club")]
    if has_teams:
        header.append(_("Équipe"))
    header += [_position_column(standings, n) for n in standings.positions]
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
    return _Sheet(_("Individuel"), _("Classement individuel"), header, rows)


def _position(standings: Standings, number: int) -> _Sheet:
    """One position's ranking: each player's table and bilan there (normalised too when it is)."""
    normalised = standings.normalised
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
    elif number in standings.partial_numbers:
        subject = _("Position %(number)s — résultats partiels") % {"number": number}
    return _Sheet(label, subject, header, rows, number)


def _groups(standings: Standings) -> Iterator[_Sheet]:
    """The teams' ranking and the clubs', each when there is one."""
    groups: tuple[tuple[Sequence[ranking.Ranked], str, str], ...] = (
        (standings.teams, _("Équipes"), _("Classement par équipes")),
        (standings.clubs, _("Clubs"), _("Classement par clubs")),
    )
    for ranked, label, subject in groups:
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
        yield _Sheet(label, subject, header, rows)
