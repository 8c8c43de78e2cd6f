"""The shared standings: computed once per version, read back equal to fresh ones after every
kind of write, for the public and the arbiter; a hit costs the same few queries at any size."""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring.live import shared, versioned
from scoring.live.provisional import mark_provisional
from scoring.live.shared import shared_standings
from scoring.live.snapshot import FORMAT
from scoring.live.standings import Standings, standings_for
from scoring.models import Deal, Incident, LiveArtifact, ScoreSheet
from scoring.sheets.services import (
    deal_delete,
    deal_record,
    deal_update,
    incident_record,
    sheet_validate,
)
from tests.report_builders import build_tournament
from tournament.access.audit import revision_of
from tournament.access.lifecycle import position_close
from tournament.evening.positions import position_publish
from tournament.models import Player, Position, Registration, Tournament
from tournament.players.registrations import registration_withdraw
from tournament.players.teams import team_assign
from tournament.signup.checkin import registration_check_in
from tournament.tournaments.services import tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def built():
    built = build_tournament(
        is_public=True, status=Tournament.Status.RUNNING, format=Tournament.Format.DUO
    )
    # A draft to publish, and a player at the door not yet checked in.
    Position.objects.filter(pk=built["positions"][2].pk).update(status=Position.Status.DRAFT)
    late = Player.objects.create(last_name="Retard", first_name="Rita", club="Lille")
    built["late"] = Registration.objects.create(
        tournament=built["tournament"], player=late, number=99, status="expected"
    )
    return built


def same(served: Standings, fresh: Standings) -> None:
    assert list(served.players) == list(fresh.players)
    assert list(served.teams) == list(fresh.teams)
    assert list(served.clubs) == list(fresh.clubs)
    assert served.positions == fresh.positions
    assert served.partial == fresh.partial
    assert served.normalised == fresh.normalised
    assert served.factors == fresh.factors
    assert [c.key for c in served.criteria] == [c.key for c in fresh.criteria]


def sheet(built, position: int, table: int) -> ScoreSheet:
    return ScoreSheet.objects.get(pk=built["sheets"][(position, table)].pk)


def first_deal(built) -> Deal:
    return Deal.objects.filter(sheet=built["sheets"][(1, 1)]).order_by("number").first()


WRITES: dict[str, Callable[[dict], object]] = {
    "deal recorded": lambda b: deal_record(
        sheet=sheet(b, 1, 1),
        data=dict(taker=2, contract="garde", oudlers=3, points=41, players=4),
    ),
    "deal corrected": lambda b: deal_update(
        deal=first_deal(b), data=dict(taker=0, contract="prise", oudlers=2, points=60, players=4)
    ),
    "deal deleted": lambda b: deal_delete(deal=first_deal(b)),
    "sheet validated": lambda b: sheet_validate(sheet=sheet(b, 1, 1)),
    "incident": lambda b: incident_record(
        tournament=b["tournament"],
        kind=Incident.Kind.CARTE_EXPOSEE,
        registration=b["registrations"]["C"],
        sheet=sheet(b, 1, 1),
        penalty_points=30,
    ),
    "position published": lambda b: position_publish(
        position=Position.objects.get(pk=b["positions"][2].pk), unfinished_confirmed=True
    ),
    "position closed": lambda b: position_close(
        position=Position.objects.get(pk=b["positions"][1].pk)
    ),
    "registration withdrawn": lambda b: registration_withdraw(registration=b["registrations"]["I"]),
    "player checked in": lambda b: registration_check_in(registration=b["late"], present=True),
    "team formed": lambda b: team_assign(
        tournament=b["tournament"],
        name="Duo FG",
        registrations=[b["registrations"]["F"], b["registrations"]["G"]],
    ),
}

SETTINGS = {
    "tie-breaks": {"tie_breaks": ["tables_won", "best_position"]},
    "normalise": {"normalise_tables": True},
    "public requires validation": {"public_requires_validation": True},
}


def check_after(built, write: Callable[[], object]) -> None:
    tournament = built["tournament"]
    before = {}
    for public in (True, False):
        before[public] = shared_standings(tournament, public=public).version
    write()
    tournament = Tournament.objects.get(pk=tournament.pk)
    for public in (True, False):
        served = shared_standings(tournament, public=public)
        assert served.version == str(revision_of(tournament.pk)) != before[public]
        fresh = mark_provisional(standings_for(tournament, public=public))
        same(served.standings, fresh)
        # Read back from the row, not the process that computed it: the same again.
        stored = shared_standings(tournament, public=public)
        assert stored.version == served.version
        same(stored.standings, fresh)
    assert LiveArtifact.objects.filter(tournament=tournament, what="ranking").count() == 2


@pytest.mark.parametrize("kind", WRITES)
def test_the_shared_standings_equal_fresh_ones_after_every_write(built, kind):
    check_after(built, lambda: WRITES[kind](built))


@pytest.mark.parametrize("kind", SETTINGS)
def test_a_settings_change_moves_the_version_and_the_standings_follow(built, kind):
    tournament = built["tournament"]
    check_after(built, lambda: tournament_update(tournament=tournament, data=SETTINGS[kind]))


def test_a_hit_reads_the_stored_row_without_recomputing(built, monkeypatch):
    tournament = built["tournament"]
    first = shared_standings(tournament, public=True)
    computed = []
    monkeypatch.setattr(shared, "standings_for", lambda *a, **k: computed.append(1))
    again = shared_standings(tournament, public=True)
    assert again.version == first.version and computed == []
    same(again.standings, first.standings)


def test_while_another_process_computes_the_previous_version_is_served_under_its_own(built):
    tournament = built["tournament"]
    old = shared_standings(tournament, public=True)
    WRITES["incident"](built)
    new_version = str(revision_of(tournament.pk))
    # Another process has just claimed the new version.
    LiveArtifact.objects.filter(tournament=tournament, what="ranking", variant="public").update(
        claim=new_version, claimed_at=timezone.now()
    )
    served = shared_standings(tournament, public=True)
    assert served.version == old.version != new_version
    same(served.standings, old.standings)
    # A claim left by a process that died lapses: this one computes.
    LiveArtifact.objects.filter(tournament=tournament, what="ranking", variant="public").update(
        claimed_at=timezone.now() - timedelta(seconds=versioned.CLAIM_SECONDS + 1)
    )
    served = shared_standings(tournament, public=True)
    assert served.version == new_version
    same(served.standings, mark_provisional(standings_for(tournament, public=True)))


def test_a_stale_answer_never_carries_the_new_etag(client, built):
    tournament = built["tournament"]
    url = reverse("public-standings-partial", args=[tournament.pk])
    old_etag = client.get(url)["ETag"]
    WRITES["incident"](built)
    new_version = str(revision_of(tournament.pk))
    LiveArtifact.objects.filter(tournament=tournament, what="ranking", variant="public").update(
        claim=new_version, claimed_at=timezone.now()
    )
    # The previous standings are served: a phone holding them is told nothing changed, a new
    # viewer gets them under their own ETag; the next poll after the computation sees news.
    assert client.get(url, HTTP_IF_NONE_MATCH=old_etag).status_code == 304
    stale = client.get(url)
    assert stale.status_code == 200 and stale["ETag"] == old_etag
    assert new_version not in stale["ETag"]
    # The new ranking is ready, and the stale page's retry (a second) has come.
    LiveArtifact.objects.filter(tournament=tournament).update(claim="")
    fresh = client.get(url, HTTP_IF_NONE_MATCH=old_etag)
    assert fresh.status_code == 200 and new_version in fresh["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=fresh["ETag"]).status_code == 304


def test_the_table_keeps_one_row_per_tournament_and_audience(built):
    tournament = built["tournament"]
    for write in ("deal recorded", "incident", "team formed"):
        WRITES[write](built)
        shared_standings(tournament, public=True)
        shared_standings(tournament, public=False)
    rows = LiveArtifact.objects.filter(tournament=tournament, what="ranking")
    assert sorted(rows.values_list("variant", flat=True)) == ["arbiter", "public"]
    assert all(row.revision == str(revision_of(tournament.pk)) for row in rows)


def test_a_poll_on_a_hit_costs_the_same_queries_at_any_size(client):
    counts = []
    for players in (8, 40):
        from scoring.sheets.generate import GenerateOptions, tournament_generate

        tournament = tournament_generate(
            options=GenerateOptions(players=players, positions=2, deals=2, seed=1)
        )
        Tournament.objects.filter(pk=tournament.pk).update(is_public=True)
        registration = tournament.registrations.order_by("number").first()
        urls = [
            reverse("public-standings-partial", args=[tournament.pk]),
            reverse("public-player", args=[tournament.pk, registration.pk]),
        ]
        for url in urls:
            assert client.get(url).status_code == 200  # computes and stores
        with CaptureQueriesContext(connection) as captured:
            for url in urls:
                assert client.get(url).status_code == 200
        counts.append(len(captured))
        assert not any("INSERT" in q["sql"] or "UPDATE" in q["sql"] for q in captured)
    assert counts[0] == counts[1]


def age(tournament, *, seconds: float, compute_seconds: float) -> None:
    """The public ranking and the pages shown from it as if computed `seconds` ago in
    `compute_seconds`."""
    LiveArtifact.objects.filter(tournament=tournament).exclude(variant="arbiter").update(
        computed_at=timezone.now() - timedelta(seconds=seconds), compute_seconds=compute_seconds
    )


def test_the_public_ranking_keeps_its_version_a_while_however_many_deals_come(
    built, settings, monkeypatch
):
    settings.LIVE_STANDINGS_COALESCE = 10
    tournament = built["tournament"]
    old = shared_standings(tournament, public=True)
    age(tournament, seconds=1, compute_seconds=0.2)  # 10 x 0.2 s: kept for 2 s
    computed = []
    real = shared.standings_for
    monkeypatch.setattr(
        shared, "standings_for", lambda *a, **k: computed.append(1) or real(*a, **k)
    )
    for write in ("deal recorded", "incident"):
        WRITES[write](built)
        served = shared_standings(tournament, public=True)
        assert served.version == old.version != str(revision_of(tournament.pk))
        same(served.standings, old.standings)
    assert computed == []
    # The arbiter's ranking is never kept: it follows every write.
    assert shared_standings(tournament, public=False).version == str(revision_of(tournament.pk))
    assert computed == [1]
    # Past 10 x the computation's time, the next poll computes the new version, once for both
    # writes.
    age(tournament, seconds=2.5, compute_seconds=0.2)
    served = shared_standings(tournament, public=True)
    assert served.version == str(revision_of(tournament.pk)) and computed == [1, 1]
    same(served.standings, mark_provisional(standings_for(tournament, public=True)))
    # However long a computation took, the standings are never kept over 3 s.
    WRITES["team formed"](built)
    age(tournament, seconds=versioned.COALESCE_MAX_SECONDS + 0.5, compute_seconds=60)
    assert shared_standings(tournament, public=True).version == str(revision_of(tournament.pk))


def test_while_kept_the_phones_holding_the_served_version_are_answered_304(client, built, settings):
    settings.LIVE_STANDINGS_COALESCE = 10
    tournament = built["tournament"]
    url = reverse("public-standings-partial", args=[tournament.pk])
    etag = client.get(url)["ETag"]
    age(tournament, seconds=0, compute_seconds=0.2)
    WRITES["deal recorded"](built)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    # The ETag check reads the version, never the stored ranking.
    assert not [q for q in captured if "payload" in q["sql"]]
    age(tournament, seconds=3, compute_seconds=0.2)
    fresh = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and str(revision_of(tournament.pk)) in fresh["ETag"]


# An older layout, and the zlib payloads stored before the ranking was gzipped as pages are.
OLDER = [gzip.compress(b'{"format": 0}', mtime=0), zlib.compress(b'{"format": 1, "players": []}')]


@pytest.mark.parametrize("older", OLDER, ids=["older-layout", "zlib"])
def test_a_ranking_stored_in_an_older_format_is_recomputed_once_and_stored_again(
    built, monkeypatch, older
):
    tournament = built["tournament"]
    first = shared_standings(tournament, public=True)
    snapshot = LiveArtifact.objects.filter(tournament=tournament, what="ranking", variant="public")
    snapshot.update(body=older)
    computed = []
    real = shared.standings_for
    monkeypatch.setattr(
        shared, "standings_for", lambda *a, **k: computed.append(1) or real(*a, **k)
    )
    for _ in range(3):
        served = shared_standings(tournament, public=True)
        assert served.version == first.version
        same(served.standings, first.standings)
    assert computed == [1]
    assert json.loads(gzip.decompress(bytes(snapshot.get().body)))["format"] == FORMAT
