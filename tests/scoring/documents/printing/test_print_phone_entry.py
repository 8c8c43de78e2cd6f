"""What the printed documents carry when players enter their deals on phones: the table's code
and QR code on its blank sheet and on the table plan, each player's personal code on their
itinerary card, and who entered and who confirmed each deal on the completed sheets.

A paper tournament prints exactly as before, and printing never creates a table's link.
"""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.documents.printing import phone_entry
from scoring.documents.printing.blank_sheets import blank_sheet_pages
from scoring.models import Deal, ScoreSheet, TableLink
from scoring.sheets.services import sheet_for_table
from scoring.sheets.table_entry import (
    Client,
    deal_confirm_by_arbiter,
    deals_confirm,
    link_revoke,
    links_for_position,
    phone_deal_record,
)
from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tests.scoring.documents.printing.print_tournament import build_print_tournament
from tournament.models import Registration, Tournament

PHONE = Client(address="192.168.1.20", device="phone1")

pytestmark = pytest.mark.django_db

HINT = "Saisie sur téléphone : scannez ou tapez le code sur http://testserver/table/"


def flat(text: str) -> str:
    """pypdf text on one line: a wrapped line or cell reads as one phrase."""
    return " ".join(text.split())


def with_mode(data, mode: str):
    Tournament.objects.filter(pk=data.tournament.pk).update(entry_mode=mode)
    data.tournament.refresh_from_db()
    return data


@pytest.fixture
def phones():
    """The printing tournament played on phones; position 1 is published with its links."""
    data = with_mode(build_print_tournament(), Tournament.EntryMode.PHONES)
    data.links = {link.table.number: link for link in links_for_position(data.positions[0])}
    return data


@pytest.fixture
def paper():
    """The same tournament on paper; its tables have links all the same, never printed."""
    data = build_print_tournament()
    data.links = {link.table.number: link for link in links_for_position(data.positions[0])}
    return data


def blank_url(data, number=1):
    return reverse("print-blank-sheets", args=[data.tournament.pk, number])


def entry_url(link) -> str:
    return "http://testserver" + reverse("table-entry", args=[link.token])


# Blank sheets --------------------------------------------------------------------------------


def test_each_blank_sheet_of_a_phone_tournament_has_its_table_code_and_hint(arbiter_client, phones):
    reader, pages = fetch_pdf(arbiter_client, blank_url(phones))
    assert len(reader.pages) == 4  # still one page per table
    codes = {number: link.code for number, link in phones.links.items()}
    for number, text in enumerate(pages, start=1):
        text = flat(text)
        assert re.search(rf"Table n° : {number}\b", text)
        assert "Code de la table" in text
        assert codes[number] in text
        # No other table's code on this sheet.
        assert not [code for n, code in codes.items() if n != number and code in text]
        assert HINT in text


def test_the_qr_code_of_each_sheet_is_the_absolute_url_of_its_tables_page(
    arbiter_client, phones, monkeypatch
):
    encoded = []
    monkeypatch.setattr(phone_entry, "qr_svg", lambda url: encoded.append(url) or "<svg></svg>")
    fetch_pdf(arbiter_client, blank_url(phones))
    assert encoded == [entry_url(phones.links[number]) for number in (1, 2, 3, 4)]


def test_both_paper_and_phones_prints_the_codes_too(arbiter_client, phones):
    with_mode(phones, Tournament.EntryMode.BOTH)
    _reader, pages = fetch_pdf(arbiter_client, blank_url(phones))
    assert phones.links[3].code in flat(pages[2]) and HINT in flat(pages[2])


def test_a_paper_tournament_prints_no_code_and_no_hint(arbiter_client, paper, monkeypatch):
    encoded = []
    monkeypatch.setattr(phone_entry, "qr_svg", lambda url: encoded.append(url) or "<svg></svg>")
    reader, pages = fetch_pdf(arbiter_client, blank_url(paper))
    assert len(reader.pages) == 4
    text = flat(" ".join(pages))
    assert "Saisie sur téléphone" not in text and "Code de la table" not in text
    assert not [link.code for link in paper.links.values() if link.code in text]
    assert encoded == []


def test_printing_reads_links_and_never_creates_one(arbiter_client, phones):
    before = set(TableLink.objects.values_list("pk", "token", "code"))
    # Position 2 is a draft: its tables have no link, so its sheets print without a code.
    _reader, pages = fetch_pdf(arbiter_client, blank_url(phones, 2))
    assert "Saisie sur téléphone" not in flat(" ".join(pages))
    fetch_pdf(arbiter_client, blank_url(phones, 1))
    fetch_pdf(arbiter_client, reverse("print-table-plan", args=[phones.tournament.pk]))
    assert set(TableLink.objects.values_list("pk", "token", "code")) == before


def test_a_revoked_link_is_not_printed_and_its_replacement_is(arbiter_client, phones):
    old = phones.links[2]
    new = link_revoke(link=old)
    TableLink.objects.filter(pk=phones.links[3].pk).update(revoked=True)
    _reader, pages = fetch_pdf(arbiter_client, blank_url(phones))
    assert old.code not in flat(pages[1]) and new.code in flat(pages[1])
    assert phones.links[3].code not in flat(pages[2])
    assert "Saisie sur téléphone" not in flat(pages[2])


def test_many_deals_and_the_phone_box_still_fit_one_page_per_table(arbiter_client, db):
    data = with_mode(build_print_tournament(deals_per_table=12), Tournament.EntryMode.PHONES)
    links_for_position(data.positions[0])
    reader, pages = fetch_pdf(arbiter_client, blank_url(data))
    assert len(reader.pages) == 4
    assert "Donne 13" in pages[3] and "Donne 12" in pages[0]
    assert all(HINT in flat(text) for text in pages)


def test_the_phone_box_costs_no_query_per_table(phones, paper):
    def queries(position) -> int:
        position.tournament.refresh_from_db()
        with CaptureQueriesContext(connection) as captured:
            blank_sheet_pages(position, "http://testserver/")
        return len(captured)

    assert queries(phones.positions[0]) == queries(paper.positions[0])


# Table plan ----------------------------------------------------------------------------------


def test_the_table_plan_gives_each_tables_code(arbiter_client, phones):
    url = reverse("print-table-plan", args=[phones.tournament.pk, 1])
    _reader, pages = fetch_pdf(arbiter_client, url)
    text = flat(" ".join(pages))
    assert text.count("Code ") == len(phones.links) == 4
    for link in phones.links.values():
        assert f"Code {link.code}" in text


def test_a_paper_table_plan_gives_no_code(arbiter_client, paper):
    url = reverse("print-table-plan", args=[paper.tournament.pk, 1])
    _reader, pages = fetch_pdf(arbiter_client, url)
    text = flat(" ".join(pages))
    assert not [link.code for link in paper.links.values() if link.code in text]


# Itinerary cards -----------------------------------------------------------------------------


def cards_text(client, data) -> str:
    _reader, pages = fetch_pdf(client, reverse("print-itineraries", args=[data.tournament.pk]))
    return flat(" ".join(pages))


def test_itinerary_cards_give_each_player_their_personal_code_on_phones(arbiter_client, phones):
    text = cards_text(arbiter_client, phones)
    assert text.count("Code personnel (pour confirmer les donnes sur téléphone)") == len(
        phones.registrations
    )
    for registration in Registration.objects.filter(tournament=phones.tournament):
        name = re.escape(registration.player.full_name)
        pin = registration.pin
        # On the player's own card: after their name, before the next card's.
        assert re.search(rf"{name} N° {registration.number}\b[^:]*?: {pin}\b", text), name


def test_itinerary_cards_of_a_paper_tournament_still_carry_the_code(arbiter_client, paper):
    """Phone entry may be switched on after the cards are printed: they must not be useless."""
    text = cards_text(arbiter_client, paper)
    assert text.count("Code personnel (si la saisie se fait sur téléphone)") == len(
        paper.registrations
    )
    for registration in Registration.objects.filter(tournament=paper.tournament):
        name = re.escape(registration.player.full_name)
        assert re.search(rf"{name} N° {registration.number}\b[^:]*?: {registration.pin}\b", text)


# Completed sheets ----------------------------------------------------------------------------


def phone_sheet(data, arbiter) -> ScoreSheet:
    """Table 2 at position 1 enters three deals on a phone: the first confirmed by a defender
    with their code, the second by the arbiter, the third still waiting."""
    link = data.links[2]
    sheet = sheet_for_table(table=link.table)
    players = {p.seat: p.registration for p in sheet.players.select_related("registration")}
    version = sheet.version
    for number, (taker, contract, points) in enumerate(
        [(0, "garde", 51), (1, "prise", 40), (2, "prise", 56)], start=1
    ):
        deal, _replayed = phone_deal_record(
            link=link,
            client_id=f"phone-deal-{number:04d}",
            data=dict(players=4, taker=taker, contract=contract, oudlers=1, points=points),
            enterer=players[taker],
            version=version,
        )
        sheet = ScoreSheet.objects.get(pk=deal.sheet_id)
        if number == 1:
            deals_confirm(  # the defender at seat 1, the deal listed on his phone
                link=link,
                seat=1,
                pin=players[1].pin,
                client=PHONE,
                deals=[deal.pk],
                version=sheet.version,
            )
        elif number == 2:
            deal_confirm_by_arbiter(deal=deal, user=arbiter, expected_version=sheet.version)
        version = ScoreSheet.objects.get(pk=sheet.pk).version
    return ScoreSheet.objects.select_related("tournament", "table__position").get(pk=sheet.pk)


def test_a_phone_entered_sheet_says_who_entered_and_confirmed_each_deal(
    arbiter_client, arbiter, phones
):
    sheet = phone_sheet(phones, arbiter)
    deals = list(Deal.objects.filter(sheet=sheet).order_by("number"))
    assert [d.pending for d in deals] == [False, False, True]
    _reader, pages = fetch_pdf(arbiter_client, reverse("print-sheet", args=[sheet.pk]))
    assert len(pages) == 1
    text = flat(pages[0])
    martin, bernard, thomas = "5 – MARTIN Paul", "6 – BERNARD Anne", "7 – THOMAS Luc"
    assert f"Saisie par {martin}, confirmée par {bernard}" in text
    assert f"Saisie par {bernard}, confirmée par arbitre {arbiter.username}" in text
    assert f"Saisie par {thomas}, à confirmer" in text
    # Otherwise the sheet prints like a typed one: rows, totals and bilans.
    assert re.search(r"Donne 1 Garde\b", text) and "Total" in text and "Bilan" in text


def test_desk_typed_sheets_carry_no_mention(arbiter_client, arbiter, phones):
    phone_sheet(phones, arbiter)
    url = reverse("print-sheets", args=[phones.tournament.pk, 1])
    _reader, pages = fetch_pdf(arbiter_client, url)
    assert len(pages) == 3  # tables 1, 2 and 4
    assert "Saisie par" in flat(pages[1])
    assert "Saisie par" not in flat(pages[0]) + flat(pages[2])


def test_phone_deals_cost_no_extra_query_on_the_completed_sheets(arbiter, phones):
    from scoring.documents.printing.completed_sheets import completed_sheet_page

    def queries(sheet) -> int:
        with CaptureQueriesContext(connection) as captured:
            completed_sheet_page(sheet)
        return len(captured)

    typed = ScoreSheet.objects.select_related("tournament", "table__position").get(
        pk=phones.second_sheet.pk
    )
    assert queries(phone_sheet(phones, arbiter)) == queries(typed)
