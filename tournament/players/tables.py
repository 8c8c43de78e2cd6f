"""django-tables2 tables of a tournament's players: the list and a player's itinerary."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournament.models import Registration


class RegistrationTable(tables.Table):
    number = tables.Column(verbose_name=_("n°"), attrs={"td": {"class": "num"}})
    name = tables.Column(
        verbose_name=_("joueur"),
        accessor="player__last_name",
        order_by=("player__last_name", "player__first_name"),
    )
    licence = tables.Column(verbose_name=_("licence"), accessor="player__licence")
    club = tables.Column(verbose_name=_("club"), accessor="player__club")
    team = tables.Column(verbose_name=_("équipe"), accessor="team__name", default="")
    start = tables.Column(verbose_name=_("départ"), empty_values=(), orderable=False)
    status = tables.Column(verbose_name=_("état"), empty_values=())
    actions = tables.TemplateColumn(
        template_name="tournament/_registration_actions.html",
        verbose_name="",
        orderable=False,
        empty_values=(),
    )

    class Meta:
        model = Registration
        fields: list[str] = []
        sequence = ["number", "name", "licence", "club", "team", "start", "status", "actions"]
        template_name = "django_tables2/table.html"
        attrs = {"class": "list"}
        empty_text = _("Aucun joueur inscrit.")
        order_by = "number"

    def __init__(self, *args, can_edit: bool = False, start_labels=None, **kwargs):
        if not can_edit:
            kwargs.setdefault("exclude", ("actions",))
        # Registration pk → "3 N", computed once for the whole list.
        self.start_labels = start_labels or {}
        super().__init__(*args, **kwargs)

    def render_start(self, record: Registration) -> str:
        return self.start_labels.get(record.pk, "—")

    def render_name(self, record: Registration) -> str:
        return format_html(
            '<a href="{}">{}</a>',
            _itinerary_url(record),
            record.player.full_name,
        )

    def render_status(self, record: Registration) -> str:
        if record.status == Registration.Status.WITHDRAWN:
            if not record.withdrawn_after:
                return format_html('<span class="badge err">{}</span>', _("Forfait"))
            return format_html(
                '<span class="badge err">{}</span>',
                _("Forfait après la position %(n)s") % {"n": record.withdrawn_after},
            )
        if record.status == Registration.Status.EXPECTED:  # signed up online, not yet here
            return format_html('<span class="badge warn">{}</span>', record.get_status_display())
        if record.first_position > 1:
            return format_html(
                '<span class="badge warn">{}</span>',
                _("Arrivé à la position %(n)s") % {"n": record.first_position},
            )
        return format_html('<span class="badge ok">{}</span>', record.get_status_display())


def _itinerary_url(record: Registration) -> str:
    from django.urls import reverse

    return reverse("player-itinerary", args=[record.tournament_id, record.pk])


class ItineraryTable(tables.Table):
    """One player's table and seat at every position."""

    position = tables.Column(verbose_name=_("position"), orderable=False)
    status = tables.Column(verbose_name=_("état"), orderable=False)
    table = tables.Column(verbose_name=_("table"), orderable=False)
    seat = tables.Column(verbose_name=_("place"), orderable=False)
    opponents = tables.Column(verbose_name=_("adversaires"), orderable=False)

    class Meta:
        template_name = "django_tables2/table.html"
        attrs = {"class": "list"}
