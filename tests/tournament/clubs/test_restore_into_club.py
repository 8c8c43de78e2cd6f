"""A restored backup joins the club of whoever restores it, never the club written in the file."""

import io
import json

import pytest
from django.urls import reverse

from scoring.documents.backup import tournament_export_json, tournament_import
from tests.club_helpers import join_club, roster_club
from tests.scoring.documents.backup.test_backup_restore import totals
from tournament.clubs.services import club_create
from tournament.models import ChangeLog, Club, Player, Registration, Tournament

pytestmark = pytest.mark.django_db


def test_a_backup_of_club_a_restored_by_club_b_belongs_to_club_b(django_user_model):
    lea = django_user_model.objects.create_user("lea")
    bob = django_user_model.objects.create_user("bob")
    club_a = club_create(name="A", admin=lea, user=lea)
    club_b = club_create(name="B", admin=bob, user=bob)
    tournament = Tournament.objects.create(
        name="Open A", date="2026-11-21", owner=lea, host_club=club_a
    )
    player = Player.objects.create(last_name="Seule", origin_club=club_a)
    Registration.objects.create(tournament=tournament, player=player, number=1)
    document = json.loads(tournament_export_json(tournament))
    tournament.delete()  # the original is gone: the restore makes a new roster entry
    player.delete()
    copy = tournament_import(json.dumps(document), user=bob)
    assert (copy.owner, copy.host_club) == (bob, club_b)
    restored = Player.objects.get(registrations__tournament=copy)
    assert restored.origin_club == club_b
    assert not ChangeLog.objects.filter(tournament=copy).exclude(club=None).exists()


def upload(client, document: dict, **data):
    """POST a backup document to the restore page, with the form's other fields."""
    raw = io.BytesIO(json.dumps(document).encode())
    raw.name = "sauvegarde.json"
    return client.post(reverse("tournament-restore"), {**data, "file": raw})


def before_clubs(document: dict) -> dict:
    """The same backup as written before clubs existed: no club on any row."""
    for rows in document["sections"].values():
        for row in rows:
            for field in ("host_club", "origin_club"):
                row.pop(field, None)
            if "object_type" in row:
                row.pop("club", None)
    return document


@pytest.fixture
def played(after_last_position):
    """The backup of a finished tournament (two positions played and validated)."""
    return json.loads(tournament_export_json(after_last_position))


def test_the_form_offers_the_restorers_clubs_the_first_by_default(client, django_user_model):
    lea = django_user_model.objects.create_user("lea")
    join_club(lea, "Zèbre", "arbiter")
    join_club(lea, "Albatros", "admin")
    join_club(django_user_model.objects.create_user("bob"), "Autre", "admin")
    client.force_login(lea)
    field = client.get(reverse("tournament-restore")).context["form"]["club"]
    assert [label for _value, label in field.field.choices] == ["Albatros", "Zèbre"]
    assert field.value() == Club.objects.get(name="Albatros").pk


def test_a_backup_restores_into_the_club_chosen(client, arbiter, played):
    second = join_club(arbiter, "Zzz second club", "arbiter")
    client.force_login(arbiter)
    response = upload(client, played, club=second.pk)
    assert response.status_code == 302
    copy = Tournament.objects.latest("pk")
    assert copy.host_club == second
    players = Player.objects.filter(registrations__tournament=copy)
    assert players.count() == 4
    assert set(players.values_list("origin_club", flat=True)) == {second.pk}


def test_without_a_choice_the_first_club_is_taken(client, arbiter, played):
    join_club(arbiter, "Zzz second club", "arbiter")
    client.force_login(arbiter)
    assert upload(client, played).status_code == 302
    assert Tournament.objects.latest("pk").host_club == roster_club()


def test_an_arbiter_cannot_restore_into_a_club_of_which_they_are_not_a_member(
    client, arbiter, played, django_user_model
):
    other = join_club(django_user_model.objects.create_user("bob"), "Club B", "admin")
    client.force_login(arbiter)
    tournaments = Tournament.objects.count()
    response = upload(client, played, club=other.pk)
    assert response.status_code == 200
    assert response.context["form"].errors["club"] == [
        "Vous n'êtes pas membre de ce club : choisissez l'un de vos clubs."
    ]
    assert Tournament.objects.count() == tournaments
    assert not Player.objects.filter(origin_club=other).exists()


def test_a_superuser_restores_into_any_club(client, played, django_user_model):
    root = django_user_model.objects.create_superuser("root", password="pw-root-1")
    other = join_club(django_user_model.objects.create_user("bob"), "Club B", "admin")
    client.force_login(root)
    assert upload(client, played, club=other.pk).status_code == 302
    copy = Tournament.objects.latest("pk")
    assert (copy.owner, copy.host_club) == (root, other)


def test_a_backup_from_before_clubs_restores_into_the_club_chosen(client, arbiter, played):
    """A file written before clubs existed (no club on any row) is restored whole into the
    club chosen: the same deals and totals, its players that club's."""
    second = join_club(arbiter, "Zzz second club", "arbiter")
    original = Tournament.objects.get(name=played["name"])
    client.force_login(arbiter)
    response = upload(client, before_clubs(played), club=second.pk)
    assert response.status_code == 302, response.content[:500]
    copy = Tournament.objects.latest("pk")
    assert copy.pk != original.pk and copy.host_club == second
    assert set(
        Player.objects.filter(registrations__tournament=copy).values_list("origin_club", flat=True)
    ) == {second.pk}
    assert totals(copy) == totals(original)


def test_the_command_restores_into_the_club_named(arbiter, played, tmp_path, django_user_model):
    from django.core.management import CommandError, call_command

    other = join_club(django_user_model.objects.create_user("bob"), "Club B", "admin")
    path = tmp_path / "sauvegarde.json"
    path.write_text(json.dumps(before_clubs(played)), encoding="utf-8")
    call_command("restore_tournament", str(path), owner="arbitre-test", club="Club B",
                 stdout=io.StringIO())  # fmt: skip
    copy = Tournament.objects.latest("pk")
    assert (copy.owner, copy.host_club) == (arbiter, other)
    with pytest.raises(CommandError, match="No club named 'Club C'"):
        call_command("restore_tournament", str(path), club="Club C", stdout=io.StringIO())


def test_a_licence_another_club_holds_is_restored_as_the_clubs_own_entry_and_flagged(
    django_user_model,
):
    from tournament.models import LicenceConflict
    from tournament.players.checks import licence_checks_process

    lea = django_user_model.objects.create_user("lea")
    bob = django_user_model.objects.create_user("bob")
    club_a = club_create(name="A", admin=lea, user=lea)
    club_b = club_create(name="B", admin=bob, user=bob)
    tournament = Tournament.objects.create(
        name="Open A", date="2026-11-21", owner=lea, host_club=club_a
    )
    real = Player.objects.create(last_name="Vrai", licence="0412345", origin_club=club_a)
    Registration.objects.create(tournament=tournament, player=real, number=1)
    document = tournament_export_json(tournament)
    tournament.delete()
    real.delete()
    false = Player.objects.create(last_name="Faussaire", licence="0412345", origin_club=club_b)
    copy = tournament_import(document, user=lea)
    restored = Player.objects.get(registrations__tournament=copy)
    assert (restored.last_name, restored.licence, restored.origin_club) == (
        "Vrai",
        "0412345",
        club_a,
    )
    assert licence_checks_process() == 1  # compared once the response is sent
    conflict = LicenceConflict.objects.get()
    assert (conflict.existing, conflict.newcomer) == (false, restored)
    assert not false.registrations.exists()
