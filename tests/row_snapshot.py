"""Rows read cheaply, to tell whether a request changed them: each queryset's SQL is compiled
once, then run as it is and fetched as plain tuples (no model instances, no serialiser).

Every concrete column of every row is read (the primary key first), in primary-key order, and
each many-to-many field's (row, related row) pairs: what a JSON dump of the same rows holds."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import QuerySet


def _compiled(rows: QuerySet) -> tuple[str, tuple] | None:
    try:
        return rows.query.get_compiler(using=rows.db).as_sql()
    except EmptyResultSet:  # .none(): nothing to read, ever
        return None


class RowSnapshot:
    """`snapshot()` is every row of `querysets` now, as lists of tuples, comparable with ==."""

    def __init__(self, querysets: Iterable[QuerySet]):
        self.statements: list[tuple[str, str, str, tuple]] = []
        for rows in querysets:
            model = rows.model
            columns = [field.attname for field in model._meta.concrete_fields]
            plain = rows.order_by("pk").values_list(*columns).distinct()
            self._add(model.__name__, plain)
            for m2m in model._meta.many_to_many:
                pairs = rows.order_by("pk", f"{m2m.name}__pk").values_list("pk", f"{m2m.name}__pk")
                self._add(f"{model.__name__}.{m2m.name}", pairs.distinct())

    def _add(self, label: str, rows: QuerySet) -> None:
        compiled = _compiled(rows)
        if compiled is not None:
            self.statements.append((label, rows.db, *compiled))

    def __call__(self) -> list[tuple[str, list[tuple]]]:
        taken = []
        for label, alias, sql, params in self.statements:
            with connections[alias].cursor() as cursor:
                cursor.execute(sql, params)
                taken.append((label, cursor.fetchall()))
        return taken
