"""The arbiter's ranking pages: login required, tabs, sortable columns, player page."""

import pytest
from django.urls import reverse

from tests.report_builders import add_penalty, build_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def built():
    return build_tournament()


def test_ranking_requires_a_login(client, built):
    url = reverse("ranking", args=[built["tournament"].pk])
    response = client.get(url)
    assert response.status_code == 302
    assert "/connexion/" in response["Location"]


def test_ranking_lists_players_by_total_with_links_to_their_page(arbiter_client, built):
    tournament = built["tournament"]
    response = arbiter_client.get(reverse("ranking", args=[tournament.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.index("JOUEURA A") < html.index("JOUEURE E") < html.index("JOUEURC C")
    reg = built["registrations"]["A"]
    assert reverse("ranking-player", args=[tournament.pk, reg.pk]) in html
    assert "+221" in html
    assert reverse("export-ranking-xlsx", args=[tournament.pk]) in html
    assert "normalisé" not in html


def test_columns_sort_on_request(arbiter_client, built):
    url = reverse("ranking", args=[built["tournament"].pk])
    html = arbiter_client.get(url + "?sort=-number").content.decode()
    assert html.index("JOUEURI I") < html.index("JOUEURA A")
    assert "sort=" in html  # headers are links


def test_position_team_and_club_tabs(arbiter_client, built):
    url = reverse("ranking", args=[built["tournament"].pk])
    html = arbiter_client.get(url + "?position=2").content.decode()
    assert "Résultats de la position 2" in html
    assert html.index("JOUEURH H") < html.index("JOUEURA A")  # H +100 at position 2
    html = arbiter_client.get(url + "?vue=equipes").content.decode()
    assert "Duo AB" in html and "+201" in html
    html = arbiter_client.get(url + "?vue=clubs").content.decode()
    assert "Paris" in html and "+187" in html


def test_normalised_ranking_says_so(arbiter_client):
    built = build_tournament(normalise_tables=True)
    html = arbiter_client.get(reverse("ranking", args=[built["tournament"].pk])).content.decode()
    assert "Classement normalisé" in html


def test_player_page_lists_every_deal_with_a_running_total_and_penalties(arbiter_client, built):
    add_penalty(built, "A", 15, at=(2, 1))
    tournament = built["tournament"]
    reg = built["registrations"]["A"]
    response = arbiter_client.get(reverse("ranking-player", args=[tournament.pk, reg.pk]))
    assert response.status_code == 200
    lines = response.context["deals"]["lines"]
    assert [line["points"] for line in lines] == [210, -25, 36]
    assert [line["running"] for line in lines] == [210, 185, 221]
    assert [line["role"] for line in lines] == ["taker", "defence", "defence"]
    html = response.content.decode()
    assert "Carte exposée" in html and "−15" in html
    assert response.context["ranked"].row.total == 206


def test_player_page_says_1er_for_the_leader_and_2e_after(arbiter_client, built):
    tournament = built["tournament"]
    leader = arbiter_client.get(
        reverse("ranking-player", args=[tournament.pk, built["registrations"]["A"].pk])
    ).content.decode()
    assert "1<sup>er</sup> au classement" in leader and "1<sup>e</sup>" not in leader
    second = arbiter_client.get(
        reverse("ranking-player", args=[tournament.pk, built["registrations"]["E"].pk])
    ).content.decode()
    assert "2<sup>e</sup> au classement" in second


def test_player_of_another_tournament_is_a_404(arbiter_client, built):
    other = build_tournament()
    reg = other["registrations"]["A"]
    url = reverse("ranking-player", args=[built["tournament"].pk, reg.pk])
    assert arbiter_client.get(url).status_code == 404
