"""Bad input at the desk is refused next to its field, and what was typed stays on the form."""

import html as html_lib
import re

import pytest

from tests.desk_helpers import DEALS_004, deal_post, make_tournament, table_sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet(arbiter_client):
    _tournament, position = make_tournament()
    return table_sheet(arbiter_client, position)


def field_errors(html: str, field: str) -> str:
    match = re.search(rf'<ul class="errorlist" id="error-{field}">(.*?)</ul>', html, re.S)
    return html_lib.unescape(match.group(1)) if match else ""


def typed(html: str, field: str) -> str:
    return re.search(rf'name="{field}" id="id_{field}" value="([^"]*)"', html).group(1)


def test_points_impossible_with_the_oudlers_is_refused_with_the_engine_s_message(
    arbiter_client, sheet
):
    fields = {"taker": "N", "contract": "G", "oudlers": "3", "points": "10", "poignees": "N1"}
    response = deal_post(arbiter_client, sheet, fields)
    html = response.content.decode()
    assert response.status_code == 200
    assert "impossible avec ce nombre de bouts (3)" in field_errors(html, "points")
    assert typed(html, "points") == "10"
    assert typed(html, "poignees") == "N1"
    assert typed(html, "contract") == "G"
    assert sheet.deals.count() == 0
    sheet.refresh_from_db()
    assert sheet.version == 0


def test_unknown_seat_and_contract_are_named(arbiter_client, sheet):
    html = deal_post(
        arbiter_client, sheet, {"taker": "Z", "contract": "GX", "oudlers": "x", "points": "?"}
    ).content.decode()
    assert "Z n'est pas une place" in field_errors(html, "taker")
    assert "GX n'est pas un contrat" in field_errors(html, "contract")
    assert field_errors(html, "oudlers") and field_errors(html, "points")
    assert typed(html, "taker") == "Z"


def test_a_chelem_with_too_few_points_is_refused_on_the_chelem_field(arbiter_client, sheet):
    fields = {**DEALS_004[4], "points": "70"}
    html = deal_post(arbiter_client, sheet, fields).content.decode()
    assert "tous les plis" in field_errors(html, "chelem")


def test_half_points_at_four_players_are_refused(arbiter_client, sheet):
    fields = {"taker": "N", "contract": "P", "oudlers": "1", "points": "50,5"}
    html = deal_post(arbiter_client, sheet, fields).content.decode()
    assert "demi-point" in field_errors(html, "points")
    assert typed(html, "points") == "50,5"


def test_two_poignees_for_one_player_are_refused(arbiter_client, sheet):
    fields = {"taker": "N", "contract": "P", "oudlers": "1", "points": "51", "poignees": "E1 E2"}
    html = deal_post(arbiter_client, sheet, fields).content.decode()
    assert "une seule par joueur" in field_errors(html, "poignees")


def test_errors_are_shown_in_english_when_the_user_reads_english(arbiter_client, sheet):
    # The engine's message goes through gettext; without a catalogue entry it stays French,
    # but the request must still succeed under another language.
    arbiter_client.cookies["django_language"] = "en"
    fields = {"taker": "N", "contract": "G", "oudlers": "3", "points": "10"}
    response = deal_post(arbiter_client, sheet, fields)
    assert response.status_code == 200
    assert field_errors(response.content.decode(), "points")


def test_superscript_digits_are_not_a_number_of_oudlers(arbiter_client):
    """'²'.isdigit() is true in Python but int('²') fails: it must be a form error, not a 500."""
    _tournament, position = make_tournament()
    sheet = table_sheet(arbiter_client, position)
    response = deal_post(arbiter_client, sheet, {**DEALS_004[0], "oudlers": "²"})
    assert response.status_code == 200
    assert "n'est pas un nombre de bouts" in response.content.decode().replace("&#x27;", "'")
    assert sheet.deals.count() == 0
