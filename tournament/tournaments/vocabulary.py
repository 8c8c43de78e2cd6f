"""What an organiser may choose among the rules that live above this app: the rule sets and the
ranking's tie-break criteria, by key and label.

`tournament` never imports `scoring` (an import-linter contract), yet its settings form offers
these choices. Their behaviour stays in scoring (`scoring.core.rules.RULE_SETS`,
`scoring.core.ranking.TIE_BREAKS`); tests/test_vocabulary.py checks that the keys agree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# Short labels for the settings form; the rule set objects carry longer descriptions.
RULE_SET_CHOICES: list[tuple[str, StrOrPromise]] = [
    ("fft", _("FFT officiel")),
    ("booklet", _("Variante livret (×3/×4)")),
]

# The tie-breaks offered, in the order offered, labelled as scoring.core.ranking's criteria.
TIE_BREAK_CHOICES: list[tuple[str, str]] = [
    ("best_position", gettext_noop("Meilleur bilan sur une position")),
    ("fewest_penalties", gettext_noop("Moins de points de pénalité")),
    ("tables_won", gettext_noop("Plus de tables gagnées")),
    ("positive_positions", gettext_noop("Plus de positions positives")),
]
