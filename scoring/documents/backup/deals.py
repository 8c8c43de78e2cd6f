"""The rules a restored deal must follow: the desk's, and the engine's own score."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.core.deal import is_int
from scoring.documents.backup.document import MAX_ADJUSTED_SCORE, shown
from scoring.documents.backup.fields import RowError, model_field_error

if TYPE_CHECKING:
    from scoring.models import Deal
    from tournament.models import Table

_NOT_A_SEAT = gettext_noop("%(field)s : %(value)s n'est pas une place de la table (0 à %(last)s).")
_NOT_COMPUTED = gettext_noop("%(field)s : %(value)s enregistrés, le calcul donne %(computed)s.")


def check_deal(deal: Deal, *, seats: int, table: Table | None) -> None:
    """A deal of a sheet of `seats` players at `table` (None: a free sheet), once typed and
    validated by its model: checked as the desk takes it, then scored again by the engine.
    Sets its computed scores."""
    if not 3 <= seats <= 5:
        raise RowError(_("sa feuille n'a pas de joueurs."))
    if deal.players != seats:
        raise RowError(
            _("elle compte %(players)s joueurs, sa feuille %(seats)s.")
            % {"players": deal.players, "seats": seats}
        )
    if deal.number < 1:
        raise RowError(_("numéro de donne %(value)s invalide.") % {"value": deal.number})
    _check_seats(deal, seats, table)
    computed = _computed(deal)
    _check_scores(deal, seats, computed)
    deal.computed_scores = computed


def _check_seats(deal: Deal, seats: int, table: Table | None) -> None:
    """Dealer, mort and a lone taker's reason where the table allows them."""
    from scoring.core.rules import RULE_SETS

    if deal.rule_set not in RULE_SETS:
        raise RowError(_("règlement %(value)s inconnu.") % {"value": shown(deal.rule_set)})
    for name in ("dealer", "dead"):
        seat = getattr(deal, name)
        if seat is not None and not 0 <= seat < seats:
            raise model_field_error(
                deal,
                name,
                _NOT_A_SEAT,
                value=seat,
                last=seats - 1,
            )
    # As the desk and the API take deals (scoring.sheets.services.deal_input_check): at a table
    # of 5 with a mort the dealer sits out, and there is no mort anywhere else.
    if table is not None and table.game == table.Game.FIVE_DEAD:
        if deal.dealer is None or deal.dead != deal.dealer:
            raise RowError(_("à une table de 5 avec un mort, le mort est le donneur."))
    elif deal.dead is not None:
        raise RowError(_("il n'y a pas de mort à cette table."))
    # Why a taker is alone (roi au chien, appelé soi-même): at a table of 5 with a called
    # king and without partner only. Older backups have no such field: blank, unknown.
    if deal.alone:
        called_king = seats == 5 and (table is None or table.game != table.Game.FIVE_DEAD)
        if not called_king or deal.partner is not None:
            raise model_field_error(
                deal,
                "alone",
                gettext_noop(
                    "%(field)s : seulement sans partenaire, à une table de 5 avec roi appelé."
                ),
            )


def _computed(deal: Deal) -> list[int]:
    """The engine's scores of the deal, as the desk form and the API score it."""
    from scoring.core.deal import DealError
    from scoring.core.figures import FIGURE
    from scoring.sheets.services import compute_scores, deal_figure

    if not isinstance(deal.poignees, list) or not all(
        isinstance(p, list) and len(p) == 2 for p in deal.poignees
    ):
        raise model_field_error(
            deal, "poignees", gettext_noop("%(field)s : une liste de [place, taille] est attendue.")
        )
    if (deal.passed or deal.cancelled) and (
        deal.taker is not None
        or deal.partner is not None
        or deal.oudlers is not None
        or deal.points is not None
        or deal.contract
        or deal.poignees
        or deal.petit_au_bout
        or deal.chelem
        or deal.chelem_announced
        or deal.alone
    ):
        raise RowError(_("une donne passée ou annulée n'a ni preneur ni contrat."))
    data = {**deal.engine_input(), "passed": deal.passed, "cancelled": deal.cancelled}
    try:
        if deal.is_figure_only:
            # Typed from the FFT sheet: its taker's figure is checked again as the desk did.
            data[FIGURE] = deal_figure(deal)
        return compute_scores(data, deal.rule_set)
    except DealError as err:
        raise RowError(_(err.template) % err.params) from err
    except (TypeError, ValueError, KeyError, LookupError) as err:
        raise RowError(_("le moteur de calcul refuse cette donne.")) from err


def _check_scores(deal: Deal, seats: int, computed: list[int]) -> None:
    """The stored scores: the engine's, or an arbiter's zero-sum adjustment with a reason."""
    scores = deal.scores
    if (
        not isinstance(scores, list)
        or len(scores) != seats
        or not all(is_int(s) and abs(s) <= MAX_ADJUSTED_SCORE for s in scores)
    ):
        raise model_field_error(
            deal,
            "scores",
            gettext_noop(
                "%(field)s : un entier par joueur (au plus %(high)s en valeur absolue) est "
                "attendu, pas %(value)s."
            ),
            high=MAX_ADJUSTED_SCORE,
            value=shown(scores),
        )
    if sum(scores) != 0:
        raise model_field_error(
            deal, "scores", gettext_noop("%(field)s : %(value)s ne font pas zéro."), value=scores
        )
    if deal.adjusted:
        if not deal.adjustment_reason.strip():
            raise RowError(_("un score arbitral doit avoir un motif."))
    else:
        expected = [0] * seats if deal.score_not_recorded else computed
        if scores != expected:
            raise model_field_error(deal, "scores", _NOT_COMPUTED, value=scores, computed=expected)
    if deal.computed_scores not in ([], computed):
        raise model_field_error(
            deal,
            "computed_scores",
            _NOT_COMPUTED,
            value=shown(deal.computed_scores),
            computed=computed,
        )
