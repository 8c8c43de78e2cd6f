"""django-tables2 tables of the rankings (arbiter and public pages share them)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

import django_tables2 as tables
from django.utils.functional import Promise
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django_tables2.data import TableData, TableListData

from scoring.core.ranking import Ranked

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


class SignedColumn(tables.Column):
    """A number shown with its sign; sorts on the number.

    Records carry the text ready in `<name>_text`: a render method would cost a signature
    inspection per cell, which shows on a ranking of 800 players.
    """

    def __init__(self, name: str, *args, **kwargs):
        kwargs.setdefault("attrs", NUM)
        kwargs.setdefault("accessor", f"{name}_text")
        kwargs.setdefault("order_by", (name,))
        super().__init__(*args, **kwargs)


class FastBodyMixin:
    """Renders the body straight from the (sorted) records.

    django-tables2 inspects a render method's signature for every cell; on a ranking of 800
    players that is most of the page's time. Headers, sorting and columns stay django-tables2's.
    """

    # Given by the django-tables2 Table this is mixed into (the library ships no types).
    columns: Any
    data: Any
    empty_text: str | None

    @property
    def body_html(self) -> str:
        columns = [
            (column.accessor, column.attrs.get("td", {}).get("class") or "")
            for column in self.columns
        ]
        # A paginated table shows its page only (the public standings); else every record.
        records = (
            (row.record for row in self.page.object_list) if hasattr(self, "page") else self.data
        )
        rows = []
        for record in records:
            cells = format_html_join(
                "",
                '<td class="{}">{}</td>',
                ((css, _cell(record, accessor)) for accessor, css in columns),
            )
            rows.append(format_html("<tr>{}</tr>", cells))
        if not rows:
            return format_html(
                '<tr><td colspan="{}">{}</td></tr>', len(columns), self.empty_text or ""
            )
        return mark_safe("".join(rows))  # noqa: S308 - every piece is format_html output


def _cell(record: dict[str, Any], accessor) -> Any:
    value = record.get(str(accessor), "")
    return "" if value is None else value


class _TotalsTable(FastBodyMixin, tables.Table):
    """What every ranking ends with: the deal points, the penalties and the total."""

    deal_points = SignedColumn("deal_points", verbose_name=_("Donnes"))
    penalty = SignedColumn("penalty", verbose_name=_("Pénalités"))
    total = SignedColumn(
        "total",
        verbose_name=_("Total"),
        attrs={"th": {"class": "num total"}, "td": {"class": "num total"}},
    )

    class Meta:
        attrs = {"class": "ranking"}
        orderable = True
        order_by = ("rank",)
        empty_text = _("Aucun résultat pour le moment.")
        template_name = "scoring/_fast_table.html"


class RankingTable(_TotalsTable):
    """Individual ranking: rank, player (opens the player's page), positions, penalties, total."""

    rank = tables.Column(verbose_name=_("Rang"), attrs=NUM)
    number = tables.Column(verbose_name=_("N°"), attrs=NUM)
    name = tables.Column(
        verbose_name=_("Joueur"),
        accessor="name_html",
        order_by=("name",),
        attrs={"th": {"class": "name"}, "td": {"class": "name"}},
    )
    club = tables.Column(verbose_name=_("Club"))
    team = tables.Column(verbose_name=_("Équipe"))

    class Meta(_TotalsTable.Meta):
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


class GroupRankingTable(_TotalsTable):
    """Team or club ranking: the sum of the members."""

    rank = tables.Column(verbose_name=_("Rang"), attrs=NUM)
    name = tables.Column(
        verbose_name=_("Nom"), attrs={"th": {"class": "name"}, "td": {"class": "name"}}
    )
    members = tables.Column(verbose_name=_("Joueurs"), orderable=False)

    class Meta(_TotalsTable.Meta):
        sequence = ("rank", "name", "members", "deal_points", "penalty", "total")


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
            "name_html": format_html('<a href="{}">{}</a>', url(row.key), row.name),
            "club": row.club,
            "team": row.team,
        }
        _signed(record, "deal_points", row.deal_points)
        _signed(record, "penalty", row.penalty)
        _signed(record, "total", row.total)
        points = row.position_points
        for number in positions:
            _signed(record, f"p{number}", points.get(number, 0))
        records.append(record)
    return records


class RankedRecords(TableData):
    """A ranking's records, built on demand: a page of the public standings builds its own rows
    only (the shared ranking decodes no other), unless the visitor sorts on another column."""

    def __init__(
        self,
        ranked: Sequence[Ranked],
        build: Callable[[Iterable[Ranked]], list[dict[str, Any]]],
    ) -> None:
        super().__init__(ranked)
        self.build = build
        self.records: TableListData | None = None

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, key: int | slice) -> Any:
        if self.records is not None:
            return self.records.data[key]
        if isinstance(key, slice):
            return self.build(self.data[key])
        return self.build([self.data[key]])[0]

    def __iter__(self) -> Any:
        return iter(self._all().data)

    def order_by(self, aliases: Any) -> None:
        # The rows come ranked (ties by name): sorting by rank keeps them as they are.
        if [str(alias) for alias in aliases] in ([], ["rank"]):
            return
        self._all().order_by(aliases)

    def _all(self) -> TableListData:
        if self.records is None:
            self.records = TableListData(self.build(self.data))
            self.records.set_table(self.table)
        return self.records


def _signed(record: dict[str, Any], key: str, value: int) -> None:
    record[key] = value
    record[f"{key}_text"] = signed(value)


def group_records(ranked: Iterable[Ranked], *, names: bool = True) -> list[dict[str, Any]]:
    """Team rows list their members; club rows (often dozens of players) count them."""
    records = []
    for item in ranked:
        members = item.row.members
        record = {
            "rank": item.rank,
            "name": item.row.name,
            "members": ", ".join(m.name for m in members) if names else len(members),
        }
        _signed(record, "deal_points", item.row.deal_points)
        _signed(record, "penalty", item.row.penalty)
        _signed(record, "total", item.row.total)
        records.append(record)
    return records


def _position_label(number: int, partial: bool = False) -> str | Promise:
    if number == 0:
        return _("Libres")
    if partial:
        return _("P%(number)s (en cours)") % {"number": number}
    return _("P%(number)s") % {"number": number}


def ranking_table(
    records: list[dict[str, Any]],
    *,
    positions: Sequence[int] = (),
    partial: Collection[int] = (),
    show_team: bool = False,
    show_club: bool = True,
) -> RankingTable:
    """A RankingTable with one column per position (a partial one's heading says it is still
    being played) and the optional columns dropped."""
    extra = [
        (
            f"p{number}",
            SignedColumn(
                f"p{number}",
                verbose_name=_position_label(number, number in partial),
            ),
        )
        for number in positions
    ]
    exclude = []
    if not show_team:
        exclude.append("team")
    if not show_club:
        exclude.append("club")
    return RankingTable(records, extra_columns=extra, exclude=exclude)
