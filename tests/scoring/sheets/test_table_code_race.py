"""A phone's code is checked against the player at its seat while another phone of the table may
be creating the sheet (its first deal): the sheet and its players are committed together, and
the check never sees one without the other. Found by the big-event bench at 200 tables: a
deal refused with "Choisissez votre nom."."""

import pytest
from django.db import connection

from scoring.models import ScoreSheet, SheetPlayer
from scoring.sheets.services import sheet_for_table
from scoring.sheets.table_entry.codes import Client, code_check
from tests.scoring.live.test_phone_trust import build

pytestmark = pytest.mark.django_db


def test_a_sheet_created_by_another_phone_between_the_reads_does_not_refuse_the_code():
    built = build()
    link, players = built["link"], built["players"]
    tables = (ScoreSheet._meta.db_table, SheetPlayer._meta.db_table)
    created: list[ScoreSheet] = []

    def other_phone(execute, sql, params, many, context):
        """Right after the check's first read of the sheet or its players, the other phone's
        transaction creates the sheet and commits."""
        result = execute(sql, params, many, context)
        if not created and any(table in sql for table in tables):
            created.append(ScoreSheet(pk=0))  # before: the creation's own reads pass through
            created[0] = sheet_for_table(table=link.table)
        return result

    with connection.execute_wrapper(other_phone):
        registration = code_check(
            link=link, seat=2, pin=players[2].pin, client=Client("10.0.0.7", "phone-sud")
        )
    assert created and created[0].pk  # the sheet was created between the reads
    assert registration == players[2]
    # Once the sheet exists, the seat is read from its players.
    assert (
        code_check(link=link, seat=3, pin=players[3].pin, client=Client("10.0.0.8")) == (players[3])
    )
