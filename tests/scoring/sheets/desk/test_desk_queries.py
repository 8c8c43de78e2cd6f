"""Saving a deal and getting the sheet back costs the same queries in any size of tournament."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.desk_helpers import DEALS_004, deal_post, make_tournament, table_sheet

pytestmark = pytest.mark.django_db


def filled(client, tables: int):
    _tournament, position = make_tournament(tables=tables)
    sheets = [table_sheet(client, position, number) for number in range(1, tables + 1)]
    for sheet in sheets:
        for fields in DEALS_004[:3]:
            deal_post(client, sheet, fields)
    return position, sheets[0]


def save_queries(client, sheet) -> int:
    sheet.refresh_from_db()
    with CaptureQueriesContext(connection) as ctx:
        response = deal_post(client, sheet, DEALS_004[3], version=sheet.version)
    assert response.status_code == 200 and "errorlist" not in response.content.decode()
    # deal_post's own look-ups (version, next dealer) are counted too: constant as well.
    return len(ctx.captured_queries)


def test_saving_a_deal_costs_the_same_queries_in_a_small_and_a_large_tournament(
    arbiter_client, django_assert_max_num_queries
):
    _position, small = filled(arbiter_client, 1)
    small_count = save_queries(arbiter_client, small)
    _position, large = filled(arbiter_client, 12)
    large_count = save_queries(arbiter_client, large)
    assert small_count == large_count
    # 32: the save also asks whether an incident bars the taker from bidding on this deal, and
    # moves the tournament's live revision first (one upsert, before the sheet's row lock).
    with django_assert_max_num_queries(32):
        deal_post(arbiter_client, large, DEALS_004[4])


def test_the_overview_costs_the_same_queries_for_2_and_12_tables(arbiter_client):
    counts = []
    for tables in (2, 12):
        position, _sheet = filled(arbiter_client, tables)
        url = reverse("entry-overview", args=[position.tournament_id, 1])
        with CaptureQueriesContext(connection) as ctx:
            assert arbiter_client.get(url).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]
