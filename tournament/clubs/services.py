"""Writes on clubs: a superuser creates a club and invites its first administrator; a club's
administrator invites accounts (each becomes a member only by accepting: issue 36), changes a
member's role and removes members. Every change is recorded in the club's history."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.access.audit import change_record
from tournament.access.staff import account_named, naming_count
from tournament.models import Club, ClubInvitation, ClubMember, Event, Player, Tournament


@transaction.atomic
def club_create(*, name: str, code: str = "", admin, user=None, admin_is_new: bool = False) -> Club:
    """A new club (a superuser's act) and its first administrator, who joins by consent like
    any member (issue 36): at once when `admin` is the acting account itself (a superuser's
    own club, the laptop's arbiter) or an account made for this club just now
    (`admin_is_new`: `create_club --password`, nobody's tournaments yet); any other existing
    account is invited and administers the club once it accepts (invitation_answer)."""
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": _("Donnez le nom du club.")})
    club = Club(name=name, code=(code or "").strip() or None)
    club.full_clean()
    club.save()
    change_record(
        tournament=None,
        club=club,
        obj=club,
        action="create",
        after={"name": club.name, "code": club.code},
        user=user,
    )
    if admin_is_new or (user is not None and user.pk == admin.pk):
        member_set(club=club, account=admin, role=ClubMember.Role.ADMIN, user=user)
    else:
        invitation_send(club=club, account=admin, role=ClubMember.Role.ADMIN, user=user)
    return club


@transaction.atomic
def club_identity_set(*, club: Club, name: str, code: str, user) -> Club:
    """The club's name and FFT number, as its administrator types them (a laptop's club named
    exactly as on the comité's server: the server checks a sent tournament's club by them).
    Recorded in the club's history, before and after."""
    name, code = " ".join((name or "").split()), (code or "").strip()
    if not name:
        raise ValidationError({"name": _("Nom du club : indiquez-le.")})
    if Club.objects.filter(name__iexact=name).exclude(pk=club.pk).exists():
        raise ValidationError({"name": _("Nom du club : un autre club porte déjà ce nom.")})
    if code and Club.objects.filter(code__iexact=code).exclude(pk=club.pk).exists():
        raise ValidationError({"code": _("Numéro de club FFT : un autre club a déjà ce numéro.")})
    before = {"name": club.name, "code": club.code}
    club.name, club.code = name, code or None
    club.full_clean()
    club.save()
    after = {"name": club.name, "code": club.code}
    if after != before:
        change_record(
            tournament=None,
            club=club,
            obj=club,
            action="update",
            before=before,
            after=after,
            user=user,
        )
    return club


@transaction.atomic
def club_adopt(*, club: Club) -> int:
    """The tournaments, events and roster entries that belong to no club become `club`'s (a
    laptop's one club and the demo loaded into it); how many rows changed."""
    return (
        Tournament.objects.filter(host_club=None).update(host_club=club)
        + Event.objects.filter(host_club=None).update(host_club=club)
        + Player.objects.filter(origin_club=None).update(origin_club=club)
    )


@transaction.atomic
def member_set(*, club: Club, account, role: str, user=None) -> ClubMember:
    """Give an account a role in the club (or change the one it has)."""
    if role not in ClubMember.Role.values:
        raise ValidationError({"role": _("Rôle inconnu.")})
    existing = ClubMember.objects.filter(club=club, user=account).first()
    entry, _created = ClubMember.objects.update_or_create(
        club=club, user=account, defaults={"role": role}
    )
    change_record(
        tournament=None,
        club=club,
        obj=entry,
        action="update" if existing else "create",
        before={"user": account.get_username(), "role": existing.role} if existing else None,
        after={"user": account.get_username(), "role": role},
        user=user,
    )
    return entry


def member_name(*, club: Club, username: str, role: str, user=None) -> ClubMember | ClubInvitation:
    """An administrator names an existing active account, by its exact username, to the club:
    a member's role changes; anybody else is invited, and joins only by accepting
    (invitation_answer), so that nobody's tournaments change club without their consent.
    Each attempt is counted first, against the allowance the tournament staff page uses
    (`TooManyNamings` past it): an administrator cannot probe for account names here."""
    naming_count(user)
    username = (username or "").strip()
    # Checked before the look-up: PostgreSQL refuses a NUL in a query (a 500, not a refusal).
    superuser = bool(getattr(user, "is_superuser", False))
    account = None if "\x00" in username else account_named(username, superuser=superuser)
    if account is None:
        raise ValidationError(
            {"username": _("Aucun compte actif ne porte ce nom d'utilisateur : vérifiez-le.")}
        )
    if role not in ClubMember.Role.values:
        raise ValidationError({"role": _("Rôle inconnu.")})
    if ClubMember.objects.filter(club=club, user=account).exists():
        return member_set(club=club, account=account, role=role, user=user)
    return invitation_send(club=club, account=account, role=role, user=user)


@transaction.atomic
def invitation_send(*, club: Club, account, role: str, user=None) -> ClubInvitation:
    """Invite `account` into the club with `role` (again: the role is updated)."""
    invitation, created = ClubInvitation.objects.update_or_create(
        club=club, user=account, defaults={"role": role, "invited_by": user}
    )
    change_record(
        tournament=None,
        club=club,
        obj=invitation,
        action="create" if created else "update",
        after={"user": account.get_username(), "role": role},
        user=user,
    )
    return invitation


@transaction.atomic
def invitation_answer(*, invitation: ClubInvitation, user, accept: bool) -> ClubMember | None:
    """The invited account accepts (it becomes a member with the role offered) or declines;
    the invitation is gone either way. Nobody else answers for it."""
    invitation = (
        ClubInvitation.objects.select_for_update().select_related("club").get(pk=invitation.pk)
    )
    if invitation.user_id != getattr(user, "pk", None):
        raise ValidationError(_("Seul le compte invité peut répondre à cette invitation."))
    change_record(
        tournament=None,
        club=invitation.club,
        obj=invitation,
        action="delete",
        before={"user": user.get_username(), "role": invitation.role},
        after={"accepted": accept},
        user=user,
    )
    invitation.delete()
    if not accept:
        return None
    return member_set(club=invitation.club, account=user, role=invitation.role, user=user)


@transaction.atomic
def member_remove(*, entry: ClubMember, user=None) -> None:
    """An account leaves the club; the club keeps at least one administrator."""
    if (
        entry.role == ClubMember.Role.ADMIN
        and not ClubMember.objects.filter(club=entry.club_id, role=entry.role)
        .exclude(pk=entry.pk)
        .exists()
    ):
        raise ValidationError(_("Le club doit garder au moins un administrateur."))
    change_record(
        tournament=None,
        club=entry.club,
        obj=entry,
        action="delete",
        before={"user": entry.user.get_username(), "role": entry.role},
        user=user,
    )
    entry.delete()
