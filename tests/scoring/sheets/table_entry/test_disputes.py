"""Fair dispute rights at the table (issue 35): any player but the enterer contests a deal until
the sheet is finished, a confirmed one goes to the arbiter, contests are limited per player and
deal, and a contest never makes the desk's decision fail with "Conflit"."""

from django.test import Client
from django.urls import reverse

from scoring.live.standings import standings_for
from scoring.models import Deal
from scoring.sheets.table_entry.disputes import CONTEST_ALLOWANCE
from tests.scoring.sheets.table_entry.conftest import (
    COTE,
    DURAND,
    LEFEVRE,
    MOREAU,
    WRONG_TAKER,
    Table4,
)
from tournament.models import ChangeLog, Tournament


def public_total(table4: Table4, seat: int) -> int:
    tournament = Tournament.objects.get(pk=table4.tournament.pk)
    rows = standings_for(tournament, public=True).players
    return next(r.row.total for r in rows if r.row.key == table4.players[seat].pk)


def disputes(deal: Deal) -> int:
    return ChangeLog.objects.filter(object_type="deal_dispute", object_id=deal.pk).count()


def test_the_wronged_player_of_the_enterers_side_contests_the_deal(table4: Table4):
    """Before: LEFÈVRE, a defender like MOREAU who typed it, was refused; only CÔTÉ, who gains
    432 points by the mistake, could confirm or contest."""
    deal = table4.enter(table4.phone("moreau", MOREAU), WRONG_TAKER, "wrong-taker-01")
    assert deal.scores == [-144, 432, -144, -144]
    answer = table4.contest(table4.phone("lefevre"), LEFEVRE, deal.number, "C'est moi qui ai pris")
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"contested": 1, "referred": False}
    deal.refresh_from_db()
    assert deal.disputed and deal.pending and deal.disputed_by_player == table4.players[LEFEVRE]
    # CÔTÉ can't confirm it now: it waits for MOREAU's correction.
    refused = table4.confirm(table4.phone("cote"), COTE, [deal])
    assert refused.status_code == 403
    deal.refresh_from_db()
    assert deal.pending and public_total(table4, COTE) == 0
    # The enterer still can't contest their own deal.
    own = table4.contest(table4.phone("moreau-2"), MOREAU, deal.number)
    assert own.status_code == 403


def test_a_confirmed_deal_contested_before_the_sheet_is_finished_goes_to_the_arbiter(
    arbiter_client: Client, table4: Table4
):
    moreau = table4.phone("moreau", MOREAU)
    deal = table4.enter(moreau, WRONG_TAKER, "wrong-taker-02")
    assert table4.confirm(table4.phone("cote"), COTE, [deal]).status_code == 200
    assert public_total(table4, COTE) == 432
    answer = table4.contest(table4.phone("lefevre"), LEFEVRE, deal.number, "preneur faux")
    assert answer.status_code == 200, answer.content
    assert answer.json()["referred"] is True
    deal.refresh_from_db()
    assert deal.pending and deal.disputed
    # The first confirmation stays on record; the deal counts nowhere until the arbiter decides.
    assert deal.confirmed_by_player == table4.players[COTE]
    assert public_total(table4, COTE) == 0
    # The table can't settle it any more: no correction by its enterer, no confirmation.
    fix = {"version": table4.sheet().version, "deal": {**WRONG_TAKER, "taker": LEFEVRE}}
    assert table4.post(moreau, "table-deal-correct", fix, deal.number).status_code == 409
    assert table4.confirm(table4.phone("cote-2"), COTE, [deal]).status_code == 403
    # It is in the arbiter's list of what waits, and marked on the desk's sheet.
    cockpit = arbiter_client.get(reverse("tournament-detail", args=[table4.tournament.pk]))
    assert "Table 7 : 1 donne contestée à trancher" in cockpit.content.decode()
    desk = arbiter_client.get(reverse("sheet-detail", args=[deal.sheet_id])).content.decode()
    assert "après confirmation : à décider" in desk and "preneur faux" in desk
    history = arbiter_client.get(reverse("sheet-history", args=[deal.sheet_id]))
    text = history.content.decode()
    assert "Donne 1 contestée" in text and "déjà confirmée : l&#x27;arbitre décide" in text
    assert "LEFÈVRE" in text


def test_a_second_and_third_rapid_contest_of_a_deal_are_refused_and_write_nothing(
    table4: Table4,
):
    """Before: every re-contest was accepted (about 40 a second), each with a history row and a
    new sheet version."""
    deal = table4.enter(table4.phone("moreau", MOREAU), WRONG_TAKER, "wrong-taker-03")
    version = table4.sheet().version
    cote = table4.phone("cote")
    assert table4.contest(cote, COTE, deal.number, "un").status_code == 200
    again = [table4.contest(cote, COTE, deal.number, "deux") for _ in range(2)]
    assert [a.status_code for a in again] == [409, 409]
    assert "déjà contestée" in again[0].json()["error"]
    # Another player's contest of the same contested deal is no new contest either.
    assert table4.contest(table4.phone("durand"), DURAND, deal.number).status_code == 409
    deal.refresh_from_db()
    assert deal.dispute_note == "un" and disputes(deal) == 1
    assert table4.sheet().version == version


def test_contests_of_one_deal_by_one_player_are_limited_across_corrections(table4: Table4):
    moreau = table4.phone("moreau", MOREAU)
    deal = table4.enter(moreau, WRONG_TAKER, "wrong-taker-04")
    cote = table4.phone("cote")

    def correct(points: int) -> None:
        fix = {"version": table4.sheet().version, "deal": {**WRONG_TAKER, "points": points}}
        assert table4.post(moreau, "table-deal-correct", fix, deal.number).status_code == 200

    for points in range(CONTEST_ALLOWANCE):
        assert table4.contest(cote, COTE, deal.number).status_code == 200
        correct(53 + points)
    # Corrected again, but CÔTÉ has used his contests of this deal: the arbiter decides.
    over = table4.contest(cote, COTE, deal.number)
    assert over.status_code == 429 and "appelez l'arbitre" in over.json()["error"]
    deal.refresh_from_db()
    assert not deal.disputed and disputes(deal) == CONTEST_ALLOWANCE
    # The limit is his, for this deal: DURAND still contests it.
    assert table4.contest(table4.phone("durand"), DURAND, deal.number).status_code == 200


def test_the_desk_confirms_or_deletes_right_after_a_contest(arbiter_client, table4: Table4):
    """Before: each contest moved the sheet's version, so the desk's Confirmer and Supprimer,
    posted with the version its page showed, failed with "Conflit" every time."""
    moreau = table4.phone("moreau", MOREAU)
    first = table4.enter(moreau, WRONG_TAKER, "wrong-taker-05")
    second = table4.enter(moreau, {**WRONG_TAKER, "points": 60}, "wrong-taker-06")
    page = arbiter_client.get(reverse("sheet-detail", args=[first.sheet_id]))
    shown = page.context["sheet"].version
    cote = table4.phone("cote")
    assert table4.contest(cote, COTE, first.number).status_code == 200
    assert table4.contest(cote, COTE, second.number).status_code == 200
    confirmed = arbiter_client.post(reverse("deal-confirm", args=[first.pk]), {"version": shown})
    assert confirmed.status_code == 302, confirmed.content
    first.refresh_from_db()
    assert not first.pending and not first.disputed and first.confirmed_by is not None
    # The next contest (the deal already decided by the arbiter is out of the players' reach)
    # leaves the desk's delete on the page it had just as free.
    assert table4.contest(cote, COTE, first.number).status_code == 409
    shown = table4.sheet().version
    assert table4.contest(cote, COTE, second.number).status_code == 409
    deleted = arbiter_client.post(reverse("deal-delete", args=[second.pk]), {"version": shown})
    assert deleted.status_code == 302
    assert not Deal.objects.filter(pk=second.pk).exists()


def test_the_desk_corrects_a_contested_deal_on_the_page_it_read(arbiter_client, table4: Table4):
    deal = table4.enter(table4.phone("moreau", MOREAU), WRONG_TAKER, "wrong-taker-07")
    shown = arbiter_client.get(reverse("deal-adjust", args=[deal.pk])).context["sheet"].version
    assert table4.contest(table4.phone("cote"), COTE, deal.number).status_code == 200
    adjusted = arbiter_client.post(
        reverse("deal-adjust", args=[deal.pk]),
        {"version": shown, "reason": "preneur LEFÈVRE", **{f"score_{s}": 0 for s in range(4)}},
    )
    assert adjusted.status_code == 302, adjusted.content.decode()[:2000]
    deal.refresh_from_db()
    assert deal.adjusted and deal.scores == [0, 0, 0, 0]
