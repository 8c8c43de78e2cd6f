"""Blank sheets cost the same per page whatever the page count (one HTML document per PDF).

Counted in Python function calls rather than seconds, so that a busy machine cannot make it
flaky; bench/pdf.py gives the times.
"""

import cProfile
import pstats

import pytest

from scoring.documents.printing.blank_sheets import blank_sheets_pdf
from scoring.sheets.table_entry import links_for_position
from tournament.models import Player, Position, Registration, Seat, Table, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
# Counts the calls of each layout: every document is laid out for real (see conftest.py).
RENDER_EVERY_PDF = True


def position_of(tables: int, entry_mode: str = Tournament.EntryMode.PAPER) -> Position:
    tournament = Tournament.objects.create(
        name=f"Coût {tables}", date="2026-11-21", entry_mode=entry_mode
    )
    tournament.refresh_from_db()
    position = Position.objects.create(tournament=tournament, number=1)
    for number in range(1, tables + 1):
        table = Table.objects.create(position=position, number=number)
        for index, direction in enumerate("NESW"):
            player = Player.objects.create(last_name=f"JOUEUR{number:02d}{index}")
            registration = Registration.objects.create(
                tournament=tournament, player=player, number=number * 4 + index
            )
            Seat.objects.create(table=table, registration=registration, direction=direction)
    if entry_mode != Tournament.EntryMode.PAPER:
        links_for_position(position)
    return position


def calls_per_page(position: Position, pages: int) -> float:
    profile = cProfile.Profile()
    profile.enable()
    blank_sheets_pdf(position, base_url="http://tarot.example/")
    profile.disable()
    return pstats.Stats(profile).total_calls / pages


def test_per_page_cost_does_not_grow_with_the_page_count():
    blank_sheets_pdf(position_of(1))  # first-use costs (fonts, stylesheets) out of the way
    few, many = calls_per_page(position_of(3), 3), calls_per_page(position_of(12), 12)
    assert many < few * 1.1, (few, many)


def test_the_table_codes_and_qr_codes_of_a_phone_tournament_cost_the_same_per_page():
    phones = Tournament.EntryMode.PHONES
    blank_sheets_pdf(position_of(1, phones), base_url="http://tarot.example/")
    few = calls_per_page(position_of(3, phones), 3)
    many = calls_per_page(position_of(12, phones), 12)
    assert many < few * 1.1, (few, many)
