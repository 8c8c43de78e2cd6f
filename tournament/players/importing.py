"""Reading a list of players from a CSV or XLSX file into rows and per-line errors.

Pure parsing: no database. The service layer checks the rows against the roster and the
tournament, then creates everything in one transaction or nothing.

Every cost is bounded, whatever the file holds (an upload comes from a browser, and a damaged
or hostile file must get a clear message, never an exception or a server thread held for
minutes):

- the upload: MAX_UPLOAD_BYTES (the form refuses more before reading; checked here again);
- the players: MAX_ROWS data lines (enough for any open). Reading stops at the first line over,
  and the file is refused; lines read in all, blank ones included, stop at MAX_LINES_READ;
- the messages: the first MAX_ERRORS by line, then one "… et N autres erreurs." line;
- a CSV line: MAX_LINE_CHARS characters (below csv.field_size_limit, so the csv module never
  raises on a field), parsed on its own: a stray quote costs that line only;
- an XLSX file is a zip of XML parts, checked before openpyxl opens it (check_xlsx, in
  tournament.players.import_files with the file-reading bounds): at most MAX_XLSX_MEMBERS members
  and MAX_XLSX_BYTES once uncompressed (from the zip directory, which zipfile enforces while
  inflating), then every part is streamed through a counting XML parser that stops at
  MAX_XML_WORK elements and attributes (openpyxl's own work is proportional to
  them) or at MAX_XML_GAP_BYTES without a new element (a tag of a million attributes).
  Rows are then read lazily with explicit bounds (the sheet's <dimension> is not trusted).

Parsing is linear: errors arrive in line order and are appended (a later check about an
earlier line is inserted in place among at most MAX_ERRORS), never re-sorted.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.core.collation import fold as normalise

# The file-reading bounds live with the readers (the rows' count is checked here too).
from tournament.players.import_files import (
    MAX_LINES_READ,
    MAX_ROWS,
    Line,
    UnreadableFile,
    check_xlsx,
    csv_lines,
    too_many_lines,
    too_many_rows,
    xlsx_lines,
)
from tournament.players.licence import licence_clean
from tournament.players.names import name_normalise, name_refusal, person_labels

# Normalised header → field. Headers are compared without case, accents, spaces or dots.
HEADERS = {
    "nom": "last_name",
    "nomdefamille": "last_name",
    "lastname": "last_name",
    "prenom": "first_name",
    "firstname": "first_name",
    "licence": "licence",
    "license": "licence",
    "nlicence": "licence",
    "nolicence": "licence",
    "numerodelicence": "licence",
    "licencefft": "licence",
    "club": "club",
    "equipe": "team",
    "team": "team",
}
REQUIRED = ("last_name",)
FIELDS = ("last_name", "first_name", "licence", "club", "team")
MAX_LENGTHS = {"last_name": 80, "first_name": 80, "licence": 20, "club": 120, "team": 120}

# --- bounds (see the module docstring) ---
MAX_UPLOAD_BYTES = 2 * 1024 * 1024
MAX_ERRORS = 100  # messages kept; the others are only counted


@dataclass
class ImportRow:
    """One player read from the file, with the line number it came from."""

    line: int
    last_name: str
    first_name: str = ""
    licence: str = ""
    club: str = ""
    team: str = ""
    # Filled in by the service (import_check): the roster player this row is, what the import
    # does with the row, and the roster player it may duplicate (with a label to show).
    player_id: int | None = None
    status: str = ""
    duplicate_of: int | None = None
    duplicate_label: str = ""

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def key(self) -> tuple[str, str]:
        return (normalise(self.last_name), normalise(self.first_name))


# What the import does with a row (ImportRow.status):
NEW = "new"  # a new roster player, registered
ROSTER = "roster"  # a roster player (same licence), registered
REGISTERED = "registered"  # already registered in this tournament: skipped
DUPLICATE = "duplicate"  # same name and club as a roster player: the arbiter decides
# The arbiter's decision on a likely duplicate; skipped unless told otherwise.
SKIP, USE_EXISTING, CREATE_NEW = "skip", "existing", "new"


@dataclass
class RowError:
    line: int
    message: str


def _error_line(error: RowError) -> int:
    return error.line


@dataclass
class ImportPreview:
    """Rows read and errors by line; errors stay in line order, at most MAX_ERRORS of them.

    Beyond MAX_ERRORS the errors are counted in `omitted`, and `errors` ends with a line-0
    entry "… et N autres erreurs." so that the page stays small.
    """

    rows: list[ImportRow] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)
    omitted: int = 0

    @property
    def ok(self) -> bool:
        return not self.errors and bool(self.rows)

    def error(self, line: int, message: str) -> None:
        errors = self.errors
        if self.omitted:
            errors.pop()  # the summary; put back below with the new count
        entry = RowError(line, message)
        if not errors or errors[-1].line <= line:
            errors.append(entry)  # the usual case: lines are checked in order
        else:
            # A later check about an earlier line (the service's checks): insert in place,
            # after the errors of the same line. At most MAX_ERRORS entries move.
            bisect.insort_right(errors, entry, key=_error_line)
        if len(errors) > MAX_ERRORS:
            errors.pop()
            self.omitted += 1
        if self.omitted:
            errors.append(
                RowError(
                    0,
                    ngettext(
                        "… et %(count)s autre erreur.",
                        "… et %(count)s autres erreurs.",
                        self.omitted,
                    )
                    % {"count": number_format(self.omitted, force_grouping=True)},
                )
            )


def parse_upload(filename: str, data: bytes) -> ImportPreview:
    """Rows and per-line errors from an uploaded file; XLSX is recognised by its zip header."""
    preview = ImportPreview()
    if not data:
        preview.error(0, _("Le fichier est vide."))
        return preview
    if len(data) > MAX_UPLOAD_BYTES:
        preview.error(0, _("Fichier trop gros (2 Mo au plus)."))
        return preview
    try:
        if data[:2] == b"PK" or filename.lower().endswith((".xlsx", ".xlsm")):
            check_xlsx(data)
            lines = xlsx_lines(data)
        else:
            lines = csv_lines(data)
        return _parse_lines(lines, preview)
    except UnreadableFile as refusal:
        preview.rows.clear()
        preview.error(0, str(refusal))
        return preview


def parse_table(table: Iterable[list[str]]) -> ImportPreview:
    """Rows from lines of cells whose first non-empty line is the header.

    `table` may be any iterable (a generator is read lazily, and only up to the bounds).
    """
    lines = ((number, cells, None) for number, cells in enumerate(table, start=1))
    return _parse_lines(lines, ImportPreview())


# A line of the file: (line number, cells, problem). A problem is a message for that line
# (a stray quote, a line too long): the line counts, but its cells are not read.


def _parse_lines(lines: Iterator[Line], preview: ImportPreview) -> ImportPreview:
    try:
        _read_lines(iter(lines), preview)
    finally:
        close = getattr(lines, "close", None)
        if close is not None:
            close()  # a generator stopped early closes its workbook now
    return preview


def _read_lines(lines: Iterator[Line], preview: ImportPreview) -> None:
    header_line = 0
    columns: dict[int, str] = {}
    players = 0
    seen_licences: dict[str, int] = {}
    seen_names: dict[tuple[str, str, str], tuple[int, bool]] = {}
    for read, (number, cells, problem) in enumerate(lines, start=1):
        if read > MAX_LINES_READ:
            preview.rows.clear()
            preview.error(0, too_many_lines())
            return  # and read no further
        if problem is None and not any(c.strip() for c in cells):
            continue
        if not header_line:
            header_line = number
            if problem is not None:
                preview.error(number, problem)
                return
            columns = _header_columns(cells)
            if not columns:
                preview.error(
                    header_line,
                    _(
                        "Colonne « nom » absente : la première ligne doit nommer les colonnes "
                        "(nom, prénom, licence, club, équipe)."
                    ),
                )
                return
            continue
        players += 1
        if players > MAX_ROWS:
            preview.rows.clear()
            preview.error(0, too_many_rows())
            return  # and read no further
        if problem is not None:
            preview.error(number, problem)
            continue
        _read_row(number, cells, columns, preview, seen_licences, seen_names)
    if not header_line:
        preview.error(0, _("Le fichier est vide."))
    elif not preview.rows and not preview.errors:
        preview.error(header_line, _("Aucun joueur dans le fichier."))


def _header_columns(header: list[str]) -> dict[int, str]:
    """Column index → field, or {} when a required column is missing."""
    columns: dict[int, str] = {}
    for index, title in enumerate(header):
        name = HEADERS.get(normalise(title))
        if name and name not in columns.values():
            columns[index] = name
    if any(name not in columns.values() for name in REQUIRED):
        return {}
    return columns


class _Refused(Exception):
    """A line of the file that is not read: the message says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _read_row(
    number: int,
    cells: list[str],
    columns: dict[int, str],
    preview: ImportPreview,
    seen_licences: dict[str, int],
    seen_names: dict[tuple[str, str, str], tuple[int, bool]],
) -> None:
    """Line `number` as a row of the preview, or its error."""
    values = {name: "" for name in FIELDS}
    for index, name in columns.items():
        if index < len(cells):
            values[name] = cells[index]
    try:
        row = _checked_row(number, values)
        _check_not_repeated(row, seen_licences, seen_names)
    except _Refused as refusal:
        preview.error(number, refusal.message)
        return
    preview.rows.append(row)


def _checked_row(number: int, values: dict[str, str]) -> ImportRow:
    """The line's values, field by field, as a row: names as every form takes them, a licence
    cleaned; _Refused when a value is not acceptable."""
    if any("\x00" in value for value in values.values()):  # PostgreSQL refuses NUL in text
        raise _Refused(str(ProhibitNullCharactersValidator.message))
    labels = {**person_labels(), "team": _("Équipe")}
    for name, label in labels.items():  # the one rule for names, as on every form
        refusal = name_refusal(values[name], label)
        if refusal is not None:
            raise _Refused(refusal)
    values = {name: name_normalise(value) for name, value in values.items()}
    row = ImportRow(
        line=number,
        last_name=values["last_name"],
        first_name=values["first_name"],
        licence=values["licence"],
        club=values["club"],
        team=values["team"],
    )
    if not row.last_name:
        raise _Refused(_("Nom manquant."))
    if any(len(getattr(row, n)) > MAX_LENGTHS[n] for n in FIELDS):
        raise _Refused(_("Valeur trop longue."))
    try:
        # "412345" from a spreadsheet that made the licence a number is "0412345" again.
        row.licence = licence_clean(row.licence)
    except ValidationError as invalid:
        raise _Refused(invalid.messages[0]) from None
    return row


def _check_not_repeated(
    row: ImportRow,
    seen_licences: dict[str, int],
    seen_names: dict[tuple[str, str, str], tuple[int, bool]],
) -> None:
    """_Refused when the row repeats an earlier line of the file (its licence, or its name in
    the same club); otherwise the row is remembered for the lines after it."""
    number = row.line
    if row.licence:
        if row.licence in seen_licences:
            raise _Refused(
                _("Licence %(licence)s déjà présente ligne %(other)s.")
                % {"licence": row.licence, "other": seen_licences[row.licence]}
            )
        seen_licences[row.licence] = number
    # Homonyms may play together: a same name is the same line twice only within one club and
    # unless both lines carry (different) licences.
    same_line = (*row.key, normalise(row.club))
    if same_line in seen_names and not (row.licence and seen_names[same_line][1]):
        raise _Refused(
            _("%(name)s figure déjà ligne %(other)s.")
            % {
                "name": f"{row.last_name} {row.first_name}".strip(),
                "other": seen_names[same_line][0],
            }
        )
    seen_names.setdefault(same_line, (number, bool(row.licence)))
