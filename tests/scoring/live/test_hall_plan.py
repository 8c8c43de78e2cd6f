"""The hall's room plan (who sits where, the tables): read in one query of plain values,
rendered once per plan and language and re-used by the slides of every new ranking, rendered
again when a seat, a name or the position's status changes."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.live.rendered import HALL_PLAN
from scoring.live.views.hall import HALL
from scoring.models import LiveArtifact
from tests.desk_helpers import DEALS_004, deal_post, table_sheet
from tests.scoring.live.test_hall_views import evening  # noqa: F401 - the fixture
from tournament.evening.selectors import position_plan, room_plan, who_sits_where
from tournament.models import ChangeLog, Player, Position, Seat

pytestmark = pytest.mark.django_db


def slides(tournament, client=None) -> str:
    response = (client or Client()).get(reverse("hall-slides", args=[tournament.hall_token]))
    assert response.status_code == 200
    return response.content.decode()


def plan_rows(tournament):
    return list(
        LiveArtifact.objects.filter(tournament=tournament, what=HALL_PLAN).values_list(
            "variant", "revision", "computed_at"
        )
    )


def test_the_room_plan_says_what_the_seats_say(evening):  # noqa: F811
    _tournament, position, _sheet = evening
    plan = room_plan(position)
    with translation.override("fr"):
        who = [(r["name"], r["number"], r["table"], str(r["seat"])) for r in plan.who]
        assert who == [
            (r["name"], r["number"], r["table"], str(r["seat"])) for r in who_sits_where(position)
        ]
        tables = [(t.number, [(str(s.label), s.name) for s in t.seats]) for t in plan.tables]
        assert tables == [
            (
                t.number,
                [
                    (str(s.get_direction_display()), s.registration.player.full_name)
                    for s in t.seat_list
                ],
            )
            for t in position_plan(position)
        ]
    assert [t.number for t in plan.tables] == [1, 2] and len(plan.who) == 8
    # The sheet's order at every table: Nord, Sud, Est, Ouest.
    assert [str(s.label) for s in plan.tables[0].seats] == ["Nord", "Sud", "Est", "Ouest"]


def test_the_plan_version_moves_with_a_seat_a_name_or_the_status_not_with_a_deal(
    arbiter_client,
    evening,  # noqa: F811
):
    _tournament, position, _sheet = evening
    version = room_plan(position).version
    deal_post(arbiter_client, table_sheet(arbiter_client, position, 2), DEALS_004[0])
    assert room_plan(position).version == version

    seats = Seat.objects.filter(table__position=position, direction="N")
    first, second = seats.get(table__number=1), seats.get(table__number=2)
    first.registration, second.registration = second.registration, first.registration
    Seat.objects.bulk_update([first, second], ["registration"])
    swapped = room_plan(position).version
    assert swapped != version

    Player.objects.filter(pk=first.registration.player_id).update(first_name="Corrigé")
    renamed = room_plan(position).version
    assert renamed != swapped

    Position.objects.filter(pk=position.pk).update(status=Position.Status.CLOSED)
    position.refresh_from_db()
    assert room_plan(position).version not in (version, swapped, renamed)


def test_the_plan_is_rendered_once_and_reused_by_the_slides_of_a_new_ranking(
    arbiter_client,
    evening,  # noqa: F811
):
    tournament, position, _sheet = evening
    before = slides(tournament)
    (stored,) = plan_rows(tournament)
    assert stored[0] == "fr"

    deal_post(arbiter_client, table_sheet(arbiter_client, position, 2), DEALS_004[0])
    after = slides(tournament)
    assert after != before  # a new ranking: new slides...
    assert plan_rows(tournament) == [stored]  # ...around the same plan, not rendered again
    assert "Position 1 : qui est où" in after and "Position 1 : plan des tables" in after

    # Exactly what a render from nothing gives.
    LiveArtifact.objects.all().delete()
    assert slides(tournament) == after


def test_a_changed_seat_shows_on_the_slides(arbiter_client, evening):  # noqa: F811
    tournament, position, _sheet = evening
    slides(tournament)
    (stored,) = plan_rows(tournament)
    seat = Seat.objects.get(table__position=position, table__number=1, direction="N")
    Player.objects.filter(pk=seat.registration.player_id).update(last_name="NOUVEAUNOM")
    # A logged write (as the roster's edit is) moves the standings' version, hence the slides'.
    ChangeLog.objects.create(
        tournament=tournament,
        object_type=ChangeLog.ObjectType.PLAYER,
        action=ChangeLog.Action.UPDATE,
    )
    html = slides(tournament)
    assert "NOUVEAUNOM" in html
    (again,) = plan_rows(tournament)
    assert again[1] != stored[1]  # the plan rendered again, under its new version
    assert LiveArtifact.objects.filter(tournament=tournament, what=HALL).count() == 1


def test_each_language_gets_its_own_plan(evening):  # noqa: F811
    tournament, _position, _sheet = evening
    slides(tournament, Client(HTTP_ACCEPT_LANGUAGE="fr"))
    english = slides(tournament, Client(HTTP_ACCEPT_LANGUAGE="en"))
    assert "North" in english and "Nord" not in english
    assert sorted(key for key, _v, _r in plan_rows(tournament)) == ["en", "fr"]
