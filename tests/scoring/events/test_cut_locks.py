"""Issue 26, a cut holds: the bracket it cut stays finished (its results decided the next
session), and one withdrawal brings in one replacement, even when the request is sent twice."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring.events.cuts import cut_apply
from scoring.events.replace import cut_withdrawal_replace
from tests.scoring.events.event_helpers import new_event, play, seat
from tournament.access.lifecycle import tournament_reopen
from tournament.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def cut_bracket(arbiter, *, consolante=True):
    event, bracket = new_event(8, owner=arbiter)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(bracket, [[5, 9, 2], [7, 1, 12]])
    # 53 P7, 45 P2, 33 P5, 29 P1 | 17 P3, 9 P6, -91 P4, -95 P8
    cut = cut_apply(
        source=bracket, rule="top_n", value=4, consolante=consolante, seed=1, user=arbiter
    )
    return bracket, cut


def test_a_cut_bracket_cannot_be_reopened(arbiter):
    bracket, _cut = cut_bracket(arbiter)
    with pytest.raises(ValidationError, match="a été coupé"):
        tournament_reopen(tournament=bracket, reason="correction", user=arbiter)
    bracket.refresh_from_db()
    assert bracket.status == Tournament.Status.FINISHED


def test_the_reopen_button_of_a_cut_bracket_is_refused_in_french(arbiter_client, arbiter):
    bracket, _cut = cut_bracket(arbiter)
    response = arbiter_client.post(
        reverse("tournament-reopen", args=[bracket.pk]), {"reason": "correction"}, follow=True
    )
    assert response.status_code == 200
    assert "a été coupé" in response.text
    bracket.refresh_from_db()
    assert bracket.status == Tournament.Status.FINISHED


def test_a_replacement_sent_twice_brings_in_one_player(arbiter):
    _bracket, cut = cut_bracket(arbiter)
    # Both requests read P2 as playing (the second form was checked before the first landed).
    gone = cut.qualified.registrations.get(player__last_name="P2")
    stale = Registration.objects.get(pk=gone.pk)
    cut_withdrawal_replace(cut=cut, registration=gone, user=arbiter)
    with pytest.raises(ValidationError, match="déjà"):
        cut_withdrawal_replace(cut=cut, registration=stale, user=arbiter)
    cut.refresh_from_db()
    playing = cut.qualified.registrations.exclude(status="withdrawn")
    assert sorted(r.player.last_name for r in playing) == ["P1", "P3", "P5", "P7"]
    assert [r["name"].split()[0] for r in cut.report["replacements"]] == ["P3"]
