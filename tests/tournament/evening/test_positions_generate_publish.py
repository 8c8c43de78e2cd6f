"""Generating, regenerating and publishing positions through the arbiter's views."""

import pytest
from django.urls import reverse

from tests.tournament.evening.positions_helpers import make_tournament
from tournament.core import seating
from tournament.evening.selectors import tournament_plan
from tournament.models import ChangeLog, Position, Seat, Table

pytestmark = pytest.mark.django_db


def generate(client, tournament, seed=7):
    return client.post(reverse("position-generate", args=[tournament.pk]), {"seed": seed})


def test_generate_seats_every_player_once_per_position_as_drafts(arbiter_client):
    tournament = make_tournament(players=16, positions=4)
    generate(arbiter_client, tournament)
    positions = list(tournament.positions.all())
    assert [(p.number, p.status, p.seed) for p in positions] == [
        (n, Position.Status.DRAFT, 7) for n in (1, 2, 3, 4)
    ]
    everyone = set(tournament.registrations.values_list("pk", flat=True))
    for position in positions:
        seats = Seat.objects.filter(table__position=position)
        assert sorted(s.registration_id for s in seats) == sorted(everyone)
        assert set(position.tables.values_list("game", flat=True)) == {Table.Game.FOUR}
    # 16 players, 4 positions: the affine plane seats everyone without a repeated meeting.
    assert seating.repeated_meetings(tournament_plan(tournament)) == 0


def test_remainder_policy_sets_the_table_games(arbiter_client):
    tournament = make_tournament(players=18, positions=2, remainder="five_dead")
    generate(arbiter_client, tournament)
    games = sorted(Table.objects.filter(position__number=1).values_list("game", flat=True))
    assert games == ["five_dead", "five_dead", "four", "four"]
    fifth = Seat.objects.filter(table__position__number=1, direction="X").count()
    assert fifth == 2

    threes = make_tournament(players=14, positions=1, remainder="three")
    generate(arbiter_client, threes)
    sizes = sorted(t.seats.count() for t in Table.objects.filter(position__tournament=threes))
    assert sizes == [3, 3, 4, 4]


def test_too_few_players_gets_a_clear_message_and_nothing_is_created(arbiter_client):
    tournament = make_tournament(players=2, positions=3)
    response = generate(arbiter_client, tournament)
    messages = [str(m) for m in response.wsgi_request._messages]
    assert "Il faut au moins 3 joueurs pour former une table." in messages
    assert not Position.objects.exists()


def test_publish_in_order_and_published_positions_are_not_regenerated(arbiter_client):
    tournament = make_tournament(players=12, positions=3)
    generate(arbiter_client, tournament)
    publish = reverse("position-publish", args=[tournament.pk, 2])
    response = arbiter_client.post(publish)
    assert (
        "Publiez d&#x27;abord les positions précédentes." in arbiter_client.get(response.url).text
    )
    arbiter_client.post(reverse("position-publish", args=[tournament.pk, 1]))
    first = tournament.positions.get(number=1)
    assert first.status == Position.Status.PUBLISHED and first.published_at is not None
    tournament.refresh_from_db()
    assert tournament.status == "running"

    tables_before = tournament_plan(tournament)[0]
    arbiter_client.post(reverse("position-regenerate", args=[tournament.pk, 1]))
    assert tournament_plan(tournament)[0] == tables_before


def test_regenerating_a_draft_changes_it_and_leaves_a_trace(arbiter_client):
    tournament = make_tournament(players=12, positions=3)
    generate(arbiter_client, tournament, seed=1)
    arbiter_client.post(reverse("position-publish", args=[tournament.pk, 1]))
    before = tournament_plan(tournament)
    arbiter_client.post(reverse("position-regenerate", args=[tournament.pk, 2]))
    after = tournament_plan(tournament)
    assert after[0] == before[0]
    assert tournament.positions.get(number=2).seed != 1
    position = tournament.positions.get(number=2)
    log = ChangeLog.objects.filter(object_type="position", object_id=position.pk).first()
    assert log.before == {"tables": before[1]}
    assert log.after["tables"] == after[1]


def test_position_list_shows_status_and_offers_the_actions(arbiter_client):
    tournament = make_tournament(players=8, positions=2)
    page = arbiter_client.get(reverse("position-list", args=[tournament.pk])).text
    assert "non générée" in page and "Générer" in page
    generate(arbiter_client, tournament)
    page = arbiter_client.get(reverse("position-list", args=[tournament.pk])).text
    assert "Brouillon" in page and "Publier" in page and "Replanifier" in page


def test_team_that_cannot_be_separated_gets_a_message_and_nothing_is_created(arbiter_client):
    tournament = make_tournament(players=8, positions=2, format="team4")
    team = tournament.teams.create(name="Les Quatre")
    tournament.registrations.filter(number__lte=4).update(team=team)
    response = generate(arbiter_client, tournament)
    messages = [str(m) for m in response.wsgi_request._messages]
    assert any(
        "Une équipe de 4 joueurs ne peut pas être répartie sur 2 tables" in m for m in messages
    )
    assert not Position.objects.exists()


def test_teammates_never_share_a_table(arbiter_client):
    tournament = make_tournament(players=16, positions=3, format="duo")
    regs = list(tournament.registrations.order_by("number"))
    for index in range(8):
        team = tournament.teams.create(name=f"Duo {index}")
        for reg in regs[2 * index : 2 * index + 2]:
            reg.team = team
            reg.save()
    generate(arbiter_client, tournament)
    for table in Table.objects.filter(position__tournament=tournament):
        teams = [s.registration.team_id for s in table.seats.select_related("registration")]
        assert len(teams) == len(set(teams))
