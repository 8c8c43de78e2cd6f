"""What a re-plan is solved from (roster, played positions, drafts), read once before the solve
with no lock held and again under the tournament's lock before the plan is stored: a plan whose
inputs changed meanwhile is never stored (tournament.evening.positions.position_generate)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings as site_settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tournament import hooks
from tournament.access.lifecycle import ensure_nothing_waits, ensure_tournament_open
from tournament.core import seating
from tournament.evening.selectors import active_registrations, last_played_position, tables_of
from tournament.models import Position, Table, Tournament

GENERATOR = Position.Seating.GENERATOR

Tables = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class PlanInputs:
    """Everything the solver reads, as plain values: equal inputs give the same plan."""

    start: int
    method: str
    settings: tuple[int, str]  # positions_count, remainder
    roster: tuple[tuple[int, int | None], ...]  # (registration, team) playing position `start`
    played: tuple[int, ...]  # the published or closed positions' numbers
    fixed: tuple[Tables, ...]  # positions 1..start-1, kept as they are
    drafts: tuple[Tables, ...]  # positions start..last as they are now (a re-plan stays close)
    standings: tuple[int, ...]  # the ranking position `start` is seated from (not the generator)

    def changed(self, now: PlanInputs) -> str | None:
        """What changed since these inputs were read, in the arbiter's words; None if nothing."""
        if self.roster != now.roster:
            return _("La liste des joueurs a changé pendant le calcul : relancez la génération.")
        if self.played != now.played or self.fixed != now.fixed:
            return _("Une position a été publiée pendant le calcul : relancez la génération.")
        if self.drafts != now.drafts:
            return _("Les brouillons ont été modifiés pendant le calcul : relancez la génération.")
        if self.standings != now.standings:
            return _("Le classement a changé pendant le calcul : relancez la génération.")
        if self != now:
            return _(
                "Les réglages du tournoi ont changé pendant le calcul : relancez la génération."
            )
        return None

    def players(self) -> list[seating.SeatingPlayer]:
        return [seating.SeatingPlayer(pk, team) for pk, team in self.roster]

    def previous(self, keep_close: bool) -> seating.Plan | None:
        """The plan a re-plan starts from (moving as few players as possible), when whole."""
        if not keep_close or len(self.drafts) != self.settings[0] - self.start + 1:
            return None
        return seating.Plan((*self.fixed, *self.drafts))


def _tables(position: Position) -> Tables:
    return tuple(tuple(table) for table in tables_of(position))


def plan_inputs(
    tournament: Tournament, start: int | None, method: str | None
) -> tuple[PlanInputs, dict[int, Position]]:
    """The inputs of planning positions `start` and after (by default the first not yet
    published), and the existing positions by number; refused (ValidationError) when they can
    not be planned. Reads only: the caller decides whether a lock is held."""
    ensure_tournament_open(tournament)
    existing = {p.number: p for p in tournament.positions.prefetch_related("tables__seats")}
    played = last_played_position(tournament)
    start = played + 1 if start is None else start
    if start <= played:
        raise ValidationError(
            _("La position %(number)s est publiée : elle ne peut plus être régénérée.")
            % {"number": start}
        )
    if start > tournament.positions_count:
        raise ValidationError(_("Toutes les positions prévues sont déjà publiées."))
    if any(n not in existing for n in range(1, start)):
        raise ValidationError(_("Générez d'abord les positions précédentes."))
    # Redrawing a draft deletes its tables, and with them any sheet typed on it: refuse instead.
    refuse_typed_drafts(tournament, start)
    if method is None:  # a re-plan seats the position as it was seated
        method = existing[start].seating if start in existing else GENERATOR
    if method != GENERATOR and start != played + 1:
        raise ValidationError(
            _("Seule la prochaine position à jouer peut être placée d'après le classement.")
        )
    last = tournament.positions_count
    registrations = active_registrations(tournament, start)
    standings: tuple[int, ...] = ()
    if method != GENERATOR:
        # The standings it seats by must hold every deal the tables played: none may wait.
        ensure_nothing_waits(tournament, "seed")
        order = {pk: rank for rank, pk in enumerate(hooks.standings_order(tournament))}
        # Players not ranked yet (a late arrival) come after the ranked ones, by number.
        ranked = sorted(registrations, key=lambda r: (order.get(r.pk, len(order)), r.number))
        standings = tuple(r.pk for r in ranked)
    inputs = PlanInputs(
        start=start,
        method=method,
        settings=(last, tournament.remainder),
        roster=tuple((r.pk, r.team_id) for r in registrations),
        played=tuple(n for n, p in sorted(existing.items()) if p.status != Position.Status.DRAFT),
        fixed=tuple(_tables(existing[n]) for n in range(1, start)),
        drafts=tuple(_tables(existing[n]) for n in range(start, last + 1) if n in existing),
        standings=standings,
    )
    return inputs, existing


def refuse_typed_drafts(tournament: Tournament, start: int) -> None:
    """Refuse to delete positions `start` and later when a sheet of theirs holds deals."""
    # Through the sheets' reverse names: this app does not import scoring's models.
    typed = (
        Table.objects.filter(
            position__tournament=tournament,
            position__number__gte=start,
            sheet__deals__isnull=False,
        )
        .order_by("position__number")
        .values_list("position__number", flat=True)
        .first()
    )
    if typed is not None:
        raise ValidationError(
            _(
                "La position %(number)s a déjà des donnes saisies : publiez-la, ou supprimez "
                "ses donnes, avant de la régénérer."
            )
            % {"number": typed}
        )


def plan_solve(inputs: PlanInputs, seed: int, keep_close: bool) -> seating.Plan:
    """Positions `start` and after, planned by the generator; or position `start` seated from
    the standings (by rank or in a snake) and the positions after it by the generator.

    Pure and slow (up to seconds): called with no transaction open, never under a lock."""
    last, policy = inputs.settings
    fixed = list(inputs.fixed)
    players = inputs.players()
    budget = site_settings.SEATING_EXACT_BUDGET
    steps = site_settings.SEATING_SEARCH_STEPS
    try:
        if inputs.method == GENERATOR:
            previous = inputs.previous(keep_close)
            return seating.generate(
                players,
                last,
                policy,
                fixed=fixed,
                seed=seed,
                previous=previous,
                exact_budget=budget,
                search_steps=steps,
            )
        ranked = [seating.SeatingPlayer(pk, dict(inputs.roster)[pk]) for pk in inputs.standings]
        position = seating.seat_by_standings(ranked, inputs.method, policy, fixed, seed)
        played = [*fixed, tuple(tuple(table) for table in position)]
        if len(played) == last:
            return seating.Plan(tuple(played))
        return seating.generate(
            players, last, policy, fixed=played, seed=seed, exact_budget=budget, search_steps=steps
        )
    except seating.SeatingError as error:
        # Translated here, in the arbiter's language: the pure module only marks its templates.
        raise ValidationError(_(error.template) % error.params) from error
