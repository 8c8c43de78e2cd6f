"""Whatever is posted to the desk's forms, the server answers without an error 500."""

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.desk_helpers import make_tournament, table_sheet

pytestmark = pytest.mark.django_db

SEATS = st.sampled_from(["N", "E", "S", "O", "W", "5", "T", "A", "", "n", "x", "seul", "C"])
CONTRACTS = st.sampled_from(["P", "G", "GS", "GC", "g s", "", "garde", "Z"])
NUMBERS = st.one_of(
    st.integers(-5, 100).map(str),
    st.sampled_from(["d40", "D36", "a51", "40,5", "45.5", "91", "d91", "", "1e9", "nan"]),
)
POIGNEES = st.one_of(
    st.sampled_from(["", "N1", "E2", "S3", "O1 N2", "E1 E2", "X9", "N1,S1,E1,O1", "5T"]),
    st.text(max_size=8),
)
SIDES = st.sampled_from(["", "A", "D", "attaque", "défense", "?"])
CHELEMS = st.sampled_from(["", "R", "AR", "AC", "D", "AD", "ZZ"])
ANY = st.text(max_size=6)


def field(strategy):
    return st.one_of(strategy, ANY)


POSTS = st.fixed_dictionaries(
    {
        "taker": field(SEATS),
        "contract": field(CONTRACTS),
        "oudlers": field(st.integers(-1, 4).map(str)),
        "points": field(NUMBERS),
        "poignees": POIGNEES,
        "petit_au_bout": field(SIDES),
        "chelem": field(CHELEMS),
        "partner": field(SEATS),
        "side": st.sampled_from(["attack", "defense", "", "x"]),
        "dealer": st.sampled_from(["0", "1", "3", "4", "", "-1", "a"]),
        "version": st.sampled_from(["0", "1", "", "x", "999"]),
        "passed": st.sampled_from(["", "on", "False", "True"]),
        "arbiter_called": st.sampled_from(["", "on"]),
    }
)


@pytest.fixture(params=[("four", 4), ("five", 5), ("three", 3)], ids=["4", "5", "3"])
def sheet(request, arbiter_client):
    game, size = request.param
    _tournament, position = make_tournament(size=size, game=game)
    return table_sheet(arbiter_client, position)


# 30 examples for each table size (3, 4 and 5 players): 90 posts of each kind in all.
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=POSTS)
def test_no_deal_post_gives_a_server_error(arbiter_client, sheet, data):
    sheet.refresh_from_db()
    if data["version"] == "0":
        data["version"] = str(sheet.version)  # let valid posts through to the save
    for name in ("sheet-detail", "deal-preview"):
        response = arbiter_client.post(reverse(name, args=[sheet.pk]), data, HTTP_HX_REQUEST="true")
        assert response.status_code < 500
    deal = sheet.deals.order_by("-number").first()
    if deal is not None:
        response = arbiter_client.post(reverse("deal-edit", args=[deal.pk]), data)
        assert response.status_code < 500
    for deal in sheet.deals.all():
        assert sum(deal.scores) == 0


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=st.dictionaries(
        st.sampled_from(["version", "margin", "reason", "score_0", "score_1", "score_2",
                         "score_3", "score_4", "action", "bilan_0", "bilan_1", "bilan_2",
                         "bilan_3"]),
        st.one_of(st.integers(-10**7, 10**7).map(str), st.text(max_size=5)),
    )
)  # fmt: skip
def test_no_adjust_or_crosscheck_post_gives_a_server_error(arbiter_client, sheet, data):
    deal = sheet.deals.first()
    if deal is None:
        players = sheet.players.count()
        fields = {"taker": "N", "contract": "G", "oudlers": "2", "points": "51", "dealer": 0,
                  "version": sheet.version, "partner": "C"}  # fmt: skip
        assert players in (3, 4, 5)
        arbiter_client.post(reverse("sheet-detail", args=[sheet.pk]), fields)
        deal = sheet.deals.get()
    response = arbiter_client.post(reverse("deal-adjust", args=[deal.pk]), data)
    assert response.status_code < 500
    response = arbiter_client.post(reverse("sheet-crosscheck", args=[sheet.pk]), data)
    assert response.status_code < 500
