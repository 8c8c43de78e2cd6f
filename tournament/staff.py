"""The people who work on a tournament besides its owner: co-arbiters and scorers."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import transaction
from django.utils.translation import gettext as _

from .audit import change_record
from .models import Tournament, TournamentRole


@transaction.atomic
def staff_add(
    *, tournament: Tournament, username: str, role: str, password: str = "", user=None
) -> TournamentRole:
    """Give an account a role on this tournament (or change the role it has).

    With a password, an account that doesn't exist yet is created (a club's scorer for the
    evening): it has no right anywhere else.
    """
    if role not in TournamentRole.Role.values:
        raise ValidationError({"role": _("Rôle inconnu.")})
    username = (username or "").strip()
    if "\x00" in username:  # typed, not from a form: PostgreSQL refuses NUL in a query
        raise ValidationError({"username": ProhibitNullCharactersValidator.message})
    accounts = get_user_model().objects
    account = accounts.filter(username=username, is_active=True).first()
    if account is None and password and not accounts.filter(username=username).exists():
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
    if account.pk == tournament.owner_id:
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
