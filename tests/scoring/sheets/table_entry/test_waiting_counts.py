"""What the phone's sheet counts under its list (issue 38): after a confirmed deal was contested,
every phone said "2 donnes à confirmer" and listed one. It counts only the deals a player can
still confirm, and says apart what a contested deal waits for."""

import html
import re

from django.urls import reverse

from tests.scoring.sheets.table_entry.conftest import COTE, LEFEVRE, MOREAU, WRONG_TAKER, Table4


def notes(table4: Table4) -> list[str]:
    page = table4.phone("reader").get(reverse("table-sheet", args=[table4.link.token]))
    found = re.findall(r'<p class="pending-note"[^>]*>(.*?)</p>', page.content.decode(), re.S)
    return [" ".join(html.unescape(text).split()) for text in found]


def test_a_confirmed_then_contested_deal_is_counted_apart(table4: Table4):
    moreau = table4.phone("moreau", MOREAU)
    first = table4.enter(moreau, WRONG_TAKER, "counts-0001")
    assert table4.confirm(table4.phone("cote"), COTE, [first]).status_code == 200
    table4.enter(moreau, {**WRONG_TAKER, "points": 60}, "counts-0002")
    assert table4.contest(table4.phone("lefevre"), LEFEVRE, first.number).status_code == 200
    assert notes(table4) == [
        "1 donne à confirmer par un adversaire de la personne qui l'a saisie.",
        "1 donne contestée : l'arbitre décide.",
    ]


def test_a_contested_waiting_deal_waits_for_its_correction_not_a_confirmation(table4: Table4):
    deal = table4.enter(table4.phone("moreau", MOREAU), WRONG_TAKER, "counts-0003")
    assert table4.contest(table4.phone("lefevre"), LEFEVRE, deal.number).status_code == 200
    assert notes(table4) == ["1 donne contestée : la personne qui l'a saisie la corrige."]
