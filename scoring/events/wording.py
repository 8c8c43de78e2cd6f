"""What every page and document of an event says of a bracket: the carry-over into its session
and the cut its players came through ("Report : 50 % du cumul des séances précédentes",
"Qualifiés : les 8 premiers (coupe après la séance 1), …")."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.core.ranking import TIE_BREAKS
from tournament.models import Cut, Tournament


def carry_text(bracket: Tournament) -> str:
    """The carry-over into the bracket's session; "" in session 1 (nothing before it)."""
    if bracket.event_id is None or (bracket.session or 1) < 2:
        return ""
    percent = bracket.carry_over_percent
    if percent == 0:
        return _("Report : aucun (la séance %(session)s repart de zéro)") % {
            "session": bracket.session
        }
    return _("Report : %(percent)s %% du cumul des séances précédentes") % {"percent": percent}


def _rule(report: dict[str, Any]) -> str:
    value, by_team = report.get("value"), report.get("by_team")
    if report.get("rule") == Cut.Rule.ALL:
        return _("tout le champ, sans coupe")
    if report.get("rule") == Cut.Rule.TOP_PERCENT:
        asked = report.get("asked", 0)
        if by_team:
            return ngettext(
                "les %(value)s %% premières équipes (%(asked)s équipe)",
                "les %(value)s %% premières équipes (%(asked)s équipes)",
                asked,
            ) % {"value": value, "asked": asked}
        return ngettext(
            "les %(value)s %% premiers (%(asked)s joueur)",
            "les %(value)s %% premiers (%(asked)s joueurs)",
            asked,
        ) % {"value": value, "asked": asked}
    if by_team:
        return ngettext("la première équipe", "les %(value)s premières équipes", value or 0) % {
            "value": value
        }
    return ngettext("le premier", "les %(value)s premiers", value or 0) % {"value": value}


def _tie(report: dict[str, Any]) -> str:
    tie = report.get("tie")
    if not tie:
        return ""
    if tie.get("all_qualify"):
        extra = report.get("extra", 0)
        return ngettext(
            "égalité à la ligne sur tous les critères : tous qualifiés (%(extra)s de plus)",
            "égalité à la ligne sur tous les critères : tous qualifiés (%(extra)s de plus)",
            extra,
        ) % {"extra": extra}
    criterion = TIE_BREAKS.get(tie.get("decided_by") or "")
    # The label in the reader's language (the report keeps it in the arbiter's).
    label = _(criterion.label) if criterion else tie.get("decided_by_label", "")
    return _("égalité à la ligne départagée par « %(criterion)s »") % {"criterion": label}


def cut_text(cut: Cut | None, bracket: Tournament) -> str:
    """How the bracket's players got there: the cut's rule, after which session, the tie at the
    line and how it was settled, the replacements since. "" for a bracket no cut made."""
    if cut is None:
        return ""
    report = cut.report or {}
    after = cut.source.session
    if cut.consolante_id == bracket.pk:
        text = _(
            "Consolante : les non-qualifiés de la coupe après la séance %(session)s "
            "(qualifiés : %(rule)s)"
        ) % {"session": after, "rule": _rule(report)}
    elif report.get("rule") == Cut.Rule.ALL:
        text = _("Tout le champ continue, sans coupe (après la séance %(session)s)") % {
            "session": after
        }
    else:
        text = _("Qualifiés : %(rule)s (coupe après la séance %(session)s)") % {
            "rule": _rule(report),
            "session": after,
        }
    parts = [text]
    if tie := _tie(report):
        parts.append(tie)
    withdrawn = report.get("withdrawn") or []
    if withdrawn:
        parts.append(
            ngettext("%(count)s forfait écarté", "%(count)s forfaits écartés", len(withdrawn))
            % {"count": len(withdrawn)}
        )
    replacements = report.get("replacements") or []
    if replacements and cut.qualified_id == bracket.pk:
        names = ", ".join(r.get("name", "") for r in replacements)
        parts.append(
            ngettext("repêché : %(names)s", "repêchés : %(names)s", len(replacements))
            % {"names": names}
        )
    return ", ".join(parts)
