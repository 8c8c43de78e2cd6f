"""Reading an uploaded file's bytes into numbered lines of cells: CSV and XLSX.

Every cost is bounded by the constants below; tournament.players.importing's docstring says why and
how. What the lines mean (headers, rows, errors) is tournament.players.importing's business.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterator
from xml.parsers import expat

from django.utils.formats import number_format
from django.utils.translation import gettext as _

# A physical line: its number, its cells, or the problem that made it unreadable.
Line = tuple[int, list[str], str | None]

MAX_ROWS = 5000  # players in one file
MAX_LINES_READ = 20_000  # lines read in all, header and blank lines included
ENCODINGS = ("utf-8-sig", "utf-8", "cp1252", "latin-1")
MAX_LINE_CHARS = 10_000  # one CSV line; must stay below csv.field_size_limit() (131,072)
MAX_COLUMNS = 64  # XLSX columns read; cells further right are ignored
MAX_XLSX_MEMBERS = 1000
MAX_XLSX_BYTES = 20 * 1024 * 1024  # all members once uncompressed
MAX_XML_WORK = 1_500_000  # XML elements and attributes openpyxl may parse, re-reads included
MAX_XML_GAP_BYTES = 256 * 1024  # XML bytes without a new element (a tag, a text)
MAX_ROW_CELLS = 16_384  # cells in one XLSX row: Excel's own column limit
SNIFF_CHARS = 4096
CHUNK_BYTES = 64 * 1024


class UnreadableFile(Exception):
    """The file cannot be read at all; the message says why, in the user's language."""


def too_many_rows() -> str:
    return _(
        "Le fichier dépasse %(max)s lignes de joueurs : découpez-le et importez "
        "les morceaux l'un après l'autre."
    ) % {"max": number_format(MAX_ROWS, force_grouping=True)}


def too_many_lines() -> str:
    return _(
        "Le fichier dépasse %(max)s lignes, lignes vides comprises : supprimez "
        "les lignes vides (en fin de feuille notamment) et envoyez-le à nouveau."
    ) % {"max": number_format(MAX_LINES_READ, force_grouping=True)}


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


def csv_lines(data: bytes) -> Iterator[Line]:
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
            return UnreadableFile(too_many_rows())
        if self.rows > MAX_LINES_READ:
            return UnreadableFile(too_many_lines())
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


def check_xlsx(data: bytes) -> None:
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


def xlsx_lines(data: bytes) -> Iterator[Line]:
    """The first sheet's rows, read lazily; call only on a file check_xlsx accepted."""
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
