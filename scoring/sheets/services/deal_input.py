"""Score entry's checks on a deal's input, and its score by the engine.

The form, the API and the phones all pass here before anything is written: the
shape and types of the input, the sheet's seats, the fields of a deal typed from the FFT sheet's
figure. The engine then checks the cards and scores the deal.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from scoring.core.bodies import ALONE_VALUE, DEAL, body_check
from scoring.core.deal import Deal as EngineDeal
from scoring.core.deal import DealError, is_int
from scoring.core.engine import score_deal
from scoring.core.engine_fields import ENGINE_FIELDS
from scoring.core.figures import FIGURE, figure_scores
from scoring.core.rules import RULE_SETS
from scoring.models import Deal, ScoreSheet
from scoring.sheets.services.sheets import sheet_players_count
from tournament.core.i18n import gettext_noop as _
from tournament.models import Table

# Score entry's fields of a deal besides the engine's; any other key is refused. "alone" says why a
# taker at 5 with a called king has no partner (Deal.Alone); the engine does not need it.
ENTRY_FIELDS = ("dealer", "passed", "cancelled", "arbiter_called", "alone")
CARD_FIELDS = ("oudlers", "points", "poignees", "petit_au_bout", "chelem_announced", "chelem")


def deal_input_check(data: Any, sheet: ScoreSheet) -> dict[str, Any]:
    """Score entry's checks on a deal's input before the engine's: shape, types, the sheet's seats.

    The number of players always comes from the sheet. Raises DealError naming the field; the
    form, the API and the restore all pass here, then through the engine.
    """
    if not isinstance(data, dict):
        raise DealError("deal", _("Donne : un objet est attendu."))
    # Types, ranges and list shapes first (the one schema of a deal's body), then the sheet's.
    body_check(DEAL, data)
    players = sheet_players_count(sheet)
    given = data.get("players", players)
    if not is_int(given) or given != players:
        raise DealError(
            "players",
            _("Cette feuille compte %(players)s joueurs."),
            {"players": players},
        )
    for key in ("passed", "cancelled", "arbiter_called"):
        if key in data and not isinstance(data[key], bool):
            raise DealError(key, _("%(name)s : vrai ou faux attendu."), {"name": key})
    dealer = data.get("dealer")
    if dealer is not None and (not is_int(dealer) or not 0 <= dealer < players):
        raise DealError(
            "dealer",
            _("Le donneur doit être une place de la table (0 à %(last)s)."),
            {"last": players - 1},
        )
    _check_figure_input(data)
    clean = dict(data, players=players)
    game = _table_game(sheet)
    clean["alone"] = _check_alone(data, players, game)
    if game == Table.Game.FIVE_DEAD:
        # The dealer sits out: the mort is the dealer, whatever the body says.
        if dealer is None:
            raise DealError("dealer", _("À une table de 5 avec un mort, indiquez le donneur."))
        clean["dead"] = dealer
    elif data.get("dead") is not None:
        raise DealError("dead", _("Il n'y a pas de mort à cette table."))
    return clean


def _check_alone(data: dict[str, Any], players: int, game: str | None) -> str:
    """Why the taker plays alone: only at a table of 5 with a called king, and without partner.

    Left out or blank, the reason is not known (as on deals typed before it was recorded).
    """
    alone = data.get("alone")
    if alone is None or alone == "":
        return ""
    if not isinstance(alone, str) or alone not in Deal.Alone.values:
        raise DealError("alone", ALONE_VALUE, {"value": str(alone)[:40]})
    if data.get("passed") or data.get("cancelled"):
        return ""  # no taker: nothing to say, as for the other fields of such a deal
    if players != 5 or game == Table.Game.FIVE_DEAD:
        raise DealError(
            "alone",
            _("Seul (roi au chien, appelé soi-même) : seulement à une table de 5 avec roi appelé."),
        )
    if data.get("partner") is not None:
        raise DealError(
            "alone",
            _(
                "Seul (roi au chien, appelé soi-même) : le preneur a un partenaire ; laisser ce "
                "champ vide, ou ne pas indiquer de partenaire."
            ),
        )
    return alone


def _check_figure_input(data: dict[str, Any]) -> None:
    """A figure stands for the card fields: a deal gives one or the other, never both."""
    figure = data.get(FIGURE)
    if figure is None:
        return
    if not is_int(figure):
        raise DealError(
            FIGURE,
            _("Chiffre du preneur : %(value)s n'est pas un nombre entier."),
            {"value": str(figure)[:40]},
        )
    if data.get("passed") or data.get("cancelled"):
        raise DealError(FIGURE, _("Chiffre du preneur : une donne passée ou annulée n'en a pas."))
    for key in CARD_FIELDS:
        value = data.get(key)
        if value is not None and (key in ("oudlers", "points") or value):
            raise DealError(
                key,
                _(
                    "Une donne saisie par le chiffre du preneur (feuille FFT) ne porte ni bouts, "
                    "ni points, ni primes : %(name)s est en trop."
                ),
                {"name": key},
            )


def _table_game(sheet: ScoreSheet) -> str | None:
    if sheet.table_id is None:
        return None
    return Table.objects.filter(pk=sheet.table_id).values_list("game", flat=True).first()


def compute_scores(data: dict[str, Any], rule_set: str = "fft") -> list[int]:
    """Score a deal's inputs with the engine (raises DealError on impossible input).

    A deal typed from the FFT sheet carries the taker's figure instead of the card fields: its
    row follows from the figure, once the engine agrees a real deal of that contract gives it.
    """
    if data.get("passed") or data.get("cancelled"):
        return [0] * data["players"]
    if data.get(FIGURE) is not None:
        roles: dict[str, Any] = {
            name: data.get(name) for name in ("taker", "partner", "dead", "contract")
        }
        return list(
            figure_scores(
                players=data["players"], figure=data[FIGURE], rules=RULE_SETS[rule_set], **roles
            )
        )
    obj: dict[str, Any] = {name: data.get(name) for name in ENGINE_FIELDS}
    obj["poignees"] = [list(p) for p in obj.get("poignees") or []]
    obj["chelem_announced"] = bool(obj.get("chelem_announced"))
    if isinstance(obj.get("points"), Decimal):
        obj["points"] = float(obj["points"])
    result = score_deal(EngineDeal(**obj), rules=RULE_SETS[rule_set])
    return list(result.scores)
