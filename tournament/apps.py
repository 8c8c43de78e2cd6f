"""The tournament app: tournaments, players, teams, positions, tables and seating."""

from typing import Any

from django.apps import AppConfig
from django.core.management import call_command
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def create_cache_table(using: str = "default", **kwargs: Any) -> None:
    """The cache lives in the database (the throttles' shared counts): its table follows every
    migrate, so `make run`, a deployment and the benchmarks' scratch databases all have it."""
    call_command("createcachetable", database=using, verbosity=0)


class TournamentConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournament"
    verbose_name = _("Tournois")

    def ready(self) -> None:
        from . import converters, folding

        converters.register()  # <id:…> in every URL: ids past what a column holds are 404
        folding.connect()  # accent-blind search: SQLite learns the fold function
        post_migrate.connect(create_cache_table, sender=self)
