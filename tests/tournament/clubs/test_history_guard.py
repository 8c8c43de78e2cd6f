"""Issue 36, first reproduction: club B rewrote club A's finished private tournament through a
licence conflict it opened itself (a made-up player with A's licence, then "Fusionner, garder
le nouveau" or "Corriger, l'existant"). Now every change of a person's history passes one guard
(tournament.access.history): the user runs every tournament concerned, and a finished one's
names and results never change until its organiser reopens it."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.desk_helpers import register
from tests.tournament.clubs.conftest import A_PRIVATE, HELD
from tournament.access.history import history_guard
from tournament.clubs.settlement import conflict_answer, conflict_propose, conflict_resolve
from tournament.models import LicenceConflict, Player, Registration, Tournament
from tournament.models.audit import revision_of
from tournament.players.identity import player_merge

pytestmark = pytest.mark.django_db


def b_opens_a_conflict(client, people):
    client.force_login(people["admin-b"])
    response = register(
        client, people["b-evening"], last_name="Voleur", first_name="Bob", licence=HELD
    )
    assert response.status_code == 302
    return LicenceConflict.objects.get(), Player.objects.get(last_name="Voleur")


def a_is_untouched(people):
    held = Player.objects.get(pk=people["held"].pk)
    assert (held.last_name, held.licence) == ("Titulaire", HELD)
    assert Registration.objects.get(pk=people["past"].pk).player_id == held.pk


@pytest.mark.parametrize(
    "fields",
    [
        {"resolution": "merge", "entry": "newcomer"},  # "Fusionner, garder le nouveau"
        {"resolution": "correct", "entry": "existing"},  # "Corriger, l'existant"
        {"accept": "1"},
    ],
)
def test_club_b_cannot_settle_the_conflict_it_opened(client, two_clubs, fields):
    conflict, _voleur = b_opens_a_conflict(client, two_clubs)
    for who in ("admin-b", "arbitre-b"):
        client.force_login(two_clubs[who])
        url = reverse("licence-conflict", args=[conflict.pk])
        assert client.get(url).status_code in (403, 404)
        assert client.post(url, fields).status_code in (403, 404)
    a_is_untouched(two_clubs)
    client.force_login(two_clubs["admin-a"])
    ranking = client.get(reverse("player-list", args=[two_clubs["private"].pk])).text
    assert "TITULAIRE Alice" in ranking and "VOLEUR" not in ranking


def test_the_services_refuse_club_b_too(client, two_clubs):
    conflict, voleur = b_opens_a_conflict(client, two_clubs)
    b = two_clubs["admin-b"]
    with pytest.raises(ValidationError):
        conflict_resolve(conflict=conflict, resolution="merge", entry="newcomer", user=b)
    with pytest.raises(ValidationError):
        conflict_propose(conflict=conflict, resolution="merge", entry="newcomer", user=b)
    with pytest.raises(ValidationError):
        conflict_answer(conflict=conflict, accept=True, user=b)
    with pytest.raises(ValidationError):
        player_merge(keep=voleur, drop=two_clubs["held"], user=b)
    a_is_untouched(two_clubs)


def test_even_with_consent_a_finished_tournament_keeps_its_names(client, two_clubs):
    """A proposes the merge that would put B's name on A's finished tournament, B accepts:
    refused until A's organiser reopens it; then it goes through."""
    conflict, voleur = b_opens_a_conflict(client, two_clubs)
    conflict_propose(
        conflict=conflict, resolution="merge", entry="newcomer", user=two_clubs["admin-a"]
    )
    with pytest.raises(ValidationError, match="tournoi terminé"):
        conflict_answer(conflict=conflict, accept=True, user=two_clubs["admin-b"])
    a_is_untouched(two_clubs)
    Tournament.objects.filter(pk=two_clubs["private"].pk).update(status="running")
    conflict_answer(conflict=conflict, accept=True, user=two_clubs["admin-b"])
    assert Registration.objects.get(pk=two_clubs["past"].pk).player_id == voleur.pk


def test_the_guard_names_no_tournament_and_counts_every_acting_account(two_clubs):
    a, b = two_clubs["admin-a"], two_clubs["admin-b"]
    held = two_clubs["held"]
    with pytest.raises(ValidationError) as refused:
        history_guard(players=[held], users=[b])
    assert A_PRIVATE not in str(refused.value)
    assert history_guard(players=[held], users=[b, a]) == [two_clubs["private"]]
    with pytest.raises(ValidationError, match="tournoi terminé") as finished:
        history_guard(players=[held], users=[a], renamed=[held])
    assert A_PRIVATE not in str(finished.value)


def test_an_ordinary_merge_refuses_a_finished_tournament_of_the_entry_merged_away(two_clubs):
    a = two_clubs["admin-a"]
    twin = Player.objects.create(last_name="Titulaire", origin_club=two_clubs["Club Alpha"])
    with pytest.raises(ValidationError, match="tournoi terminé"):
        player_merge(keep=twin, drop=two_clubs["held"], user=a)
    kept = player_merge(keep=two_clubs["held"], drop=twin, user=a)  # A's names stay as they are
    assert Registration.objects.get(pk=two_clubs["past"].pk).player == kept


def test_an_import_into_a_tournament_the_user_does_not_run_is_refused(two_clubs):
    from tournament.players.importing import ImportRow
    from tournament.players.imports import import_apply

    running = Tournament.objects.create(
        name="Open Alpha", date="2026-11-28", host_club=two_clubs["Club Alpha"],
        owner=two_clubs["admin-a"],
    )  # fmt: skip
    row = ImportRow(line=2, last_name="Voleur", first_name="Bob", licence="", club="", team="")
    with pytest.raises(ValidationError, match="que vous n'arbitrez pas"):
        import_apply(tournament=running, rows=[row], user=two_clubs["admin-b"])
    assert not running.registrations.exists()
    with pytest.raises(ValidationError, match="terminé"):
        import_apply(tournament=two_clubs["private"], rows=[row], user=two_clubs["admin-a"])
    assert len(import_apply(tournament=running, rows=[row], user=two_clubs["admin-a"])) == 1


def test_a_settled_merge_moves_the_live_revision_of_each_tournament_concerned(client, two_clubs):
    """Their live pages show the kept entry's name from now on: each tournament's revision
    moves with the merge (it moved none before)."""
    conflict, voleur = b_opens_a_conflict(client, two_clubs)
    Tournament.objects.filter(pk=two_clubs["private"].pk).update(status="running")
    concerned = [two_clubs["private"].pk, two_clubs["b-evening"].pk]
    conflict_propose(
        conflict=conflict, resolution="merge", entry="newcomer", user=two_clubs["admin-a"]
    )
    before = [revision_of(pk) for pk in concerned]
    conflict_answer(conflict=conflict, accept=True, user=two_clubs["admin-b"])
    assert Registration.objects.get(pk=two_clubs["past"].pk).player_id == voleur.pk
    assert all(revision_of(pk) > number for pk, number in zip(concerned, before, strict=True))
