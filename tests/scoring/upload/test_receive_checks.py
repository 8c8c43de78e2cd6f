"""The comité's server checks a sent tournament before it takes it (issue 40): the key's club
only, sizes bounded, every deal and total recomputed; each refusal in French, nothing stored."""

from __future__ import annotations

import pytest

from scoring.upload import receive
from scoring.upload.keys import KeyRefused, key_authenticate, upload_key_issue, upload_key_revoke
from scoring.upload.receive import Refused, results_receive
from scoring.uploads import ReceivedVersion, UploadKey
from tests.scoring.upload.conftest import edited
from tournament.models import Club, Player, Tournament

pytestmark = pytest.mark.django_db


def stored() -> tuple[int, int, int]:
    return (Tournament.objects.count(), ReceivedVersion.objects.count(), Player.objects.count())


def refused(key: str, raw: bytes) -> Refused:
    before = stored()
    with pytest.raises(Refused) as refusal:
        results_receive(key=key_authenticate(f"Bearer {key}", address="192.0.2.1"), raw=raw)
    assert stored() == before  # nothing stored
    return refusal.value


def test_a_good_document_is_stored_as_version_1_of_the_keys_club(key, club, document, finished):
    received = results_receive(
        key=key_authenticate(f"Bearer {key}", address="192.0.2.1"), raw=document
    )
    assert received.created and received.version.number == 1
    copy = received.version.tournament
    assert copy.pk != finished.pk and copy.host_club == club
    assert copy.status == Tournament.Status.FINISHED and copy.name == finished.name
    assert received.version.report["penalty_total"] == 380
    assert UploadKey.objects.get().last_used_at is not None


def test_the_same_document_twice_is_stored_once(key, document):
    first = results_receive(
        key=key_authenticate(f"Bearer {key}", address="192.0.2.1"), raw=document
    )
    count = stored()
    again = results_receive(
        key=key_authenticate(f"Bearer {key}", address="192.0.2.1"), raw=document
    )
    assert not again.created and again.version.pk == first.version.pk
    assert stored() == count


def test_a_wrong_key_and_a_revoked_key_are_refused(key, club):
    with pytest.raises(KeyRefused, match="inconnue"):
        key_authenticate("Bearer tdk_" + "x" * 40, address="192.0.2.1")
    with pytest.raises(KeyRefused, match="manquante"):
        key_authenticate("", address="192.0.2.1")
    assert upload_key_revoke(club=club, key_id=UploadKey.objects.get().pk)
    with pytest.raises(KeyRefused, match="révoquée"):
        key_authenticate(f"Bearer {key}", address="192.0.2.1")


def test_the_key_is_stored_as_a_digest_only(key):
    row = UploadKey.objects.get()
    assert key not in (row.digest, row.prefix) and key.startswith(row.prefix)


def test_another_clubs_key_is_refused(arbiter, document):
    other = Club.objects.create(name="Club de Mâcon")
    other_key = upload_key_issue(club=other, user=arbiter)[1]
    refusal = refused(other_key, document)
    assert refusal.status == 403 and "Club de Mâcon" in refusal.message


def test_a_document_naming_another_club_is_refused(key, document):
    raw = edited(document, lambda data: data.update(club={"name": "Club de Mâcon", "code": None}))
    refusal = refused(key, raw)
    assert refusal.status == 403 and "« Club de Mâcon »" in refusal.message


def test_by_fft_number_when_both_clubs_have_one(key, club, document):
    Club.objects.filter(pk=club.pk).update(code="0712")
    raw = edited(document, lambda data: data.update(club={"name": "Autre nom", "code": "0712"}))
    assert results_receive(
        key=key_authenticate(f"Bearer {key}", address="192.0.2.1"), raw=raw
    ).created
    raw = edited(document, lambda data: data.update(club={"name": club.name, "code": "0999"}))
    refusal = refused(key, raw)
    assert refusal.status == 403
    # Only the numbers differ: the message names them, not the same name twice.
    assert "club n° FFT « 0999 », et cette clé est celle du club n° FFT « 0712 »" in (
        refusal.message
    )
    assert f"tous deux nommés « {club.name} »" in refusal.message


def change_deal(data: dict) -> None:
    deal = next(row for row in data["sections"]["scoring.deal"] if not row["adjusted"])
    deal["scores"] = [deal["scores"][0] + 10, *deal["scores"][1:]]


def test_a_deal_whose_score_was_changed_is_refused(key, document):
    refusal = refused(key, edited(document, change_deal))
    assert "donne" in refusal.message


def test_a_stored_seat_score_the_engine_disagrees_with_is_refused(key, document):
    def change(data):
        data["sections"]["scoring.dealscore"][0]["points"] += 10

    assert "le calcul de la donne donne" in refused(key, edited(document, change)).message


def test_a_report_total_the_deals_disagree_with_is_refused(key, document):
    def change(data):
        data["report"]["ranking"][0]["total"] += 1

    refusal = refused(key, edited(document, change))
    assert "total du joueur n°" in refusal.message


def test_an_unfinished_tournament_is_refused(key, document):
    def change(data):
        data["sections"]["tournament.tournament"][0]["status"] = "running"

    assert "pas terminé" in refused(key, edited(document, change)).message


def test_sizes_are_bounded_as_a_restore(key, document, monkeypatch):
    monkeypatch.setattr(receive, "MAX_BACKUP_BYTES", len(document) - 1)
    assert refused(key, document).status == 413


def test_a_document_without_its_source_or_club_is_refused(key, document):
    assert "source" in refused(key, edited(document, lambda data: data.pop("source"))).message
    assert "club" in refused(key, edited(document, lambda data: data.pop("club"))).message
