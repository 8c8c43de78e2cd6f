"""Cutting a bracket after its session: the preview (who qualifies, the tie at the line and
how it was settled, who was left out as withdrawn) and applying it (the next session's main
bracket and an optional consolante, settings and players copied, positions seated)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.core import events, ranking
from scoring.events.brackets import bracket_create, bracket_seat, registrations_copy
from scoring.events.standings import EventStandings, cumulative_standings, points_text
from tournament.access.audit import change_record
from tournament.access.lifecycle import ensure_nothing_waits, locked_tournament
from tournament.core import seating
from tournament.core.seating.plan import POLICIES
from tournament.models import Cut, Position, Registration, Tournament

GENERATOR = Position.Seating.GENERATOR


@dataclass
class CutPreview:
    """What a cut would do, nothing written: `report` is what the Cut keeps."""

    source: Tournament
    standings: EventStandings
    result: events.CutResult
    by_team: bool
    report: dict[str, Any]

    def registrations(self, ranked: Iterable[ranking.Ranked]) -> list[Registration]:
        """The source's registrations of these players (or these teams' members)."""
        keys = [m.key for r in ranked for m in getattr(r.row, "members", [r.row])]
        return [self.standings.registrations[key] for key in keys]


def ensure_cuttable(source: Tournament) -> None:
    if source.event_id is None or source.session is None:
        raise ValidationError(_("Ce tournoi n'appartient à aucune épreuve."))
    if source.bracket != Tournament.Bracket.MAIN:
        raise ValidationError(_("Seul le tableau principal d'une séance se coupe."))


def cut_preview(*, source: Tournament, rule: str, value: int, by_team: bool = False) -> CutPreview:
    """Who would qualify: the cumulative standings of `source` cut as asked (no write).
    An impossible cut raises a ValidationError with the arbiter's French message."""
    ensure_cuttable(source)
    if by_team and not source.team_size:
        raise ValidationError({"by_team": _("Ce tableau n'est pas une épreuve par équipes.")})
    standings = cumulative_standings(source)
    out = {
        key
        for key, registration in standings.registrations.items()
        if registration.status == Registration.Status.WITHDRAWN
    }
    players = [r.row for r in standings.players]
    alone: list[events.CumulativeRow] = []
    try:
        if by_team:
            teams, alone = events.team_rows(players)
            incomplete = {t.key for t in teams if any(m.key in out for m in t.members)}
            result = events.cut(
                teams,
                rule=rule,
                value=value,
                criteria=standings.criteria,
                withdrawn=lambda team: team.key in incomplete,
                by_team=True,
            )
        else:
            result = events.cut(
                players,
                rule=rule,
                value=value,
                criteria=standings.criteria,
                withdrawn=lambda row: row.key in out,
            )
    except events.CutError as error:
        message = _(error.template) % error.params
        if isinstance(error, events.CutValueError):
            raise ValidationError({"value": message}) from error
        raise ValidationError(message) from error
    report = cut_report(result, standings, rule=rule, value=value, by_team=by_team, alone=alone)
    return CutPreview(source, standings, result, by_team, report)


def _line(ranked: ranking.Ranked) -> dict[str, Any]:
    return {
        "key": ranked.row.key,
        "name": ranked.row.name,
        "rank": ranked.rank,
        "total": str(ranked.row.total),
        "total_text": points_text(ranked.row.total),
    }


def cut_report(
    result: events.CutResult,
    standings: EventStandings,
    *,
    rule: str,
    value: int,
    by_team: bool,
    alone: list[events.CumulativeRow],
) -> dict[str, Any]:
    """The cut as the history and the event page keep it (JSON-ready)."""
    names = {r.row.key: r.row.name for r in (*result.qualified, *result.others)}
    tie = None
    if result.tie is not None:
        label = next(
            (str(c.label) for c in standings.criteria if c.key == result.tie.decided_by), ""
        )
        tie = {
            "keys": list(result.tie.keys),
            "names": [names[k] for k in result.tie.keys],
            "qualified": list(result.tie.qualified),
            "decided_by": result.tie.decided_by,
            "decided_by_label": _(label) if label else "",
            "all_qualify": result.tie.all_qualify,
        }
    # Team ids and registration ids are both integers: read the names of the cut's kind only.
    withdrawn_names = {
        r.row.key: r.row.name for r in (standings.teams if by_team else standings.players)
    }
    return {
        "rule": rule,
        "value": value,
        "by_team": by_team,
        "asked": result.asked,
        "eligible": result.eligible,
        "extra": result.extra,
        "qualified": [_line(r) for r in result.qualified],
        "next_in_line": [_line(r) for r in result.others],
        "withdrawn": [{"key": k, "name": withdrawn_names.get(k, "")} for k in result.withdrawn],
        "without_team": [{"key": r.key, "name": r.name} for r in alone],
        "tie": tie,
        "replacements": [],
    }


def tables_needed(players: int, remainder: str) -> int:
    """How many tables a bracket of `players` takes (the generator's table sizes). When those
    cannot seat them (7 players at tables of 4 and 5), the bracket is left to the arbiter, told
    to choose the other remainder: its tables at those sizes are kept free; fewer than 3
    players keep one."""
    for policy in (remainder, *(p for p in POLICIES if p != remainder)):
        try:
            return len(seating.table_sizes(players, policy))
        except seating.SeatingError:
            continue
    return 1


def cut_apply(
    *,
    source: Tournament,
    rule: str,
    value: int,
    by_team: bool = False,
    consolante: bool = True,
    carry_over_percent: int = 100,
    seating_method: str = GENERATOR,
    seed: int | None = None,
    user=None,
) -> Cut:
    """Cut a finished main bracket: its qualified into the next session's main bracket (seated
    by `seating_method`: the generator, or the cumulative ranking), the others into a
    consolante (when asked and there are any) or out. Every write is in the history. `seed`
    draws the generator's plans (random by default, as on the positions page).

    The cut and its brackets are one transaction; the brackets are seated once it committed:
    seating takes seconds, and no lock the room's phones wait on is held meanwhile."""
    cut = _cut_record(
        source=source,
        rule=rule,
        value=value,
        by_team=by_team,
        consolante=consolante,
        carry_over_percent=carry_over_percent,
        seating_method=seating_method,
        user=user,
    )
    # The seating chosen on the cut page seats the consolante too, as the page says.
    unseated = {
        str(bracket.pk): message
        for bracket in (cut.qualified, cut.consolante)
        if bracket is not None
        and (message := bracket_seat(bracket, seating_method, seed=seed, user=user))
    }
    if unseated:
        with transaction.atomic():
            before = dict(cut.report)
            cut.report = cut.report | {"unseated": unseated}
            cut.save(update_fields=["report"])
            change_record(
                tournament=cut.source,
                obj=cut,
                action="update",
                before=before,
                after=cut.report,
                user=user,
            )
    return cut


@transaction.atomic
def _cut_record(
    *,
    source: Tournament,
    rule: str,
    value: int,
    by_team: bool,
    consolante: bool,
    carry_over_percent: int,
    seating_method: str,
    user,
) -> Cut:
    """The cut, its brackets and their players, not seated yet."""
    source = locked_tournament(source)
    _ensure_applicable(source, carry_over_percent)
    preview = cut_preview(source=source, rule=rule, value=value, by_team=by_team)
    main, second = _next_brackets(source, preview, consolante, carry_over_percent, user)
    assert source.event is not None
    cut = Cut.objects.create(
        event=source.event,
        source=source,
        rule=rule,
        value=value,
        by_team=by_team,
        qualified=main,
        consolante=second,
        created_by=user if user is not None and user.is_authenticated else None,
        report=preview.report | {"seating": seating_method},
    )
    change_record(tournament=source, obj=cut, action="create", after=cut.report, user=user)
    return cut


def session_over(source: Tournament) -> bool:
    """The bracket's session is finished: its final standings may be cut (and previewed)."""
    return source.status == Tournament.Status.FINISHED


def _ensure_applicable(source: Tournament, carry_over_percent: int) -> None:
    ensure_cuttable(source)
    if not session_over(source):
        raise ValidationError(_("Terminez la séance avant de la couper."))
    if Cut.objects.filter(source=source).exists():
        raise ValidationError(_("Ce tableau a déjà été coupé."))
    # A deal nobody of the other side vouched for (or contested), a phone's unsent one or one
    # arrived after the close must not decide who qualifies: the arbiter decides each first.
    ensure_nothing_waits(source, "cut")
    if not 0 <= carry_over_percent <= 100:
        raise ValidationError(_("Le report du cumul va de 0 à 100 %."))


def _next_brackets(
    source: Tournament, preview: CutPreview, consolante: bool, carry_over_percent: int, user
) -> tuple[Tournament, Tournament | None]:
    """The next session's main bracket with the qualified, and the consolante with the others
    (None when not asked or nobody is left), its tables numbered after the main bracket's."""
    going_on = preview.registrations(preview.result.qualified)
    consoled = preview.registrations(preview.result.others) if consolante else []
    main = bracket_create(
        source=source,
        bracket=Tournament.Bracket.MAIN,
        carry_over_percent=carry_over_percent,
        first_table=1,
        user=user,
    )
    registrations_copy(registrations=going_on, into=main, user=user)
    if not consoled:
        return main, None
    second = bracket_create(
        source=source,
        bracket=Tournament.Bracket.CONSOLANTE,
        carry_over_percent=carry_over_percent,
        first_table=1 + tables_needed(len(going_on), source.remainder),
        user=user,
    )
    registrations_copy(registrations=consoled, into=second, user=user)
    return main, second


def cut_into(qualified: Tournament) -> Cut | None:
    """The cut that made this main bracket, None for session 1 or a consolante."""
    return Cut.objects.filter(qualified=qualified).first()


def event_cuts(event) -> list[Cut]:
    """The event's cuts in order, with their brackets (for the event page)."""
    return list(Cut.objects.filter(event=event).select_related("source", "qualified", "consolante"))
