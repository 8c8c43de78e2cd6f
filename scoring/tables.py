"""django-tables2 tables of the rankings (arbiter and public pages share them)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from scoring.ranking import Ranked

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}


class SignedColumn(tables.Column):
    """A number shown with its sign, coloured as on the paper sheet."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", NUM)
        super().__init__(*args, **kwargs)

    def render(self, value):
        return f"{value:+d}" if value else "0"


class RankingTable(tables.Table):
    """Individual ranking: rank, player (opens the player's page), positions, penalties, total."""

    rank = tables.Column(verbose_name=_("Rg"), attrs=NUM)
    number = tables.Column(verbose_name=_("N°"), attrs=NUM)
    name = tables.Column(
        verbose_name=_("Joueur"),
        linkify=lambda record: record["url"],
        attrs={"td": {"class": "name"}},
    )
    club = tables.Column(verbose_name=_("Club"))
    team = tables.Column(verbose_name=_("Équipe"))
    deal_points = SignedColumn(verbose_name=_("Donnes"))
    penalty = SignedColumn(verbose_name=_("Pénalités"))
    total = SignedColumn(
        verbose_name=_("Total"), attrs={"th": {"class": "num"}, "td": {"class": "num total"}}
    )

    class Meta:
        attrs = {"class": "ranking"}
        orderable = True
        order_by = ("rank",)
        empty_text = _("Aucun résultat pour le moment.")
        template_name = "django_tables2/table.html"
        sequence = (
            "rank",
            "number",
            "name",
            "club",
            "team",
            "...",
            "deal_points",
            "penalty",
            "total",
        )


class GroupRankingTable(tables.Table):
    """Team or club ranking: the sum of the members."""

    rank = tables.Column(verbose_name=_("Rg"), attrs=NUM)
    name = tables.Column(verbose_name=_("Nom"))
    members = tables.Column(verbose_name=_("Joueurs"), orderable=False)
    deal_points = SignedColumn(verbose_name=_("Donnes"))
    penalty = SignedColumn(verbose_name=_("Pénalités"))
    total = SignedColumn(verbose_name=_("Total"))

    class Meta:
        attrs = {"class": "ranking"}
        order_by = ("rank",)
        empty_text = _("Aucun résultat pour le moment.")
        template_name = "django_tables2/table.html"


def player_records(
    ranked: Iterable[Ranked], url: Callable[[Any], str], positions: Sequence[int] = ()
) -> list[dict[str, Any]]:
    """The rows of a RankingTable: plain dicts, sortable by any column."""
    records = []
    for item in ranked:
        row = item.row
        record = {
            "rank": item.rank,
            "number": row.number,
            "name": row.name,
            "club": row.club,
            "team": row.team,
            "deal_points": row.deal_points,
            "penalty": row.penalty,
            "total": row.total,
            "url": url(row.key),
        }
        points = row.position_points
        for number in positions:
            record[f"p{number}"] = points.get(number, 0)
        records.append(record)
    return records


def group_records(ranked: Iterable[Ranked]) -> list[dict[str, Any]]:
    return [
        {
            "rank": item.rank,
            "name": item.row.name,
            "members": ", ".join(m.name for m in item.row.members),
            "deal_points": item.row.deal_points,
            "penalty": item.row.penalty,
            "total": item.row.total,
        }
        for item in ranked
    ]


def ranking_table(
    records: list[dict[str, Any]],
    *,
    positions: Sequence[int] = (),
    show_team: bool = False,
    show_club: bool = True,
) -> RankingTable:
    """A RankingTable with one column per position and the optional columns dropped."""
    extra = [
        (f"p{number}", SignedColumn(verbose_name=_("P%(number)s") % {"number": number}))
        for number in positions
    ]
    exclude = []
    if not show_team:
        exclude.append("team")
    if not show_club:
        exclude.append("club")
    return RankingTable(records, extra_columns=extra, exclude=exclude)
