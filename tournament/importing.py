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
- an XLSX file is a zip of XML parts, checked before openpyxl opens it (_check_xlsx): at most
  MAX_XLSX_MEMBERS members and MAX_XLSX_BYTES once uncompressed (from the zip directory, which
  zipfile enforces while inflating), then every part is streamed through a counting XML parser
  that stops at MAX_XML_WORK elements and attributes (openpyxl's own work is proportional to
  them) or at MAX_XML_GAP_BYTES without a new element (a tag of a million attributes).
  Rows are then read lazily with explicit bounds (the sheet's <dimension> is not trusted).

Parsing is linear: errors arrive in line order and are appended (a later check about an
earlier line is inserted in place among at most MAX_ERRORS), never re-sorted.
"""

from __future__ import annotations

import bisect
import csv
import io
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from xml.parsers import expat

from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .collation import fold as normalise
from .licence import licence_clean

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
ENCODINGS = ("utf-8-sig", "utf-8", "cp1252", "latin-1")

# --- bounds (see the module docstring) ---
MAX_UPLOAD_BYTES = 2 * 1024 * 1024
MAX_ROWS = 5000  # players in one file
MAX_LINES_READ = 20_000  # lines read in all, header and blank lines included
MAX_ERRORS = 100  # messages kept; the others are only counted
MAX_LINE_CHARS = 10_000  # one CSV line; must stay below csv.field_size_limit() (131,072)
MAX_COLUMNS = 64  # XLSX columns read; cells further right are ignored
MAX_XLSX_MEMBERS = 1000
MAX_XLSX_BYTES = 20 * 1024 * 1024  # all members once uncompressed
MAX_XML_WORK = 1_500_000  # XML elements and attributes openpyxl may parse, re-reads included
MAX_XML_GAP_BYTES = 256 * 1024  # XML bytes without a new element (a tag, a text)
MAX_ROW_CELLS = 16_384  # cells in one XLSX row: Excel's own column limit
SNIFF_CHARS = 4096
CHUNK_BYTES = 64 * 1024


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


class UnreadableFile(Exception):
    """The file cannot be read at all; the message says why, in the user's language."""


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
            _check_xlsx(data)
            lines = _xlsx_lines(data)
        else:
            lines = _csv_lines(data)
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
Line = tuple[int, list[str], str | None]


def _parse_lines(lines: Iterator[Line], preview: ImportPreview) -> ImportPreview:
    try:
        _read_lines(iter(lines), preview)
    finally:
        close = getattr(lines, "close", None)
        if close is not None:
            close()  # a generator stopped early closes its workbook now
    return preview


def _too_many_rows() -> str:
    return _(
        "Le fichier dépasse %(max)s lignes de joueurs : découpez-le et importez "
        "les morceaux l'un après l'autre."
    ) % {"max": number_format(MAX_ROWS, force_grouping=True)}


def _too_many_lines() -> str:
    return _(
        "Le fichier dépasse %(max)s lignes, lignes vides comprises : supprimez "
        "les lignes vides (en fin de feuille notamment) et envoyez-le à nouveau."
    ) % {"max": number_format(MAX_LINES_READ, force_grouping=True)}


def _read_lines(lines: Iterator[Line], preview: ImportPreview) -> None:
    header_line = 0
    columns: dict[int, str] = {}
    players = 0
    seen_licences: dict[str, int] = {}
    seen_names: dict[tuple[str, str, str], tuple[int, bool]] = {}
    for read, (number, cells, problem) in enumerate(lines, start=1):
        if read > MAX_LINES_READ:
            preview.rows.clear()
            preview.error(0, _too_many_lines())
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
            preview.error(0, _too_many_rows())
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


def _read_row(
    number: int,
    cells: list[str],
    columns: dict[int, str],
    preview: ImportPreview,
    seen_licences: dict[str, int],
    seen_names: dict[tuple[str, str, str], tuple[int, bool]],
) -> None:
    values = {name: "" for name in FIELDS}
    for index, name in columns.items():
        if index < len(cells):
            values[name] = " ".join(cells[index].split())
    row = ImportRow(
        line=number,
        last_name=values["last_name"],
        first_name=values["first_name"],
        licence=values["licence"],
        club=values["club"],
        team=values["team"],
    )
    if not row.last_name:
        preview.error(number, _("Nom manquant."))
        return
    too_long = [n for n in FIELDS if len(getattr(row, n)) > MAX_LENGTHS[n]]
    if too_long:
        preview.error(number, _("Valeur trop longue."))
        return
    if any("\x00" in value for value in values.values()):  # PostgreSQL refuses NUL in text
        preview.error(number, str(ProhibitNullCharactersValidator.message))
        return
    try:
        # "412345" from a spreadsheet that made the licence a number is "0412345" again.
        row.licence = licence_clean(row.licence)
    except ValidationError as invalid:
        preview.error(number, invalid.messages[0])
        return
    if row.licence:
        if row.licence in seen_licences:
            preview.error(
                number,
                _("Licence %(licence)s déjà présente ligne %(other)s.")
                % {"licence": row.licence, "other": seen_licences[row.licence]},
            )
            return
        seen_licences[row.licence] = number
    # Homonyms may play together: a same name is the same line twice only within one club and
    # unless both lines carry (different) licences.
    same_line = (*row.key, normalise(row.club))
    if same_line in seen_names and not (row.licence and seen_names[same_line][1]):
        preview.error(
            number,
            _("%(name)s figure déjà ligne %(other)s.")
            % {
                "name": f"{row.last_name} {row.first_name}".strip(),
                "other": seen_names[same_line][0],
            },
        )
        return
    seen_names.setdefault(same_line, (number, bool(row.licence)))
    preview.rows.append(row)


# --- CSV -------------------------------------------------------------------------------------


def _decode(data: bytes) -> str:
    for encoding in ENCODINGS:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise AssertionError("latin-1 decodes any bytes")


def _delimiter(text: str) -> str:
    # Universal newlines for the sample too: an old Mac file has no "\n" at all.
    sample = text[:SNIFF_CHARS].replace("\r\n", "\n").replace("\r", "\n")
    try:
        return csv.Sniffer().sniff(sample, delimiters=";,\t").delimiter
    except csv.Error:
        # One column, or a sniffer in doubt: French spreadsheets export with semicolons.
        first = sample.splitlines()[0] if sample else ""
        return ";" if first.count(";") >= first.count(",") else ","


def _csv_lines(data: bytes) -> Iterator[Line]:
    """The file's physical lines, one at a time, as cells or a problem.

    Any line ending is accepted ("\\n", "\\r\\n", and "\\r" alone from old Macs). Each line is
    parsed on its own and strictly: a quoted field cannot span lines, so an unclosed quote is
    reported on its own line instead of swallowing the rest of the file.
    """
    text = _decode(data)
    delimiter = _delimiter(text)
    for number, line in enumerate(io.StringIO(text, newline=None), start=1):
        if line.endswith("\n"):
            line = line[:-1]
        if len(line) > MAX_LINE_CHARS:
            if not line.strip():
                yield number, [], None
                continue
            yield (
                number,
                [],
                _("Ligne trop longue (plus de %(max)s caractères).")
                % {"max": number_format(MAX_LINE_CHARS, force_grouping=True)},
            )
            continue
        try:
            cells = next(csv.reader((line,), delimiter=delimiter, strict=True), [])
        except csv.Error:
            yield number, [], _("Guillemet mal fermé ou mal placé.")
            continue
        yield number, cells, None


# --- XLSX ------------------------------------------------------------------------------------


def _too_complex() -> UnreadableFile:
    return UnreadableFile(
        _(
            "Le fichier Excel est trop complexe pour être importé : enregistrez la liste des "
            "joueurs seule, en .xlsx ou en CSV."
        )
    )


class _PartScan:
    """Counts one XML part's elements and attributes while a parser streams it.

    Raises UnreadableFile as soon as a bound is crossed. openpyxl (read-only, without
    external links) parses each part once at load time, and for every sheet declared in the
    workbook it also scans that sheet's XML up to its <dimension> element (to the end when
    there is none) and parses the sheet's relationships; then the first sheet once more to
    read the rows. `cost` is what one such declaration may cost from this part.
    """

    def __init__(self, spent: int):
        self.spent = spent  # work of the parts already scanned
        self.work = 0  # elements and attributes: what a parser builds objects for
        self.starts = 0
        self.before_dimension: int | None = None
        self.sheets = 0
        self.in_sheet_data = False
        self.rows = 0
        self.filled_rows = 0
        self.row_cells = 0

    def start(self, local: str, attributes) -> None:
        self.starts += 1
        self.work += 1 + len(attributes)
        if self.spent + self.work > MAX_XML_WORK:
            raise self.over_budget()
        if local == "c" and self.in_sheet_data:
            self.row_cells += 1
            if self.row_cells == 1:
                self.filled_rows += 1
            if self.row_cells > MAX_ROW_CELLS:
                raise _too_complex()
        elif local == "row":
            self.rows += 1
            self.row_cells = 0
        elif local == "dimension" and self.before_dimension is None and not self.in_sheet_data:
            self.before_dimension = self.work
        elif local == "sheetData":
            self.in_sheet_data = True
        elif local == "sheet":
            self.sheets += 1
        elif local == "Relationship" and "chartsheet" in str(attributes.get("Type", "")):
            # openpyxl reads a chart sheet's drawings, charts and images once per reference:
            # no bound holds there, and a player list has no use for one.
            raise _too_complex()

    def over_budget(self) -> UnreadableFile:
        # A sheet this big is most often just too long: say so, it is what to fix.
        if self.filled_rows > MAX_ROWS:
            return UnreadableFile(_too_many_rows())
        if self.rows > MAX_LINES_READ:
            return UnreadableFile(_too_many_lines())
        return _too_complex()

    def start_expat(self, name: str, attributes: dict) -> None:
        self.start(name.rpartition(" ")[2], attributes)

    def doctype(self, *args) -> None:
        # An XLSX part never has one; refusing it rules out entity expansion in any parser.
        raise UnreadableFile(_("Le fichier Excel ne peut pas être lu."))

    def feed(self, stream, parse) -> None:
        """Feed `stream` to `parse` by chunks, refusing a long stretch without an element.

        A parser holds an unfinished tag or text whole (expat 2.5 even re-reads it at each
        chunk), then builds every attribute at once: a single tag of millions of attributes
        costs seconds and hundreds of MB before any count can stop it. A cell holds at most
        32,767 characters, so MAX_XML_GAP_BYTES without a new element is never a real file.
        """
        gap = 0
        while chunk := stream.read(CHUNK_BYTES):
            starts = self.starts
            parse(chunk)
            gap = gap + len(chunk) if self.starts == starts else 0
            if gap > MAX_XML_GAP_BYTES:
                raise _too_complex()

    @property
    def cost(self) -> int:
        return self.work if self.before_dimension is None else self.before_dimension


class _LxmlTarget:
    """The same counting for lxml, which openpyxl uses for some parts."""

    def __init__(self, scan: _PartScan):
        self.scan = scan

    def start(self, tag, attributes) -> None:
        self.scan.start(str(tag).rpartition("}")[2], attributes)

    def end(self, tag) -> None:
        pass

    def data(self, text) -> None:
        pass

    def doctype(self, *args) -> None:
        self.scan.doctype()

    def close(self) -> None:
        return None


def _scan_part(archive: zipfile.ZipFile, info: zipfile.ZipInfo, spent: int) -> _PartScan:
    """Stream one member through expat, counting; raises UnreadableFile over a bound.

    A member expat cannot parse is parsed again with lxml: openpyxl reads some parts with
    lxml, which accepts encodings expat does not. A member neither can parse is not XML
    (an image): openpyxl cannot read it either, so it costs nothing more.
    """
    scan = _PartScan(spent)
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.StartElementHandler = scan.start_expat
    parser.StartDoctypeDeclHandler = scan.doctype
    try:
        with archive.open(info) as stream:
            scan.feed(stream, lambda chunk: parser.Parse(chunk, False))
            parser.Parse(b"", True)
        return scan
    except expat.ExpatError:
        pass
    from lxml import etree

    retry = _PartScan(spent)
    lxml_parser = etree.XMLParser(
        target=_LxmlTarget(retry), resolve_entities=False, no_network=True, load_dtd=False
    )
    try:
        with archive.open(info) as stream:
            retry.feed(stream, lxml_parser.feed)
            lxml_parser.close()
    except etree.XMLSyntaxError:
        pass
    # openpyxl's expat parse (of a sheet) stops where ours did: keep the larger count.
    return retry if retry.work > scan.work else scan


def _check_xlsx(data: bytes) -> None:
    """Refuse, before openpyxl opens it, an XLSX whose reading would cost too much."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
        if len(members) > MAX_XLSX_MEMBERS:
            raise _too_complex()
        if sum(info.file_size for info in members) > MAX_XLSX_BYTES:
            raise UnreadableFile(
                _(
                    "Le fichier Excel décompressé dépasse %(max)s Mo : enregistrez la liste "
                    "des joueurs seule, en .xlsx ou en CSV."
                )
                % {"max": MAX_XLSX_BYTES // (1024 * 1024)}
            )
        spent = sheets = per_sheet = 0
        biggest = None
        for info in members:
            if info.is_dir():
                continue
            scan = _scan_part(archive, info, spent)
            spent += scan.work
            sheets += scan.sheets
            per_sheet = max(per_sheet, scan.cost)
            if biggest is None or scan.rows > biggest.rows:
                biggest = scan
        # Every part once at load time and the first sheet again for its rows, plus for each
        # declared sheet its XML up to <dimension> and its relationships part.
        if 2 * spent + 2 * max(sheets, 1) * per_sheet > MAX_XML_WORK:
            raise biggest.over_budget() if biggest is not None else _too_complex()
    except UnreadableFile:
        raise
    except Exception as error:  # a damaged zip: bad CRC, encryption, unknown compression…
        raise UnreadableFile(_("Le fichier Excel ne peut pas être lu.")) from error


def _xlsx_lines(data: bytes) -> Iterator[Line]:
    """The first sheet's rows, read lazily; call only on a file _check_xlsx accepted."""
    from openpyxl import load_workbook

    unreadable = _("Le fichier Excel ne peut pas être lu.")
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True, keep_links=False)
    except Exception as error:  # openpyxl raises many kinds of errors on a damaged file
        raise UnreadableFile(unreadable) from error
    try:
        if not workbook.worksheets:
            raise UnreadableFile(unreadable)
        sheet = workbook.worksheets[0]
        # Explicit bounds: by default openpyxl takes them from the sheet's <dimension>,
        # which the file may get wrong either way.
        rows = sheet.iter_rows(max_row=MAX_LINES_READ + 1, max_col=MAX_COLUMNS, values_only=True)
        for number, values in enumerate(rows, start=1):
            yield number, [_cell_text(v) for v in values], None
    except UnreadableFile:
        raise
    except Exception as error:
        raise UnreadableFile(unreadable) from error
    finally:
        workbook.close()


def _cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        # A licence typed into Excel comes back as 1234567.0.
        return str(int(value))
    return str(value)
