"""A plan's notes are templates translated when shown: the English interface shows English."""

import ast
import pickle
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import translation

from tests.i18n_helpers import english_translation
from tests.tournament.core.seating.seating_helpers import numbered_plan
from tournament.core.seating import PlanNote

FORCED = (
    "Rencontres répétées : %(repeats)s (au moins %(floor)s inévitables : les positions demandent "
    "plus de rencontres qu'il ne reste d'adversaires jamais rencontrés)."
)
FORCED_EN = "Repeated meetings: %(repeats)s (at least %(floor)s unavoidable)."
NOTES_SOURCE = Path(__file__).resolve().parents[4] / "tournament" / "core" / "seating" / "notes.py"


@pytest.fixture
def english_entry():
    """The English catalogue with this template translated, as the lead's makemessages will."""
    with english_translation(FORCED, FORCED_EN):
        yield


def marked_templates() -> set[str]:
    """Every string notes.py marks with gettext_noop."""
    tree = ast.parse(NOTES_SOURCE.read_text(encoding="utf-8"))
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "gettext_noop"
        and isinstance(node.args[0], ast.Constant)
    }


def test_a_note_carries_its_template_and_params_and_reads_french():
    (note,) = numbered_plan(16, 7, seed=1).notes  # beyond the 5 repeat-free positions
    assert note.template == FORCED
    assert note.params == {"repeats": 48, "floor": 48}
    assert str(note) == (
        "Rencontres répétées : 48 (au moins 48 inévitables : les positions demandent plus de "
        "rencontres qu'il ne reste d'adversaires jamais rencontrés)."
    )
    copy = pickle.loads(pickle.dumps(note))
    assert (copy.template, copy.params, str(copy)) == (note.template, note.params, str(note))


def test_notes_py_writes_no_f_string_and_marks_every_template():
    tree = ast.parse(NOTES_SOURCE.read_text(encoding="utf-8"))
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)]
    assert FORCED in marked_templates()
    assert len(marked_templates()) == 8  # 3 kinds of odd tables x 2 notes, and 2 about repeats


@pytest.mark.parametrize(
    ("players", "positions", "policy", "seed"),
    [(16, 7, "five", 1), (20, 6, "five", 1), (22, 7, "five", 1), (26, 6, "five", 1)],
)
def test_every_note_a_plan_gives_is_a_marked_template(players, positions, policy, seed):
    notes = numbered_plan(players, positions, policy, seed=seed).notes
    assert notes
    for note in notes:
        assert note.template in marked_templates()
        assert str(note) == note.template % note.params


def test_a_note_shown_in_english_is_english(english_entry):
    out = StringIO()
    with translation.override("en"):
        call_command("movement", "--players", "16", "--positions", "7", "--seed", "1", stdout=out)
    assert "Repeated meetings: 48 (at least 48 unavoidable)." in out.getvalue()
    assert "Rencontres répétées : 48 (au moins" not in out.getvalue()


def test_a_note_shown_in_french_is_the_french_message():
    out = StringIO()
    with translation.override("fr"):
        call_command("movement", "--players", "16", "--positions", "7", "--seed", "1", stdout=out)
    assert "Rencontres répétées : 48 (au moins 48 inévitables : les positions" in out.getvalue()


def test_a_note_translates_through_the_function_given():
    note = PlanNote("Écart %(spread)s.", {"spread": 2})
    assert note.message(lambda template: template.replace("Écart", "Spread")) == "Spread 2."
    assert note.message() == str(note) == "Écart 2."
