"""A digest of the database's rows, so that a property test re-runs its costly checks only
after a step that changed something (the site keeps no state outside the database:
tests/project/test_shared_state.py; equal rows, equal pages)."""

import hashlib

from django.apps import apps


def database_state() -> str:
    """A digest of every row of both apps, the many-to-many tables included."""
    digest = hashlib.blake2b()
    for label in ("tournament", "scoring"):
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            digest.update(model._meta.db_table.encode())
            digest.update(repr(list(model.objects.order_by("pk").values_list())).encode())
    return digest.hexdigest()
