"""A tournament backed up to JSON and restored into an empty database ranks identically."""

import io
import json

import pytest
from django.core.management import call_command
from django.db.models import Sum

from scoring.models import ChangeLog, Deal, DealScore, Incident, ScoreSheet
from scoring.services import deal_adjust, deal_record, sheet_for_table
from tournament.backup import BackupError, tournament_export, tournament_import
from tournament.models import Player, Position, Registration, Seat, Table, Team, Tournament

pytestmark = pytest.mark.django_db


def build_tournament(user=None) -> Tournament:
    tournament = Tournament.objects.create(
        name="Open du Chalonnais", date="2026-11-21", format="duo", owner=user
    )
    teams = [Team.objects.create(tournament=tournament, name=f"Duo {i}") for i in range(4)]
    registrations = [
        Registration.objects.create(
            tournament=tournament,
            player=Player.objects.create(
                last_name=f"Joueur{i}", first_name="A", licence=f"L{i:05d}" if i % 2 else None
            ),
            team=teams[i // 2],
            number=i + 1,
        )
        for i in range(8)
    ]
    position = Position.objects.create(tournament=tournament, number=1, status="published")
    for table_number, members in ((1, registrations[0::2]), (2, registrations[1::2])):
        table = Table.objects.create(position=position, number=table_number)
        for direction, registration in zip("NESW", members, strict=True):
            Seat.objects.create(table=table, registration=registration, direction=direction)
        sheet = sheet_for_table(table=table)
        for taker, points in ((0, 49), (1, 30), (2, 60)):
            deal_record(
                sheet=sheet,
                data={"players": 4, "taker": taker, "contract": "garde", "oudlers": 2,
                      "points": points, "dealer": taker},
                user=user,
            )  # fmt: skip
    deal = Deal.objects.filter(sheet__table__number=2).first()
    deal_adjust(deal=deal, scores=[-60, 20, 20, 20], reason="Renonce du preneur", user=user)
    Incident.objects.create(
        tournament=tournament,
        sheet=deal.sheet,
        deal=deal,
        registration=registrations[1],
        kind="renonce_taker",
        penalty_points=20,
        created_by=user,
    )
    return tournament


def totals(tournament) -> dict[str, int]:
    rows = (
        DealScore.objects.filter(deal__sheet__tournament=tournament)
        .values("registration__player__last_name")
        .annotate(total=Sum("points"))
    )
    result = {r["registration__player__last_name"]: r["total"] for r in rows}
    for incident in Incident.objects.filter(tournament=tournament):
        name = incident.registration.player.last_name
        result[name] = result.get(name, 0) - incident.penalty_points
    return result


def wipe_database():
    Tournament.objects.all().delete()
    Player.objects.all().delete()


def test_backup_restored_into_an_empty_database_gives_identical_rankings(arbiter):
    tournament = build_tournament(arbiter)
    before = totals(tournament)
    document = json.dumps(tournament_export(tournament))
    wipe_database()
    restored = tournament_import(document)
    assert totals(restored) == before
    assert restored.teams.count() == 4
    assert ScoreSheet.objects.filter(tournament=restored).count() == 2
    adjusted = Deal.objects.get(sheet__tournament=restored, adjusted=True)
    assert adjusted.adjustment_reason == "Renonce du preneur"
    assert adjusted.created_by == arbiter
    assert ChangeLog.objects.filter(tournament=restored).count() == ChangeLog.objects.count()
    assert tournament_export(restored)["sections"]["scoring.deal"][0]["scores"] is not None


def test_restore_next_to_existing_tournaments_reuses_players_by_licence():
    tournament = build_tournament()
    document = json.dumps(tournament_export(tournament))
    restored = tournament_import(document)
    assert restored.pk != tournament.pk
    assert totals(restored) == totals(tournament)
    # Players with a licence are matched to the roster; the others are new rows.
    assert Player.objects.count() == 8 + 4


@pytest.mark.parametrize(
    "raw",
    [
        b"not json at all",
        json.dumps({"format": "something-else"}),
        json.dumps({"format": "tarot-desk-backup", "version": 99, "sections": {}}),
        json.dumps({"format": "tarot-desk-backup", "version": 1, "sections": {"x": []}}),
    ],
)
def test_bad_or_foreign_files_are_refused_and_change_nothing(raw):
    build_tournament()
    counts = (Tournament.objects.count(), Player.objects.count(), Deal.objects.count())
    with pytest.raises(BackupError):
        tournament_import(raw)
    assert (Tournament.objects.count(), Player.objects.count(), Deal.objects.count()) == counts


def test_damaged_backup_is_refused_without_half_import():
    document = tournament_export(build_tournament())
    document["sections"]["scoring.deal"][0]["sheet"] = 999_999  # points to no sheet
    counts = (Tournament.objects.count(), Deal.objects.count())
    with pytest.raises(BackupError):
        tournament_import(json.dumps(document))
    assert (Tournament.objects.count(), Deal.objects.count()) == counts


def test_commands_write_and_restore_a_backup(tmp_path):
    tournament = build_tournament()
    before = totals(tournament)
    path = tmp_path / "backup.json"
    call_command("backup_tournament", tournament.pk, output=str(path), stdout=io.StringIO())
    wipe_database()
    call_command("restore_tournament", str(path), stdout=io.StringIO())
    assert totals(Tournament.objects.get()) == before


def test_interface_download_and_restore(arbiter_client):
    tournament = build_tournament()
    before = totals(tournament)
    response = arbiter_client.get(f"/tournois/{tournament.pk}/sauvegarde/")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    wipe_database()
    upload = io.BytesIO(response.content)
    upload.name = "backup.json"
    response = arbiter_client.post("/tournois/restaurer/", {"file": upload})
    assert response.status_code == 302
    assert totals(Tournament.objects.get()) == before


def test_interface_refuses_a_foreign_file_with_a_message(arbiter_client):
    upload = io.BytesIO(b'{"hello": "world"}')
    upload.name = "other.json"
    response = arbiter_client.post("/tournois/restaurer/", {"file": upload})
    assert response.status_code == 200
    assert "pas une sauvegarde" in response.text
    assert Tournament.objects.count() == 0


def test_backup_is_for_arbiters_only(client, scorer):
    tournament = build_tournament()
    assert client.get(f"/tournois/{tournament.pk}/sauvegarde/").status_code == 302
    client.force_login(scorer)
    assert client.get(f"/tournois/{tournament.pk}/sauvegarde/").status_code == 403
