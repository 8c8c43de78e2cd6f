"""'Confirmer les donnes' lists each waiting deal with what it gives each player and who may
confirm it, and confirms only the deals its phone listed, at the sheet's version it read
(issue 35: it confirmed every waiting deal unseen, and skipped silently those the player may
not confirm)."""

import re

from django.urls import reverse

from scoring.models import Deal
from tests.scoring.sheets.table_entry.conftest import (
    COTE,
    DURAND,
    LEFEVRE,
    MOREAU,
    WRONG_TAKER,
    Table4,
)

# CÔTÉ takes a garde alone and types it himself: any defender may confirm it.
COTE_OWN = {"taker": COTE, "contract": "garde", "oudlers": 2, "points": 50}


def confirm_list(table4: Table4) -> dict[int, str]:
    """The phone's confirmation list: deal id → the item's text (tags dropped)."""
    page = table4.phone("reader").get(reverse("table-sheet", args=[table4.link.token]))
    html = page.content.decode()
    items = re.findall(r'<li data-deal="(\d+)"[^>]*>(.*?)</li>', html, re.S)
    return {int(pk): " ".join(re.sub(r"<[^>]+>", " ", text).split()) for pk, text in items}


def test_the_list_shows_each_waiting_deal_with_each_players_figure_and_who_confirms(
    table4: Table4,
):
    wrong = table4.enter(table4.phone("moreau", MOREAU), WRONG_TAKER, "listed-0001")
    own = table4.enter(table4.phone("cote", COTE), COTE_OWN, "listed-0002")
    listed = confirm_list(table4)
    assert list(listed) == [wrong.pk, own.pk]
    assert "MOREAU -144 · LEFÈVRE -144 · CÔTÉ +432 · DURAND -144" in listed[wrong.pk]
    assert listed[wrong.pk].endswith("À confirmer par CÔTÉ")
    assert "CÔTÉ +204" in listed[own.pk]
    assert listed[own.pk].endswith("À confirmer par MOREAU, LEFÈVRE ou DURAND")
    # A contested deal leaves the list (it waits for its correction, not a confirmation).
    assert table4.contest(table4.phone("lefevre"), LEFEVRE, wrong.number).status_code == 200
    assert list(confirm_list(table4)) == [own.pk]


def test_only_the_listed_deals_are_confirmed(table4: Table4):
    moreau = table4.phone("moreau", MOREAU)
    first = table4.enter(moreau, WRONG_TAKER, "listed-0003")
    second = table4.enter(moreau, {**WRONG_TAKER, "points": 60}, "listed-0004")
    answer = table4.confirm(table4.phone("cote"), COTE, [first])
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"confirmed": [1], "left": ""}
    first.refresh_from_db(), second.refresh_from_db()
    assert not first.pending and second.pending


def test_a_deal_added_after_the_list_was_read_is_not_confirmed(table4: Table4):
    moreau = table4.phone("moreau", MOREAU)
    first = table4.enter(moreau, WRONG_TAKER, "listed-0005")
    read = table4.sheet().version
    table4.enter(moreau, {**WRONG_TAKER, "points": 60}, "listed-0006")
    answer = table4.confirm(table4.phone("cote"), COTE, [first], version=read)
    assert answer.status_code == 409 and answer.json()["field"] == "version"
    assert Deal.objects.filter(pending=False).count() == 0
    # Without the list, nothing is confirmed either: the page must say what it shows.
    body = {**table4.code(COTE), "version": table4.sheet().version}
    unlisted = table4.post(table4.phone("cote-2"), "table-confirm", body)
    assert unlisted.status_code == 400 and unlisted.json()["field"] == "deals"
    assert Deal.objects.filter(pending=False).count() == 0


def test_a_listed_deal_the_player_may_not_confirm_names_who_can(table4: Table4):
    wrong = table4.enter(table4.phone("moreau", MOREAU), WRONG_TAKER, "listed-0007")
    own = table4.enter(table4.phone("cote", COTE), COTE_OWN, "listed-0008")
    durand = table4.phone("durand")
    # Only deal 1 listed: DURAND may not confirm it, and is told who may.
    alone = table4.confirm(durand, DURAND, [wrong])
    assert alone.status_code == 403
    assert alone.json()["error"] == (
        "Donne 1 : vous êtes du camp de la personne qui l'a saisie : un adversaire la "
        "confirme. À confirmer par CÔTÉ."
    )
    # Both listed: deal 2 is his to confirm, deal 1 stays waiting, and the answer says so.
    both = table4.confirm(durand, DURAND, [wrong, own])
    assert both.status_code == 200
    assert both.json()["confirmed"] == [2]
    assert both.json()["left"].endswith("un adversaire la confirme. À confirmer par CÔTÉ.")
    wrong.refresh_from_db(), own.refresh_from_db()
    assert wrong.pending and not own.pending
    assert own.confirmed_by_player == table4.players[DURAND]


def test_the_desks_actions_go_through_after_a_player_confirms_from_the_phone(
    arbiter_client, table4: Table4
):
    """Before: a player's confirmation moved the sheet's version, so the desk's next action,
    posted with the version its page showed, failed with "Conflit" (the arbiter's decision
    must always go through)."""
    moreau = table4.phone("moreau", MOREAU)
    first = table4.enter(moreau, WRONG_TAKER, "desk-after-01")
    second = table4.enter(moreau, {**WRONG_TAKER, "points": 60}, "desk-after-02")
    page = arbiter_client.get(reverse("sheet-detail", args=[first.sheet_id]))
    shown = page.context["sheet"].version
    # CÔTÉ confirms the first deal from his phone while the desk has the sheet open.
    assert table4.confirm(table4.phone("cote"), COTE, [first]).status_code == 200
    first.refresh_from_db()
    assert not first.pending and first.confirmed_by_player_id == table4.players[COTE].pk
    # The phones still see the sheet changed (their ETag reads the sheet's updated_at).
    assert table4.sheet().version == shown
    # A player's confirmation still refuses a sheet changed since the phone read it (here,
    # read before the second deal was entered).
    stale = table4.confirm(table4.phone("cote-2"), COTE, [second], version=shown - 1)
    assert stale.status_code == 409 and stale.json()["field"] == "version"
    # The desk's save on the page it read goes through: the arbiter confirms the second deal.
    confirmed = arbiter_client.post(reverse("deal-confirm", args=[second.pk]), {"version": shown})
    assert confirmed.status_code == 302, confirmed.content
    second.refresh_from_db()
    assert not second.pending and second.confirmed_by is not None


def test_a_player_cannot_confirm_on_a_validated_sheet(arbiter_client, table4: Table4):
    deal = table4.enter(table4.phone("moreau", MOREAU), WRONG_TAKER, "desk-after-04")
    from scoring.sheets.services import sheet_validate

    sheet_validate(sheet=table4.sheet(), validated=True, reason="", user=None)
    answer = table4.confirm(table4.phone("cote"), COTE, [deal])
    assert answer.status_code in (403, 409, 423), answer.content
    deal.refresh_from_db()
    assert deal.pending
