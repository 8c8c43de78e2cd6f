"""Issue 35, a deal a phone still held when its position closed is never dropped: it is kept as
a late deal, counted nowhere until the arbiter accepts it (then it counts, confirmed by them)
or rejects it (kept, never counted), each decision in the history; the phone says so. Before,
the post was refused ("Ce lien de table n'est plus valable") and the page told every player to
ask the arbiter for a new code."""

import pytest
from django.urls import reverse

from scoring.late import LateDeal
from scoring.live.standings import standings_for
from scoring.models import Deal
from tests.scoring.sheets.waiting_helpers import PRISE, enter, phone, post, world
from tournament.access.lifecycle import position_close
from tournament.models import ChangeLog, Tournament

pytestmark = pytest.mark.django_db


def totals(tournament, *, public: bool) -> dict[int, int]:
    standings = standings_for(Tournament.objects.get(pk=tournament.pk), public=public)
    return {r.row.key: r.row.total for r in standings.players}


def send_late(device, link, client_id: str):
    return post(device, "table-deal-create", link.token, {"client_id": client_id, "deal": PRISE})


def test_a_deal_sent_after_the_close_is_kept_for_the_arbiter_who_accepts_or_rejects_it(
    arbiter_client,
):
    tournament, position, links, phones = world()
    position_close(position=position)
    before = {False: totals(tournament, public=False), True: totals(tournament, public=True)}

    response = send_late(phones[0], links[0], "late-deal-1")
    assert response.status_code == 202
    assert response.json()["message"] == "Donne reçue après la clôture : l'arbitre décidera."
    # A resend (the answer was lost) is the same late deal.
    assert send_late(phones[0], links[0], "late-deal-1").json()["replayed"] is True
    assert send_late(phones[0], links[0], "late-deal-2").status_code == 202
    first, second = LateDeal.objects.order_by("pk")
    assert LateDeal.objects.count() == 2 and first.status == LateDeal.Status.WAITING
    assert first.entered_by_player.number == 1  # the phone's bound player
    # Counted nowhere while it waits.
    assert not Deal.objects.exists()
    assert totals(tournament, public=False) == before[False]
    assert totals(tournament, public=True) == before[True]
    # The desk says so, and the arbiter sees them on the page of what waits; they may not
    # finish before deciding.
    overview = arbiter_client.get(reverse("entry-overview", args=[tournament.pk])).text
    assert "2 donnes reçues après la clôture attendent votre décision" in overview
    page = arbiter_client.get(reverse("deals-waiting", args=[tournament.pk])).text
    assert f'id="waiting-late-{first.pk}"' in page and f'id="waiting-late-{second.pk}"' in page
    finish = arbiter_client.post(reverse("tournament-finish", args=[tournament.pk]))
    assert finish.url.endswith("?pour=finish")

    arbiter_client.post(reverse("late-deal-decide", args=[first.pk, "accept"]))
    first.refresh_from_db()
    assert first.status == LateDeal.Status.ACCEPTED and first.decided_by is not None
    deal = first.deal
    assert deal is not None and not deal.pending and deal.confirmed_by is not None
    counted = totals(tournament, public=True)
    taker = links[0].table.seats.get(direction="N").registration_id
    assert counted[taker] == before[True][taker] + deal.scores[0] and deal.scores[0] > 0

    arbiter_client.post(reverse("late-deal-decide", args=[second.pk, "reject"]))
    second.refresh_from_db()
    assert second.status == LateDeal.Status.REJECTED and second.deal is None
    assert second.data == PRISE  # kept as it came
    assert Deal.objects.count() == 1 and totals(tournament, public=True) == counted
    # Deciding again changes nothing.
    arbiter_client.post(reverse("late-deal-decide", args=[second.pk, "accept"]))
    assert Deal.objects.count() == 1

    records = ChangeLog.objects.filter(object_type=ChangeLog.ObjectType.LATE_DEAL)
    kept = [r for r in records if r.action == "create"]
    decided = sorted(r.after["status"] for r in records if r.action == "update")
    assert len(kept) == 2 and decided == ["accepted", "rejected"]
    assert arbiter_client.post(reverse("tournament-finish", args=[tournament.pk])).url.endswith(
        f"/tournois/{tournament.pk}/"
    )
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


def test_a_closed_positions_page_says_what_becomes_of_the_phones_deals():
    tournament, position, links, phones = world()
    position_close(position=position)
    page = phones[0].get(reverse("table-entry", args=[links[0].token]))
    assert page.status_code == 404
    text = page.content.decode()
    assert "La position 1 est close" in text and "table_closed.js" in text
    assert "Demandez le nouveau code" not in text
    # A revoked link (a leaked code) still says to ask for the new one; nothing is kept there.
    links[1].revoked = True
    links[1].save()
    page = phones[1].get(reverse("table-entry", args=[links[1].token]))
    assert "Demandez le nouveau code" in page.content.decode()
    assert send_late(phones[1], links[1], "revoked-deal-1").status_code == 404
    assert not LateDeal.objects.exists()


def test_a_deal_recorded_before_the_close_and_resent_after_is_not_late():
    tournament, position, links, phones = world()
    deal = enter(phones[0], links[0], "sent-twice-1")
    Deal.objects.filter(pk=deal.pk).update(pending=False)
    position_close(position=position)
    response = send_late(phones[0], links[0], "sent-twice-1")
    assert response.status_code == 200 and response.json()["replayed"] is True
    assert not LateDeal.objects.exists()


def test_a_stranger_holding_only_the_table_link_cannot_leave_a_late_deal():
    """Tried from outside: a fresh phone with the table's link alone, no code nor binding, had
    its late deals kept (202) and one accepted counted with no enterer."""
    tournament, position, links, _phones = world()
    position_close(position=position)
    stranger = phone("stranger")
    refused = send_late(stranger, links[0], "late-stranger-1")
    assert refused.status_code == 403 and refused.json()["field"] == "entered_by"
    wrong = post(
        stranger,
        "table-deal-create",
        links[0].token,
        {"client_id": "late-stranger-2", "deal": PRISE, "entered_by": 1, "pin": "000000"},
    )
    assert wrong.status_code == 403
    assert not LateDeal.objects.exists()


def test_a_late_deal_keeps_its_number_and_is_never_accepted_as_a_renumbered_copy(
    arbiter_client,
):
    """Tried from outside: a late deal typed as deal 1 while deal 1 was on the sheet was
    accepted as deal 2, a copy."""
    tournament, position, links, phones = world()
    enter(phones[0], links[0], "before-close", number=1)
    Deal.objects.update(pending=False)
    position_close(position=position)
    body = {"client_id": "late-number-1", "number": 1, "deal": {**PRISE, "points": 50}}
    assert post(phones[0], "table-deal-create", links[0].token, body).status_code == 202
    late = LateDeal.objects.get()
    assert late.number == 1
    page = arbiter_client.get(reverse("deals-waiting", args=[tournament.pk])).text
    assert "Donne 1</strong>" in page
    answer = arbiter_client.post(
        reverse("late-deal-decide", args=[late.pk, "accept"]), follow=True
    ).text
    assert "La donne 1 est déjà sur la feuille" in answer
    late.refresh_from_db()
    assert late.status == LateDeal.Status.WAITING and Deal.objects.count() == 1


def test_only_a_phone_bound_to_a_player_reports_unsent_deals(arbiter_client):
    """Tried from outside: 30 fresh cookies sending X-Queued-Deals: 999 made 35 rows the arbiter
    had to clear one by one before closing."""
    from scoring.late import PhoneQueue

    tournament, position, links, phones = world()
    sheet_url = reverse("table-sheet", args=[links[0].token])
    for n in range(12):
        stranger = phone(f"stranger-{n}")
        stranger.get(sheet_url, HTTP_X_QUEUED_DEALS="999")
    assert not PhoneQueue.objects.exists()
    phones[0].get(sheet_url, HTTP_X_QUEUED_DEALS="2")
    assert list(PhoneQueue.objects.values_list("count", flat=True)) == [2]
