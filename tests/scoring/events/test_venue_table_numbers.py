"""Issue 26, table numbers unique across the venue when the arbiter re-seats a bracket after
the cut with other table sizes: the cut keeps the consolante's numbers after the main bracket's
as it would be seated then; a main bracket seated again on more tables must not take them."""

import pytest
from django.urls import reverse

from tests.scoring.events.event_helpers import new_event, play, seat
from tournament.models import ChangeLog, Cut, Table

pytestmark = pytest.mark.django_db


def numbers(bracket) -> list[int]:
    return sorted(
        Table.objects.filter(position__tournament=bracket).values_list("number", flat=True)
    )


def test_a_bracket_seated_again_on_more_tables_takes_numbers_no_other_bracket_uses(
    arbiter_client, arbiter
):
    event, bracket = new_event(16, owner=arbiter)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]])
    play(bracket, [[5, 9, 2], [7, 1, 12], [3, 4, 8], [10, 0, 6]])  # no tie at 9th
    form = {"rule": "top_n", "value": 9, "consolante": "on", "carry_over_percent": 50}
    arbiter_client.post(
        reverse("event-cut", args=[bracket.pk]), form | {"seating": "generator", "apply": "1"}
    )
    cut = Cut.objects.get(source=bracket)
    main, consolante = cut.qualified, cut.consolante
    assert numbers(main) == [1, 2]  # 9 players: 4 + 5
    # The consolante's 7 cannot sit at tables of 4 and 5: the arbiter chooses tables of 3
    # there (4 + 3, tables 3 and 4), then tables of 3 in the main bracket too (3 + 3 + 3).
    for seated in (consolante, main):
        seated.remainder = "three"
        seated.save(update_fields=["remainder"])
        response = arbiter_client.post(
            reverse("position-generate", args=[seated.pk]), {"seed": 1, "seating": ""}
        )
        assert response.status_code == 302
    assert numbers(consolante) == [3, 4]
    assert numbers(main) == [5, 6, 7]  # 1 to 3 would have given two tables 3
    main.refresh_from_db()
    assert main.first_table == 5
    assert (
        ChangeLog.objects.filter(tournament=main, object_type="tournament")
        .filter(after__first_table=5)
        .exists()
    )
