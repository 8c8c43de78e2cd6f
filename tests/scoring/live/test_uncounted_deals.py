"""Issue 35, one rule for what counts: a deal typed on a phone that nobody confirmed, or that an
opponent contested, counts in no total the arbiter reads either (ranking page, classement.pdf,
the XLSX, the cockpit's leaders, seating by rank), exactly as on the public page; what waits is
listed beside the totals, with its table and a link to its sheet, and every printed or exported
ranking states it.

Before: the arbiter's ranking, PDF, XLSX and cockpit counted NORD's unconfirmed garde sans
(+708) and EST's contested garde contre (+1440), and seating by rank put them at table 1."""

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from scoring.live.standings import standings_for
from scoring.models import Deal
from scoring.sheets.services.deals import deal_delete
from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tests.scoring.live.uncounted_helpers import COUNTED, build
from tests.scoring.season.championship_helpers import championship
from tournament.evening.selectors import tournament_plan
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

WAITING_TEXT = "2 donnes à confirmer à la table 7 (position 1), non comptées (dont 1 contestée)"
SUMMARY = "Non comptées : 2 donnes à confirmer ou contestées, à la table 7 (position 1) : 2."


@pytest.fixture
def world(arbiter):
    return build(arbiter)


def totals_by_name(standings) -> dict[str, int]:
    return {ranked.row.name: ranked.row.total for ranked in standings.players}


def test_the_arbiters_ranking_page_counts_only_confirmed_deals_and_lists_the_rest(
    world, arbiter_client
):
    response = arbiter_client.get(reverse("ranking", args=[world.tournament.pk]))
    assert response.status_code == 200
    assert totals_by_name(response.context["standings"]) == COUNTED
    # Exactly the public page's figures.
    public = standings_for(Tournament.objects.get(pk=world.tournament.pk), public=True)
    assert totals_by_name(public) == COUNTED
    html = response.content.decode()
    assert "+668" not in html and "+1400" not in html
    # Beside the totals: what waits, where, and the way to its sheet.
    sheet_url = reverse("sheet-detail", args=[world.table_7.pk])
    assert f'<a href="{sheet_url}">{WAITING_TEXT}</a>' in html
    assert html.index('id="uncounted"') < html.index("<table")
    # The public page has the same totals and no list of the arbiter's sheets.
    page = Client().get(reverse("public-tournament", args=[world.tournament.pk]))
    assert page.status_code == 200 and 'id="uncounted"' not in page.content.decode()


def test_nothing_is_listed_beside_the_totals_when_nothing_waits(world, arbiter_client):
    from scoring.models import Deal

    Deal.objects.filter(sheet=world.table_7, number__gt=1).delete()
    html = arbiter_client.get(reverse("ranking", args=[world.tournament.pk])).content.decode()
    assert 'id="uncounted"' not in html and "non comptée" not in html


def test_classement_pdf_prints_the_counted_totals_and_states_what_waits(world, arbiter_client):
    url = reverse("print-ranking", args=[world.tournament.pk])
    _reader, pages = fetch_pdf(arbiter_client, url)
    text = " ".join(" ".join(page.split()) for page in pages).replace("\u2212", "-")
    for name, total in COUNTED.items():
        # The name, its position 1 column, then its total.
        assert f"{name} {total:+d} {total:+d}" in text
    assert "+668" not in text and "+1400" not in text and "+708" not in text
    assert SUMMARY in text


def test_the_xlsx_ranking_counts_only_confirmed_deals_and_says_what_waits(world, arbiter_client):
    response = arbiter_client.get(reverse("export-ranking-xlsx", args=[world.tournament.pk]))
    workbook = load_workbook(io.BytesIO(response.content))
    individual = list(workbook["Individuel"].iter_rows(values_only=True))
    assert SUMMARY in individual[0][0]
    header = individual[1]
    totals = {row[2]: row[header.index("Total")] for row in individual[2:]}
    assert totals == COUNTED
    position = list(workbook["Position 1"].iter_rows(values_only=True))
    assert SUMMARY in position[0][0]
    bilans = {row[2]: row[position[1].index("Bilan")] for row in position[2:]}
    assert bilans["NORD"] == -40 and bilans["EST"] == -40


def test_the_csv_ranking_counts_only_confirmed_deals_and_says_what_waits(world, arbiter_client):
    """The ranking's CSV (there was none): linked beside the XLSX, the same counted totals,
    French headings, numbers as numbers (a negative total is not quoted as text), and its title
    line states the waiting deals as the XLSX does."""
    url = reverse("export-ranking-csv", args=[world.tournament.pk])
    page = arbiter_client.get(reverse("ranking", args=[world.tournament.pk])).content.decode()
    assert f'href="{url}"' in page
    response = arbiter_client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert SUMMARY in lines[0][0]
    header = lines[1]
    assert header[:3] == ["Rang", "N°", "Joueur"] and header[-1] == "Total"
    totals = {row[2]: row[header.index("Total")] for row in lines[2:]}
    assert totals == {name: str(total) for name, total in COUNTED.items()}
    assert not any(cell.startswith("'") for row in lines[2:] for cell in row)


def test_the_cockpit_leaders_count_only_confirmed_deals_with_what_waits_beside(
    world, arbiter_client
):
    response = arbiter_client.get(reverse("tournament-detail", args=[world.tournament.pk]))
    cockpit = response.context["cockpit"]
    leaders = [(r.row.name, r.row.total) for r in cockpit.top]
    assert leaders[:2] == [("SUD", 120), ("A1", 90)]
    assert ("NORD", 668) not in leaders and ("EST", 1400) not in leaders
    html = response.content.decode()
    top = html[html.index('id="cockpit-top"') :]
    sheet_url = reverse("sheet-detail", args=[world.table_7.pk])
    assert f'<a href="{sheet_url}">{WAITING_TEXT}</a>' in top


def test_seating_by_rank_reads_only_confirmed_deals(world, arbiter_client):
    """While deals wait, seating by rank first shows them to the arbiter (nothing disappears);
    once each is decided (here, deleted), the seating reads the confirmed deals only."""
    generate = reverse("position-generate", args=[world.tournament.pk])
    response = arbiter_client.post(generate, {"seed": 1, "seating": "rank"})
    assert response.status_code == 302 and "pour=seed" in response.url
    assert response.url.startswith(reverse("deals-waiting", args=[world.tournament.pk]))
    for deal in Deal.objects.waiting():
        deal_delete(deal=deal)
    response = arbiter_client.post(generate, {"seed": 1, "seating": "rank"})
    assert response.status_code == 302 and "pour=seed" not in response.url
    first_table = tournament_plan(world.tournament)[-1][0]
    names = {r.pk: name for name, r in world.players.items()}
    seated = {names[pk] for pk in first_table}
    # The counted leaders: SUD, A1 and two of A2..A4 (tied); never NORD nor EST.
    assert {"SUD", "A1"} <= seated and not seated & {"NORD", "EST", "OUEST"}


def test_the_deal_log_keeps_every_deal_and_says_which_count_nowhere(world, arbiter_client):
    response = arbiter_client.get(reverse("export-deals-csv", args=[world.tournament.pk]))
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    header = rows[0]
    deals = {
        (row[header.index("Table")], row[header.index("Donne")]): row
        for row in rows[1:]
        if row[header.index("Donne")]
    }
    confirmed = header.index("Confirmée par")
    assert deals[("7", "2")][confirmed] == "à confirmer, non comptée"
    assert deals[("7", "3")][confirmed] == "contestée, non comptée"
    assert deals[("7", "1")][confirmed] == ""  # typed at the desk


def test_a_championships_documents_rank_on_counted_deals_and_say_what_waits(world, arbiter_client):
    Tournament.objects.filter(pk=world.tournament.pk).update(status="finished")
    season = championship([world.tournament], owner=world.tournament.owner, scale=[10, 7, 5])
    note = f"Open du club (28/11/2026) — {SUMMARY}"
    response = arbiter_client.get(reverse("championship-xlsx", args=[season.pk]))
    ranking = list(load_workbook(io.BytesIO(response.content))["Classement"].values)
    assert note in ranking[0][0]
    assert [row[1] for row in ranking[2:4]] == ["SUD", "A1"]
    _reader, pages = fetch_pdf(arbiter_client, reverse("championship-pdf", args=[season.pk]))
    assert note in " ".join(" ".join(page.split()) for page in pages)
