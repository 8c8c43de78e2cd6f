"""Start labels ("3 O") are stored in no language and printed in the reader's."""

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.models import SheetPlayer
from tests.desk_helpers import make_tournament, table_sheet
from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tournament.models import seat_code, start_display

pytestmark = pytest.mark.django_db


def test_a_stored_start_reads_in_the_reader_language(english_catalogue):
    assert seat_code(4, "W") == "4 W"
    with translation.override("fr"):
        assert start_display("4 W") == "4 O"
        assert start_display("5 X") == "5 — 5e"
        # What older sheets stored, in French or English, reads the same.
        for legacy in ("4 O", "4 W"):
            assert start_display(legacy) == "4 O"
        for legacy in ("5 5e", "5 — 5e", "5 5th"):
            assert start_display(legacy) == "5 — 5e"
        # A free sheet's start is the player's number; anything else passes through.
        assert start_display("12") == "12"
        assert start_display("") == ""
    with translation.override("en"):
        assert start_display("4 O") == "4 W"
        assert start_display("5 X") == "5 — 5th"


def test_a_sheet_opened_in_english_prints_ouest_in_french(arbiter_client, english_catalogue):
    tournament, position = make_tournament(tables=2, size=4)
    arbiter_client.post(reverse("set_language"), {"language": "en", "next": "/"})
    sheet = table_sheet(arbiter_client, position, 2)
    stored = dict(SheetPlayer.objects.filter(sheet=sheet).values_list("direction", "start_label"))
    assert stored == {"N": "2 N", "E": "2 E", "S": "2 S", "W": "2 W"}

    arbiter_client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    page = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    assert ">2 O<" in page
    assert ">2 W<" not in page
    text = "\n".join(fetch_pdf(arbiter_client, reverse("print-sheet", args=[sheet.pk]))[1])
    assert "2 O" in text
    assert "2 W" not in text

    arbiter_client.post(reverse("set_language"), {"language": "en", "next": "/"})
    page = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    assert ">2 W<" in page
