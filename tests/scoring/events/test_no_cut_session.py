"""Qualifying sessions: after a session the organiser may send the whole field to the next one,
without a cut ("Tout le champ"), the withdrawn set aside; the pages and documents say so rather
than "Qualifiés : les 100 % premiers". A rule that needs a value without one is refused on the
value field, keeping what was typed."""

import csv
import io

import pytest
from django.urls import reverse

from scoring.events.wording import cut_text
from tests.scoring.events.event_helpers import new_event, play, seat
from tournament.models import Cut, Registration

pytestmark = pytest.mark.django_db

NO_CUT = "Tout le champ continue, sans coupe (après la séance 1)"


def test_the_whole_field_goes_on_to_the_next_session_without_a_cut(arbiter_client, arbiter):
    event, bracket = new_event(8, owner=arbiter)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(bracket, [[5, 9, 2], [7, 1, 12]])
    bracket.registrations.filter(number=8).update(status=Registration.Status.WITHDRAWN)
    url = reverse("event-cut", args=[bracket.pk])
    form = {"rule": "all", "value": "", "consolante": "on", "carry_over_percent": 100}
    page = arbiter_client.post(url, form | {"seating": "generator", "preview": "1"}).text
    assert "7 places sur 7 en lice." in page
    response = arbiter_client.post(url, form | {"seating": "generator", "apply": "1"})
    assert response.status_code == 302

    (session_2,) = event.brackets.filter(session=2)
    assert session_2.bracket == "main" and session_2.carry_over_percent == 100
    assert sorted(session_2.registrations.values_list("player__last_name", flat=True)) == [
        f"P{n}" for n in range(1, 8)
    ]
    cut = Cut.objects.get(source=bracket)
    assert cut.consolante is None  # nobody left for one
    assert cut.rule == Cut.Rule.ALL and cut.report["withdrawn"]
    assert cut_text(cut, session_2).startswith(NO_CUT)
    assert NO_CUT in arbiter_client.get(event.get_absolute_url()).text

    document = reverse("event-session-document", args=[event.pk, 2, "seance", "csv"])
    text = arbiter_client.get(document).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert rows[1][0] == "Tableau principal" and rows[1][1].startswith(NO_CUT)
    assert "les 100 % premiers" not in text and "Qualifiés" not in text


def test_a_rule_that_needs_a_value_without_one_names_the_field_and_keeps_the_input(
    arbiter_client, arbiter
):
    _event, bracket = new_event(8, owner=arbiter)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(bracket, [[5, 9, 2], [7, 1, 12]])
    form = {"rule": "top_percent", "value": "", "carry_over_percent": 37, "seating": "rank"}
    response = arbiter_client.post(reverse("event-cut", args=[bracket.pk]), form | {"apply": "1"})
    assert response.status_code == 200
    page = response.text
    errors = page.split('id="id_value_error"', 1)
    assert len(errors) == 2
    assert "Valeur : indiquez N (joueurs) ou P (%)." in errors[1].split("</ul>", 1)[0]
    assert 'name="carry_over_percent" value="37"' in page
    assert not Cut.objects.exists()
