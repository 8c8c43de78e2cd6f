"""A seating refusal is a template translated when shown: the English interface shows English."""

import ast
import pickle
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from tests.i18n_helpers import english_translation
from tests.tournament.evening.positions_helpers import make_tournament
from tournament.core.seating import SeatingError, table_sizes
from tournament.evening.positions import position_generate

SIX_AT_FIVES = (
    "Impossible de placer %(players)s joueurs à des tables de 4 et de %(odd)s : "
    "choisissez des tables de %(other)s."
)
SIX_AT_FIVES_EN = (
    "Cannot seat %(players)s players at tables of 4 and %(odd)s: choose tables of %(other)s."
)


@pytest.fixture
def english_entry():
    """The English catalogue with this template translated, as the lead's makemessages will."""
    with english_translation(SIX_AT_FIVES, SIX_AT_FIVES_EN):
        yield


def test_a_seating_error_carries_its_template_and_params_and_reads_french():
    with pytest.raises(SeatingError) as caught:
        table_sizes(6, "five")
    error = caught.value
    assert error.template == SIX_AT_FIVES
    assert error.params == {"players": 6, "odd": 5, "other": 3}
    assert str(error) == (
        "Impossible de placer 6 joueurs à des tables de 4 et de 5 : choisissez des tables de 3."
    )
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.template, copy.params, str(copy)) == (error.template, error.params, str(error))


@pytest.mark.django_db
def test_a_seating_error_shown_in_english_is_english(english_entry):
    tournament = make_tournament(players=6, positions=2)
    with translation.override("en"), pytest.raises(ValidationError) as caught:
        position_generate(tournament=tournament, seed=1)
    assert caught.value.messages == [
        "Cannot seat 6 players at tables of 4 and 5: choose tables of 3."
    ]
    assert not tournament.positions.exists()


@pytest.mark.django_db
def test_a_seating_error_shown_in_french_is_the_french_message():
    tournament = make_tournament(players=6, positions=2)
    with translation.override("fr"), pytest.raises(ValidationError) as caught:
        position_generate(tournament=tournament, seed=1)
    assert caught.value.messages == [
        "Impossible de placer 6 joueurs à des tables de 4 et de 5 : choisissez des tables de 3."
    ]


def test_every_seating_error_message_is_a_marked_template_without_f_string():
    """makemessages finds every template: each SeatingError gets gettext_noop("...")."""
    package = Path(__file__).resolve().parents[4] / "tournament" / "core" / "seating"
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in package.glob("*.py")]
    calls = [
        node
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "SeatingError"
    ]
    assert len(calls) >= 10
    for call in calls:
        template = call.args[0]
        assert isinstance(template, ast.Call) and template.func.id == "gettext_noop", ast.unparse(
            call
        )
        assert isinstance(template.args[0], ast.Constant), ast.unparse(call)
