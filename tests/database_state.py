"""A digest of the database's rows, so that a property test re-runs its costly checks only
after a step that changed something (the site keeps no state outside the database:
tests/project/test_shared_state.py; equal rows, equal pages)."""

import hashlib

from django.apps import apps
from django.db import connection


def _tables() -> list[tuple[str, str]]:
    """(table, primary key column) of every model of both apps, many-to-many tables included."""
    return [
        (model._meta.db_table, model._meta.pk.column)
        for label in ("tournament", "scoring")
        for model in apps.get_app_config(label).get_models(include_auto_created=True)
    ]


def database_state() -> str:
    """A digest of every row of both apps, the many-to-many tables included.

    Read through one cursor with plain SELECTs: every column of every row, in primary-key
    order, as the driver returns it (the ORM's query building per model was most of the cost
    of a digest taken after each step of a state machine)."""
    digest = hashlib.blake2b()
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for table, pk in _tables():
            cursor.execute(f"SELECT * FROM {quote(table)} ORDER BY {quote(pk)}")  # noqa: S608
            digest.update(table.encode())
            digest.update(repr(cursor.fetchall()).encode())
    return digest.hexdigest()
