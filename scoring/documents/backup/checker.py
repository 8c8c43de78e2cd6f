"""Checking every row of a backup before anything is written: the plan of rows to insert."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.core.deal import is_int
from scoring.documents.backup.deals import check_deal
from scoring.documents.backup.document import (
    LABELS,
    MAX_PAPER_BILAN,
    MAX_PENALTY,
    BackupError,
    Sections,
    shown,
)
from scoring.documents.backup.fields import (
    RowError,
    field_name,
    model_field_error,
    row_name,
    typed_value,
    validation_message,
)
from scoring.documents.backup.plan import M, Plan, related_label
from scoring.documents.backup.roster import players_match
from scoring.models import Deal, DealScore, Incident, ScoreSheet, SheetPlayer
from tournament.models import (
    ChangeLog,
    Player,
    Position,
    Registration,
    Seat,
    Table,
    Team,
    Tournament,
)

if TYPE_CHECKING:
    from scoring.documents.backup.fields import ModelField

Row = dict[str, Any]


class Checker:
    """Checks the sections in order; builds the plan of rows to insert."""

    def __init__(self, sections: Sections, owner_id: int | None, club_id: int | None = None):
        self.sections = sections
        self.owner_id = owner_id
        self.club_id = club_id  # the restorer's: never the file's (plan.related_label)
        self.plan = Plan()
        self.by_key: dict[str, dict[Any, models.Model]] = {label: {} for label in LABELS}
        self.sheet_players: dict[Any, list[SheetPlayer]] = defaultdict(list)

    # Helpers ---------------------------------------------------------------------------------

    def fail(self, where: str, problem: str) -> BackupError:
        return BackupError(
            _("Sauvegarde illisible : %(where)s : %(problem)s")
            % {"where": where, "problem": problem}
        )

    def build(self, model: type[M], row: Row) -> M:
        """An unsaved instance from the row, every field typed; relations hold the file's keys."""
        values: dict[str, Any] = {}
        for model_field in model._meta.concrete_fields:
            if model_field.primary_key:
                continue
            if getattr(model_field, "auto_now", False) or getattr(
                model_field, "auto_now_add", False
            ):
                # Rows are inserted raw (as recorded): a missing timestamp is the restore's.
                values[model_field.attname] = timezone.now()
            if model_field.name not in row:
                continue  # a missing field takes its default; full_clean says if it may not
            value = row[model_field.name]
            if model_field.is_relation:
                target = related_label(model_field)
                if target is None:
                    continue  # accounts are never taken from a file
                values[model_field.attname] = self.reference(model_field, target, value)
            elif value is not None or model_field.attname not in values:
                values[model_field.attname] = typed_value(model_field, value)
        return model(**values)

    def reference(self, model_field: ModelField, target: str, value: Any) -> Any:
        if value is None:
            if model_field.null:
                return None
            raise RowError(
                _("%(field)s : une valeur est attendue.") % {"field": field_name(model_field)}
            )
        if not is_int(value) or value not in self.by_key.get(target, {}):
            raise RowError(
                _("%(field)s : %(value)s ne désigne aucune ligne de la sauvegarde.")
                % {"field": field_name(model_field), "value": shown(value)}
            )
        return value

    def full_clean(self, obj: models.Model) -> None:
        exclude = [f.name for f in obj._meta.concrete_fields if f.is_relation]
        try:
            obj.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
        except ValidationError as exc:
            raise RowError(validation_message(exc, type(obj))) from exc

    def rows(self, label: str) -> Iterator[tuple[Any, Row, str]]:
        """(key, row, where) for each row of a section, with its key checked."""
        seen = self.by_key[label]
        for row in self.sections[label]:
            key = row.get("pk")
            where = row_name(label, key)
            if not is_int(key):
                raise self.fail(where, _("identifiant (pk) manquant ou non entier."))
            if key in seen:
                raise self.fail(where, _("identifiant (pk) en double."))
            yield key, row, where

    def keep(self, label: str, key: Any, obj: models.Model) -> None:
        self.by_key[label][key] = obj
        self.plan.objects[label].append(obj)
        self.plan.keys[label].append(key)

    def kept(self, model: type[M], key: Any) -> M | None:
        """The checked row of `model` with this file key, if any."""
        obj = self.by_key[model._meta.label_lower].get(key)
        assert obj is None or isinstance(obj, model)  # by_key holds a section's instances
        return obj

    def section(self, model: type[M], check: Callable[[M, Row], None] | None = None) -> None:
        """Type, validate and keep every row of a section; `check(obj, row)` adds the rules."""
        label = model._meta.label_lower
        for key, row, where in self.rows(label):
            try:
                obj = self.build(model, row)
                if check is not None:
                    check(obj, row)
                else:
                    self.full_clean(obj)
            except RowError as exc:
                raise self.fail(where, exc.problem) from exc
            self.keep(label, key, obj)
        self.unique(model)

    def unique(self, model: type[models.Model]) -> None:
        """The model's unique fields and unconditional unique constraints, within the file."""
        label = model._meta.label_lower
        attnames = {f.name: f.attname for f in model._meta.concrete_fields}
        groups: list[tuple[str, ...]] = [
            (f.attname,) for f in model._meta.concrete_fields if f.unique and not f.primary_key
        ]
        for constraint in model._meta.constraints:
            if isinstance(constraint, models.UniqueConstraint) and constraint.fields:
                if constraint.condition is None and not constraint.expressions:
                    groups.append(tuple(attnames[name] for name in constraint.fields))
        for group in groups:
            seen: dict[tuple[Any, ...], Any] = {}
            for key, obj in self.plan.rows(model):
                value = tuple(getattr(obj, attname) for attname in group)
                if None in value:
                    continue  # NULL never collides in a unique constraint
                if value in seen:
                    names = ", ".join(
                        field_name(f) for f in model._meta.concrete_fields if f.attname in group
                    )
                    raise self.fail(
                        row_name(label, key),
                        _("même %(fields)s que %(other)s.")
                        % {"fields": names, "other": row_name(label, seen[value])},
                    )
                seen[value] = key

    # Sections --------------------------------------------------------------------------------

    def check(self) -> Plan:
        self.section(Player, self.check_player)
        self.section(Tournament, self.check_tournament)
        self.section(Team)
        self.section(Registration)
        self.section(Position, self.check_numbered)
        self.section(Table, self.check_numbered)
        self.section(Seat)
        self.section(ScoreSheet)
        self.section(SheetPlayer, self.check_sheet_player)
        self.check_sheets()
        self.deals()
        self.section(Incident, self.check_incident)
        self.section(ChangeLog, self.check_change)
        self.drop_unused_players()
        players_match(self.plan, club_id=self.club_id, fail=self.fail)
        return self.plan

    def check_player(self, player: Player, row: Row) -> None:
        from tournament.players.licence import licence_clean

        try:
            # The registration form's and the import's rule: "412345" is "0412345".
            player.licence = licence_clean(player.licence) or None  # blank as Player.save
        except ValidationError as invalid:
            raise RowError(invalid.messages[0]) from None
        player.origin_club_id = self.club_id
        self.full_clean(player)

    def check_tournament(self, tournament: Tournament, row: Row) -> None:
        from tournament.tournaments.forms import TournamentForm
        from tournament.tournaments.services import TOURNAMENT_FIELDS

        # Whoever restores it owns it, in their club; never the file's owner or club.
        tournament.owner_id, tournament.host_club_id = self.owner_id, self.club_id
        # The hall screen's link is a credential of the original: the copy gets its own on demand.
        tournament.hall_token = None
        # Restored without its event (plan.related_label): a tournament of its own.
        tournament.session = None
        tournament.bracket = Tournament.Bracket.MAIN
        # The settings pass the settings form, exactly as when an arbiter types them.
        form = TournamentForm(data={name: getattr(tournament, name) for name in TOURNAMENT_FIELDS})
        if not form.is_valid():
            raise RowError(
                " ; ".join(
                    f"« {form.fields[name].label if name in form.fields else name} » ({name}) : "
                    f"{' '.join(str(e) for e in errors)}"
                    for name, errors in form.errors.items()
                )
            )
        self.full_clean(tournament)
        self.check_penalty_defaults(tournament)

    def check_penalty_defaults(self, tournament: Tournament) -> None:
        defaults = tournament.penalty_defaults
        if not isinstance(defaults, dict):
            raise model_field_error(
                tournament, "penalty_defaults", gettext_noop("%(field)s : un objet est attendu.")
            )
        for kind, points in defaults.items():
            if kind not in Incident.Kind.values:
                raise model_field_error(
                    tournament,
                    "penalty_defaults",
                    gettext_noop("%(field)s : %(value)s n'est pas un type d'incident."),
                    value=shown(kind),
                )
            if not is_int(points) or not 0 <= points <= MAX_PENALTY:
                raise model_field_error(
                    tournament,
                    "penalty_defaults",
                    gettext_noop("%(field)s : %(value)s n'est pas entre 0 et %(high)s."),
                    value=shown(points),
                    high=MAX_PENALTY,
                )

    def check_numbered(self, obj: Position | Table, row: Row) -> None:
        self.full_clean(obj)
        if obj.number < 1:
            raise model_field_error(
                obj,
                "number",
                gettext_noop("%(field)s : %(value)s n'est pas un numéro (1 ou plus)."),
                value=obj.number,
            )

    def check_sheet_player(self, player: SheetPlayer, row: Row) -> None:
        self.full_clean(player)
        self.sheet_players[player.sheet_id].append(player)

    def check_sheets(self) -> None:
        """Seats 0..n-1 on each sheet, 3 to 5 players once it has any; paper bilans by seat."""
        for key, sheet in self.plan.rows(ScoreSheet):
            where = row_name("scoring.scoresheet", key)
            players = self.sheet_players.get(key, [])
            seats = sorted(p.seat for p in players)
            if players and (seats != list(range(len(players))) or not 3 <= len(players) <= 5):
                raise self.fail(
                    where,
                    _("les places des joueurs (%(seats)s) ne vont pas de 0 à 2, 3 ou 4.")
                    % {"seats": shown(seats)},
                )
            bilans = sheet.paper_bilans
            if bilans is None:
                continue
            if (
                not isinstance(bilans, list)
                or len(bilans) != len(players)
                or not all(b is None or (is_int(b) and abs(b) <= MAX_PAPER_BILAN) for b in bilans)
            ):
                error = model_field_error(
                    sheet,
                    "paper_bilans",
                    gettext_noop("%(field)s : un bilan entier (ou rien) par joueur est attendu."),
                )
                raise self.fail(where, error.problem)

    def deals(self) -> None:
        """Every deal is scored again by the engine; its stored result must agree."""
        label = "scoring.deal"
        for key, row, where in self.rows(label):
            try:
                deal = self.build(Deal, row)
            except RowError as exc:
                raise self.fail(where, exc.problem) from exc
            if is_int(deal.number) and deal.sheet_id is not None:
                where = _("donne %(number)s de la feuille %(sheet)s") % {
                    "number": deal.number,
                    "sheet": deal.sheet_id,
                }
            try:
                self.full_clean(deal)
                sheet = self.kept(ScoreSheet, deal.sheet_id)
                table = self.kept(Table, sheet.table_id) if sheet is not None else None
                seats = len(self.sheet_players.get(deal.sheet_id, []))
                check_deal(deal, seats=seats, table=table)
            except RowError as exc:
                raise self.fail(where, exc.problem) from exc
            self.keep(label, key, deal)
        self.unique(Deal)
        self.deal_scores()

    def deal_scores(self) -> None:
        """Per-seat rows rebuilt from the checked deals (the file's own rows are not used)."""
        for row in self.sections["scoring.dealscore"]:
            if not is_int(row.get("pk")):
                raise self.fail(
                    row_name("scoring.dealscore", row.get("pk")),
                    _("identifiant (pk) manquant ou non entier."),
                )
        seat_registration = {
            sheet: {p.seat: p.registration_id for p in players}
            for sheet, players in self.sheet_players.items()
        }
        for key, deal in self.plan.rows(Deal):
            registrations = seat_registration[deal.sheet_id]
            for seat, points in enumerate(deal.scores):
                self.plan.objects["scoring.dealscore"].append(
                    DealScore(
                        deal_id=key, registration_id=registrations[seat], seat=seat, points=points
                    )
                )
                self.plan.keys["scoring.dealscore"].append(None)

    def check_incident(self, incident: Incident, row: Row) -> None:
        self.full_clean(incident)
        if incident.penalty_points > MAX_PENALTY:
            raise model_field_error(
                incident,
                "penalty_points",
                gettext_noop("%(field)s : %(value)s n'est pas entre 0 et %(high)s."),
                value=incident.penalty_points,
                high=MAX_PENALTY,
            )
        if incident.deal_id is not None:
            deal = self.kept(Deal, incident.deal_id)
            if deal is not None and incident.sheet_id != deal.sheet_id:
                raise RowError(_("sa donne n'est pas sur sa feuille."))

    def check_change(self, change: ChangeLog, row: Row) -> None:
        # The author as text only: the history names who, no local account is credited.
        username = row.get("username")
        if not username and isinstance(row.get("user"), str):
            username = row["user"]  # backups written before usernames were kept as text
        if not isinstance(username, str):
            username = ""
        change.username = username
        change.user_id = change.club_id = None
        self.full_clean(change)

    def drop_unused_players(self) -> None:
        """Only the players the registrations use join the shared roster: a file carrying a
        whole roster (another club's, say) adds none of the others."""
        used = {registration.player_id for _key, registration in self.plan.rows(Registration)}
        label = "tournament.player"
        kept = [(key, player) for key, player in self.plan.rows(Player) if key in used]
        self.plan.keys[label] = [key for key, _player in kept]
        self.plan.objects[label] = [player for _key, player in kept]
        self.by_key[label] = dict(kept)
