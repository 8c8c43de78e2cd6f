"""Completed feuilles de marque for the archive: the rows as entered, bilans, adjusted rows,
penalties and the arbiter's decisions, one landscape page per sheet. A deal entered on a phone
prints like any other, with a small line saying who entered and who confirmed it."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from scoring.documents.printing.phone_entry import entry_mention
from scoring.documents.printing.render import render_pdf
from scoring.documents.printing.sheet_page import ColumnHead, RowView, SheetPage, row_heights, split
from scoring.models import ScoreSheet
from scoring.sheets.deal_detail import DealDetail
from scoring.sheets.screen import SheetView, load_sheet_view, sheet_is_full
from scoring.templatetags.print_tags import signed
from tournament.models import Position, Tournament

TEMPLATE = "print/sheets.html"


def completed_sheet_page(sheet: ScoreSheet) -> SheetPage:
    """One sheet as `scoring.sheets.screen` computes it, laid out like the paper sheet."""
    view = load_sheet_view(sheet)
    table = sheet.table
    rows = []
    notes = []
    for line in view.lines:
        deal = line.deal
        mark = ""
        if deal.adjusted:
            notes.append(
                _("Donne %(number)s : score arbitral (calculé : %(computed)s) — %(reason)s")
                % {
                    "number": line.number,
                    # In the sheet's column order, like the row above it.
                    "computed": " / ".join(
                        signed(deal.computed_scores[c.seat]) for c in view.columns
                    ),
                    "reason": deal.adjustment_reason,
                }
            )
            mark = str(len(notes))
        rows.append(
            RowView(
                number=line.number,
                contract=line.label,
                **detail_cells(line.detail),
                cells=tuple(split(cell.score) for cell in line.cells),
                adjusted=deal.adjusted,
                mark=mark,
                # load_sheet_view loads who entered and confirmed with the deals: no query.
                entry=entry_mention(deal),
            )
        )
    notes += incident_notes(view)
    return SheetPage(
        tournament=sheet.tournament,
        position_number=table.position.number if table else None,
        table_number=table.number if table else None,
        title=str(sheet),
        game_label=str(table.get_game_display())
        if table
        else _("%(count)s joueurs") % {"count": len(view.columns)},
        columns=[
            ColumnHead(direction=c.direction_label, start_label=c.start, name=c.name)
            for c in view.columns
        ],
        rows=rows,
        called_king=view.seats.called_king,
        blank=False,
        plus_totals=list(view.plus_totals),
        minus_totals=list(view.minus_totals),
        bilans=list(view.bilans),
        penalties=list(view.penalties) if view.has_penalties else None,
        finals=list(view.final) if view.has_penalties else None,
        notes=notes,
        status_label=printed_status(sheet, view),
    )


def printed_status(sheet: ScoreSheet, view: SheetView) -> str:
    """The stored status says "En cours" until validation; a sheet holding all its deals is
    complete whoever typed them."""
    if sheet.status == ScoreSheet.Status.IN_PROGRESS and sheet_is_full(view):
        return str(ScoreSheet.Status.COMPLETE.label)
    return str(sheet.get_status_display())


def detail_cells(detail: DealDetail | None) -> dict[str, str]:
    """The detail columns of a deal's row, as the desk reads the deal (nothing when passed)."""
    if detail is None:
        return {}
    unknown = "—"  # typed from the FFT sheet: the paper gave no bouts, points nor bonuses
    return {
        "taker": detail.taker,
        # Alone: "roi au chien" or "appelé soi-même", "seul" when the reason was not recorded.
        "partner": detail.partner or ((detail.alone_words or _("seul")) if detail.alone else ""),
        "oudlers": unknown if detail.figure_only else detail.oudlers,
        "points": unknown if detail.figure_only else detail.points,
        "poignees": ", ".join(detail.poignees),
        "petit_au_bout": detail.petit_au_bout,
        "chelem": detail.chelem,
    }


def incident_notes(view: SheetView) -> list[str]:
    notes = []
    for incident in view.incidents:
        who = incident.registration.player.full_name if incident.registration else ""
        text = f"{incident.get_kind_display()}"
        if incident.deal_number:
            text += " " + _("(donne %(number)s)") % {"number": incident.deal_number}
        if who:
            text += f" — {who}"
        if incident.decision:
            text += f" : {incident.decision}"
        if incident.penalty_points:
            text += " — " + _("pénalité de %(points)s points%(shared)s") % {
                "points": incident.penalty_points,
                "shared": _(", répartie entre les autres joueurs") if incident.shared else "",
            }
        notes.append(text)
    return notes


def sheets_pdf(
    sheets: Iterable[ScoreSheet], *, tournament: Tournament, title: str, base_url: str | None
) -> bytes:
    pages = [completed_sheet_page(sheet) for sheet in sheets]
    return render_pdf(
        TEMPLATE,
        {
            "tournament": tournament,
            "pages": pages,
            "row_heights": row_heights(pages),
            "orientation": "landscape",
            "document_title": title,
            "empty_message": _("Aucune feuille de marque saisie."),
        },
        base_url,
    )


def position_sheets_pdf(position: Position, *, base_url: str | None = None) -> bytes:
    """Every sheet entered at a position, in table order."""
    sheets = ScoreSheet.objects.filter(table__position=position).select_related(
        "tournament", "table__position"
    )
    title = _("Feuilles de marque — position %(number)s") % {"number": position.number}
    return sheets_pdf(
        sheets.order_by("table__number"),
        tournament=position.tournament,
        title=title,
        base_url=base_url,
    )


def sheet_pdf(sheet: ScoreSheet, *, base_url: str | None = None) -> bytes:
    return sheets_pdf([sheet], tournament=sheet.tournament, title=str(sheet), base_url=base_url)
