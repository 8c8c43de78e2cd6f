"""django-tables2 table of a position: who sits where."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _


class WhoSitsWhereTable(tables.Table):
    """Alphabetical list of a position: each player, their table and seat."""

    name = tables.Column(verbose_name=_("joueur"), orderable=False)
    number = tables.Column(verbose_name=_("n°"), orderable=False, attrs={"td": {"class": "num"}})
    table = tables.Column(verbose_name=_("table"), orderable=False, attrs={"td": {"class": "num"}})
    seat = tables.Column(verbose_name=_("place"), orderable=False)

    class Meta:
        template_name = "django_tables2/table.html"
        attrs = {"class": "list"}
        empty_text = _("Position non encore générée.")
