"""What the comité's server keeps of a club's sent tournament (issue 40): a corrected tournament
sent again is version 2: the same tournament (its id and public link) with version 2's content,
the history keeping each version's document, when and with which key; its players, with or
without a licence, are the same people; the circuits count it once, by their own rules; a
licence another club holds is flagged as an import flags it; nothing else of the club changes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.documents.backup import tournament_export
from scoring.models import Championship
from scoring.season.championships import championship_standings
from scoring.sheets.services import incident_record
from scoring.upload.keys import key_authenticate, upload_key_issue
from scoring.upload.receive import results_receive
from scoring.upload.send import upload_document
from scoring.uploads import ReceivedVersion
from tests.scoring.upload.conftest import SOURCE, edited
from tournament.access.lifecycle import tournament_finish, tournament_reopen
from tournament.models import ChangeLog, Club, LicenceConflict, Player, Tournament
from tournament.players.checks import licence_checks_process

pytestmark = pytest.mark.django_db


def send(key: str, raw: bytes):
    return results_receive(key=key_authenticate(f"Bearer {key}", address="192.0.2.1"), raw=raw)


def corrected(finished: Tournament, arbiter) -> bytes:
    """Reopened, one more penalty recorded, finished again: the document sent next."""
    finished = tournament_reopen(tournament=finished, reason="Pénalité oubliée", user=arbiter)
    incident_record(
        tournament=finished,
        kind="ethics",
        registration=finished.registrations.order_by("number").first(),
        decision="Avertissement",
        penalty_points=25,
        user=arbiter,
    )
    finished = tournament_finish(tournament=finished, user=arbiter)
    return upload_document(finished, source=SOURCE)


def test_a_corrected_tournament_is_version_2_of_the_same_tournament(
    key, club, document, finished, arbiter
):
    first = send(key, document).version
    copy = first.tournament
    link = reverse("public-tournament", args=[copy.pk])
    second = send(key, corrected(finished, arbiter)).version
    assert (first.number, second.number) == (1, 2)
    versions = list(ReceivedVersion.objects.filter(club=club, source=SOURCE).order_by("number"))
    assert [v.number for v in versions] == [1, 2]
    assert versions[0].document == document.decode()  # the history keeps what was sent
    assert versions[1].document != versions[0].document
    assert all(v.key.prefix == key[:10] and v.received_at for v in versions)
    # One tournament on the server, the same row and link, with version 2's content.
    assert [v.tournament_id for v in versions] == [copy.pk, copy.pk]
    assert Tournament.objects.filter(host_club=club, name=finished.name).count() == 2  # + original
    copy.refresh_from_db()
    assert copy.incidents.count() == finished.incidents.count() == 13
    assert copy.registrations.count() == finished.registrations.count()
    assert reverse("public-tournament", args=[copy.pk]) == link
    public = Client().get(link)
    assert public.status_code == 200 and finished.name in public.content.decode()


def test_a_resend_finds_the_same_players_with_or_without_a_licence(key, finished, arbiter):
    no_licence = finished.registrations.order_by("number").values("player_id")[:3]
    Player.objects.filter(pk__in=no_licence).update(licence=None)
    assert finished.registrations.exclude(player__licence=None).exists()
    copy = send(key, upload_document(finished, source=SOURCE)).version.tournament
    assert copy.registrations.filter(player__licence=None).count() == 3
    players = set(copy.registrations.values_list("player_id", flat=True))
    roster = Player.objects.count()
    send(key, corrected(finished, arbiter))
    assert set(copy.registrations.values_list("player_id", flat=True)) == players
    assert Player.objects.count() == roster  # no copy of anyone at version 2


def test_the_clubs_circuits_count_it_once(key, club, document, finished, arbiter):
    other = Club.objects.create(name="Comité de Saône-et-Loire")
    own = Championship.objects.create(name="Challenge du club", host_club=club, scale=[10, 8])
    circuit = Championship.objects.create(name="Circuit 71", host_club=other, scale=[5, 3])
    circuit.participating_clubs.add(club)
    not_ours = Championship.objects.create(name="Challenge voisin", host_club=other)
    key = upload_key_issue(club=club, user=arbiter, championships=[own, circuit, not_ours])[1]
    copy = send(key, document).version.tournament
    standings = championship_standings(circuit)
    assert copy in standings.finished
    ranked = standings.ranking.ranked
    assert len(ranked) >= 8  # its players who played are ranked from its results
    assert {scored.result.tournament for line in ranked for scored in line.row.scored} == {copy.pk}
    # Entered through the circuits' service: its record of who put it in, as on its page.
    assert ChangeLog.objects.filter(tournament=copy, object_type="championship").count() == 1
    # Their organisers fill the club's own championship and another club's, not a key.
    assert not own.tournaments.exists() and not not_ours.tournaments.exists()
    own.tournaments.add(copy)
    first_scores = {line.row.key: line.row.total for line in ranked}
    send(key, corrected(finished, arbiter))
    assert list(circuit.tournaments.all()) == [copy] and list(own.tournaments.all()) == [copy]
    again = championship_standings(circuit)
    assert again.finished == [copy] and len(again.ranking.ranked) == len(ranked)
    # The same people, counted once each (not a second line per unlicensed player).
    assert {line.row.key: line.row.total for line in again.ranking.ranked}.keys() == (
        first_scores.keys()
    )
    assert ChangeLog.objects.filter(tournament=copy, object_type="championship").count() == 1


def test_a_licence_another_club_holds_is_flagged_as_an_import_flags_it(key, club, document):
    other = Club.objects.create(name="Club voisin")
    theirs = Player.objects.create(last_name="VOISIN", licence="0799999", origin_club=other)

    def change(data):
        data["sections"]["tournament.player"][0]["licence"] = "0799999"

    send(key, edited(document, change))
    # Compared with other clubs' rosters after the response, as for an import (its queue).
    assert licence_checks_process() == 1
    conflict = LicenceConflict.objects.get(licence="0799999")
    assert conflict.existing == theirs and conflict.newcomer_club == club
    theirs.refresh_from_db()
    assert (theirs.last_name, theirs.origin_club) == ("VOISIN", other)  # theirs unchanged


def test_nothing_else_of_the_club_changes(key, club, document, finished, arbiter):
    before = tournament_export(finished)
    send(key, document)
    assert tournament_export(finished) == before
    other_tournament = Tournament.objects.create(name="Autre soirée", date="2026-01-09")
    Tournament.objects.filter(pk=other_tournament.pk).update(host_club=club)
    snapshot = tournament_export(other_tournament)
    send(key, corrected(finished, arbiter))
    assert tournament_export(other_tournament) == snapshot
