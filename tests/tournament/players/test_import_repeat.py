"""Imports that can be repeated: a list sent again registers only the people not yet there."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import Workbook

from tournament.models import Player, Registration, Tournament
from tournament.players.importing import DUPLICATE, ImportPreview, ImportRow
from tournament.players.imports import import_check
from tournament.players.selectors import player_search

pytestmark = pytest.mark.django_db

FIRST = ["Côté", "Lefèvre", "Lefebvre", "Noël", "Bénard", "Çelik", "Garcia", "Le Gall"]
LAST = ["François", "Hélène", "Océane", "Jérôme", "Zoé", "Loïc", "Valérie", "Anaïs"]
# 26 people; the first is CÔTÉ François. Licences with leading zeros, as the FFT writes them.
PEOPLE = [
    (FIRST[i % 8], LAST[(i + i // 8) % 8], f"{i * 1013 + 41:07d}", "TC Dijon" if i % 2 else "")
    for i in range(26)
]
LATE = [
    ("Martin", "Léa", "0000777", ""),
    ("Durand", "Paul", "", "TC Beaune"),
    ("Petit", "Jo", "", ""),
]


@pytest.fixture
def tournament():
    return Tournament.objects.create(name="Open", date="2026-11-21")


def csv_bytes(people):
    lines = ["Nom;Prénom;N° licence;Club"] + [";".join(p) for p in people]
    return ("\r\n".join(lines) + "\r\n").encode("cp1252")


def xlsx_bytes(people):
    book = Workbook()
    book.active.append(["Nom", "Prénom", "Licence", "Club"])
    for last, first, licence, club in people:
        # As Excel stores a typed licence: a number, leading zeros gone.
        book.active.append([last, first, int(licence) if licence else None, club])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def send(client, tournament, name, content, **decisions):
    url = reverse("player-import", args=[tournament.pk])
    preview = client.post(url, {"file": SimpleUploadedFile(name, content)})
    assert preview.status_code == 200, preview.text
    response = client.post(url, {"confirm": "1", **decisions})
    return preview, response


def test_csv_then_xlsx_of_the_same_26_people_then_3_late_arrivals(arbiter_client, tournament):
    send(arbiter_client, tournament, "liste.csv", csv_bytes(PEOPLE))
    assert tournament.registrations.count() == 26

    preview, _response = send(arbiter_client, tournament, "liste.xlsx", xlsx_bytes(PEOPLE))
    assert "26 déjà inscrits (ignorés)" in preview.text
    assert "Rien de nouveau" in preview.text
    assert tournament.registrations.count() == 26
    assert Player.objects.count() == 26
    assert Player.objects.get(last_name="Côté", first_name="François").licence == "0000041"

    preview, response = send(arbiter_client, tournament, "liste.xlsx", xlsx_bytes(PEOPLE + LATE))
    assert "3 nouveaux dans le fichier des joueurs" in preview.text
    assert "Inscrire ces 3 joueurs" in preview.text
    assert response.status_code == 302
    assert tournament.registrations.count() == 29
    assert Player.objects.count() == 29
    assert Player.objects.get(last_name="Martin").licence == "0000777"

    found = [p.full_name for p in player_search(query="cote", among=Player.objects.all())]
    assert "CÔTÉ François" in found and all(name.startswith("CÔTÉ ") for name in found)


def test_people_without_licence_already_registered_are_skipped_by_name_and_club(
    arbiter_client, tournament
):
    plain = [(last, first, "", club) for last, first, _licence, club in PEOPLE[:6]]
    send(arbiter_client, tournament, "a.csv", csv_bytes(plain))
    # Typed again without accents or capitals: the same people.
    again = [("COTE", "francois", "", ""), *plain[1:], ("Petit", "Jo", "", "")]
    preview, _response = send(arbiter_client, tournament, "b.csv", csv_bytes(again))
    assert "6 déjà inscrits (ignorés)" in preview.text
    assert tournament.registrations.count() == 7


def test_a_likely_duplicate_on_the_roster_is_flagged_and_skipped_unless_decided(
    arbiter_client, tournament
):
    known = Player.objects.create(last_name="Lefèvre", first_name="Hélène", club="TC Dijon")
    content = csv_bytes([("LEFEVRE", "Helene", "", "tc dijon"), ("Petit", "Jo", "", "")])
    preview, _response = send(arbiter_client, tournament, "a.csv", content)
    assert "1 doublon probable à décider" in preview.text
    assert "LEFÈVRE Hélène (TC Dijon)" in preview.text
    assert 'name="decision-2"' in preview.text
    assert [r.player.last_name for r in tournament.registrations.all()] == ["Petit"]

    _preview, _response = send(
        arbiter_client, tournament, "a.csv", content, **{"decision-2": "existing"}
    )
    assert tournament.registrations.filter(player=known).exists()
    assert Player.objects.count() == 2


def test_a_likely_duplicate_may_be_declared_another_player(arbiter_client, tournament):
    Player.objects.create(last_name="Lefèvre", first_name="Hélène", club="TC Dijon")
    content = csv_bytes([("LEFEVRE", "Helene", "", "TC Dijon")])
    send(arbiter_client, tournament, "a.csv", content, **{"decision-2": "new"})
    assert Player.objects.filter(last_name="LEFEVRE").count() == 1
    assert tournament.registrations.count() == 1


def test_homonyms_of_different_clubs_or_licences_are_two_people(tournament):
    Player.objects.create(last_name="Garcia", first_name="Valérie", club="TC Dijon")
    rows = [
        ImportRow(line=2, last_name="Garcia", first_name="Valérie", club="TC Beaune"),
        ImportRow(
            line=3, last_name="Garcia", first_name="Valérie", licence="0000123", club="TC Dijon"
        ),
    ]
    preview = import_check(tournament=tournament, preview=ImportPreview(rows=rows))
    assert [r.status for r in preview.rows] == ["new", DUPLICATE]  # the roster one has no licence


def test_the_check_costs_the_same_queries_for_3_rows_or_300(tournament):
    def cost(count):
        rows = [
            ImportRow(line=n + 2, last_name=f"Nom{n}", first_name="A", licence=f"{n + 1:07d}")
            for n in range(count)
        ]
        with CaptureQueriesContext(connection) as captured:
            import_check(tournament=tournament, preview=ImportPreview(rows=rows))
        return len(captured)

    Player.objects.bulk_create(
        Player(last_name=f"Nom{n}", first_name="A") for n in range(0, 300, 7)
    )
    assert cost(3) == cost(300)


def test_nothing_half_imported_when_the_roster_changed_meanwhile(arbiter_client, tournament):
    url = reverse("player-import", args=[tournament.pk])
    arbiter_client.post(url, {"file": SimpleUploadedFile("a.csv", csv_bytes(LATE))})
    Player.objects.create(last_name="Autre", licence="0000777")
    response = arbiter_client.post(url, {"confirm": "1"})
    assert "Rien n&#x27;a été importé." in response.text
    assert not Registration.objects.exists()
