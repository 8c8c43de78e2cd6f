"""A finished sheet's phone page (issue 38): once the whole table signed, the page still asked
"Qui saisit sur ce téléphone ?" and offered to confirm, sign and contest. It now shows none of
what can no longer be done, and says what follows."""

import re

from django.urls import reverse

from tests.scoring.sheets.table_entry.conftest import COTE, MOREAU, WRONG_TAKER, Table4

PARTS = ("who-section", "deal-entry", "confirm-section")


def hidden(page: str, element_id: str) -> bool:
    tag = re.search(rf'<[a-z]+ id="{element_id}"[^>]*>', page)
    assert tag, element_id
    return " hidden" in tag.group(0)


def test_a_signed_sheet_hides_what_can_no_longer_be_done(table4: Table4):
    moreau = table4.phone("moreau", MOREAU)
    deals = [
        table4.enter(moreau, {**WRONG_TAKER, "points": 52 + n}, f"done-000{n}") for n in (0, 1)
    ]
    assert table4.confirm(table4.phone("cote"), COTE, deals).status_code == 200
    url = reverse("table-entry", args=[table4.link.token])
    shared = table4.phone("shared")
    before = shared.get(url).content.decode()
    assert not any(hidden(before, part) for part in PARTS) and hidden(before, "sheet-done")
    for seat in range(4):
        answer = table4.post(shared, "table-finish", table4.code(seat))
        assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "complete"
    after = shared.get(url).content.decode()
    assert all(hidden(after, part) for part in PARTS)
    assert not hidden(after, "sheet-done")
    assert "L'arbitre la valide" in after.replace("&#x27;", "'")
    # The arbiter is still called from the page.
    assert not hidden(after, "call-section")
