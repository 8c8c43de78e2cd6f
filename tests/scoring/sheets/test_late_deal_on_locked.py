"""Issue 35: a late deal (sent by a phone after its position closed) accepted on a validated
sheet or in a finished tournament. Before, accepting it there failed with the sheet's or the
tournament's generic lock and the deal stayed waiting, with nothing saying what to do: now a
validated sheet is reopened to take it and validated again (both logged), and a
finished tournament says to reopen it first, with the link to do so."""

import pytest
from django.urls import reverse

from scoring.late import LateDeal
from scoring.models import ScoreSheet
from scoring.sheets.services import sheet_validate
from scoring.sheets.table_entry import deal_confirm_by_arbiter
from tests.scoring.sheets.waiting_helpers import PRISE, enter, post, world
from tournament.access.lifecycle import position_close, tournament_finish
from tournament.models import ChangeLog, Tournament

pytestmark = pytest.mark.django_db


def closed_with_a_validated_sheet(*, finished: bool = False):
    """Table 1 played one deal, confirmed; its sheet validated; the position closed (and the
    tournament finished if asked); then the phone of table 1 sends a deal it held: a late
    deal."""
    tournament, position, links, phones = world()
    deal = enter(phones[0], links[0], "before-close-1")
    sheet = ScoreSheet.objects.get(pk=deal.sheet_id)
    deal_confirm_by_arbiter(deal=deal, user=None, expected_version=sheet.version)
    sheet_validate(sheet=ScoreSheet.objects.get(pk=sheet.pk), validated=True)
    position_close(position=position)
    if finished:
        tournament_finish(tournament=Tournament.objects.get(pk=tournament.pk))
    body = {"client_id": "after-close-1", "deal": PRISE, "number": 2}
    assert post(phones[0], "table-deal-create", links[0].token, body).status_code == 202
    return tournament, sheet, LateDeal.objects.get()


def test_accepting_a_late_deal_on_a_validated_sheet_reopens_it_logged(arbiter_client):
    tournament, sheet, late = closed_with_a_validated_sheet()
    answer = arbiter_client.post(reverse("late-deal-decide", args=[late.pk, "accept"]), follow=True)
    page = answer.content.decode()
    assert "Donne tardive acceptée : elle compte." in page
    assert "était validée : dévalidée pour la recevoir, puis validée de nouveau" in page
    late.refresh_from_db()
    assert late.status == LateDeal.Status.ACCEPTED
    assert late.deal.number == 2 and not late.deal.pending
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.VALIDATED and sheet.deals.count() == 2
    # Both steps in the history, with the reason: reopened, then validated again.
    steps = ChangeLog.objects.filter(
        sheet=sheet, object_type=ChangeLog.ObjectType.SHEET_STATUS
    ).order_by("pk")
    assert [(s.action, s.after["status"]) for s in steps] == [
        ("update", "validated"),
        ("reopen", "in_progress"),
        ("update", "validated"),
    ]
    assert steps[1].after["reason"] == "Donne tardive 2 acceptée (reçue après la clôture)"


def test_accepting_a_late_deal_in_a_finished_tournament_says_to_reopen_it_first(arbiter_client):
    tournament, _sheet, late = closed_with_a_validated_sheet(finished=True)
    page = arbiter_client.get(reverse("deals-waiting", args=[tournament.pk])).text
    reopen = reverse("tournament-detail", args=[tournament.pk]) + "#tournament-reopen"
    assert f'href="{reopen}"' in page
    assert "Le tournoi est terminé : pour accepter une donne tardive, rouvrez-le" in page
    answer = arbiter_client.post(reverse("late-deal-decide", args=[late.pk, "accept"]), follow=True)
    assert "rouvrez-le d&#x27;abord" in answer.content.decode()
    late.refresh_from_db()
    assert late.status == LateDeal.Status.WAITING
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    # Reopened (the link's form, with a reason), the deal is accepted and counts.
    arbiter_client.post(reverse("tournament-reopen", args=[tournament.pk]), {"reason": "tardive"})
    arbiter_client.post(reverse("late-deal-decide", args=[late.pk, "accept"]))
    late.refresh_from_db()
    assert late.status == LateDeal.Status.ACCEPTED and not late.deal.pending
