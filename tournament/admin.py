"""Django admin for the tournament side, labels in French through the models."""

from django.contrib import admin

from tournament.clubs.services import invitation_send

from .models import (
    ChangeLog,
    Club,
    ClubInvitation,
    ClubMember,
    Player,
    Position,
    Registration,
    Seat,
    Table,
    Team,
    Tournament,
)


class ClubMemberInline(admin.TabularInline):
    """The members, to read or remove: nobody is added here, only invited (issue 36)."""

    model = ClubMember
    extra = 0
    fields = ("user", "role")
    readonly_fields = ("user", "role")

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class ClubInvitationInline(admin.TabularInline):
    """Accounts invited into the club: each joins by accepting on its invitations page."""

    model = ClubInvitation
    extra = 1
    fields = ["user", "role"]
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """Superusers create clubs here (or `create_club`) and invite their first administrator,
    who joins by accepting, as every member does (issue 36)."""

    list_display = ["name", "code", "created_at"]
    search_fields = ["name", "code"]
    inlines = [ClubMemberInline, ClubInvitationInline]

    def save_formset(self, request, form, formset, change) -> None:
        if formset.model is not ClubInvitation:
            return super().save_formset(request, form, formset, change)
        # Through the service: who invited is known and the club's history records it.
        for invitation in formset.save(commit=False):
            invitation_send(
                club=form.instance, account=invitation.user, role=invitation.role, user=request.user
            )
        for gone in formset.deleted_objects:
            gone.delete()
        return None


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ["player", "team"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "host_club", "club", "format", "status", "is_public"]
    list_filter = ["host_club", "status", "format", "is_public"]
    search_fields = ["name", "club", "venue"]
    inlines = [RegistrationInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "licence", "club", "origin_club"]
    search_fields = ["last_name", "first_name", "licence", "club"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament"]
    list_filter = ["tournament"]
    search_fields = ["name"]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["number", "player", "tournament", "team", "status"]
    list_filter = ["tournament", "status"]
    search_fields = ["player__last_name", "player__first_name"]
    autocomplete_fields = ["player", "team"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "position", "game"]
    list_filter = ["position__tournament"]
    inlines = [SeatInline]


@admin.register(Position)
class PositionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "status"]
    list_filter = ["tournament", "status"]


@admin.register(ChangeLog)
class ChangeLogAdmin(admin.ModelAdmin):
    list_display = ["at", "user", "action", "object_type", "object_id", "sheet"]
    list_filter = ["tournament", "action", "object_type"]
    readonly_fields = [f.name for f in ChangeLog._meta.fields]
