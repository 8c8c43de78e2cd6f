"""Importing a player list: preview first, then everything is created, or nothing."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from tournament.models import Player, Registration, Team, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return Tournament.objects.create(name="Open", date="2026-11-21")


def upload(client, tournament, name, content):
    return client.post(
        reverse("player-import", args=[tournament.pk]),
        {"file": SimpleUploadedFile(name, content)},
    )


def confirm(client, tournament):
    return client.post(reverse("player-import", args=[tournament.pk]), {"confirm": "1"})


def xlsx(rows):
    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_csv_with_semicolons_and_latin1_is_previewed_then_imported(arbiter_client, tournament):
    content = "NOM;Prénom;Licence;Club\nMartin;Léa;1234567;TC Dijon\nDurand;Paul;;TC Beaune\n"
    response = upload(arbiter_client, tournament, "joueurs.csv", content.encode("latin-1"))
    assert response.status_code == 200
    assert "MARTIN" not in response.text  # the preview shows the file as typed
    assert "Léa" in response.text and "Durand" in response.text
    assert "Inscrire ces 2 joueurs" in response.text
    assert not Player.objects.exists()  # a preview creates nothing

    response = confirm(arbiter_client, tournament)
    assert response.status_code == 302
    entries = list(tournament.registrations.order_by("number").select_related("player"))
    assert [(r.number, r.player.full_name, r.player.licence) for r in entries] == [
        (1, "MARTIN Léa", "1234567"),
        (2, "DURAND Paul", None),
    ]
    assert entries[1].player.club == "TC Beaune"


def test_xlsx_with_accentless_headers_and_numeric_licences(arbiter_client, tournament):
    content = xlsx(
        [["nom", "prenom", "licence"], ["Martin", "Léa", 1234567], ["Petit", "Jo", None]]
    )
    response = upload(arbiter_client, tournament, "joueurs.xlsx", content)
    assert response.status_code == 200
    confirm(arbiter_client, tournament)
    assert Player.objects.get(last_name="Martin").licence == "1234567"
    assert tournament.registrations.count() == 2


def test_roster_players_are_reused_not_duplicated(arbiter_client, tournament):
    known = Player.objects.create(last_name="Martin", first_name="Léa", licence="1234567")
    content = b"nom,prenom,licence\nMARTIN,Lea,1234567\nDurand,Paul,\n"
    response = upload(arbiter_client, tournament, "joueurs.csv", content)
    assert "1 nouveau dans le fichier des joueurs" in response.text
    confirm(arbiter_client, tournament)
    assert Player.objects.count() == 2
    assert tournament.registrations.filter(player=known).exists()


def test_duplicate_licence_and_malformed_rows_are_reported_by_line_and_nothing_is_created(
    arbiter_client, tournament
):
    content = (
        "nom;prénom;licence\n"
        "Martin;Léa;1234567\n"
        ";Sans;Nom\n"
        "Durand;Paul;1234567\n"
        "Petit;Jo;12 34#\n"
        "Bon;Jean;\n"
    ).encode()
    response = upload(arbiter_client, tournament, "joueurs.csv", content)
    assert response.status_code == 400
    assert "Ligne 3 : Nom manquant." in response.text
    assert "Ligne 4 : Licence 1234567 déjà présente ligne 2." in response.text
    assert "Ligne 5 : Licence FFT « 12 34# » invalide" in response.text
    assert "Inscrire ces" not in response.text
    # Nothing was kept to confirm either.
    confirm(arbiter_client, tournament)
    assert not Player.objects.exists()
    assert not Registration.objects.exists()


def test_licence_already_on_the_roster_under_another_name_is_refused(arbiter_client, tournament):
    Player.objects.create(last_name="Martin", first_name="Léa", licence="1234567")
    response = upload(arbiter_client, tournament, "j.csv", b"nom;licence\nDurand;1234567\n")
    assert response.status_code == 400
    assert "Ligne 2 : La licence 1234567 appartient à un autre joueur" in response.text
    assert Player.objects.count() == 1


def test_missing_name_column_is_a_clear_message(arbiter_client, tournament):
    response = upload(arbiter_client, tournament, "j.csv", b"joueur;licence\nMartin;1\n")
    assert response.status_code == 400
    assert "Colonne « nom » absente" in response.text
    assert not Player.objects.exists()


def test_roster_change_between_preview_and_confirm_imports_nothing(arbiter_client, tournament):
    upload(arbiter_client, tournament, "j.csv", b"nom;licence\nMartin;111\nDurand;222\n")
    Player.objects.create(last_name="Autre", licence="0000222")  # as the import pads it
    response = confirm(arbiter_client, tournament)
    assert "Rien n&#x27;a été importé." in response.text
    assert "Ligne 3" in response.text
    assert Player.objects.count() == 1
    assert not Registration.objects.exists()


def test_team_column_builds_the_teams(arbiter_client):
    tournament = Tournament.objects.create(name="Duos", date="2026-11-21", format="duo")
    content = b"nom;equipe\nA;Les As\nB;Les As\nC;Rois\nD;Rois\n"
    upload(arbiter_client, tournament, "j.csv", content)
    confirm(arbiter_client, tournament)
    teams = {
        team.name: sorted(m.player.last_name for m in team.members.all())
        for team in Team.objects.all()
    }
    assert teams == {"Les As": ["A", "B"], "Rois": ["C", "D"]}


def test_team_larger_than_its_format_in_the_file_is_refused(arbiter_client):
    tournament = Tournament.objects.create(name="Duos", date="2026-11-21", format="duo")
    content = b"nom;equipe\nA;Les As\nB;Les As\nC;Les As\n"
    response = upload(arbiter_client, tournament, "j.csv", content)
    assert response.status_code == 400
    assert "Ligne 4 : L&#x27;équipe Les As aurait 3 joueurs : la formule en prévoit 2." in (
        response.text
    )
    confirm(arbiter_client, tournament)
    assert not Team.objects.exists() and not Player.objects.exists()


def test_a_team_column_in_an_individual_tournament_names_every_line_and_the_formula(
    arbiter_client, tournament
):
    """Issue 38: every line naming a team is refused (not only the first) and the message
    suggests the formula the file fits: duos here, teams of 4 when a team has more than two."""
    content = b"nom;equipe\nA;Les As\nB;Les As\nC;Rois\nD;Rois\n"
    response = upload(arbiter_client, tournament, "j.csv", content)
    assert response.status_code == 400
    text = response.text
    for line, team in ((2, "Les As"), (3, "Les As"), (4, "Rois"), (5, "Rois")):
        assert f"Ligne {line} : Colonne « équipe » remplie ({team})" in text
    assert "choisissez la formule « Libre duo (équipes de 2) »" in text
    content = b"nom;equipe\nA;Quatre\nB;Quatre\nC;Quatre\n"
    text = upload(arbiter_client, tournament, "j.csv", content).text
    assert "choisissez la formule « Équipes de 4 »" in text
    confirm(arbiter_client, tournament)
    assert not Player.objects.exists()
