"""The words of the table's phone page and the player's card (issue 38): nothing that assumes a
player is a man ("il ne peut pas enchérir" said of GARÇON Éloïse), no "bout(s)", and buttons
that say what they do."""

from __future__ import annotations

import html

from django.urls import reverse

from scoring.sheets.services.barring import BARRED_FAUSSE_DONNE, BARRED_RENONCE
from tests.scoring.sheets.table_entry.conftest import COTE, MOREAU, Table4

# What the pages said before, each a player's stumble.
BANNED = [
    "bout(s)",
    "il ne peut pas",
    "il ne joue pas",
    "celui qui l'a saisie",
    "de l'autre camp que",
    "vous étiez appelé",
    "1er de table",
    "Renvoyer quand même",
    "s'est appelé",
    "QR code",  # the README's glossary says "code QR"
]


def page_text(response) -> str:
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_the_barred_bidder_is_named_without_a_pronoun():
    for template in (BARRED_FAUSSE_DONNE, BARRED_RENONCE):
        said = str(template) % {"name": "GARÇON Éloïse", "number": 3}
        assert said.startswith("GARÇON Éloïse a fait") and " il " not in said
        assert "et ne peut pas enchérir sur cette donne" in said


def test_the_phone_page_and_the_card_say_bouts_and_nothing_banned(client, table4: Table4):
    moreau = table4.phone("phone-moreau", bound_to=MOREAU)
    deal = {"taker": MOREAU, "contract": "garde", "oudlers": 2, "points": 45}
    table4.enter(moreau, deal, "h" * 32)
    entry = page_text(moreau.get(reverse("table-entry", args=[table4.link.token])))
    assert "Garde · MOREAU · 2 bouts · 45 points" in entry
    cote = table4.players[COTE]
    card = page_text(client.get(reverse("public-player", args=[table4.tournament.pk, cote.pk])))
    for text in (entry, card):
        found = [word for word in BANNED if word in text]
        assert not found, found
    # The signing button says what it does; the finished sheet says what follows.
    assert "Viser la feuille : j'approuve toutes ses donnes" in entry
