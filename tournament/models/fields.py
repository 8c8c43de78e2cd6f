"""The relations and choices both apps' models declare again and again, each kind written once.

Declared through these, a field is the same Django field as written out (migrations see no
change); the return annotations give django-stubs the attribute's type the plugin would infer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from collections.abc import Callable

    # settings.AUTH_USER_MODEL, as django-stubs resolves it for the fields written out.
    from django.contrib.auth.models import User
    from django.db.models.expressions import Combinable
    from django_stubs_ext import StrOrPromise

    from .tournaments import Tournament

    OnDelete = Callable[..., None]

_M = TypeVar("_M", bound=models.Model)


def tournament_part(related_name: str) -> models.ForeignKey[Tournament, Tournament]:
    """The tournament a row belongs to: deleting the tournament deletes the row."""
    return models.ForeignKey(
        "tournament.Tournament",
        verbose_name=_("tournoi"),
        on_delete=models.CASCADE,
        related_name=related_name,
    )


def optional_link(
    to: type[_M], verbose_name: StrOrPromise, *, on_delete: OnDelete, related_name: str = "+"
) -> models.ForeignKey[_M | None, _M | None]:
    """A relation a row may lack: empty in the database (null) and in forms (blank)."""
    return _nullable(to, verbose_name, on_delete, related_name)


def account_link(
    verbose_name: StrOrPromise, *, related_name: str = "+"
) -> models.ForeignKey[User | None, User | None]:
    """The account that did something: the row outlives the account (SET_NULL)."""
    return _nullable(settings.AUTH_USER_MODEL, verbose_name, models.SET_NULL, related_name)


def _nullable(
    to: type[models.Model] | str, verbose_name: StrOrPromise, on_delete: OnDelete, related_name: str
) -> models.ForeignKey[Any, Any]:
    return models.ForeignKey(
        to,
        verbose_name=verbose_name,
        null=True,
        blank=True,
        on_delete=on_delete,
        related_name=related_name,
    )


def choice_field(
    verbose_name: StrOrPromise,
    default: models.TextChoices,
    *,
    max_length: int = 10,
    help_text: StrOrPromise = "",
) -> models.CharField[str | int | Combinable, str]:
    """One value of `default`'s enumeration (a status, a mode), `default` until chosen."""
    return models.CharField(
        verbose_name,
        max_length=max_length,
        choices=type(default).choices,
        default=default,
        help_text=help_text,
    )


class Stamped(models.Model):
    """When an organiser's object (a tournament, a championship) was created and last saved."""

    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)
    updated_at = models.DateTimeField(_("modifié le"), auto_now=True)

    class Meta:
        abstract = True
