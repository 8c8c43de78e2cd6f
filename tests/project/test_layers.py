"""The layers hold: tournament's vocabulary agrees with scoring's behaviour, and what tournament
asks of scoring through tournament.hooks is answered once the apps are ready."""

from scoring.core import ranking, rules
from scoring.sheets.entry_progress import sheets_to_enter
from tournament import hooks
from tournament.models import Position
from tournament.tournaments import vocabulary


def test_the_settings_form_offers_exactly_the_rule_sets_scoring_knows():
    assert [key for key, _label in vocabulary.RULE_SET_CHOICES] == list(rules.RULE_SETS)


def test_the_settings_form_offers_scorings_tie_breaks_in_order_with_their_labels():
    assert vocabulary.TIE_BREAK_CHOICES == [(c.key, c.label) for c in ranking.TIE_BREAKS.values()]


def test_scoring_answers_tournaments_questions_once_ready():
    assert hooks._sheets_to_enter is sheets_to_enter
    assert hooks.position_published.has_listeners(Position)
