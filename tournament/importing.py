"""Reading a list of players from a CSV or XLSX file into rows and per-line errors.

Pure parsing: no database. The service layer checks the rows against the roster and the
tournament, then creates everything in one transaction or nothing.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import asdict, dataclass, field

from django.utils.translation import gettext as _

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
LICENCE_RE = re.compile(r"^[0-9A-Za-z-]{1,20}$")
ENCODINGS = ("utf-8-sig", "utf-8", "cp1252", "latin-1")


@dataclass
class ImportRow:
    """One player read from the file, with the line number it came from."""

    line: int
    last_name: str
    first_name: str = ""
    licence: str = ""
    club: str = ""
    team: str = ""
    # Filled in by the service when the player is already on the roster.
    player_id: int | None = None

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def key(self) -> tuple[str, str]:
        return (normalise(self.last_name), normalise(self.first_name))


@dataclass
class RowError:
    line: int
    message: str


@dataclass
class ImportPreview:
    rows: list[ImportRow] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors and bool(self.rows)

    def error(self, line: int, message: str) -> None:
        self.errors.append(RowError(line, message))
        self.errors.sort(key=lambda e: e.line)


def normalise(text: str) -> str:
    """Lower case without accents, spaces or punctuation, to compare headers and names."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]", "", stripped.lower())


def parse_upload(filename: str, data: bytes) -> ImportPreview:
    """Rows and per-line errors from an uploaded file; XLSX is recognised by its zip header."""
    if data[:2] == b"PK" or filename.lower().endswith((".xlsx", ".xlsm")):
        try:
            table = _xlsx_rows(data)
        except Exception:  # openpyxl raises many kinds of errors on a damaged file
            preview = ImportPreview()
            preview.error(0, _("Le fichier Excel ne peut pas être lu."))
            return preview
    else:
        table = _csv_rows(data)
    return parse_table(table)


def parse_table(table: list[list[str]]) -> ImportPreview:
    """Rows from a list of lines whose first non-empty line is the header."""
    preview = ImportPreview()
    lines = [(number, cells) for number, cells in enumerate(table, start=1)]
    lines = [(n, cells) for n, cells in lines if any(c.strip() for c in cells)]
    if not lines:
        preview.error(0, _("Le fichier est vide."))
        return preview

    header_line, header = lines[0]
    columns: dict[int, str] = {}
    for index, title in enumerate(header):
        name = HEADERS.get(normalise(title))
        if name and name not in columns.values():
            columns[index] = name
    missing = [name for name in REQUIRED if name not in columns.values()]
    if missing:
        preview.error(
            header_line,
            _(
                "Colonne « nom » absente : la première ligne doit nommer les colonnes "
                "(nom, prénom, licence, club, équipe)."
            ),
        )
        return preview

    seen_licences: dict[str, int] = {}
    seen_names: dict[tuple[str, str], int] = {}
    for number, cells in lines[1:]:
        values = {name: "" for name in FIELDS}
        for index, name in columns.items():
            if index < len(cells):
                values[name] = " ".join(cells[index].split())
        row = ImportRow(line=number, **values)
        row.licence = row.licence.replace(" ", "")
        if not row.last_name:
            preview.error(number, _("Nom manquant."))
            continue
        too_long = [n for n in FIELDS if len(getattr(row, n)) > MAX_LENGTHS[n]]
        if too_long:
            preview.error(number, _("Valeur trop longue."))
            continue
        if row.licence and not LICENCE_RE.match(row.licence):
            preview.error(
                number,
                _("Numéro de licence invalide : « %(licence)s ».") % {"licence": row.licence},
            )
            continue
        if row.licence:
            if row.licence in seen_licences:
                preview.error(
                    number,
                    _("Licence %(licence)s déjà présente ligne %(other)s.")
                    % {"licence": row.licence, "other": seen_licences[row.licence]},
                )
                continue
            seen_licences[row.licence] = number
        if row.key in seen_names:
            preview.error(
                number,
                _("%(name)s figure déjà ligne %(other)s.")
                % {
                    "name": f"{row.last_name} {row.first_name}".strip(),
                    "other": seen_names[row.key],
                },
            )
            continue
        seen_names[row.key] = number
        preview.rows.append(row)
    if not preview.rows and not preview.errors:
        preview.error(header_line, _("Aucun joueur dans le fichier."))
    return preview


def _csv_rows(data: bytes) -> list[list[str]]:
    for encoding in ENCODINGS:
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    sample = text[:4096]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=";,\t")
        delimiter = dialect.delimiter
    except csv.Error:
        # One column, or a sniffer in doubt: French spreadsheets export with semicolons.
        first = sample.splitlines()[0] if sample else ""
        delimiter = ";" if first.count(";") >= first.count(",") else ","
    return [list(row) for row in csv.reader(io.StringIO(text), delimiter=delimiter)]


def _xlsx_rows(data: bytes) -> list[list[str]]:
    from openpyxl import load_workbook

    workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    sheet = workbook.worksheets[0]
    rows = []
    for values in sheet.iter_rows(values_only=True):
        rows.append([_cell_text(v) for v in values])
    workbook.close()
    return rows


def _cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        # A licence typed into Excel comes back as 1234567.0.
        return str(int(value))
    return str(value)
