"""Data migrations tested through Django's migration executor: take the test database back to
a state, fill it as an install of that time would be, migrate forward and read the result."""

from collections.abc import Iterator

from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets: list[tuple[str, str]]) -> Apps:
    """Migrate the test database to `targets`; the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def migrated_back(targets: list[tuple[str, str]]) -> Iterator[Apps]:
    """A fixture's body: the database at `targets`, then forward to the latest migrations again
    so that the next test finds the schema it expects."""
    yield migrate(targets)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
