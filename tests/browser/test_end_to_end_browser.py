"""Issue 6, end to end in Chromium, as a new arbiter would, from an empty database.

Create a tournament, import 16 players from a CSV, generate 4 positions and publish the first,
print its blank sheets, type every sheet of position 1 with the keyboard, record a penalty,
read the ranking, download it as XLSX and PDF, make the standings public and read them on a
phone. Everything is done through the pages; the ORM only reads the database for the checks.
The print links open PDFs in a new tab: they are fetched with the arbiter's browser session.
"""

import io
import re
from collections import defaultdict

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.models import DealScore, Incident
from tests.browser_helpers import log_in_by_cookie, report_incident, type_row
from tests.examples_004 import BILANS, TYPED_ROWS
from tournament.models import Position, Registration, Seat, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = [
    ("Lefèvre", "Hélène", "7512001", "Tarot Club Chalonnais"),
    ("Martin", "Paul", "7512002", "Tarot Club Chalonnais"),
    ("Bernard", "Anne", "7512003", "Tarot Club Chalonnais"),
    ("Dubois", "Luc", "7512004", "Tarot Club Chalonnais"),
    ("Thomas", "Chloé", "7512005", "Excuse Mâconnaise"),
    ("Robert", "Marc", "7512006", "Excuse Mâconnaise"),
    ("Richard", "Julie", "7512007", "Excuse Mâconnaise"),
    ("Petit", "Louis", "7512008", "Excuse Mâconnaise"),
    ("Durand", "Sophie", "7512009", "Petit au Bout Dijon"),
    ("Leroy", "Henri", "7512010", "Petit au Bout Dijon"),
    ("Moreau", "Emma", "7512011", "Petit au Bout Dijon"),
    ("Simon", "Hugo", "7512012", "Petit au Bout Dijon"),
    ("Laurent", "Léa", "7512013", "Garde Contre Beaune"),
    ("Lefebvre", "Jules", "7512014", "Garde Contre Beaune"),
    ("Michel", "Manon", "7512015", "Garde Contre Beaune"),
    ("Garcia", "Noé", "7512016", "Garde Contre Beaune"),
]

# A sheet of five deals as the arbiter types it: taker, contract, bouts, points, poignées,
# petit au bout, chelem; Tab between the fields, Enter saves. Every deal is a valid FFT deal.
DEALS = TYPED_ROWS  # 004's example sheet
# Table 1 types DEALS as they are: 004's printed bilans (paper order N, S, E, O).
TABLE_1_BILANS = BILANS
COMPASS = "NESO"


def deals_for_table(number: int) -> list[tuple[str, ...]]:
    """DEALS turned round the table by (number − 1) seats, with more points on deals 1 and 4,
    so that every player of the tournament ends with a different score."""
    turn = number - 1

    def seat(key: str) -> str:
        return COMPASS[(COMPASS.index(key) + turn) % 4]

    deals = []
    for index, (taker, contract, bouts, points, poignee, petit, chelem) in enumerate(DEALS):
        if index in (0, 3):
            points = str(int(points) + 3 * turn)
        poignee = seat(poignee[0]) + poignee[1:] if poignee else ""
        deals.append((seat(taker), contract, bouts, points, poignee, petit, chelem))
    return deals


def signed_int(text: str) -> int:
    return int(text.strip().replace("−", "-").replace("+", "") or 0)


def wait_for_taker_focus(page) -> None:
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.name === 'taker'"
    )


def assert_ranked_as_computed(rows: list[dict], results: dict) -> None:
    """The 16 rows shown give each player the rank and total worked out from the database."""
    assert len(rows) == 16
    for row in rows:
        expected = results[row["number"]]
        assert (row["rank"], row["total"]) == (expected["rank"], expected["total"]), row
        assert expected["last_name"] in row["name"]


def ranking_rows(page) -> list[dict]:
    """The rows of the ranking table on screen: rank, number, name, total."""
    table = page.locator("table.ranking")
    headers = [h.strip() for h in table.locator("thead th").all_inner_texts()]
    column = {name: headers.index(name) for name in ("Rang", "N°", "Joueur", "Total")}
    rows = []
    for row in table.locator("tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        rows.append(
            {
                "rank": int(cells[column["Rang"]]),
                "number": int(cells[column["N°"]]),
                "name": cells[column["Joueur"]].strip(),
                "total": signed_int(cells[column["Total"]]),
            }
        )
    return rows


def pdf_pages(data: bytes) -> list[str]:
    assert data[:5] == b"%PDF-"
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def open_pdf(page, link) -> bytes:
    """The PDF behind a print link (they open in a new tab), fetched with the arbiter's session."""
    href = link.get_attribute("href")
    assert link.get_attribute("target") == "_blank"
    response = page.request.get(page.url.split("/tournois/")[0] + href)
    assert response.ok and response.headers["content-type"] == "application/pdf"
    return response.body()


def db_results(tournament: Tournament) -> dict[int, dict]:
    """Per registration number: name, deal points, penalty and total, straight from the rows."""
    deals = defaultdict(int)
    for score in DealScore.objects.filter(deal__sheet__tournament=tournament):
        deals[score.registration_id] += score.points
    penalties = defaultdict(int)
    for incident in Incident.objects.filter(tournament=tournament):
        penalties[incident.registration_id] += incident.penalty_points
    results = {}
    for entry in Registration.objects.filter(tournament=tournament).select_related("player"):
        results[entry.number] = {
            "name": entry.player.full_name,
            "last_name": entry.player.last_name.upper(),
            "deals": deals[entry.pk],
            "penalty": penalties[entry.pk],
            "total": deals[entry.pk] - penalties[entry.pk],
        }
    ordered = sorted(results, key=lambda n: -results[n]["total"])
    for rank, number in enumerate(ordered, start=1):
        results[number]["rank"] = rank
    return results


@pytest.mark.slow
def test_a_new_arbiter_runs_a_tournament_end_to_end(
    page, phone_page, live_server, one_request_at_a_time, arbiter, tmp_path
):
    base = live_server.url

    # --- log in and create the tournament --------------------------------------------------
    log_in_by_cookie(page, live_server, arbiter)
    page.goto(live_server.url + "/")
    page.click("text=Nouveau tournoi")
    page.fill("#id_name", "Open de Chalon")
    page.fill("#id_date", "2026-11-21")
    page.fill("#id_venue", "Salle des fêtes")
    page.fill("#id_club", "Tarot Club Chalonnais")
    page.fill("#id_positions_count", "4")
    page.fill("#id_deals_per_table_4", "5")
    page.click("button:has-text('Enregistrer')")
    page.wait_for_url(re.compile(r"/tournois/\d+/$"))
    assert "Tournoi créé." in page.inner_text(".messages")
    tournament = Tournament.objects.get()
    assert tournament.owner == arbiter and not tournament.is_public
    assert Tournament.objects.count() == 1 and not Registration.objects.exists()

    # --- import 16 players from a CSV: preview, then confirm --------------------------------
    csv_file = tmp_path / "joueurs.csv"
    lines = ["Nom;Prénom;N° licence;Club"] + [";".join(p) for p in PLAYERS]
    csv_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    page.click("nav.tabs >> text=Joueurs")
    page.click("text=Importer une liste (CSV ou Excel)")
    page.set_input_files("#id_file", str(csv_file))
    page.click("button:has-text('Prévisualiser')")
    page.wait_for_selector("table.preview")
    assert "16 joueurs lus" in page.inner_text("h3")
    assert page.locator("table.preview tbody tr").count() == 16
    assert "Hélène" in page.inner_text("table.preview")
    page.click("button:has-text('Inscrire ces 16 joueurs')")
    page.wait_for_url(re.compile(r"/joueurs/$"))
    assert "16 joueurs importés." in page.inner_text(".messages")
    assert "LEFÈVRE" in page.inner_text("main")
    assert tournament.registrations.count() == 16

    # --- generate 4 positions, publish the first -------------------------------------------
    page.click("nav.tabs >> text=Positions")
    page.fill("#id_seed", "2026")
    page.click("section.generate button[type=submit]")
    page.wait_for_selector(".messages >> text=Positions 1 à 4 planifiées en brouillon")
    rows = page.locator("table.positions tbody tr")
    assert rows.count() == 4
    for index in range(4):
        assert "Brouillon" in rows.nth(index).inner_text()
        assert rows.nth(index).locator("td").nth(2).inner_text() == "4"  # tables
    rows.first.locator("button:has-text('Publier')").click()
    page.wait_for_selector(".messages >> text=Position 1 publiée.")
    assert "Publiée" in page.inner_text("h2")
    assert page.locator("section.plan-table").count() == 4
    position = Position.objects.get(tournament=tournament, number=1)
    assert position.status == Position.Status.PUBLISHED
    seated = defaultdict(list)  # table number → (full name, start label)
    for seat in Seat.objects.filter(table__position=position).select_related(
        "table", "registration__player"
    ):
        seated[seat.table.number].append((seat.registration.player.full_name, seat.label))

    # --- print the blank sheets of position 1 ----------------------------------------------
    page.click("nav.tabs >> text=Impressions")
    link = page.locator("table.print-positions tbody tr").first.locator(
        "a:has-text('feuilles de marque vierges')"
    )
    sheets = pdf_pages(open_pdf(page, link))
    assert len(sheets) == 4  # one page per table
    for number, text in enumerate(sheets, start=1):
        assert re.search(rf"Position n° : 1 Table n° : {number}\b", text), text[:300]
        for name, label in seated[number]:
            assert name in text and label in text, (number, name, label)
        assert re.findall(r"Donne (\d+)", text) == ["1", "2", "3", "4", "5"]

    # --- type every sheet of position 1 with the keyboard ----------------------------------
    page.click("nav.tabs >> text=Saisie")
    page.wait_for_selector("#overview")
    assert "4 feuilles manquantes" in page.inner_text("h2")
    for number in range(1, 5):
        page.fill("#table-jump input[name=table]", str(number))
        page.press("#table-jump input[name=table]", "Enter")
        page.wait_for_url(re.compile(r"/feuilles/\d+/$"))
        assert f"Position 1, table {number} " in page.inner_text("#sheet-body h2")
        typed = deals_for_table(number)
        for deal, values in enumerate(typed, start=1):
            wait_for_taker_focus(page)
            type_row(page, values)
            page.wait_for_selector(f"#deal-{deal}")
            if deal < len(typed):
                page.wait_for_selector(f"#deal-form h3:has-text('Donne {deal + 1}')")
            else:  # a full sheet offers no further row
                page.wait_for_selector("#sheet-full")
        assert "Complète" in page.inner_text("#sheet-state")
        assert "Somme nulle" in page.inner_text("#sheet-body h2")
        bilans = [int(t) for t in page.locator("#bilans td.bilan").all_inner_texts()]
        assert sum(bilans) == 0
        if number == 1:
            assert bilans == TABLE_1_BILANS
        if number < 4:
            page.click(".crumbs >> text=Saisie de la position 1")
            page.wait_for_selector("#overview")
    # The sheet of table 4 is still open: its Sud revoked in defence on deal 4, 40 points.
    # Columns are in the paper's order, Nord, Sud, Est, Ouest: Sud is the second.
    south_name = page.locator("#sheet-table th.player").nth(1).inner_text().split("\n")[-1]
    report_incident(page, "renonce_defence", south_name, deal=4, penalty=40)
    assert "Incident enregistré." in page.inner_text(".messages")
    assert "Renonce en défense" in page.inner_text("#deal-4")
    nord, sud, est, ouest = [int(t) for t in page.locator("#bilans td.bilan").all_inner_texts()]
    final = [int(t) for t in page.locator("#final td").all_inner_texts() if t.strip()]
    assert final == [nord, sud - 40, est, ouest]
    incident = Incident.objects.get()
    assert incident.registration.player.full_name == south_name
    assert (incident.sheet.table.number, incident.deal_number) == (4, 4)
    assert incident.penalty_points == 40

    page.click(".crumbs >> text=Saisie de la position 1")
    page.wait_for_selector("#overview")
    assert "Aucune feuille manquante" in page.inner_text("h2")
    for number in range(1, 5):
        row = page.inner_text(f"#table-{number}")
        assert "Complète" in row and "5 / 5" in row

    results = db_results(tournament)
    totals = [r["total"] for r in results.values()]
    assert len(set(totals)) == 16, "the deals are chosen so that nobody ties"
    assert sum(r["deals"] for r in results.values()) == 0
    assert results[incident.registration.number]["penalty"] == 40

    # --- the arbiter's ranking --------------------------------------------------------------
    page.click("nav.tabs >> text=Classement")
    page.wait_for_selector("table.ranking")
    shown = ranking_rows(page)
    assert_ranked_as_computed(shown, results)
    assert [r["rank"] for r in shown] == list(range(1, 17))

    # --- the rankings workbook ----------------------------------------------------------------
    with page.expect_download() as download_info:
        page.click("text=Classements (XLSX)")
    download = download_info.value
    assert download.suggested_filename.endswith(".xlsx")
    workbook = load_workbook(io.BytesIO(download.path().read_bytes()), read_only=True)
    individual = list(workbook.worksheets[0].iter_rows(values_only=True))
    header = list(individual[1])
    rank_col, number_col, name_col = (header.index(h) for h in ("Rang", "N°", "Joueur"))
    penalty_col, total_col = header.index("Pénalités"), header.index("Total")
    deals_col, p1_col = header.index("Donnes"), header.index("P1")
    body = [r for r in individual[2:] if r[number_col] is not None]
    assert len(body) == 16
    for row in body:
        expected = results[row[number_col]]
        assert row[rank_col] == expected["rank"], row
        assert row[total_col] == expected["total"], row
        assert row[deals_col] == row[p1_col] == expected["deals"], row
        assert row[penalty_col] == -expected["penalty"], row  # signed: charged is negative
        assert expected["last_name"] in row[name_col]
    assert "Position 1" in workbook.sheetnames

    # --- the ranking PDF (Impressions → Classement individuel) ------------------------------
    page.click("nav.tabs >> text=Impressions")
    link = page.locator("ul.print-links a:has-text('Classement individuel')")
    lines = "\n".join(pdf_pages(open_pdf(page, link))).splitlines()
    # One line per player: rank, number, name, club, P1, penalty (if any), total.
    player_lines = [line for line in lines if re.match(r"\d+ \d+ [A-ZÈ]{3,} ", line)]
    assert len(player_lines) == 16, lines
    for rank, line in enumerate(player_lines, start=1):
        tokens = line.split()
        expected = results[int(tokens[1])]
        assert int(tokens[0]) == rank == expected["rank"], line
        assert expected["name"] in line, line
        assert signed_int(tokens[-1]) == expected["total"], line
        if expected["penalty"]:
            assert signed_int(tokens[-2]) == -expected["penalty"], line
            assert signed_int(tokens[-3]) == expected["deals"], line
        else:
            assert signed_int(tokens[-2]) == expected["deals"], line

    # --- make the standings public ---------------------------------------------------------
    page.click("nav.tabs >> text=Tableau de bord")
    page.click("text=Modifier les réglages")
    page.check("#id_is_public")
    page.click("button:has-text('Enregistrer')")
    page.wait_for_selector(".messages >> text=Tournoi enregistré.")
    tournament.refresh_from_db()
    assert tournament.is_public

    # --- a player follows the standings on a phone, not logged in ----------------------------
    phone = phone_page
    phone.goto(f"{base}/")
    phone.click("text=Open de Chalon")
    phone.wait_for_selector("table.ranking")
    assert phone.url.endswith(f"/public/{tournament.pk}/")
    assert "arbitre-test" not in phone.inner_text("header")
    assert phone.locator("table.ranking").is_visible()
    assert_ranked_as_computed(ranking_rows(phone), results)
    # The penalised player's line shows the penalty; the leader's total is on screen.
    # On a phone the penalty sits in the row's details, one tap on its toggle away.
    penalised = phone.locator("table.ranking tbody tr", has_text=south_name).first
    assert "-40" not in penalised.inner_text()
    penalised.locator("button").click()
    details = phone.locator("table.ranking tbody tr.details")
    details.wait_for()
    assert "-40" in details.inner_text()
    assert phone.locator("table.ranking tbody tr td.total").first.is_visible()
    # The page itself does not scroll sideways on a phone (only the table may, in its box).
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
