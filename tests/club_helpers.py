"""Clubs for tests: an arbiter is a member of a club (creating tournaments needs one)."""

from tournament.models import Club, ClubMember


def join_club(user, name: str = "Club test", role: str = "arbiter") -> Club:
    """`user` in club `name` (made if new) with `role`; the club."""
    club, _created = Club.objects.get_or_create(name=name)
    ClubMember.objects.update_or_create(club=club, user=user, defaults={"role": role})
    return club


def roster_club() -> Club:
    """The club the `arbiter` fixture joins: roster entries made by hand in its tests are its
    own (a club sees only its roster entries)."""
    return Club.objects.get_or_create(name="Club test")[0]
