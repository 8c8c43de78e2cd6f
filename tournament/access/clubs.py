"""Club membership as django-rules predicates: which clubs a user belongs to and in which role.

tournament.access.permissions builds the club rules on these (creating a tournament, a club's
page).
"""

from __future__ import annotations

import rules

from tournament.models import Club, ClubMember


def club_roles(user) -> dict[int, str]:
    """The user's role by club id, read once per request (cached on the user object)."""
    cached = getattr(user, "_club_roles", None)
    if cached is None:
        cached = dict(ClubMember.objects.filter(user_id=user.pk).values_list("club_id", "role"))
        user._club_roles = cached
    return cached


@rules.predicate
def is_club_member(user) -> bool:
    return bool(club_roles(user))


@rules.predicate
def is_club_admin(user, club: Club) -> bool:
    return club_roles(user).get(club.pk) == ClubMember.Role.ADMIN


@rules.predicate
def is_member_of(user, obj) -> bool:
    """A member (any role) of the club `obj`, or of one of the clubs that may see `obj` (a
    licence conflict's `visible_club_ids`: the holding club, the other once proposed to)."""
    clubs = getattr(obj, "visible_club_ids", None)
    if clubs is None:
        clubs = {obj.pk}
    return any(pk in club_roles(user) for pk in clubs)
