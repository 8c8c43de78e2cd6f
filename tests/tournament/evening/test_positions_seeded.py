"""Issue 25: the next position seated from the current standings, by rank (table d'honneur)
or in a snake, chosen on the positions page; a re-plan seats it the same way; the plan's
figures cover it."""

import pytest
from django.urls import reverse

from scoring.live.standings import standings_for
from scoring.sheets.generate import GenerateOptions, tournament_generate
from tournament.evening.positions import position_generate
from tournament.evening.selectors import tournament_plan

pytestmark = pytest.mark.django_db


def scored(players: int = 16, positions: int = 3, played: int | None = None):
    """Positions 1..`played` (all but the last) played and scored, the others drafts by the
    generator."""
    played = positions - 1 if played is None else played
    return tournament_generate(
        options=GenerateOptions(
            players=players, positions=positions, deals=3, played=played, finished=False
        )
    )


def leaders(tournament) -> list[int]:
    return [ranked.row.key for ranked in standings_for(tournament).players]


def test_the_last_position_seated_by_rank_puts_the_leaders_at_table_one(arbiter_client):
    tournament = scored()
    order = leaders(tournament)
    url = reverse("position-list", args=[tournament.pk])
    page = arbiter_client.get(url).text
    assert 'name="seating"' in page and "par le classement (table d&#x27;honneur)" in page
    arbiter_client.post(
        reverse("position-generate", args=[tournament.pk]), {"seed": 1, "seating": "rank"}
    )
    last = tournament_plan(tournament)[-1]
    assert [sorted(t) for t in last] == [sorted(order[k : k + 4]) for k in range(0, 16, 4)]
    position = tournament.positions.get(number=3)
    assert position.seating == "rank" and position.status == "draft"
    page = arbiter_client.get(url).text
    assert "Rencontres répétées" in page  # the plan's figures cover the seeded position
    assert 'value="rank" selected' in page  # the page remembers the choice


def test_a_snake_spreads_the_ranking_over_the_tables(arbiter_client):
    tournament = scored()
    order = leaders(tournament)
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seating": "snake"})
    last = tournament_plan(tournament)[-1]
    rank = {pk: r for r, pk in enumerate(order, start=1)}
    assert sorted(rank[p] for p in last[0]) == [1, 8, 9, 16]
    assert {sum(rank[p] for p in table) for table in last} == {34}


def test_a_replan_after_a_withdrawal_seats_the_position_by_rank_again(arbiter_client):
    tournament = scored(players=17)  # a table of 5
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seating": "rank"})
    leaver = tournament.registrations.get(pk=leaders(tournament)[0])
    arbiter_client.post(reverse("registration-withdraw", args=[tournament.pk, leaver.pk]))
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 2})
    order = [pk for pk in leaders(tournament) if pk != leaver.pk]
    last = tournament_plan(tournament)[-1]
    assert sorted(last[0]) == sorted(order[:4])
    assert tournament.positions.get(number=3).seating == "rank"


def test_only_the_next_position_to_play_is_seated_from_the_standings():
    tournament = scored(players=16, positions=4, played=1)
    with pytest.raises(Exception, match="prochaine position à jouer"):
        position_generate(tournament=tournament, start=4, seating_method="snake")


def test_a_seeded_position_before_the_last_leaves_the_rest_to_the_generator(arbiter_client):
    tournament = scored(players=16, positions=4, played=2)  # positions 3 and 4 drafts
    position_generate(tournament=tournament, seating_method="rank", seed=3)
    plan = tournament_plan(tournament)
    assert len(plan) == 4
    assert tournament.positions.get(number=3).seating == "rank"
    assert tournament.positions.get(number=4).seating == "generator"
    # The generator planned position 4 around the seeded one: its bound holds from there.
    assert tournament.positions.get(number=4).generated_figures["floor_from"] == 4
