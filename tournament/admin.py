"""Django admin for the tournament side, labels in French through the models.

A tournament's content (registrations, teams, positions, tables, seats; sheets and deals in
scoring.admin) is to read only here: it changes through the desk, which keeps the locks, the
history and the live pages' revision. What stays editable moves the revision of every
tournament it shows in (a tournament's own save does, by its signal)."""

from django.contrib import admin

from tournament.clubs.services import invitation_send
from tournament.models.audit import revisions_bump

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


class ReadOnly:
    """To read: nothing added, changed or deleted through the admin (a page or an inline)."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    pass


class ReadOnlyInline(ReadOnly, admin.TabularInline):
    extra = 0


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


class RegistrationInline(ReadOnlyInline):
    model = Registration
    autocomplete_fields = ["player", "team"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "host_club", "club", "format", "status", "is_public"]
    list_filter = ["host_club", "status", "format", "is_public"]
    search_fields = ["name", "club", "venue"]
    # Finishing and reopening go through the desk (logged, checked for waiting deals).
    readonly_fields = ["status"]
    inlines = [RegistrationInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "licence", "club", "origin_club"]
    search_fields = ["last_name", "first_name", "licence", "club"]

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        # A name or a club shows on the live pages of every tournament the player is in.
        revisions_bump(
            Registration.objects.filter(player=obj).values_list("tournament_id", flat=True)
        )


@admin.register(Team)
class TeamAdmin(ReadOnlyAdmin):
    list_display = ["name", "tournament"]
    list_filter = ["tournament"]
    search_fields = ["name"]


@admin.register(Registration)
class RegistrationAdmin(ReadOnlyAdmin):
    list_display = ["number", "player", "tournament", "team", "status"]
    list_filter = ["tournament", "status"]
    search_fields = ["player__last_name", "player__first_name"]
    autocomplete_fields = ["player", "team"]


class SeatInline(ReadOnlyInline):
    model = Seat


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "position", "game"]
    list_filter = ["position__tournament"]
    inlines = [SeatInline]


@admin.register(Position)
class PositionAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "tournament", "status"]
    list_filter = ["tournament", "status"]


@admin.register(ChangeLog)
class ChangeLogAdmin(admin.ModelAdmin):
    list_display = ["at", "user", "action", "object_type", "object_id", "sheet"]
    list_filter = ["tournament", "action", "object_type"]
    readonly_fields = [f.name for f in ChangeLog._meta.fields]
