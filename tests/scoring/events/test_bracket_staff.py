"""Issue 26: the people who ran session 1 run the next session's brackets too (a co-arbiter
who applies the cut manages the brackets it creates; the scorers score there), logged."""

import pytest
from django.urls import reverse

from scoring.events.cuts import cut_apply
from tests.scoring.events.event_helpers import new_event, play, seat
from tournament.models import ChangeLog, TournamentRole

pytestmark = pytest.mark.django_db


def test_the_next_sessions_brackets_keep_session_1s_staff(arbiter, client, django_user_model):
    co = django_user_model.objects.create_user("co-arbitre", password="pw-co-1")
    scorer = django_user_model.objects.create_user("marqueur", password="pw-marqueur-1")
    gone = django_user_model.objects.create_user("parti", password="pw-parti-1", is_active=False)
    _event, bracket = new_event(8, owner=arbiter)
    for account, role in ((co, "arbiter"), (scorer, "scorer"), (gone, "scorer")):
        TournamentRole.objects.create(tournament=bracket, user=account, role=role)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(bracket, [[5, 9, 2], [7, 1, 12]])
    cut = cut_apply(source=bracket, rule="top_n", value=4, consolante=True, seed=1, user=co)

    for created in (cut.qualified, cut.consolante):
        roles = {r.user.username: r.role for r in created.roles.select_related("user")}
        assert roles == {"co-arbitre": "arbiter", "marqueur": "scorer"}  # not the inactive one
        logged = ChangeLog.objects.filter(
            tournament=created, object_type=ChangeLog.ObjectType.TOURNAMENT_ROLE
        )
        assert logged.count() == 2
    # The co-arbiter who cut manages the final: its settings page opens.
    client.force_login(co)
    assert client.get(reverse("tournament-edit", args=[cut.qualified.pk])).status_code == 200
    client.force_login(scorer)
    assert client.get(reverse("tournament-edit", args=[cut.qualified.pk])).status_code == 403
