"""A table's sheet is finished only when each of its players vouched for it, from their own bound
phone or with their own code (rules 004: "visée par les 4 joueurs puis remise à l'arbitre");
who vouched comes from the identity the server checked, once each (issue 35: one player's
code finished the sheet for the whole table)."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import ScoreSheet
from scoring.sheets.table_entry import signed_seats
from tests.scoring.sheets.table_entry.conftest import (
    COTE,
    DURAND,
    LEFEVRE,
    MOREAU,
    WRONG_TAKER,
    Table4,
)
from tournament.models import ChangeLog


@pytest.fixture
def played(table4: Table4) -> Table4:
    """The table's two deals entered by MOREAU and confirmed by CÔTÉ."""
    moreau = table4.phone("moreau", MOREAU)
    deals = [
        table4.enter(moreau, {**WRONG_TAKER, "points": 52 + n}, f"played-000{n}") for n in range(2)
    ]
    assert table4.confirm(table4.phone("cote"), COTE, deals).status_code == 200
    return table4


def sign(table4: Table4, client: Client, body: dict):
    return table4.post(client, "table-finish", body)


def test_the_sheet_is_finished_only_once_all_four_players_vouched(arbiter_client, played):
    table4 = played
    moreau = table4.phone("moreau-phone", MOREAU)
    # MOREAU from his bound phone (no code typed), the others with their codes on one phone.
    first = sign(table4, moreau, {})
    assert first.status_code == 200, first.content
    assert first.json() == {"status": "in_progress", "missing": ["CÔTÉ", "LEFÈVRE", "DURAND"]}
    shared = table4.phone("shared")
    for seat in (COTE, LEFEVRE):
        answer = sign(table4, shared, table4.code(seat))
        assert answer.status_code == 200 and answer.json()["status"] == "in_progress"
    sheet = table4.sheet()
    assert sheet.status == ScoreSheet.Status.IN_PROGRESS
    assert signed_seats(sheet) == {MOREAU, COTE, LEFEVRE}
    # The phone and the desk say who has signed and who hasn't.
    partial = shared.get(reverse("table-sheet", args=[table4.link.token])).content.decode()
    assert "DURAND pas encore" in partial and "LEFÈVRE a visé" in partial
    desk = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    assert "Visée à la table par" in desk and "DURAND pas encore" in desk
    last = sign(table4, shared, table4.code(DURAND))
    assert last.json() == {"status": "complete", "missing": []}
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.COMPLETE
    assert [(s["seat"], s["via"]) for s in sheet.signatures] == [
        (MOREAU, "phone"),
        (COTE, "code"),
        (LEFEVRE, "code"),
        (DURAND, "code"),
    ]
    assert ChangeLog.objects.filter(object_type="sheet_status", object_id=sheet.pk).count() == 4
    # Finished: no player contests any more (the arbiter still decides).
    late = table4.contest(shared, LEFEVRE, 1)
    assert late.status_code == 409 and "terminée" in late.json()["error"]


def test_a_player_vouches_once_and_only_for_themself(played):
    table4 = played
    shared = table4.phone("shared")
    assert sign(table4, shared, table4.code(COTE)).status_code == 200
    twice = sign(table4, shared, table4.code(COTE))
    assert twice.status_code == 409 and "déjà visé" in twice.json()["error"]
    # A phone bound to MOREAU naming LEFÈVRE's seat without his code signs for MOREAU only.
    moreau = table4.phone("moreau-phone", MOREAU)
    assert sign(table4, moreau, {"seat": LEFEVRE}).status_code == 200
    assert signed_seats(table4.sheet()) == {COTE, MOREAU}
    # A seat with a wrong code, or with no code from a phone bound to nobody: refused.
    wrong = sign(table4, shared, {"seat": LEFEVRE, "pin": "000000x"})
    assert wrong.status_code == 403
    assert sign(table4, table4.phone("nobody"), {"seat": DURAND}).status_code == 403
    sheet = table4.sheet()
    assert signed_seats(sheet) == {COTE, MOREAU} and len(sheet.signatures) == 2
    assert sheet.status == ScoreSheet.Status.IN_PROGRESS


def test_a_sheet_with_deals_waiting_or_missing_is_not_signed(table4: Table4):
    deal = table4.enter(table4.phone("moreau", MOREAU), WRONG_TAKER, "waiting-0001")
    shared = table4.phone("shared")
    waiting = sign(table4, shared, table4.code(LEFEVRE))
    assert waiting.status_code == 403 and "confirmation" in waiting.json()["error"]
    assert table4.confirm(table4.phone("cote"), COTE, [deal]).status_code == 200
    short = sign(table4, shared, table4.code(LEFEVRE))
    assert short.status_code == 403 and "1 donnes sur 2" in short.json()["error"]
    assert table4.sheet().signatures == []


def test_a_deal_decided_after_a_signature_asks_the_table_to_sign_again(arbiter_client, played):
    table4 = played
    shared = table4.phone("shared")
    assert sign(table4, shared, table4.code(DURAND)).status_code == 200
    # LEFÈVRE contests a confirmed deal; the arbiter decides it (confirms it as it was).
    assert table4.contest(shared, LEFEVRE, 2).status_code == 200
    sheet = table4.sheet()
    deal = sheet.deals.get(number=2)
    answer = arbiter_client.post(
        reverse("deal-confirm", args=[deal.pk]), {"version": sheet.version}
    )
    assert answer.status_code == 302
    assert signed_seats(table4.sheet()) == set()
    assert sign(table4, shared, table4.code(DURAND)).status_code == 200
