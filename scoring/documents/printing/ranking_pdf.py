"""Rankings for the hall and the archive: individual, by team, or one position's results."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.core.ranking import Ranked
from scoring.documents.printing.render import render_pdf
from scoring.live.provisional import mark_provisional
from scoring.live.standings import Standings, standings_for
from scoring.live.waiting import waiting_deals_of
from scoring.qr import qr_svg
from tournament.models import Tournament

TEMPLATE = "print/ranking.html"
KINDS = ("individual", "team", "position")


@dataclass(frozen=True)
class RankingLine:
    rank: int
    tied: bool
    name: str
    number: int | str
    detail: str  # club and team, or the team's members
    positions: list[int | None]  # points per position column; None: did not play it
    penalty: int
    total: int


def ranking_lines(
    standings: Standings, kind: str, position: int | None = None
) -> tuple[list[int], list[RankingLine]]:
    """The position columns and the ranked lines of one kind of ranking."""
    if kind == "position":
        if position is None:
            raise ValueError("a position ranking needs a position number")
        columns = [position]
        ranked: Sequence[Ranked] = standings.by_position(position)
    else:
        columns = list(standings.positions)
        ranked = standings.teams if kind == "team" else standings.players
    lines = []
    for entry in ranked:
        row = entry.row
        points = row.position_points
        if kind == "team":
            number = ""
            detail = ", ".join(member.name for member in row.members)
        else:
            number = row.number
            detail = " · ".join(part for part in (row.club, row.team) if part)
        lines.append(
            RankingLine(
                rank=entry.rank,
                tied=entry.tied,
                name=row.name,
                number=number,
                detail=detail,
                positions=[points.get(n) for n in columns],
                penalty=row.penalty,
                total=row.total,
            )
        )
    return columns, lines


def ranking_title(kind: str, position: int | None) -> str:
    if kind == "position":
        return _("Résultats de la position %(number)s") % {"number": position}
    if kind == "team":
        return _("Classement par équipes")
    return _("Classement individuel")


def ranking_pdf(
    tournament: Tournament,
    kind: str,
    *,
    position: int | None = None,
    qr_url: str,
    base_url: str | None = None,
) -> bytes:
    """The arbiter's ranking (every sheet entered counts, published or not; of its deals, those
    confirmed), stating the deals left out while they wait."""
    if kind not in KINDS:
        raise ValueError(f"unknown ranking kind: {kind!r}")
    standings = mark_provisional(standings_for(tournament))
    waiting = waiting_deals_of(tournament.pk)
    if position is not None:
        waiting = waiting.at(position)
    columns, lines = ranking_lines(standings, kind, position)
    title = ranking_title(kind, position)
    return render_pdf(
        TEMPLATE,
        {
            "tournament": tournament,
            "standings": standings,
            "waiting": waiting,
            "kind": kind,
            "columns": columns,
            "lines": lines,
            "has_penalties": any(line.penalty for line in lines),
            "tie_breaks": [c.label for c in standings.criteria[1:]],
            "qr": qr_svg(qr_url) if qr_url else "",
            "qr_url": qr_url,
            "document_title": title,
        },
        base_url,
    )
