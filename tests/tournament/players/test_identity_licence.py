"""FFT licences: one rule (up to 7 digits, leading zeros restored) for the form, the import and
the backup restore, with the same French message naming the field."""

import io
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from openpyxl import Workbook

from scoring.documents.backup import BackupError, tournament_export, tournament_import
from tournament.models import Player, Registration, Tournament
from tournament.players.importing import parse_upload
from tournament.players.licence import licence_clean


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("0412345", "0412345"),
        ("412345", "0412345"),
        (412345, "0412345"),
        ("12345", "0012345"),
        ("04 12 345", "0412345"),
        ("04.12.345", "0412345"),
        ("", ""),
        ("   ", ""),
        (None, ""),
    ],
)
def test_a_licence_is_seven_digits_with_its_leading_zeros_restored(typed, stored):
    assert licence_clean(typed) == stored


@pytest.mark.parametrize("typed", ["12345678", "A12345", "L00001", "12#45", "１２３", "0x1F"])
def test_anything_but_up_to_seven_digits_is_refused_naming_the_field(typed):
    with pytest.raises(ValidationError) as refused:
        licence_clean(typed)
    assert refused.value.messages[0].startswith("Licence FFT « ")
    assert "7 chiffres au plus" in refused.value.messages[0]


@pytest.fixture
def tournament(db):
    return Tournament.objects.create(name="Open", date="2026-11-21")


def test_the_desk_form_pads_the_licence(arbiter_client, tournament):
    response = arbiter_client.post(
        reverse("player-register", args=[tournament.pk]),
        {"last_name": "Martin", "first_name": "Léa", "licence": "412345"},
    )
    assert response.status_code == 302
    assert Player.objects.get().licence == "0412345"


def test_the_desk_form_refuses_a_bad_licence_with_the_message(arbiter_client, tournament):
    response = arbiter_client.post(
        reverse("player-register", args=[tournament.pk]),
        {"last_name": "Martin", "licence": "41A345"},
    )
    assert response.status_code == 400
    assert "Licence FFT « 41A345 » invalide" in response.text
    assert not Player.objects.exists()


def test_the_import_pads_numeric_xlsx_cells_and_csv_text_alike():
    book = Workbook()
    book.active.append(["nom", "prénom", "licence"])
    book.active.append(["Martin", "Léa", 412345])
    book.active.append(["Petit", "Jo", 1234567.0])
    out = io.BytesIO()
    book.save(out)
    from_xlsx = parse_upload("j.xlsx", out.getvalue())
    from_csv = parse_upload("j.csv", b"nom;prenom;licence\nMartin;Lea;412345\nPetit;Jo;1234567\n")
    assert [r.licence for r in from_xlsx.rows] == ["0412345", "1234567"]
    assert [r.licence for r in from_csv.rows] == ["0412345", "1234567"]


def test_the_import_refuses_a_bad_licence_by_line_with_the_same_message():
    preview = parse_upload("j.csv", b"nom;licence\nMartin;0412345\nPetit;L-99\n")
    assert [(e.line, e.message) for e in preview.errors] == [
        (3, licence_error_text("L-99")),
    ]


def licence_error_text(value):
    from tournament.players.licence import licence_error

    return licence_error(value)


def _backup_with_licence(licence):
    tournament = Tournament.objects.create(name="Open", date="2026-11-21")
    player = Player.objects.create(last_name="Martin", first_name="Léa")
    Registration.objects.create(tournament=tournament, player=player, number=1)
    document = tournament_export(tournament)
    document["sections"]["tournament.player"][0]["licence"] = licence
    return json.dumps(document)


@pytest.mark.django_db
def test_a_restored_backup_gets_its_licence_padded():
    restored = tournament_import(_backup_with_licence("412345"))
    assert restored.registrations.get().player.licence == "0412345"


@pytest.mark.django_db
def test_a_restored_backup_with_a_bad_licence_is_refused_with_the_same_message():
    with pytest.raises(BackupError) as refused:
        tournament_import(_backup_with_licence("L00001"))
    assert "Licence FFT « L00001 » invalide" in str(refused.value)
    assert not Player.objects.filter(licence="L00001").exists()
