"""Two homonyms in one tournament: every export tells their rows apart by tournament number and
licence, and each player's deal-log rows add up to their ranking total."""

import csv
import io
from collections import Counter

import openpyxl
import pytest

from scoring.documents.exports import deals_csv, deals_xlsx, ranking_xlsx
from scoring.live.standings import standings_for
from tests.report_builders import build_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def homonyms():
    """Players A and B of the report tournament both become GARCIA Valérie."""
    built = build_tournament()
    for letter, club, licence in (("A", "TC Dijon", "0412345"), ("B", "TC Beaune", "0099001")):
        player = built["registrations"][letter].player
        player.last_name, player.first_name = "Garcia", "Valérie"
        player.club, player.licence = club, licence
        player.save()
    return built


def table(rows):
    header = rows[0]
    return [dict(zip(header, row, strict=True)) for row in rows[1:]]


def deal_totals(records):
    """Each player's sum of deal-log scores, by (number, licence), with the names seen."""
    totals, names = Counter(), {}
    for record in records:
        for seat in range(1, 6):
            number = record[f"N° {seat}"]
            if number in (None, ""):
                continue
            key = (int(number), record[f"Licence {seat}"] or None)
            totals[key] += int(record[f"Score {seat}"])
            names[key] = record[f"Joueur {seat}"]
    return totals, names


def test_every_export_tells_the_homonyms_apart_and_adds_up(homonyms):
    tournament = homonyms["tournament"]
    numbers = {homonyms["registrations"][x].number for x in "AB"}

    book = openpyxl.load_workbook(io.BytesIO(ranking_xlsx.build(standings_for(tournament))))
    ranking = table(list(book["Individuel"].iter_rows(min_row=2, values_only=True)))
    garcias = [r for r in ranking if r["Joueur"] == "GARCIA Valérie"]
    assert {(r["N°"], r["Licence"], r["Club"]) for r in garcias} == {
        (homonyms["registrations"]["A"].number, "0412345", "TC Dijon"),
        (homonyms["registrations"]["B"].number, "0099001", "TC Beaune"),
    }
    for name in book.sheetnames:
        if name.startswith("Position"):
            rows = table(list(book[name].iter_rows(min_row=2, values_only=True)))
            keys = [(r["N°"], r["Licence"]) for r in rows if r["Joueur"] == "GARCIA Valérie"]
            assert len(set(keys)) == len(keys) == 2
    ranked = {(r["N°"], r["Licence"]): r["Total"] for r in ranking}

    sheet = openpyxl.load_workbook(io.BytesIO(deals_xlsx.build(tournament)))["Donnes"]
    from_xlsx = table(list(sheet.iter_rows(min_row=2, values_only=True)))
    text = deals_csv.build(tournament).lstrip("\ufeff")
    from_csv = table(list(csv.reader(io.StringIO(text), delimiter=";")))

    for records in (from_xlsx, from_csv):
        totals, names = deal_totals(records)
        assert totals == {key: total for key, total in ranked.items() if key in totals}
        assert set(totals) == set(ranked)  # every player played
        garcia_keys = [key for key, name in names.items() if name == "GARCIA Valérie"]
        assert {number for number, _licence in garcia_keys} == numbers
        # The role columns name a player by number too: "3 – GARCIA Valérie".
        takers = {r["Preneur"] for r in records if r["Preneur"]}
        assert all(taker.split(" – ")[0].isdigit() for taker in takers)
        garcia_takers = {t for t in takers if t.endswith("GARCIA Valérie")}
        assert len(garcia_takers) == len({t.split(" – ")[0] for t in garcia_takers})
