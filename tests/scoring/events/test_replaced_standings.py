"""Issue 26, a withdrawal after the cut replaced by the next in line, seen from the pages: the
player who left before the session started is no longer in the qualified bracket's standings,
and the player brought in is in the qualified bracket's only (not also in the consolante's)."""

import csv
import io

import pytest
from django.urls import reverse

from tests.scoring.events.event_helpers import new_event, play, seat
from tournament.models import Cut

pytestmark = pytest.mark.django_db


def lines_by_bracket(client, event) -> dict[str, list[str]]:
    """The session 2 cumulative CSV's player names, by bracket."""
    address = reverse("event-session-document", args=[event.pk, 2, "cumul", "csv"])
    rows = list(
        csv.reader(io.StringIO(client.get(address).content.decode("utf-8-sig")), delimiter=";")
    )
    heading = rows.index(next(r for r in rows if r[:1] == ["Tableau"] and len(r) > 3))
    found: dict[str, list[str]] = {}
    for row in rows[heading + 1 :]:
        found.setdefault(row[0], []).append(row[4].split()[0])
    return found


def test_a_replaced_player_leaves_the_brackets_standings_and_the_next_in_line_is_in_one(
    arbiter_client, arbiter
):
    event, bracket = new_event(8, owner=arbiter, is_public=True)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(bracket, [[5, 9, 2], [7, 1, 12]])
    # 53 P7, 45 P2, 33 P5, 29 P1 | 17 P3, 9 P6, -91 P4, -95 P8
    form = {"rule": "top_n", "value": 4, "consolante": "on", "carry_over_percent": 100}
    response = arbiter_client.post(
        reverse("event-cut", args=[bracket.pk]), form | {"seating": "rank", "apply": "1"}
    )
    assert response.status_code == 302
    cut = Cut.objects.get(source=bracket)
    leader = cut.qualified.registrations.get(player__last_name="P7")
    arbiter_client.post(
        reverse("event-replace", args=[cut.qualified.pk]), {"registration": leader.pk}
    )
    assert lines_by_bracket(arbiter_client, event) == {
        "Tableau principal": ["P2", "P5", "P1", "P3"],  # 45, 33, 29, 17 carried
        "Consolante": ["P6", "P4", "P8"],
    }
    page = arbiter_client.get(reverse("public-event", args=[event.pk])).text
    main, consolante = page.split('<h2 id="bracket-')[1:3]
    assert "Tableau principal" in main and "P3 Jo</td>" in main and "P7 Jo" not in main
    assert "Consolante" in consolante and "P3 Jo" not in consolante
