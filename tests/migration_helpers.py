"""Data migrations tested through Django's migration executor: take the test database back to
a state, fill it as an install of that time would be, migrate forward and read the result.

Going back unapplies every later migration of the apps (and forward again applies them all):
the slow part. A module does it once (`schema_before`, a module fixture), and each of its tests
only steps forward through the migrations under test and back again (`step_back_after`)."""

from collections.abc import Iterator

import pytest
from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets: list[tuple[str, str]]) -> Apps:
    """Migrate the test database to `targets`; the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def migrate_to_latest() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def migrated_back(targets: list[tuple[str, str]]) -> Iterator[Apps]:
    """A fixture's body: the database at `targets`, then forward to the latest migrations again
    so that the next test finds the schema it expects."""
    yield migrate(targets)
    migrate_to_latest()


def schema_before(targets: list[tuple[str, str]]):
    """A module fixture: the test database at `targets` for the module's tests (once), the
    latest schema again after them. Its value is the models as they were at `targets`."""

    @pytest.fixture(scope="module")
    def fixture(django_db_setup, django_db_blocker) -> Iterator[Apps]:
        with django_db_blocker.unblock():
            yield from migrated_back(targets)

    return fixture


def step_back_after(targets: list[tuple[str, str]], apps: Apps) -> Iterator[Apps]:
    """A test's fixture body, under `schema_before(targets)`: the models at `targets`, and the
    database back at `targets` after the test (the migrations it applied unapplied, usually
    one; its rows go with the transactional test's flush)."""
    yield apps
    migrate(targets)
