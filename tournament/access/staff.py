"""The people who work on a tournament besides its owner: co-arbiters and scorers."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournament.access import throttle
from tournament.access.audit import change_record
from tournament.models import Tournament, TournamentRole

# An owner names staff by typing an exact username: naming attempts per owner and hour (a
# real owner names a handful of people; someone probing for account names gets this many).
NAMING_ATTEMPTS = 20
NAMING_WINDOW = 3600

# The roles an owner names people to, as the staff page offers them, and the one it proposes.
ROLE_CHOICES = TournamentRole.Role.choices
DEFAULT_ROLE = TournamentRole.Role.SCORER


class TooManyNamings(ValidationError):
    """An owner typed too many usernames within the hour: nothing is looked up."""


def naming_count(user) -> None:
    """Count one naming by exact username (a tournament's staff or a club's members: one
    allowance per account for both pages, so neither adds guesses to the other); past the
    allowance, refuse before anything is looked up. Superusers see every account anyway.
    Counted with one atomic statement, outside any transaction (tournament.access.throttle)."""
    if user is not None and user.is_superuser:
        return
    key = f"staff-naming:{getattr(user, 'pk', None)}"
    if throttle.hit(key, NAMING_WINDOW) > NAMING_ATTEMPTS:
        raise TooManyNamings(
            _("Trop de noms essayés : réessayez dans une heure."), code="throttled"
        )


def staff_add(
    *, tournament: Tournament, username: str, role: str, password: str = "", user=None
) -> TournamentRole:
    """Give an account a role on this tournament (or change the role it has).

    Only a superuser creates accounts (with a password: a club's scorer for the evening, with
    no right anywhere else) and hears why a name is refused. An owner names an existing
    account by its exact username, and whatever the reason a name is refused (no such
    account, an inactive one, an administrator's) the answer is the same sentence, which does
    not repeat the name: the page lists no account and tells nothing about accounts beyond
    what a naming that succeeds shows. Each attempt is counted first, outside the write's
    transaction, so that a refused one stays counted (tournament.access.throttle).
    """
    superuser = bool(user is not None and user.is_superuser)
    naming_count(user)
    return _staff_grant(
        tournament=tournament,
        username=username,
        role=role,
        password=password,
        user=user,
        superuser=superuser,
    )


def account_named(username: str, *, superuser: bool):
    """The active account of exactly `username` that the naming user may name, or None (the
    caller refuses a NUL first: PostgreSQL refuses it in a query). An administrator's account is
    nameable by a superuser only: it gains nothing from a role (it runs everything already), and
    refusing it as if unknown keeps an owner or a club administrator from confirming the
    admins' names. Shared by the tournament staff page and the club members page."""
    account = get_user_model().objects.filter(username=username, is_active=True).first()
    if account is not None and account.is_superuser and not superuser:
        return None
    return account


def _not_nameable() -> ValidationError:
    return ValidationError(
        {
            "username": _(
                "Ce nom d'utilisateur ne peut pas être nommé : vérifiez-le (majuscules "
                "comprises), ou demandez à un administrateur du site de créer le compte."
            )
        }
    )


@transaction.atomic
def _staff_grant(
    *, tournament: Tournament, username: str, role: str, password: str, user, superuser: bool
) -> TournamentRole:
    if role not in TournamentRole.Role.values:
        raise ValidationError({"role": _("Rôle inconnu.")})
    username = (username or "").strip()
    if "\x00" in username:  # typed, not from a form: PostgreSQL refuses NUL in a query
        raise ValidationError({"username": ProhibitNullCharactersValidator.message})
    if password and not superuser:
        raise ValidationError({"password": _("Seul un administrateur du site crée des comptes.")})
    accounts = get_user_model().objects
    account = account_named(username, superuser=superuser)
    if not superuser:
        if account is None:
            raise _not_nameable()
    elif account is None and password and not accounts.filter(username=username).exists():
        account = _new_account(username, password)
    if account is None:
        raise ValidationError(
            {
                "username": _(
                    "Aucun compte actif ne s'appelle « %(name)s » : donnez un mot de passe "
                    "pour le créer."
                )
                % {"name": username}
            }
        )
    if account.pk == tournament.owner_id:  # the owner's name is on the page already
        raise ValidationError(
            {"username": _("%(name)s organise déjà ce tournoi.") % {"name": username}}
        )
    existing = TournamentRole.objects.filter(tournament=tournament, user=account).first()
    before = {"user": username, "role": existing.role} if existing else None
    entry, _created = TournamentRole.objects.update_or_create(
        tournament=tournament, user=account, defaults={"role": role}
    )
    change_record(
        tournament=tournament,
        obj=entry,
        action="update" if existing else "create",
        before=before,
        after={"user": username, "role": role},
        user=user,
    )
    return entry


def staff_copy(*, source: Tournament, into: Tournament, user=None) -> list[TournamentRole]:
    """The roles of `source` (co-arbiters, scorers) given again on `into`, the next session of
    the same event: whoever ran or scored session 1 runs or scores its brackets. Logged."""
    copied = []
    for entry in source.roles.select_related("user").filter(user__is_active=True):
        if entry.user_id == into.owner_id:
            continue
        role, _created = TournamentRole.objects.get_or_create(
            tournament=into, user=entry.user, defaults={"role": entry.role}
        )
        change_record(
            tournament=into,
            obj=role,
            action="create",
            after={"user": entry.user.username, "role": role.role, "from": source.pk},
            user=user,
        )
        copied.append(role)
    return copied


def staff_entry_or_404(tournament_id: int, pk: int) -> TournamentRole:
    """One role on the tournament, with its account and tournament; 404 when there is none."""
    return get_object_or_404(
        TournamentRole.objects.select_related("user", "tournament"),
        pk=pk,
        tournament_id=tournament_id,
    )


@transaction.atomic
def staff_remove(*, entry: TournamentRole, user=None) -> None:
    before = {"user": entry.user.get_username(), "role": entry.role}
    change_record(
        tournament=entry.tournament,
        obj=entry,
        action="delete",
        before=before,
        after=None,
        user=user,
    )
    entry.delete()


def _new_account(username: str, password: str):
    from django.contrib.auth.password_validation import validate_password

    model = get_user_model()
    candidate = model(username=username)
    try:
        candidate.full_clean(exclude=["password"])
    except ValidationError as error:
        raise ValidationError({"username": error.messages}) from None
    try:
        validate_password(password, candidate)
    except ValidationError as error:
        raise ValidationError({"password": error.messages}) from None
    return model.objects.create_user(username=username, password=password)
