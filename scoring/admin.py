"""Django admin for sheets, deals, incidents and their history."""

from django.contrib import admin

from scoring.models import Deal, DealScore, Incident, ScoreSheet, SheetPlayer


class SheetPlayerInline(admin.TabularInline):
    model = SheetPlayer
    extra = 0


class DealInline(admin.TabularInline):
    model = Deal
    extra = 0
    fields = ["number", "taker", "contract", "oudlers", "points", "scores", "adjusted"]
    readonly_fields = ["scores"]


@admin.register(ScoreSheet)
class ScoreSheetAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "status", "version", "updated_at"]
    list_filter = ["tournament", "status"]
    inlines = [SheetPlayerInline, DealInline]


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["__str__", "sheet", "taker", "contract", "oudlers", "points", "adjusted"]
    list_filter = ["sheet__tournament", "contract", "adjusted"]


@admin.register(DealScore)
class DealScoreAdmin(admin.ModelAdmin):
    list_display = ["deal", "registration", "seat", "points"]


@admin.register(Incident)
class IncidentAdmin(admin.ModelAdmin):
    list_display = ["kind", "registration", "tournament", "penalty_points", "created_at"]
    list_filter = ["tournament", "kind"]
