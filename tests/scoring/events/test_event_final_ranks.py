"""Issue 38: the event's cumulative standings of a session rank the consolante after the main
bracket (5 to 8 after 4 qualified), not 1 to 4 again."""

import pytest

from scoring.events.brackets import event_brackets
from scoring.events.rankings import CUMULATIVE, SESSION, event_document
from tests.scoring.events.venue_helpers import cut_event, start_session_2

pytestmark = pytest.mark.django_db


def test_the_consolante_ranks_after_the_main_bracket_in_the_cumulative_standings(arbiter):
    result = cut_event(arbiter, players=8)
    start_session_2(result)
    brackets = event_brackets(result.event)[2]
    assert [b.pk for b in brackets] == [result.main.pk, result.consolante.pk]
    document = event_document(result.event, 2, brackets, CUMULATIVE)
    main, consolante = document.parts
    assert sorted(line.rank for line in main.lines(CUMULATIVE)) == [1, 2, 3, 4]
    ranks = sorted(line.rank for line in consolante.lines(CUMULATIVE))
    assert ranks[0] == 5 and ranks[-1] <= 8 and len(ranks) == 4
    # The session's own ranking of each bracket still starts at 1.
    session = event_document(result.event, 2, brackets, SESSION)
    assert min(line.session_rank or 1 for line in session.parts[1].lines(SESSION)) == 1
