"""Django admin for sheets, deals, incidents and their history: to read only. A result changes
through the desk, where the engine scores it, the lock of what is validated, closed or
finished holds, the history records who changed what and the live pages' revision moves (an
edit here did none of it: a deal's scores typed by hand, every live page left on the old
figures)."""

from django.contrib import admin

from scoring.models import Deal, DealScore, Incident, ScoreSheet, SheetPlayer
from tournament.admin import ReadOnlyAdmin, ReadOnlyInline


class SheetPlayerInline(ReadOnlyInline):
    model = SheetPlayer
    extra = 0


class DealInline(ReadOnlyInline):
    model = Deal
    extra = 0
    fields = ["number", "taker", "contract", "oudlers", "points", "scores", "adjusted"]
    readonly_fields = ["scores"]


@admin.register(ScoreSheet)
class ScoreSheetAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "tournament", "status", "version", "updated_at"]
    list_filter = ["tournament", "status"]
    inlines = [SheetPlayerInline, DealInline]


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "sheet", "taker", "contract", "oudlers", "points", "adjusted"]
    list_filter = ["sheet__tournament", "contract", "adjusted"]


@admin.register(DealScore)
class DealScoreAdmin(ReadOnlyAdmin):
    list_display = ["deal", "registration", "seat", "points"]


@admin.register(Incident)
class IncidentAdmin(ReadOnlyAdmin):
    list_display = ["kind", "registration", "tournament", "penalty_points", "created_at"]
    list_filter = ["tournament", "kind"]
