"""The backup file's format: its sections, its limits, and reading it as untrusted JSON."""

from __future__ import annotations

import json
from typing import Any

from django.template.defaultfilters import filesizeformat
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from tournament.core.safe_json import JSONTooDeep, loads_bounded
from tournament.players.import_files import MAX_ROWS

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
# A restore adds roster players as an import of players does, within its cap: rows counted
# before any is checked. An exported backup holds just the players its registrations use, one a
# registration, so the registrations are capped alike.
MAX_PLAYERS = MAX_ROWS
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

# A section of the file: its rows, each a JSON object.
Sections = dict[str, list[dict[str, Any]]]


class BackupError(ValueError):
    """The file cannot be restored; the message says why, for the arbiter."""


def shown(value: Any, limit: int = 40) -> str:
    """A value as a message may quote it: short, whatever it is."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def unreadable(detail: str | None = None) -> BackupError:
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
            raise unreadable(_("le texte n'est pas en UTF-8.")) from exc
    try:
        return loads_bounded(raw, max_depth=MAX_NESTING, max_int_digits=None)
    except JSONTooDeep as exc:
        raise unreadable(_("le JSON est imbriqué trop profondément.")) from exc
    except ValueError as exc:
        raise unreadable(_("ce n'est pas du JSON valide.")) from exc


def check_document(data: Any) -> Sections:
    """The document's sections, each a list of rows, once its envelope is sound."""
    if not isinstance(data, dict):
        raise unreadable(_("un objet JSON est attendu."))
    if data.get("format") != FORMAT:
        raise BackupError(_("Ce fichier n'est pas une sauvegarde de tournoi Tarot Desk."))
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise BackupError(
            _("Version de sauvegarde %(version)s non prise en charge.")
            % {"version": shown(version)}
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
            % {"names": ", ".join(shown(name) for name in missing + unknown)}
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
    _check_sizes(sections)
    return sections


def _check_sizes(sections: Sections) -> None:
    """The roster players and registrations within an import's cap, before any row is read."""
    capped = {
        "tournament.player": _(
            "La sauvegarde contient %(count)s joueurs : une restauration en reprend au plus "
            "%(max)s, comme un import de joueurs."
        ),
        "tournament.registration": _(
            "La sauvegarde contient %(count)s inscriptions : une restauration en reprend au plus "
            "%(max)s, comme un import de joueurs."
        ),
    }
    for label, message in capped.items():
        count = len(sections[label])
        if count > MAX_PLAYERS:
            raise BackupError(
                message
                % {
                    "count": number_format(count, force_grouping=True),
                    "max": number_format(MAX_PLAYERS, force_grouping=True),
                }
            )
