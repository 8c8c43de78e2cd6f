"""Back up a whole tournament to one JSON document and restore it into any database.

The document lists every row that belongs to the tournament (players, teams, registrations,
positions, tables, seats, sheets, deals, scores, incidents, history) in dependency order. On
restore every row gets a new primary key and foreign keys are remapped, so a backup can be loaded
next to other tournaments; players are matched to the roster by licence number when they have one.

A backup is a file from outside: it is trusted for nothing. Restoring runs in two phases.

1. Checking, before anything is written: the size is capped (MAX_BACKUP_BYTES), the nesting depth
   is bounded before the JSON parser can recurse, then every row is typed field by field (ints
   are ints, not bools, floats or strings), passes the model's validators (full_clean) and, for
   the tournament, the settings form; every deal is scored again by the engine, exactly as the
   desk form and the API score it, and its stored result must be the engine's (or, adjusted by
   the arbiter, one zero-sum int per seat, bounded like the adjustment form). Per-seat DealScore
   rows are rebuilt from the checked deals, never read from the file. Any problem raises
   BackupError with a French message naming the row and the field.
2. Writing: every value is converted for the database first, then one short transaction only
   swaps the file's keys for the new ones and runs multi-row INSERTs (as bulk_create does), so
   SQLite's write lock is held for as little as possible (about 2 s for a 40 MB file);
   concurrent deal saves wait for it (the busy timeout in settings) rather than fail.

Who did what is never taken from the file: the person restoring becomes the owner, the history
keeps its authors' names as text (ChangeLog.username) and links no local account, and deals and
incidents are credited to nobody.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import DatabaseError, connections, models, router, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournament.safe_json import JSONTooDeep, loads_bounded

FORMAT = "tarot-desk-backup"
VERSION = 1

# The biggest file a restore reads. A generated 800-player tournament (6 positions, 5 deals a
# table, 6,000 deals) backs up to about 9 MB; with a history record per deal, corrections and
# incidents a real one stays under 25 MB. 60 MB leaves room and bounds memory and time.
MAX_BACKUP_BYTES = 60 * 1024 * 1024
# A backup nests 6 levels ({document {sections [rows {row {history {…}}}]}}); history snapshots
# add a few. json.loads recurses once per level, so deeper documents are refused before parsing.
MAX_NESTING = 64
# Bounds of the desk's forms: adjusted scores, penalties, paper bilans.
MAX_ADJUSTED_SCORE = 100_000
MAX_PENALTY = 10_000
MAX_PAPER_BILAN = 1_000_000
# Longest text accepted for a number, a date or a decimal (a 1e30 or 10,000 digits is refused).
MAX_SCALAR_TEXT = 40
BATCH_SIZE = 2000

# (model label, lookup from the model to its tournament). Parents come before children.
SECTIONS: list[tuple[str, str]] = [
    ("tournament.player", "registrations__tournament"),
    ("tournament.tournament", "id"),
    ("tournament.team", "tournament"),
    ("tournament.registration", "tournament"),
    ("tournament.position", "tournament"),
    ("tournament.table", "position__tournament"),
    ("tournament.seat", "table__position__tournament"),
    ("scoring.scoresheet", "tournament"),
    ("scoring.sheetplayer", "sheet__tournament"),
    ("scoring.deal", "sheet__tournament"),
    ("scoring.dealscore", "deal__sheet__tournament"),
    ("scoring.incident", "tournament"),
    ("tournament.changelog", "tournament"),
]
# Files written while the history lived in scoring name its section so.
FORMER_LABELS = {"scoring.changelog": "tournament.changelog"}
LABELS = [label for label, _lookup in SECTIONS]

logger = logging.getLogger(__name__)


class BackupError(ValueError):
    """The file cannot be restored; the message says why, for the arbiter."""


def _model(label: str) -> type[models.Model]:
    return apps.get_model(label)


def _user_model() -> type[models.Model]:
    return get_user_model()


# --- writing a backup -------------------------------------------------------------------------


def _row(obj: models.Model, usernames: dict[int, str | None]) -> dict[str, Any]:
    row: dict[str, Any] = {"pk": obj.pk}
    for model_field in obj._meta.concrete_fields:
        if model_field.primary_key:
            continue
        value = model_field.value_from_object(obj)
        if model_field.is_relation and model_field.related_model is _user_model():
            # Users are not backed up; keep the name so the history still says who.
            row[model_field.name] = _username(value, usernames)
        else:
            row[model_field.name] = model_field.get_prep_value(value) if value is not None else None
            if not isinstance(row[model_field.name], (str, int, float, bool, list, dict)) and (
                row[model_field.name] is not None
            ):
                row[model_field.name] = model_field.value_to_string(obj)
    if "username" in row and not row["username"] and isinstance(row.get("user"), str):
        # History written before usernames were kept as text: name the account's holder.
        row["username"] = row["user"]
    return row


def _username(user_id: int | None, usernames: dict[int, str | None]) -> str | None:
    if user_id is None:
        return None
    if user_id not in usernames:
        user = _user_model().objects.filter(pk=user_id).first()
        usernames[user_id] = user.get_username() if user else None
    return usernames[user_id]


def _rows_of(label: str, lookup: str, tournament) -> models.QuerySet:
    return _model(label).objects.filter(**{lookup: tournament.pk}).distinct().order_by("pk")


def tournament_export(tournament) -> dict[str, Any]:
    """The whole tournament as a JSON-ready document."""
    usernames: dict[int, str | None] = {}
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "name": tournament.name}
    data["sections"] = {
        label: [_row(obj, usernames) for obj in _rows_of(label, lookup, tournament).iterator()]
        for label, lookup in SECTIONS
    }
    return data


def tournament_export_json(tournament) -> str:
    return json.dumps(tournament_export(tournament), ensure_ascii=False, indent=1)


# --- reading the file -------------------------------------------------------------------------


def _unreadable(detail: str | None = None) -> BackupError:
    if detail is None:
        return BackupError(_("Ce fichier n'est pas une sauvegarde lisible."))
    return BackupError(
        _("Ce fichier n'est pas une sauvegarde lisible : %(detail)s") % {"detail": detail}
    )


def parse_backup(raw: str | bytes) -> Any:
    """The file's JSON, with its size and nesting bounded first. Raises BackupError."""
    if len(raw) > MAX_BACKUP_BYTES:
        raise BackupError(
            _("Fichier trop volumineux : une sauvegarde fait au plus %(size)s.")
            % {"size": filesizeformat(MAX_BACKUP_BYTES)}
        )
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise _unreadable(_("le texte n'est pas en UTF-8.")) from exc
    try:
        return loads_bounded(raw, max_depth=MAX_NESTING)
    except JSONTooDeep as exc:
        raise _unreadable(_("le JSON est imbriqué trop profondément.")) from exc
    except ValueError as exc:
        raise _unreadable(_("ce n'est pas du JSON valide.")) from exc


def _check_document(data: Any) -> dict[str, list[dict[str, Any]]]:
    if not isinstance(data, dict):
        raise _unreadable(_("un objet JSON est attendu."))
    if data.get("format") != FORMAT:
        raise BackupError(_("Ce fichier n'est pas une sauvegarde de tournoi Tarot Desk."))
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise BackupError(
            _("Version de sauvegarde %(version)s non prise en charge.")
            % {"version": _shown(version)}
        )
    sections = data.get("sections")
    if not isinstance(sections, dict):
        raise BackupError(_("La sauvegarde est incomplète ou endommagée."))
    for former, label in FORMER_LABELS.items():
        if former in sections and label not in sections:
            sections = {(label if key == former else key): rows for key, rows in sections.items()}
    missing = [label for label in LABELS if label not in sections]
    unknown = [str(label) for label in sections if label not in LABELS]
    if missing or unknown:
        raise BackupError(
            _("La sauvegarde est incomplète ou endommagée : sections %(names)s.")
            % {"names": ", ".join(_shown(name) for name in missing + unknown)}
        )
    for label in LABELS:
        rows = sections[label]
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise BackupError(
                _("La sauvegarde est incomplète ou endommagée : section %(name)s.")
                % {"name": label}
            )
    if len(sections["tournament.tournament"]) != 1:
        raise BackupError(_("La sauvegarde doit contenir exactement un tournoi."))
    return sections


def _shown(value: Any, limit: int = 40) -> str:
    """A value as a message may quote it: short, whatever it is."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- checking every row -----------------------------------------------------------------------


class _RowError(Exception):
    """A problem with one field or row; the checker adds where it is."""

    def __init__(self, problem: str):
        super().__init__(problem)
        self.problem = problem


# How a message names a row: by its key in the file (translated when the message is built).
_WHERE = {
    "tournament.player": gettext_noop("joueur %(pk)s"),
    "tournament.tournament": gettext_noop("tournoi %(pk)s"),
    "tournament.team": gettext_noop("équipe %(pk)s"),
    "tournament.registration": gettext_noop("inscription %(pk)s"),
    "tournament.position": gettext_noop("position %(pk)s"),
    "tournament.table": gettext_noop("table %(pk)s"),
    "tournament.seat": gettext_noop("place %(pk)s"),
    "scoring.scoresheet": gettext_noop("feuille %(pk)s"),
    "scoring.sheetplayer": gettext_noop("joueur de feuille %(pk)s"),
    "scoring.deal": gettext_noop("donne %(pk)s"),
    "scoring.dealscore": gettext_noop("score %(pk)s"),
    "scoring.incident": gettext_noop("incident %(pk)s"),
    "tournament.changelog": gettext_noop("historique %(pk)s"),
}


def _where(label: str, pk: Any) -> str:
    return _(_WHERE[label]) % {"pk": _shown(pk)}


def _field_name(model_field) -> str:
    return f"« {model_field.verbose_name} » ({model_field.name})"


def _integer_range(model_field) -> tuple[int, int]:
    # The portable ranges (PostgreSQL's); SQLite would accept any 64-bit value.
    low, high = BaseDatabaseOperations.integer_field_ranges[model_field.get_internal_type()]
    return low, high


def _is_int(value: Any) -> bool:
    return type(value) is int


def _check_json(value: Any) -> bool:
    """Text without NUL (PostgreSQL refuses it), numbers in range; nesting is already bounded."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return False
        elif isinstance(item, dict):
            for key, child in item.items():
                if "\x00" in key:
                    return False
                stack.append(child)
        elif isinstance(item, list):
            stack.extend(item)
    return True


_DECIMAL_TEXT = re.compile(r"-?\d{1,20}(\.\d{1,20})?")


def _field_error(model_field, template: str, **params: Any) -> _RowError:
    """A problem with a field; `template` is a French source string taking %(field)s."""
    return _RowError(_(template) % {"field": _field_name(model_field), **params})


def _typed(model_field, value: Any) -> Any:
    """The row's value for a concrete, non-relation field, of exactly the right type."""
    if value is None:
        if model_field.null:
            return None
        raise _field_error(model_field, gettext_noop("%(field)s : une valeur est attendue."))
    if isinstance(model_field, models.BooleanField):
        if type(value) is not bool:
            raise _field_error(
                model_field,
                gettext_noop("%(field)s : oui ou non (true/false) est attendu, pas %(value)s."),
                value=_shown(value),
            )
        return value
    if isinstance(model_field, models.IntegerField):
        if not _is_int(value):
            raise _field_error(
                model_field,
                gettext_noop("%(field)s : un nombre entier est attendu, pas %(value)s."),
                value=_shown(value),
            )
        low, high = _integer_range(model_field)
        if not low <= value <= high:
            raise _field_error(
                model_field,
                gettext_noop("%(field)s : %(value)s est hors limites (%(low)s à %(high)s)."),
                value=value,
                low=low,
                high=high,
            )
        return value
    if isinstance(model_field, models.CharField | models.TextField):
        if not isinstance(value, str):
            raise _field_error(
                model_field,
                gettext_noop("%(field)s : un texte est attendu, pas %(value)s."),
                value=_shown(value),
            )
        if "\x00" in value:
            raise _field_error(model_field, gettext_noop("%(field)s : caractère nul interdit."))
        return value
    if isinstance(model_field, models.DecimalField):
        text = value if isinstance(value, str) else None
        if _is_int(value) or (isinstance(value, float) and math.isfinite(value)):
            text = str(value)
        if text is None or not _DECIMAL_TEXT.fullmatch(text):
            raise _field_error(
                model_field,
                gettext_noop("%(field)s : un nombre est attendu, pas %(value)s."),
                value=_shown(value),
            )
        return Decimal(text)  # the pattern leaves nothing Decimal could refuse
    if isinstance(model_field, models.DateField):  # DateTimeField is one too
        try:
            if not isinstance(value, str) or not value or len(value) > MAX_SCALAR_TEXT:
                raise ValidationError("not a date")
            return model_field.to_python(value)
        except ValidationError as exc:
            raise _field_error(
                model_field,
                gettext_noop("%(field)s : une date est attendue, pas %(value)s."),
                value=_shown(value),
            ) from exc
    if isinstance(model_field, models.JSONField):
        if not _check_json(value):
            raise _field_error(model_field, gettext_noop("%(field)s : caractère nul interdit."))
        return value
    # A field type this checker does not know: refuse rather than trust it.
    raise _field_error(model_field, gettext_noop("%(field)s : type de champ non pris en charge."))


def _validation_message(exc: ValidationError, model) -> str:
    if not hasattr(exc, "error_dict"):
        return " ".join(exc.messages)
    parts = []
    for name, errors in exc.message_dict.items():
        try:
            shown = _field_name(model._meta.get_field(name))
        except FieldDoesNotExist:  # NON_FIELD_ERRORS
            shown = name
        parts.append(f"{shown} : {' '.join(errors)}")
    return " ; ".join(parts)


@dataclass
class _Plan:
    """Checked rows ready to insert: unsaved instances whose foreign keys still hold the file's
    primary keys, with the file's key of each row (same order)."""

    objects: dict[str, list[models.Model]] = field(default_factory=lambda: defaultdict(list))
    keys: dict[str, list[Any]] = field(default_factory=lambda: defaultdict(list))
    # File keys of players matched to roster players already in the database.
    reused_players: dict[Any, int] = field(default_factory=dict)


class _Checker:
    """Checks the sections in order; builds the plan of rows to insert."""

    def __init__(self, sections: dict[str, list[dict[str, Any]]], owner_id: int | None):
        self.sections = sections
        self.owner_id = owner_id
        self.plan = _Plan()
        self.by_key: dict[str, dict[Any, models.Model]] = {label: {} for label in LABELS}
        self.sheet_players: dict[Any, list[models.Model]] = defaultdict(list)

    # Helpers ---------------------------------------------------------------------------------

    def fail(self, where: str, problem: str) -> BackupError:
        return BackupError(
            _("Sauvegarde illisible : %(where)s : %(problem)s")
            % {"where": where, "problem": problem}
        )

    def build(self, label: str, row: dict[str, Any]) -> models.Model:
        """An unsaved instance from the row, every field typed; relations hold the file's keys."""
        model = _model(label)
        user_model = _user_model()
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
                if model_field.related_model is user_model:
                    continue  # accounts are never taken from a file
                values[model_field.attname] = self.reference(model_field, value)
            elif value is not None or model_field.attname not in values:
                values[model_field.attname] = _typed(model_field, value)
        return model(**values)

    def reference(self, model_field, value: Any) -> Any:
        if value is None:
            if model_field.null:
                return None
            raise _RowError(
                _("%(field)s : une valeur est attendue.") % {"field": _field_name(model_field)}
            )
        target = model_field.related_model._meta.label_lower
        if not _is_int(value) or value not in self.by_key.get(target, {}):
            raise _RowError(
                _("%(field)s : %(value)s ne désigne aucune ligne de la sauvegarde.")
                % {"field": _field_name(model_field), "value": _shown(value)}
            )
        return value

    def full_clean(self, obj: models.Model, **kwargs) -> None:
        exclude = [f.name for f in obj._meta.concrete_fields if f.is_relation]
        try:
            obj.full_clean(
                exclude=exclude, validate_unique=False, validate_constraints=False, **kwargs
            )
        except ValidationError as exc:
            raise _RowError(_validation_message(exc, type(obj))) from exc

    def rows(self, label: str):
        """(key, row, where) for each row of a section, with its key checked."""
        seen = self.by_key[label]
        for row in self.sections[label]:
            key = row.get("pk")
            where = _where(label, key)
            if not _is_int(key):
                raise self.fail(where, _("identifiant (pk) manquant ou non entier."))
            if key in seen:
                raise self.fail(where, _("identifiant (pk) en double."))
            yield key, row, where

    def keep(self, label: str, key: Any, obj: models.Model) -> None:
        self.by_key[label][key] = obj
        self.plan.objects[label].append(obj)
        self.plan.keys[label].append(key)

    def section(self, label: str, check=None) -> None:
        """Type, validate and keep every row of a section; `check(obj, row)` adds the rules."""
        for key, row, where in self.rows(label):
            try:
                obj = self.build(label, row)
                if check is not None:
                    check(obj, row)
                else:
                    self.full_clean(obj)
            except _RowError as exc:
                raise self.fail(where, exc.problem) from exc
            self.keep(label, key, obj)
        self.unique(label)

    def unique(self, label: str) -> None:
        """The model's unique fields and unconditional unique constraints, within the file."""
        model = _model(label)
        groups = [
            (f.attname,) for f in model._meta.concrete_fields if f.unique and not f.primary_key
        ]
        for constraint in model._meta.constraints:
            if isinstance(constraint, models.UniqueConstraint) and constraint.fields:
                if constraint.condition is None and not constraint.expressions:
                    groups.append(
                        tuple(model._meta.get_field(n).attname for n in constraint.fields)
                    )
        for group in groups:
            seen: dict[tuple, Any] = {}
            for key, obj in zip(self.plan.keys[label], self.plan.objects[label], strict=True):
                value = tuple(getattr(obj, attname) for attname in group)
                if None in value:
                    continue  # NULL never collides in a unique constraint
                if value in seen:
                    names = ", ".join(
                        _field_name(f) for f in model._meta.concrete_fields if f.attname in group
                    )
                    raise self.fail(
                        _where(label, key),
                        _("même %(fields)s que %(other)s.")
                        % {"fields": names, "other": _where(label, seen[value])},
                    )
                seen[value] = key

    # Sections --------------------------------------------------------------------------------

    def check(self) -> _Plan:
        self.section("tournament.player", self.check_player)
        self.section("tournament.tournament", self.check_tournament)
        self.section("tournament.team")
        self.section("tournament.registration")
        self.section("tournament.position", self.check_position)
        self.section("tournament.table", self.check_numbered)
        self.section("tournament.seat")
        self.section("scoring.scoresheet")
        self.section("scoring.sheetplayer", self.check_sheet_player)
        self.check_sheets()
        self.deals()
        self.section("scoring.incident", self.check_incident)
        self.section("tournament.changelog", self.check_change)
        self.match_players()
        return self.plan

    def check_player(self, player, row) -> None:
        from tournament.licence import licence_clean

        try:
            # The registration form's and the import's rule: "412345" is "0412345".
            player.licence = licence_clean(player.licence) or None  # blank as Player.save
        except ValidationError as invalid:
            raise _RowError(invalid.messages[0]) from None
        self.full_clean(player)

    def check_tournament(self, tournament, row) -> None:
        from tournament.forms import TournamentForm
        from tournament.services import TOURNAMENT_FIELDS

        tournament.owner_id = self.owner_id  # whoever restores it owns it; never the file's
        # The hall screen's link is a credential of the original: the copy gets its own on demand.
        tournament.hall_token = None
        # The settings pass the settings form, exactly as when an arbiter types them.
        form = TournamentForm(data={name: getattr(tournament, name) for name in TOURNAMENT_FIELDS})
        if not form.is_valid():
            raise _RowError(
                " ; ".join(
                    f"« {form.fields[name].label if name in form.fields else name} » ({name}) : "
                    f"{' '.join(str(e) for e in errors)}"
                    for name, errors in form.errors.items()
                )
            )
        self.full_clean(tournament)
        self.check_penalty_defaults(tournament)

    def check_penalty_defaults(self, tournament) -> None:
        from scoring.models import Incident

        defaults = tournament.penalty_defaults
        name = _field_name(tournament._meta.get_field("penalty_defaults"))
        if not isinstance(defaults, dict):
            raise _RowError(_("%(field)s : un objet est attendu.") % {"field": name})
        for kind, points in defaults.items():
            if kind not in Incident.Kind.values:
                raise _RowError(
                    _("%(field)s : %(value)s n'est pas un type d'incident.")
                    % {"field": name, "value": _shown(kind)}
                )
            if not _is_int(points) or not 0 <= points <= MAX_PENALTY:
                raise _RowError(
                    _("%(field)s : %(value)s n'est pas entre 0 et %(high)s.")
                    % {"field": name, "value": _shown(points), "high": MAX_PENALTY}
                )

    def check_numbered(self, obj, row) -> None:
        self.full_clean(obj)
        if obj.number < 1:
            raise _RowError(
                _("%(field)s : %(value)s n'est pas un numéro (1 ou plus).")
                % {"field": _field_name(obj._meta.get_field("number")), "value": obj.number}
            )

    def check_position(self, position, row) -> None:
        self.check_numbered(position, row)

    def check_sheet_player(self, player, row) -> None:
        self.full_clean(player)
        self.sheet_players[player.sheet_id].append(player)

    def check_sheets(self) -> None:
        """Seats 0..n-1 on each sheet, 3 to 5 players once it has any; paper bilans by seat."""
        for key, sheet in zip(
            self.plan.keys["scoring.scoresheet"], self.plan.objects["scoring.scoresheet"],
            strict=True,
        ):  # fmt: skip
            where = _where("scoring.scoresheet", key)
            players = self.sheet_players.get(key, [])
            seats = sorted(p.seat for p in players)
            if players and (seats != list(range(len(players))) or not 3 <= len(players) <= 5):
                raise self.fail(
                    where,
                    _("les places des joueurs (%(seats)s) ne vont pas de 0 à 2, 3 ou 4.")
                    % {"seats": _shown(seats)},
                )
            bilans = sheet.paper_bilans
            if bilans is None:
                continue
            if (
                not isinstance(bilans, list)
                or len(bilans) != len(players)
                or not all(b is None or (_is_int(b) and abs(b) <= MAX_PAPER_BILAN) for b in bilans)
            ):
                raise self.fail(
                    where,
                    _("%(field)s : un bilan entier (ou rien) par joueur est attendu.")
                    % {"field": _field_name(sheet._meta.get_field("paper_bilans"))},
                )

    def deals(self) -> None:
        """Every deal is scored again by the engine; its stored result must agree."""
        label = "scoring.deal"
        for key, row, where in self.rows(label):
            try:
                deal = self.build(label, row)
            except _RowError as exc:
                raise self.fail(where, exc.problem) from exc
            if _is_int(deal.number) and deal.sheet_id is not None:
                where = _("donne %(number)s de la feuille %(sheet)s") % {
                    "number": deal.number,
                    "sheet": deal.sheet_id,
                }
            try:
                self.check_deal(deal)
            except _RowError as exc:
                raise self.fail(where, exc.problem) from exc
            self.keep(label, key, deal)
        self.unique(label)
        self.deal_scores()

    def check_deal(self, deal) -> None:
        from scoring.engine import DealError
        from scoring.figures import FIGURE
        from scoring.rules import RULE_SETS
        from scoring.services import compute_scores, deal_figure

        self.full_clean(deal)
        seats = len(self.sheet_players.get(deal.sheet_id, []))
        if not 3 <= seats <= 5:
            raise _RowError(_("sa feuille n'a pas de joueurs."))
        if deal.players != seats:
            raise _RowError(
                _("elle compte %(players)s joueurs, sa feuille %(seats)s.")
                % {"players": deal.players, "seats": seats}
            )
        if deal.number < 1:
            raise _RowError(_("numéro de donne %(value)s invalide.") % {"value": deal.number})
        if deal.rule_set not in RULE_SETS:
            raise _RowError(_("règlement %(value)s inconnu.") % {"value": _shown(deal.rule_set)})
        for name in ("dealer", "dead"):
            seat = getattr(deal, name)
            if seat is not None and not 0 <= seat < seats:
                raise _RowError(
                    _("%(field)s : %(value)s n'est pas une place de la table (0 à %(last)s).")
                    % {
                        "field": _field_name(deal._meta.get_field(name)),
                        "value": seat,
                        "last": seats - 1,
                    }
                )
        # As the desk and the API take deals (scoring.services.deal_input_check): at a table
        # of 5 with a mort the dealer sits out, and there is no mort anywhere else.
        sheet = self.by_key["scoring.scoresheet"][deal.sheet_id]
        table = self.by_key["tournament.table"].get(sheet.table_id)
        if table is not None and table.game == table.Game.FIVE_DEAD:
            if deal.dealer is None or deal.dead != deal.dealer:
                raise _RowError(_("à une table de 5 avec un mort, le mort est le donneur."))
        elif deal.dead is not None:
            raise _RowError(_("il n'y a pas de mort à cette table."))
        # Why a taker is alone (roi au chien, appelé soi-même): at a table of 5 with a called
        # king and without partner only. Older backups have no such field: blank, unknown.
        if deal.alone:
            called_king = seats == 5 and (table is None or table.game != table.Game.FIVE_DEAD)
            if not called_king or deal.partner is not None:
                raise _RowError(
                    _("%(field)s : seulement sans partenaire, à une table de 5 avec roi appelé.")
                    % {"field": _field_name(deal._meta.get_field("alone"))}
                )
        if not isinstance(deal.poignees, list) or not all(
            isinstance(p, list) and len(p) == 2 for p in deal.poignees
        ):
            raise _RowError(
                _("%(field)s : une liste de [place, taille] est attendue.")
                % {"field": _field_name(deal._meta.get_field("poignees"))}
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
            raise _RowError(_("une donne passée ou annulée n'a ni preneur ni contrat."))
        data = {**deal.engine_input(), "passed": deal.passed, "cancelled": deal.cancelled}
        try:
            if deal.is_figure_only:
                # Typed from the FFT sheet: its taker's figure is checked again as the desk did.
                data[FIGURE] = deal_figure(deal)
            computed = compute_scores(data, deal.rule_set)
        except DealError as err:
            raise _RowError(_(err.template) % err.params) from err
        except (TypeError, ValueError, KeyError, LookupError) as err:
            raise _RowError(_("le moteur de calcul refuse cette donne.")) from err
        scores = deal.scores
        name = _field_name(deal._meta.get_field("scores"))
        if (
            not isinstance(scores, list)
            or len(scores) != seats
            or not all(_is_int(s) and abs(s) <= MAX_ADJUSTED_SCORE for s in scores)
        ):
            raise _RowError(
                _("%(field)s : un entier par joueur (au plus %(high)s en valeur absolue) est "
                  "attendu, pas %(value)s.")
                % {"field": name, "high": MAX_ADJUSTED_SCORE, "value": _shown(scores)}
            )  # fmt: skip
        if sum(scores) != 0:
            raise _RowError(
                _("%(field)s : %(value)s ne font pas zéro.") % {"field": name, "value": scores}
            )
        if deal.adjusted:
            if not deal.adjustment_reason.strip():
                raise _RowError(_("un score arbitral doit avoir un motif."))
        else:
            expected = [0] * seats if deal.score_not_recorded else computed
            if scores != expected:
                raise _RowError(
                    _("%(field)s : %(value)s enregistrés, le calcul donne %(computed)s.")
                    % {"field": name, "value": scores, "computed": expected}
                )
        if deal.computed_scores not in ([], computed):
            raise _RowError(
                _("%(field)s : %(value)s enregistrés, le calcul donne %(computed)s.")
                % {
                    "field": _field_name(deal._meta.get_field("computed_scores")),
                    "value": _shown(deal.computed_scores),
                    "computed": computed,
                }
            )
        deal.computed_scores = computed

    def deal_scores(self) -> None:
        """Per-seat rows rebuilt from the checked deals (the file's own rows are not used)."""
        from scoring.models import DealScore

        for row in self.sections["scoring.dealscore"]:
            if not _is_int(row.get("pk")):
                raise self.fail(
                    _where("scoring.dealscore", row.get("pk")),
                    _("identifiant (pk) manquant ou non entier."),
                )
        seat_registration = {
            sheet: {p.seat: p.registration_id for p in players}
            for sheet, players in self.sheet_players.items()
        }
        for key, deal in zip(
            self.plan.keys["scoring.deal"], self.plan.objects["scoring.deal"], strict=True
        ):
            registrations = seat_registration[deal.sheet_id]
            for seat, points in enumerate(deal.scores):
                self.plan.objects["scoring.dealscore"].append(
                    DealScore(
                        deal_id=key, registration_id=registrations[seat], seat=seat, points=points
                    )
                )
                self.plan.keys["scoring.dealscore"].append(None)

    def check_incident(self, incident, row) -> None:
        self.full_clean(incident)
        if incident.penalty_points > MAX_PENALTY:
            raise _RowError(
                _("%(field)s : %(value)s n'est pas entre 0 et %(high)s.")
                % {
                    "field": _field_name(incident._meta.get_field("penalty_points")),
                    "value": incident.penalty_points,
                    "high": MAX_PENALTY,
                }
            )
        if incident.deal_id is not None:
            deal = self.by_key["scoring.deal"][incident.deal_id]
            if incident.sheet_id != deal.sheet_id:
                raise _RowError(_("sa donne n'est pas sur sa feuille."))

    def check_change(self, change, row) -> None:
        # The author as text only: the history names who, no local account is credited.
        username = row.get("username")
        if not username and isinstance(row.get("user"), str):
            username = row["user"]  # backups written before usernames were kept as text
        if not isinstance(username, str):
            username = ""
        change.username = username
        change.user_id = None
        self.full_clean(change)

    def match_players(self) -> None:
        """Players with a licence already on the roster are that roster player (not copied)."""
        from tournament.models import Player

        licences: dict[str, Any] = {}
        for key, player in zip(
            self.plan.keys["tournament.player"], self.plan.objects["tournament.player"],
            strict=True,
        ):  # fmt: skip
            if player.licence:
                if player.licence in licences:
                    raise self.fail(
                        _where("tournament.player", key),
                        _("même licence que %(other)s.")
                        % {"other": _where("tournament.player", licences[player.licence])},
                    )
                licences[player.licence] = key
        numbers = list(licences)
        for start in range(0, len(numbers), 500):
            found = Player.objects.filter(licence__in=numbers[start : start + 500])
            for licence, pk in found.values_list("licence", "pk"):
                self.plan.reused_players[licences[licence]] = pk


# --- writing the checked rows -------------------------------------------------------------------


@dataclass
class _Rows:
    """One section ready for INSERT: values already converted for the database, so that the
    write transaction only swaps the file's keys for the new ones and runs the statements."""

    model: type[models.Model]
    fields: list[models.Field]
    keys: list[Any]  # the file's key of each row
    values: list[list[Any]]  # one list of database values per row, in `fields` order
    relations: list[tuple[int, str]]  # (index in `fields`, label of the section it points at)


def _prepare(plan: _Plan, connection) -> list[_Rows]:
    """Everything of the insert that can be done before taking the write lock."""
    user_model = _user_model()
    prepared = []
    for label in LABELS:
        model = _model(label)
        fields = [f for f in model._meta.concrete_fields if not f.primary_key and not f.generated]
        relations = [
            (index, f.related_model._meta.label_lower)
            for index, f in enumerate(fields)
            if f.is_relation and f.related_model is not user_model
        ]
        rows = _Rows(model, fields, [], [], relations)
        for key, obj in zip(plan.keys[label], plan.objects[label], strict=True):
            if label == "tournament.player" and key in plan.reused_players:
                continue  # the roster player already in the database stands for it
            # Raw values, as loaddata saves them: no pre_save, so auto_now and auto_now_add
            # fields keep the recorded times.
            rows.keys.append(key)
            rows.values.append(
                [f.get_db_prep_save(getattr(obj, f.attname), connection) for f in fields]
            )
        prepared.append(rows)
    return prepared


def _insert(rows: _Rows, new_keys: dict[str, dict[Any, Any]], connection) -> None:
    """Insert a section in batches of multi-row INSERT … RETURNING (what bulk_create runs on
    PostgreSQL and SQLite ≥ 3.35); records the new key of each row."""
    if not rows.values:
        return
    for index, target in rows.relations:
        mapping = new_keys[target]
        for values in rows.values:
            if values[index] is not None:
                values[index] = mapping[values[index]]
    meta = rows.model._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in rows.fields)
    placeholders = "(" + ", ".join(["%s"] * len(rows.fields)) + ")"
    table, pk = quote(meta.db_table), quote(meta.pk.column)
    bulk = connection.features.can_return_rows_from_bulk_insert
    batch = max(1, min(BATCH_SIZE, connection.ops.bulk_batch_size(rows.fields, rows.values)))
    created = new_keys[meta.label_lower]
    with connection.cursor() as cursor:
        for start in range(0, len(rows.values), batch if bulk else 1):
            chunk = rows.values[start : start + (batch if bulk else 1)]
            sql = f"INSERT INTO {table} ({columns}) VALUES {', '.join([placeholders] * len(chunk))}"
            params = [value for values in chunk for value in values]
            if bulk:
                cursor.execute(f"{sql} RETURNING {pk}", params)
                new = [row[0] for row in cursor.fetchall()]
            else:
                cursor.execute(sql, params)
                new = [connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)]
            created.update(zip(rows.keys[start : start + len(chunk)], new, strict=True))


def _write(plan: _Plan):
    """Insert the checked rows in one short transaction; returns the new tournament."""
    connection = connections[router.db_for_write(_model("tournament.tournament"))]
    prepared = _prepare(plan, connection)
    new_keys: dict[str, dict[Any, Any]] = {label: {} for label in LABELS}
    new_keys["tournament.player"].update(plan.reused_players)
    with transaction.atomic(using=connection.alias):
        for rows in prepared:
            _insert(rows, new_keys, connection)
    tournament_key = plan.keys["tournament.tournament"][0]
    return _model("tournament.tournament").objects.get(
        pk=new_keys["tournament.tournament"][tournament_key]
    )


def tournament_check(raw: str | bytes, *, user=None) -> _Plan:
    """Parse and check a backup without writing anything; raises BackupError."""
    sections = _check_document(parse_backup(raw))
    checker = _Checker(sections, owner_id=user.pk if user is not None else None)
    try:
        return checker.check()
    except BackupError:
        raise
    except Exception as exc:  # a case the checks above missed: refuse the file, never a 500
        logger.exception("Unexpected error while checking a backup")
        raise _unreadable() from exc


def tournament_import(raw: str | bytes, *, user=None):
    """Restore a backup as a new tournament owned by `user`; returns it.

    Raises BackupError, writing nothing, when the file is not a sound backup.
    """
    plan = tournament_check(raw, user=user)
    try:
        return _write(plan)
    except DatabaseError as exc:  # e.g. a licence registered meanwhile: nothing was written
        raise BackupError(
            _("La sauvegarde ne peut pas être restaurée : %(error)s") % {"error": exc}
        ) from exc
