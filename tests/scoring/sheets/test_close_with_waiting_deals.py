"""Issue 35, nothing disappears at a close: closing a position, finishing the tournament and
seating by rank while deals wait (unconfirmed or contested on a phone, unsent on a phone) send
the arbiter to the page of what waits, table by table, where each is decided and logged; the
step goes through once nothing waits. Before, "Clore la position" went through in one click and
the waiting deals dropped out of every ranking."""

import pytest
from django.urls import reverse

from scoring.late import PhoneQueue
from scoring.live.standings import standings_for
from scoring.models import Deal, ScoreSheet
from tests.scoring.sheets.waiting_helpers import PRISE, enter, phone, post, world
from tournament.access.lifecycle import DealsWaiting, position_close, tournament_finish
from tournament.models import ChangeLog, Position, Tournament

pytestmark = pytest.mark.django_db


def four_waiting_and_one_queued(position, links, phones):
    """The issue's reproduction: 4 deals "à confirmer" (3 at table 1, one contested at table 2)
    and a phone of table 2 that holds one deal unsent (reported with its refresh)."""
    deals = [enter(phones[0], links[0], f"t1-deal-{n}") for n in range(3)]
    deals.append(enter(phones[1], links[1], "t2-deal-0"))
    Deal.objects.filter(pk=deals[3].pk).update(disputed=True, dispute_note="pas 45")
    other = phone("phoneofflinethenback")  # EST's phone, bound to her before it went offline
    est = next(s for s in links[1].table.seats.all() if s.direction == "E").registration
    who = {"seat": 1, "pin": est.pin}
    assert post(other, "table-identify", links[1].token, who).status_code == 200
    response = other.get(
        reverse("table-sheet", args=[links[1].token]), headers={"X-Queued-Deals": "1"}
    )
    assert response.status_code == 200
    return deals


def history(tournament, kind):
    return list(ChangeLog.objects.filter(tournament=tournament, object_type=kind))


def test_closing_with_waiting_deals_lists_them_per_table_until_each_is_decided(arbiter_client):
    tournament, position, links, phones = world()
    deals = four_waiting_and_one_queued(position, links, phones)
    close = reverse("position-close", args=[tournament.pk, 1])
    response = arbiter_client.post(close)
    waiting_page = reverse("deals-waiting", args=[tournament.pk]) + "?pour=close&position=1"
    assert response.status_code == 302 and response.url == waiting_page
    position.refresh_from_db()
    assert position.status == Position.Status.PUBLISHED
    page = arbiter_client.get(waiting_page).text
    tables = [links[0].table.pk, links[1].table.pk]
    # Table by table: table 1's three deals, table 2's contested one and its phone's deal.
    first = page[
        page.index(f'id="waiting-table-{tables[0]}"') : page.index(f"waiting-table-{tables[1]}")
    ]
    second = page[page.index(f'id="waiting-table-{tables[1]}"') :]
    assert all(f'id="waiting-deal-{d.pk}"' in first for d in deals[:3])
    assert f'id="waiting-deal-{deals[3].pk}"' in second and "contestée" in second
    assert "garde 1 donne non envoyée" in second
    assert 'id="waiting-go-on"' not in page
    # The service refuses as the view does, whoever calls it.
    with pytest.raises(DealsWaiting):
        position_close(position=position)

    # Each decided: two confirmed, one deleted, the contested one given an arbiter's score then
    # confirmed, the phone's unsent deal left to come as a late deal.
    for deal in deals[:2]:
        version = ScoreSheet.objects.get(pk=deal.sheet_id).version
        response = arbiter_client.post(
            reverse("deal-confirm", args=[deal.pk]), {"version": version, "next": waiting_page}
        )
        assert response.status_code == 302 and response.url == waiting_page
    version = ScoreSheet.objects.get(pk=deals[2].sheet_id).version
    arbiter_client.post(
        reverse("deal-delete", args=[deals[2].pk]), {"version": version, "next": waiting_page}
    )
    adjusted = deals[3]
    version = ScoreSheet.objects.get(pk=adjusted.sheet_id).version
    arbiter_client.post(
        reverse("deal-adjust", args=[adjusted.pk]),
        {
            "version": version,
            "reason": "annonce contestée",
            **{f"score_{s}": v for s, v in enumerate([30, -10, -10, -10])},
        },
    )
    assert arbiter_client.get(waiting_page).text.count("waiting-deal-") == 1  # still to confirm
    version = ScoreSheet.objects.get(pk=adjusted.sheet_id).version
    arbiter_client.post(
        reverse("deal-confirm", args=[adjusted.pk]), {"version": version, "next": waiting_page}
    )
    queue = PhoneQueue.objects.get()
    arbiter_client.post(reverse("phone-queue-acknowledge", args=[queue.pk]), {"next": waiting_page})
    page = arbiter_client.get(waiting_page).text
    assert 'id="waiting-none"' in page and 'id="waiting-go-on"' in page

    assert arbiter_client.post(close).status_code == 302
    position.refresh_from_db()
    assert position.status == Position.Status.CLOSED
    # Every decision is in the history.
    assert len(history(tournament, ChangeLog.ObjectType.DEAL_CONFIRMATION)) == 3
    assert [c.action for c in history(tournament, ChangeLog.ObjectType.DEAL)].count("delete") == 1
    assert history(tournament, ChangeLog.ObjectType.PHONE_QUEUE)[0].after["acknowledged"] == 1
    # What the arbiter confirmed counts publicly; nothing else does.
    scores = sorted(
        r.row.total
        for r in standings_for(Tournament.objects.get(pk=tournament.pk), public=True).players
    )
    assert sum(abs(s) for s in scores) > 0 and 30 in scores


def test_a_phone_reporting_more_unsent_deals_waits_again(arbiter_client):
    tournament, position, links, phones = world()
    sheet = reverse("table-sheet", args=[links[0].token])
    phones[0].get(sheet, headers={"X-Queued-Deals": "2"})
    queue = PhoneQueue.objects.get()
    assert queue.count == 2
    arbiter_client.post(reverse("phone-queue-acknowledge", args=[queue.pk]))
    tournament_position = Position.objects.get(pk=position.pk)
    phones[0].get(sheet, headers={"X-Queued-Deals": "3"})
    with pytest.raises(DealsWaiting):
        position_close(position=tournament_position)
    # Sent at last: the phone holds nothing, and the report is gone.
    phones[0].get(sheet, headers={"X-Queued-Deals": "0"})
    assert not PhoneQueue.objects.exists()
    # A deal's post tells the count too (a phone that can't refresh while it is refused)...
    body = {"client_id": "bound-1", "version": 99, "number": 7, "deal": PRISE, "queued": 4}
    assert post(phones[0], "table-deal-create", links[0].token, body).status_code == 400
    assert PhoneQueue.objects.get().count == 4
    # ...but only a phone bound to a player of the table: a stranger's count would hold up
    # the close (tried from outside: 30 fresh cookies made 35 rows to clear).
    stranger = {**body, "client_id": "not-bound-1", "queued": 9}
    assert post(phone("stranger"), "table-deal-create", links[0].token, stranger).status_code == 403
    assert PhoneQueue.objects.get().count == 4


def test_finishing_with_waiting_deals_goes_to_the_same_page(arbiter_client):
    tournament, position, links, phones = world()
    deal = enter(phones[0], links[0], "finish-deal-1")
    finish = reverse("tournament-finish", args=[tournament.pk])
    response = arbiter_client.post(finish)
    waiting_page = reverse("deals-waiting", args=[tournament.pk]) + "?pour=finish"
    assert response.status_code == 302 and response.url == waiting_page
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    assert f'id="waiting-deal-{deal.pk}"' in arbiter_client.get(waiting_page).text
    with pytest.raises(DealsWaiting):
        tournament_finish(tournament=tournament)
    version = ScoreSheet.objects.get(pk=deal.sheet_id).version
    arbiter_client.post(
        reverse("deal-confirm", args=[deal.pk]), {"version": version, "next": waiting_page}
    )
    assert arbiter_client.post(finish).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    deal.refresh_from_db()
    assert not deal.pending


def test_seating_by_rank_waits_for_every_deal_to_be_decided(arbiter_client):
    tournament, position, links, phones = world(positions=2)
    deal = enter(phones[0], links[0], "seed-deal-1")
    generate = reverse("position-generate", args=[tournament.pk])
    response = arbiter_client.post(generate, {"seating": "rank"})
    waiting_page = reverse("deals-waiting", args=[tournament.pk]) + "?pour=seed"
    assert response.status_code == 302 and response.url == waiting_page
    assert not Position.objects.filter(tournament=tournament, number=2).exists()
    assert f'id="waiting-deal-{deal.pk}"' in arbiter_client.get(waiting_page).text
    version = ScoreSheet.objects.get(pk=deal.sheet_id).version
    arbiter_client.post(
        reverse("deal-delete", args=[deal.pk]), {"version": version, "next": waiting_page}
    )
    assert arbiter_client.post(generate, {"seating": "rank"}).status_code == 302
    second = Position.objects.get(tournament=tournament, number=2)
    assert second.seating == "rank"
