"""Two people on the same sheet: the later save reports the conflict and nothing is lost."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.desk_helpers import DEALS_004, deal_post, make_tournament, table_sheet
from tournament.models import ChangeLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_clients(arbiter, scorer):
    first, second = Client(), Client()
    first.force_login(arbiter)
    second.force_login(scorer)
    return first, second


@pytest.fixture
def sheet(two_clients):
    _tournament, position = make_tournament()
    return table_sheet(two_clients[0], position)


@pytest.fixture
def deal_1(two_clients, sheet):
    """Deal 1 saved by the first client, the sheet refreshed to the version it left."""
    deal_post(two_clients[0], sheet, DEALS_004[0])
    sheet.refresh_from_db()
    return sheet.deals.get()


def test_the_second_save_on_an_old_version_shows_the_conflict_and_keeps_the_input(
    two_clients, sheet
):
    first, second = two_clients
    version = sheet.version  # both opened the sheet at this version
    assert deal_post(first, sheet, DEALS_004[0], version=version).status_code == 200
    response = deal_post(second, sheet, DEALS_004[1], version=version)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="conflict"' in html and "arbitre-test" in html  # who changed it meanwhile
    assert sheet.deals.count() == 1  # nothing overwritten, nothing silently added
    # The other person's deal is on the sheet shown, the typed deal is still on the form,
    # with the current version so that validating again saves it.
    assert "318" in html
    assert 'name="taker" id="id_taker" value="O"' in html
    assert 'name="points" id="id_points" value="d36"' in html
    sheet.refresh_from_db()
    assert f'name="version" value="{sheet.version}"' in html
    # Both versions are recoverable from the history.
    conflict = ChangeLog.objects.get(sheet=sheet, action="conflict")
    assert conflict.after["expected_version"] == version
    assert conflict.after["input"]["contract"] == "garde_sans"
    assert conflict.after["input"]["points"] == 55
    assert conflict.before["deals"][0]["contract"] == "garde"
    assert (
        "Conflit de saisie"
        in second.get(reverse("sheet-history", args=[sheet.pk])).content.decode()
    )
    # Validating again (the form now carries the current version) saves the deal.
    assert deal_post(second, sheet, DEALS_004[1], version=sheet.version).status_code == 200
    assert sheet.deals.count() == 2


def test_two_corrections_of_the_same_deal_do_not_overwrite_each_other(two_clients, sheet, deal_1):
    first, second = two_clients
    deal, version = deal_1, sheet.version
    url = reverse("deal-edit", args=[deal.pk])
    base = {"dealer": 0, "side": "attack", "version": version}
    first.post(url, {**base, **DEALS_004[0], "points": "60"}, HTTP_HX_REQUEST="true")
    html = second.post(
        url, {**base, **DEALS_004[0], "points": "70"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'id="conflict"' in html
    assert "Correction de la donne 1" in html  # still editing, with the typed points
    assert 'name="points" id="id_points" value="70"' in html
    deal.refresh_from_db()
    assert deal.points == 60
    update = ChangeLog.objects.get(sheet=sheet, action="update")
    conflict = ChangeLog.objects.get(sheet=sheet, action="conflict")
    assert update.before["points"] == 49 and update.after["points"] == 60
    assert conflict.after["input"]["points"] == 70


def test_a_delete_on_an_old_version_is_refused(two_clients, sheet, deal_1):
    first, second = two_clients
    deal, stale = deal_1, sheet.version
    deal_post(first, sheet, DEALS_004[1])
    html = second.post(
        reverse("deal-delete", args=[deal.pk]), {"version": stale}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'id="conflict"' in html
    assert sheet.deals.count() == 2
    assert ChangeLog.objects.get(action="conflict").after["input"] == {"delete_deal": 1}
