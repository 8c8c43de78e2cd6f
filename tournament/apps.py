"""The tournament app: tournaments, players, teams, positions, tables and seating."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournament"
    verbose_name = _("Tournois")

    def ready(self) -> None:
        from tournament import converters
        from tournament.access import audit
        from tournament.players import checks, folding

        audit.connect()  # a tournament's or event's save moves its live revision

        converters.register()  # <id:…> in every URL: ids past what a column holds are 404
        checks.connect()  # licences compared with other clubs' rosters after the response
        folding.connect()  # accent-blind search: SQLite learns the fold function
