"""Validating a position in one action: the complete and verified sheets are validated (each
through the sheet's own validation, one history entry per sheet), the others are listed with
the reason they are left."""

import pytest
from django.urls import reverse

from scoring.models import ScoreSheet
from scoring.sheets.services import deal_record, sheet_for_table, sheet_set_paper_bilans
from tests.conftest import browser_login
from tests.desk_helpers import make_tournament
from tournament.models import ChangeLog

DEAL = {"players": 4, "taker": 0, "contract": "garde", "oudlers": 2, "points": 50}


def evening():
    """Table 1 complete, table 2 complete with paper bilans that differ, table 3 at 2/5 deals,
    table 4 without a deal, table 5 complete."""
    tournament, position = make_tournament(tables=5)
    for number, deals in ((1, 5), (2, 5), (3, 2), (5, 5)):
        sheet = sheet_for_table(table=position.tables.get(number=number))
        for _ in range(deals):
            deal_record(sheet=ScoreSheet.objects.get(pk=sheet.pk), data=DEAL)
    sheet = ScoreSheet.objects.get(table__position=position, table__number=2)
    sheet_set_paper_bilans(sheet=sheet, bilans=[1, 2, 3, -6])
    return tournament, position


def validated_tables(position) -> list[int]:
    return sorted(
        ScoreSheet.objects.filter(
            table__position=position, status=ScoreSheet.Status.VALIDATED
        ).values_list("table__number", flat=True)
    )


@pytest.mark.django_db
def test_one_action_validates_the_ready_sheets_and_says_why_the_others_are_left(arbiter_client):
    tournament, position = evening()
    url = reverse("position-validate", args=[tournament.pk, 1])
    response = arbiter_client.post(url, follow=True)
    assert validated_tables(position) == [1, 5]
    html = response.content.decode()
    assert "2 feuilles validées." in html
    assert "table 2 (bilans papier différents)" in html
    assert "table 3 (2/5 donnes)" in html
    assert "table 4 (aucune donne)" in html
    # Logged per sheet, like a validation by hand.
    logged = ChangeLog.objects.filter(
        object_type=ChangeLog.ObjectType.SHEET_STATUS, sheet__table__position=position
    )
    assert sorted(logged.values_list("sheet__table__number", flat=True)) == [1, 5]
    # Again: nothing more, the two counted as already validated.
    html = arbiter_client.post(url, follow=True).content.decode()
    assert "0 feuilles validées. 2 déjà validées." in html


@pytest.mark.django_db
def test_a_scorer_may_not_validate_a_position(client, scorer):
    tournament, position = evening()
    client.force_login(scorer)
    response = client.post(reverse("position-validate", args=[tournament.pk, 1]))
    assert response.status_code in (403, 404)
    assert validated_tables(position) == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_desk_validates_a_position_with_one_click(desk_page, live_server, arbiter):
    tournament, position = evening()
    browser_login(desk_page, live_server, "arbitre-test", "pw-arbitre-1")
    desk_page.goto(f"{live_server.url}/tournois/{tournament.pk}/saisie/position/1/")
    desk_page.get_by_role("button", name="Valider les feuilles complètes et vérifiées").click()
    message = desk_page.locator(".messages li")
    message.wait_for()
    assert "2 feuilles validées" in message.inner_text()
    assert "table 3 (2/5 donnes)" in message.inner_text()
    assert validated_tables(position) == [1, 5]
