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


def arbiter_required(view):
    """Only arbiters (or superusers) may run the view; others get a login page or a 403."""
    return _role_required(view, is_arbiter)


def scorer_required(view):
    """Scorers and arbiters may run the view."""
    return _role_required(view, is_scorer)


def _role_required(view, check):
    from functools import wraps

    from django.contrib.auth.views import redirect_to_login
    from django.core.exceptions import PermissionDenied

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not check(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper
