"""Issue 26, the desk's event pages: create an event (its session 1), see its sessions and
brackets, preview and apply a cut, replace a withdrawal; only the owner manages the event."""

import pytest
from django.urls import reverse

from tests.scoring.events.event_helpers import new_event, play, seat
from tournament.models import Event

pytestmark = pytest.mark.django_db


def test_creating_an_event_creates_its_first_session(arbiter_client, arbiter):
    response = arbiter_client.post(
        reverse("event-create"),
        {
            "name": "Festival",
            "date": "2026-07-04",
            "format": "individual",
            "positions_count": 3,
            "position_minutes": 50,
            "deals_per_table_4": 5,
            "deals_per_table_5": 5,
            "deals_per_table_3": 6,
            "remainder": "five",
            "rule_set": "fft",
            "entry_mode": "paper",
            "sheet_style": "detailed",
        },
    )
    event = Event.objects.get()
    assert response.status_code == 302 and response["Location"] == event.get_absolute_url()
    bracket = event.brackets.get()
    assert (bracket.session, bracket.bracket, bracket.positions_count) == (1, "main", 3)
    assert bracket.owner == arbiter and event.owner == arbiter
    page = arbiter_client.get(event.get_absolute_url()).text
    assert "Séance 1" in page and "Couper ce tableau" in page and "Festival — séance 1" in page


def test_the_cut_page_previews_then_applies(arbiter_client, arbiter):
    event, bracket = new_event(8, owner=arbiter)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(bracket, [[5, 9, 2], [5, 9, 2]])  # P2 = P6 = 45, P1 = P5 = 29
    url = reverse("event-cut", args=[bracket.pk])
    form = {"rule": "top_n", "value": 3, "consolante": "on", "carry_over_percent": 50}
    page = arbiter_client.post(url, form | {"seating": "rank", "preview": "1"}).text
    assert "Aucun critère ne les sépare : tous sont qualifiés." in page
    assert "Appliquer la coupe" in page
    assert not event.brackets.filter(session=2).exists()  # a preview writes nothing
    page = arbiter_client.post(url, form | {"seating": "rank", "value": 9, "preview": "1"}).text
    assert "La coupe retient 9 joueurs, mais 8 seulement sont en lice" in page
    response = arbiter_client.post(url, form | {"seating": "rank", "apply": "1"})
    assert response.status_code == 302
    main = event.brackets.get(session=2, bracket="main")
    assert main.registrations.count() == 4 and main.carry_over_percent == 50
    page = arbiter_client.get(event.get_absolute_url()).text
    assert "Séance 2" in page and "Remplacer ce forfait par le suivant" in page
    gone = main.registrations.get(player__last_name="P1")
    arbiter_client.post(reverse("event-replace", args=[main.pk]), {"registration": gone.pk})
    assert main.registrations.filter(player__last_name="P3").exists()


def test_only_the_owner_opens_the_event(client, arbiter, django_user_model):
    event, bracket = new_event(4, owner=arbiter)
    stranger = django_user_model.objects.create_user("passant", password="pw-passant-1")
    client.force_login(stranger)
    assert client.get(event.get_absolute_url()).status_code == 403
    assert client.get(reverse("event-cut", args=[bracket.pk])).status_code == 403


def test_a_co_arbiter_who_cuts_a_bracket_lands_on_a_page_they_may_open(
    client, arbiter, django_user_model
):
    from tournament.models import TournamentRole

    event, bracket = new_event(8, owner=arbiter)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(bracket, [[5, 9, 2], [7, 1, 12]])
    helper = django_user_model.objects.create_user("adjoint", password="pw-adjoint-1")
    TournamentRole.objects.create(tournament=bracket, user=helper, role="arbiter")
    client.force_login(helper)
    url = reverse("event-cut", args=[bracket.pk])
    page = client.get(url).text
    assert event.get_absolute_url() not in page  # the event's page is its owner's
    form = {"rule": "top_n", "value": 4, "carry_over_percent": 100, "seating": "generator"}
    response = client.post(url, form | {"apply": "1"}, follow=True)
    assert response.status_code == 200
    assert "Coupe appliquée." in response.text
    assert response.redirect_chain[-1][0] == bracket.get_absolute_url()


@pytest.mark.parametrize(
    ("typed", "field", "message"),
    [
        ({"rule": "top_percent", "value": 101}, "value", "Un pourcentage va de 1 à 100"),
        ({"value": 9}, "value", "La coupe retient 9 joueurs, mais 8 seulement"),
        ({"value": 4, "by_team": "on"}, "by_team", "n&#x27;est pas une épreuve par équipes"),
    ],
)
def test_a_refused_cut_names_its_field_and_keeps_what_was_typed(
    arbiter_client, arbiter, typed, field, message
):
    event, bracket = new_event(8, owner=arbiter)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(bracket, [[5, 9, 2], [7, 1, 12]])
    form = {"rule": "top_n", "carry_over_percent": 37, "seating": "rank", "preview": "1"}
    page = arbiter_client.post(reverse("event-cut", args=[bracket.pk]), form | typed).text
    errors = page.split(f'id="id_{field}_error"', 1)
    assert len(errors) == 2 and message in errors[1].split("</ul>", 1)[0]
    assert 'name="carry_over_percent" value="37"' in page
    assert f'name="value" value="{typed["value"]}"' in page


def test_each_bracket_the_cut_could_not_seat_is_named(arbiter_client, arbiter):
    # A duo event of 4 teams cut by team at 50 %: 2 teams in each bracket, one table each,
    # where teammates would meet: neither bracket is seated, each warning says which it is.
    event, bracket = new_event(8, owner=arbiter, team_size=2)
    seat(bracket, [[1, 3, 5, 7], [2, 4, 6, 8]])
    play(bracket, [[5, 9, 2], [7, 1, 12]])
    form = {"rule": "top_percent", "value": 50, "by_team": "on", "consolante": "on"}
    response = arbiter_client.post(
        reverse("event-cut", args=[bracket.pk]),
        form | {"carry_over_percent": 100, "seating": "rank", "apply": "1"},
        follow=True,
    )
    warnings = [str(m) for m in response.context["messages"] if m.level_tag == "warning"]
    refused = "Une équipe de 2 joueurs ne peut pas jouer à une seule table"
    assert [w.split(" : ", 1)[0] for w in warnings] == ["Tableau principal", "Consolante"]
    assert all(w.split(" : ", 1)[1].startswith(refused) for w in warnings)


def test_a_cut_to_a_field_the_tables_of_5_cannot_seat_still_gets_its_consolante(
    arbiter_client, arbiter
):
    # 7 qualified out of 16 (tables of 4 and 5 cannot seat 7): the preview accepted the cut,
    # then applying it with a consolante was refused ("choisissez des tables de 3") with no
    # field to choose them; without a consolante it went through. Now both brackets are made,
    # the main one left for the positions page, the consolante numbered after the 2 tables
    # (4 + 3) the main bracket takes at tables of 3.
    event, bracket = new_event(16, owner=arbiter)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]])
    play(bracket, [[5, 9, 2], [7, 1, 12], [3, 4, 8], [10, 0, 6]])  # no tie at 7th
    form = {"rule": "top_n", "value": 7, "consolante": "on", "carry_over_percent": 50}
    response = arbiter_client.post(
        reverse("event-cut", args=[bracket.pk]),
        form | {"seating": "rank", "apply": "1"},
        follow=True,
    )
    warnings = [str(m) for m in response.context["messages"] if m.level_tag == "warning"]
    assert warnings == [
        "Tableau principal : Impossible de placer 7 joueurs à des tables de 4 et de 5 : "
        "choisissez des tables de 3."
    ]
    main = event.brackets.get(session=2, bracket="main")
    consolante = event.brackets.get(session=2, bracket="consolante")
    assert (main.registrations.count(), consolante.registrations.count()) == (7, 9)
    assert consolante.first_table == 3
    numbers = consolante.positions.get().tables.values_list("number", flat=True)
    assert sorted(numbers) == [3, 4]  # 9 players: a table of 4 and one of 5
