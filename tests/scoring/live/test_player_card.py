"""The player's card poll: the same HTML as computed afresh, the same queries at any field size,
and an ETag that follows this player's seat, not the others'."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.live.card import card_deals
from scoring.live.counted import (
    deal_role,
    player_counted_deals,
    player_counted_penalties,
    visible_incidents,
    visible_sheets,
)
from scoring.live.provisional import mark_provisional, table_winners
from scoring.live.shared import shared_standings
from scoring.live.standings import player_deals, standings_for
from scoring.live.views.reports import player_context
from scoring.models import Deal, DealScore, Incident, LiveArtifact, ScoreSheet
from scoring.sheets.generate import GenerateOptions, tournament_generate
from scoring.sheets.services.deals import deal_record
from tests.scoring.live.test_shared_standings import WRITES, age, built  # noqa: F401
from tournament.evening.selectors import played_positions, position_in_play
from tournament.models import Player, Position, Seat, Tournament, player_name
from tournament.models.audit import revision_bump

pytestmark = pytest.mark.django_db


def running(players: int) -> Tournament:
    tournament = tournament_generate(
        options=GenerateOptions(players=players, positions=3, deals=2, played=2, finished=False)
    )
    Tournament.objects.filter(pk=tournament.pk).update(is_public=True)
    tournament.refresh_from_db()
    return tournament


def card_url(tournament: Tournament, registration_pk: int) -> str:
    return reverse("public-player", args=[tournament.pk, registration_pk])


def reference_card(tournament: Tournament, entry) -> str:
    """The card as rendered before the shared reads: fresh standings, the seat read directly."""
    standings = mark_provisional(standings_for(tournament, public=True))
    context = player_context(tournament, entry, True, standings=standings)
    position = position_in_play(list(played_positions(tournament)))
    current = None
    if position is not None and position.status == Position.Status.PUBLISHED:
        current = (
            Seat.objects.filter(registration=entry, table__position=position)
            .select_related("table__position")
            .first()
        )
    ranked = context["ranked"]
    deals = card_deals(
        player_counted_deals(tournament, entry.pk), player_counted_penalties(tournament, entry.pk)
    )
    context.update(
        deals_html=render_to_string("scoring/_public_deals.html", {"deals": deals}),
        normalised=standings.normalised,
        current=current,
        players_count=len(standings.players),
        results=sorted(ranked.row.results.values(), key=lambda r: r.position) if ranked else [],
        polling=tournament.status != tournament.Status.FINISHED,
        poll_seconds=settings.LIVE_POLL_SECONDS,
    )
    return render_to_string("scoring/_public_player_card.html", context)


def test_the_card_served_on_a_hit_is_the_card_computed_afresh(client):
    tournament = running(24)
    seated = Seat.objects.filter(
        table__position__tournament=tournament, table__position__status="published"
    ).values_list("registration_id", flat=True)
    entries = tournament.registrations.select_related("player", "team").order_by("number")
    checked = 0
    for entry in entries[:6]:
        url = card_url(tournament, entry.pk)
        client.get(url, HTTP_HX_REQUEST="true")  # computes and shares the standings
        html = client.get(url, HTTP_HX_REQUEST="true").content.decode()
        assert html == reference_card(tournament, entry)
        checked += entry.pk in seated
    assert checked, "at least one card shows a seat in play"


def test_a_card_poll_asks_the_same_queries_at_any_field_size(client):
    counts = []
    for players in (16, 60):
        tournament = running(players)
        entry = tournament.registrations.order_by("number").last()
        url = card_url(tournament, entry.pk)
        client.get(url, HTTP_HX_REQUEST="true")
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url, HTTP_HX_REQUEST="true").status_code == 200
        counts.append(len(captured))
        # The stored ranking is read (its row decoded alone), never computed.
        sqls = [q["sql"].lower() for q in captured if "liveartifact" in q["sql"].lower()]
        assert [sql for sql in sqls if "ranking" in sql]
        assert not [q for q in captured if "scoring_dealscore" in q["sql"] and "sum(" in q["sql"]]
    assert counts[0] == counts[1]


def test_a_seat_change_moves_the_card_etag_with_the_revision(client):
    tournament = running(24)
    mine = (
        Seat.objects.filter(table__position__tournament=tournament)
        .exclude(table__position__status="draft")
        .order_by("-table__position__number", "table__number", "direction")
        .first()
    )
    url = card_url(tournament, mine.registration_id)
    etag = client.get(url, HTTP_HX_REQUEST="true")["ETag"]
    assert client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 304
    # This player's seat moves, in a write that moves the revision (as every write does): the
    # card is sent again, under a new ETag that its next poll is answered 304 with.
    Seat.objects.filter(pk=mine.pk).update(direction="Z")
    revision_bump(tournament.pk)
    changed = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=changed["ETag"])
    assert again.status_code == 304


def _lines_by_the_arbiters_rule(tournament: Tournament, entry) -> list[tuple]:
    deals = player_deals(tournament, entry, public=True)
    return [
        (line["position"], line["table"], line["deal"].number, line["points"], line["running"])
        + (line["role"], line["taker"], line["partner"], line["deal"].contract)
        for line in deals["lines"]
    ]


def _card_lines(tournament: Tournament, entry) -> list[tuple]:
    deals = card_deals(player_counted_deals(tournament, entry.pk), [])
    return [
        (line["position"], line["table"], line["number"], line["points"], line["running"])
        + (line["role"], line["taker"], line["partner"], line["contract"])
        for line in deals["lines"]
    ]


def _card_penalties(tournament: Tournament, entry) -> list[int]:
    return [row[0] for row in player_counted_penalties(tournament, entry.pk)]


def _penalties_by_the_rule(tournament: Tournament, entry) -> list[int]:
    incidents = visible_incidents(tournament, visible_sheets(tournament, public=True))
    return list(
        incidents.filter(registration=entry).order_by("created_at").values_list("pk", flat=True)
    )


def test_one_rule_names_a_seats_role_and_its_player_for_the_card_and_the_arbiter():
    """deal_role and player_name serve both the card's plain rows and player_deals' models."""
    five = (2, 4, 1)  # taker, partner, dead at a table of five
    roles = [deal_role(seat, five, played=True) for seat in range(5)]
    assert roles == ["defence", "dead", "taker", "defence", "partner"]
    assert deal_role(0, (0, 0, None), played=True) == "taker", "a taker called themself"
    assert deal_role(2, five, played=False) == "", "a passed or cancelled deal has no roles"
    assert deal_role(1, (None, None, None), played=True) == "defence"
    assert player_name("Dupont", "Jean") == "DUPONT Jean"
    assert player_name("Dupont", "") == Player(last_name="Dupont").full_name == "DUPONT"
    assert player_name(None, None) == "", "an empty seat"


def test_the_cards_deals_follow_the_public_rule_of_counted_deals():
    """The card's plain SQL reads show what counted.player_deals and visible_incidents show the
    public (_visible_sheet_sql and visible_sheet_rule agree): no draft position, no deal waiting
    for confirmation, validated sheets only when asked, cancelled deals shown without roles,
    penalties of no sheet or of a visible one."""
    tournament = running(16)
    entries = list(tournament.registrations.select_related("player").order_by("number"))
    Deal.objects.filter(sheet__tournament=tournament, number=1).update(pending=True)
    cancelled = Deal.objects.filter(sheet__tournament=tournament, number=2).first()
    Deal.objects.filter(pk=cancelled.pk).update(cancelled=True)
    sheet = ScoreSheet.objects.filter(tournament=tournament, table__isnull=False).first()
    ScoreSheet.objects.filter(pk=sheet.pk).update(status=ScoreSheet.Status.VALIDATED)
    Position.objects.filter(tournament=tournament, number=2).update(status="draft")
    entry = entries[0]
    sheets = ScoreSheet.objects.filter(tournament=tournament, players__registration=entry)
    for sheet_, points in [(None, 5), (sheets.first(), 7), (sheets.last(), 9), (None, 0)]:
        Incident.objects.create(
            tournament=tournament,
            sheet=sheet_,
            registration=entry,
            kind="fausse_donne",
            penalty_points=points,
        )
    for requires_validation in (False, True):
        Tournament.objects.filter(pk=tournament.pk).update(
            public_requires_validation=requires_validation
        )
        tournament.refresh_from_db()
        shown, roles = 0, set()
        for entry in entries:
            assert _card_lines(tournament, entry) == _lines_by_the_arbiters_rule(tournament, entry)
            shown += len(_card_lines(tournament, entry))
            roles.update(line[5] for line in _card_lines(tournament, entry))
            assert _card_penalties(tournament, entry) == _penalties_by_the_rule(tournament, entry)
        entry = entries[0]
        assert shown, "some deals are shown"
        if not requires_validation:
            assert "" in roles, "the cancelled deal is shown, without roles"
        if not requires_validation:
            assert len(_card_penalties(tournament, entry)) == 2, "no sheet's, position 1's"


def test_the_card_after_a_deal_at_the_players_table_is_the_card_computed_afresh(client):
    tournament = running(16)
    entry = (
        tournament.registrations.select_related("player", "team")
        .filter(scores__isnull=False)
        .order_by("number")
        .first()
    )
    url = card_url(tournament, entry.pk)
    before = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert before == reference_card(tournament, entry)
    # A correction at the player's table: the deals shown change, the stored render must not
    # be served for them.
    score = DealScore.objects.filter(registration=entry).order_by("deal__number").last()
    DealScore.objects.filter(pk=score.pk).update(points=score.points + 1000)
    revision_bump(tournament.pk)  # as every write does, in its transaction
    after = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert after != before
    assert after == reference_card(tournament, entry)


def test_a_deal_at_another_table_serves_the_stored_deals_of_this_card(client):
    tournament = running(16)
    entry = tournament.registrations.filter(scores__isnull=False).order_by("number").first()
    url = card_url(tournament, entry.pk)
    client.get(url, HTTP_HX_REQUEST="true")
    stored = LiveArtifact.objects.get(tournament=tournament, what="card-deals")
    other = Deal.objects.filter(sheet__tournament=tournament).exclude(
        player_scores__registration=entry
    )
    deal = other.first()
    Deal.objects.filter(pk=deal.pk).update(pending=True)
    revision_bump(tournament.pk)  # as every write does, in its transaction
    assert client.get(url, HTTP_HX_REQUEST="true").status_code == 200
    assert LiveArtifact.objects.get(pk=stored.pk).computed_at == stored.computed_at


def _card_row(html: str, position: int) -> str:
    """The card's bilan row of a position, as text."""
    start = html.index('<table class="bilans stack">')
    rows = html[start : html.index("</table>", start)].split("<tr>")
    return next(r for r in rows if f'data-label="Position">{position}' in r)


def test_a_table_in_play_has_no_best_bilan_yet_and_says_so(client):
    """Position 2's table had played only a "Tous passent": four zeros are nobody's best, and
    the table is not over. Once its deals are all played, its best bilan is marked again."""
    tournament = running(16)
    sheet = ScoreSheet.objects.filter(tournament=tournament, table__position__number=2).first()
    Deal.objects.filter(sheet=sheet).delete()
    revision_bump(tournament.pk)  # as every write does, in its transaction
    sheet.refresh_from_db()
    deal_record(sheet=sheet, data={"players": 4, "passed": True, "dealer": 0})
    players = list(sheet.players.values_list("registration_id", flat=True))
    assert len(players) == 4
    for registration_id in players:
        html = client.get(card_url(tournament, registration_id), HTTP_HX_REQUEST="true")
        row = _card_row(html.content.decode(), 2)
        assert "meilleur bilan de la table" not in row, row
        assert "en cours" in row, row
    sheet.refresh_from_db()
    deal_record(sheet=sheet, data=dict(taker=1, contract="garde", oudlers=3, points=41, players=4))
    badges = []
    for registration_id in players:
        html = client.get(card_url(tournament, registration_id), HTTP_HX_REQUEST="true")
        row = _card_row(html.content.decode(), 2)
        assert "en cours" not in row, row
        badges.append("meilleur bilan de la table" in row)
    assert badges.count(True) == 1, badges  # the taker's garde won: the taker alone is best


def test_a_table_where_everybody_ties_has_no_best_bilan():
    seats = {1: [10, 11, 12, 13], 2: [20, 21, 22, 23]}
    bilans = {(1, r): (0, 1) for r in seats[1]}
    bilans |= {(2, 20): (60, 2), (2, 21): (60, 2), (2, 22): (-60, 2), (2, 23): (-60, 2)}
    assert table_winners(seats, bilans, played={1, 2}) == {(2, 20), (2, 21)}
    assert table_winners(seats, bilans, played={1}) == set()


def test_a_card_shown_while_the_ranking_is_kept_is_never_a_stale_304(client, built, settings):  # noqa: F811
    """The card shows the shared ranking's row (kept a few seconds while deals come) beside its
    deals and penalties read fresh: a penalty recorded meanwhile changes the card's ETag at once
    (a phone holding the old one gets the new card, not a 304), and the ranking catching up
    later changes it again."""
    settings.LIVE_STANDINGS_COALESCE = 10
    made = built
    tournament, player = made["tournament"], made["registrations"]["C"]
    url = reverse("public-player", args=[tournament.pk, player.pk])
    first = client.get(url, HTTP_HX_REQUEST="true")
    kept = shared_standings(tournament, public=True).version
    age(tournament, seconds=0, compute_seconds=1)  # kept up to COALESCE_MAX_SECONDS from now

    WRITES["incident"](made)  # 30 penalty points for this player
    during = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert during.status_code == 200 and during["ETag"] != first["ETag"]
    assert "30" in during.content.decode()

    age(tournament, seconds=60, compute_seconds=1)  # no longer kept: the next poll computes
    after = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=during["ETag"])
    if f":{kept}:" in during["ETag"]:  # the card was shown beside the kept ranking
        assert after.status_code == 200 and after["ETag"] != during["ETag"]
    assert (
        client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=after["ETag"]).status_code == 304
    )
