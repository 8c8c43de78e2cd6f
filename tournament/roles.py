"""The desk's roles: arbiters run their tournaments, scorers enter sheets, the public reads."""

from django.contrib.auth.models import Group

ARBITER = "arbitre"
SCORER = "marqueur"


def ensure_groups() -> None:
    for name in (ARBITER, SCORER):
        Group.objects.get_or_create(name=name)


def is_arbiter(user) -> bool:
    return user.is_authenticated and (
        user.is_superuser or user.groups.filter(name=ARBITER).exists()
    )


def is_scorer(user) -> bool:
    """Scorers enter and correct sheets; arbiters may too."""
    return user.is_authenticated and (is_arbiter(user) or user.groups.filter(name=SCORER).exists())
