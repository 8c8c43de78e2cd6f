"""The desk stays on the position still being entered, and says which one a table number opens.

On the evening, position 2 was published while position 1 still had missing sheets; the desk
then opened on position 2 and "1" + Enter opened position 2's table 1. Now the desk opens the
earliest published position with sheets still to enter until the arbiter moves on by hand,
and publishing while an earlier position has missing sheets asks for confirmation.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.sheets.entry_progress import ToEnter, sheets_to_enter
from tests.desk_helpers import DEALS_004, deal_post, make_tournament, table_sheet
from tournament.models import ChangeLog, Position, Seat, Table

pytestmark = pytest.mark.django_db


def second_position(tournament, first, status="draft") -> Position:
    """Position 2 with the same tables and players as position 1."""
    position = Position.objects.create(tournament=tournament, number=2, status=status)
    for table in first.tables.all():
        copy = Table.objects.create(position=position, number=table.number, game=table.game)
        for seat in table.seats.all():
            Seat.objects.create(
                table=copy, registration=seat.registration, direction=seat.direction
            )
    return position


def fill(client, position, number: int, deals: int = 5) -> None:
    sheet = table_sheet(client, position, number)
    for fields in DEALS_004[:deals]:
        deal_post(client, sheet, fields)


@pytest.fixture
def evening(arbiter_client):
    """Position 1 of 3 tables: table 1 complete, table 2 with 2 deals, table 3 untouched."""
    tournament, first = make_tournament(tables=3)
    fill(arbiter_client, first, 1)
    fill(arbiter_client, first, 2, deals=2)
    return tournament, first


def test_sheets_to_enter_counts_missing_and_incomplete_sheets(arbiter_client, evening):
    tournament, first = evening
    second = second_position(tournament, first, status="published")
    with CaptureQueriesContext(connection) as ctx:
        to_enter = sheets_to_enter(tournament, [first, second])
    assert len(ctx.captured_queries) == 2
    assert to_enter == {
        first.pk: ToEnter(number=1, missing=1, incomplete=1),
        second.pk: ToEnter(number=2, missing=3, incomplete=0),
    }
    fill(arbiter_client, first, 2)  # 2 + 3 more deals: 5 in all
    fill(arbiter_client, first, 3)
    assert first.pk not in sheets_to_enter(tournament, [first, second])


def overview(client, tournament, number=None) -> str:
    args = [tournament.pk] if number is None else [tournament.pk, number]
    response = client.get(reverse("entry-overview", args=args))
    assert response.status_code == 200
    return response.content.decode()


def jump_urls(html: str, position: Position) -> bool:
    """Whether the table-number box opens this position's tables."""
    tables = position.tables.order_by("number")
    return all(reverse("sheet-for-table", args=[t.pk]) in html for t in tables)


def test_the_desk_stays_on_the_position_being_entered_until_the_arbiter_moves_on(
    arbiter_client, evening
):
    tournament, first = evening
    second = second_position(tournament, first, status="published")
    html = overview(arbiter_client, tournament)
    assert "Position 1 : feuilles de marque" in html
    assert jump_urls(html, first) and not jump_urls(html, second)
    assert "Table n° (position 1)" in html
    assert "Entrée ouvre la feuille de la table __table__ de la position 1." in html
    assert "La position 2 est publiée, mais la saisie reste sur la position 1" in html

    # The arbiter moves on by hand: from then on the desk opens position 2.
    html = overview(arbiter_client, tournament, 2)
    assert "La position 1 n'est pas terminée : 1 feuille manquante, 1 incomplète." in html
    html = overview(arbiter_client, tournament)
    assert "Position 2 : feuilles de marque" in html and jump_urls(html, second)

    # Back to position 1 by hand; once its sheets are all in, the desk goes on to position 2.
    overview(arbiter_client, tournament, 1)
    assert "Position 1 : feuilles de marque" in overview(arbiter_client, tournament)
    fill(arbiter_client, first, 2)
    fill(arbiter_client, first, 3)
    html = overview(arbiter_client, tournament)
    assert "Position 2 : feuilles de marque" in html
    assert "n'est pas terminée" not in html


def test_the_default_desk_page_costs_the_same_queries_for_3_and_12_tables(arbiter_client):
    counts = []
    for tables in (3, 12):
        tournament, first = make_tournament(tables=tables, name=f"T{tables}")
        fill(arbiter_client, first, 1, deals=2)
        second_position(tournament, first, status="published")
        with CaptureQueriesContext(connection) as ctx:
            overview(arbiter_client, tournament)
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]


def test_publishing_while_an_earlier_position_has_missing_sheets_asks_first(
    arbiter_client, evening
):
    tournament, first = evening
    second = second_position(tournament, first)
    url = reverse("position-publish", args=[tournament.pk, 2])
    response = arbiter_client.post(url)
    html = response.content.decode()
    assert response.status_code == 200
    assert "La position 1 a encore 1 feuille manquante et 1 feuille incomplète." in html
    assert 'name="confirm" value="1"' in html and "Publier quand même la position 2" in html
    second.refresh_from_db()
    assert second.status == Position.Status.DRAFT

    response = arbiter_client.post(url, {"confirm": "1"})
    assert response.status_code == 302
    second.refresh_from_db()
    assert second.status == Position.Status.PUBLISHED
    log = ChangeLog.objects.filter(object_type="position", object_id=second.pk).first()
    assert log.after == {"status": "published", "sheets_to_enter": {"1": 2}}
    # The desk still opens on position 1.
    assert "Position 1 : feuilles de marque" in overview(arbiter_client, tournament)


def test_publishing_after_a_complete_position_asks_nothing(arbiter_client, evening):
    tournament, first = evening
    fill(arbiter_client, first, 2)
    fill(arbiter_client, first, 3)
    second = second_position(tournament, first)
    response = arbiter_client.post(reverse("position-publish", args=[tournament.pk, 2]))
    assert response.status_code == 302
    second.refresh_from_db()
    assert second.status == Position.Status.PUBLISHED


def test_an_overview_of_a_position_the_tournament_lacks_is_not_found(arbiter_client, evening):
    tournament, first = evening
    assert "Table 1" in overview(arbiter_client, tournament, first.number)
    url = reverse("entry-overview", args=[tournament.pk, 9])
    assert arbiter_client.get(url).status_code == 404
