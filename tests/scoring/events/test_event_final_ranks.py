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


def test_the_consolantes_own_cumulative_document_ranks_it_after_the_main_bracket(
    arbiter_client, arbiter
):
    """The consolante's cumulative CSV on its own (its ranking and printing tabs link to it)
    says the ranks the event's standings give it, 5 to 8 here, as the session's CSV does."""
    import csv
    import io

    from django.urls import reverse

    result = cut_event(arbiter, players=8)
    start_session_2(result)
    event, consolante = result.event, result.consolante

    def cumulative_ranks(url: str, label: str) -> list[int]:
        text = arbiter_client.get(url).content.decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text), delimiter=";"))
        heading = next(n for n, r in enumerate(rows) if len(r) > 1 and r[1] == "Rang cumulé")
        return sorted(int(r[1]) for r in rows[heading + 1 :] if len(r) > 1 and r[0] == label)

    label = str(consolante.get_bracket_display())
    own = reverse("event-bracket-document", args=[event.pk, consolante.pk, "cumul", "csv"])
    session = reverse("event-session-document", args=[event.pk, 2, "cumul", "csv"])
    assert cumulative_ranks(session, label)[0] == 5
    assert cumulative_ranks(own, label) == cumulative_ranks(session, label)
