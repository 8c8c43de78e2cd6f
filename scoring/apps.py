"""The scoring app: deals, score sheets, penalties, rankings and the pure scoring engine."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("Marque")

    def ready(self) -> None:
        # The championship permissions (django-rules) exist before any request asks them.
        from scoring.season import access as access_championship  # noqa: F401
        from scoring.sheets.entry_progress import sheets_to_enter
        from scoring.sheets.waiting import waiting_at
        from tournament import hooks
        from tournament.models import Position

        # What tournament's writes need from the results, plugged in from above.
        hooks.provide_sheets_to_enter(sheets_to_enter)
        hooks.provide_standings_order(_standings_order)
        hooks.provide_waiting_deals(waiting_at)
        hooks.position_published.connect(_links_for_position, sender=Position)


def _links_for_position(sender, *, position, **kwargs) -> None:
    from scoring.sheets.table_entry import links_for_position

    links_for_position(position)


def _standings_order(tournament) -> list[int]:
    """Registration ids, best first, in the current standings (a final seated by rank): an
    event's later session is seated on the cumulative ranking, carry-over included."""
    from scoring.events.standings import standings_order

    return standings_order(tournament)
