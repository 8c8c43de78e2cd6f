"""django-tables2 table of the desk's tournaments."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament


class TournamentTable(tables.Table):
    name = tables.LinkColumn("tournament-detail", args=[tables.A("pk")], verbose_name=_("nom"))
    date = tables.DateColumn(format="d/m/Y", verbose_name=_("date"))
    players = tables.Column(verbose_name=_("joueurs"), empty_values=(), orderable=False)

    class Meta:
        model = Tournament
        fields = ["name", "date", "club", "venue", "format", "status"]
        sequence = ["name", "date", "club", "venue", "format", "players", "status"]
        template_name = "django_tables2/table.html"
        attrs = {"class": "list"}
        empty_text = _("Aucun tournoi pour le moment.")

    def render_players(self, record: Tournament) -> int:
        return record.registrations.count()
