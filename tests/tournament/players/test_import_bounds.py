"""Player-list imports stay bounded and polite on junk and hostile files.

Pure tests of tournament.players.importing (no database), then a few uploads through the real view.
Costs are checked by what the code does (what it reads, how it compares), never by timing.
"""

import io
import random
import zipfile

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils.formats import number_format
from openpyxl import Workbook
from openpyxl.worksheet._read_only import ReadOnlyWorksheet

from tournament.models import Player, Tournament
from tournament.players.import_files import MAX_LINE_CHARS, MAX_LINES_READ, MAX_ROWS, MAX_XLSX_BYTES
from tournament.players.importing import MAX_ERRORS, ImportPreview, parse_table, parse_upload

UNREADABLE = "Le fichier Excel ne peut pas être lu."
TOO_COMPLEX = "Le fichier Excel est trop complexe pour être importé"
SHEET = "xl/worksheets/sheet1.xml"
SHEET_HEAD = b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def grouped(number: int) -> str:
    """A count as the messages print it (French: a no-break space between thousands)."""
    return number_format(number, force_grouping=True)


def too_many_rows() -> str:
    return f"Le fichier dépasse {grouped(MAX_ROWS)} lignes de joueurs"


def too_many_lines() -> str:
    return f"Le fichier dépasse {grouped(MAX_LINES_READ)} lignes, lignes vides comprises"


def messages(preview: ImportPreview) -> list[tuple[int, str]]:
    return [(e.line, e.message) for e in preview.errors]


def players(preview: ImportPreview) -> list[tuple]:
    return [(r.line, r.last_name, r.first_name, r.licence) for r in preview.rows]


def inline(column: str, row: int, text: str) -> bytes:
    return f'<c r="{column}{row}" t="inlineStr"><is><t>{text}</t></is></c>'.encode()


def xlsx(rows) -> bytes:
    book = Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def xlsx_with_sheet(chunks, sheet_declarations: int = 1) -> bytes:
    """A workbook made by openpyxl whose sheet XML is `chunks` (streamed into the zip),
    declared `sheet_declarations` times in the workbook (all pointing to that one part)."""
    source = zipfile.ZipFile(io.BytesIO(xlsx([["nom"]])))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            if info.filename == SHEET:
                with target.open(SHEET, "w", force_zip64=True) as sheet:
                    for chunk in chunks:
                        sheet.write(chunk)
                continue
            data = source.read(info.filename)
            if info.filename == "xl/workbook.xml" and sheet_declarations > 1:
                text = data.decode()
                start, end = text.index("<sheets>") + len("<sheets>"), text.index("</sheets>")
                sheets = "".join(
                    f'<sheet xmlns:r="{REL_NS}" name="S{n}" sheetId="{n}" r:id="rId1"/>'
                    for n in range(1, sheet_declarations + 1)
                )
                data = (text[:start] + sheets + text[end:]).encode()
            target.writestr(info, data)
    return out.getvalue()


def sheet_xml(*rows: bytes, dimension: bytes = b"") -> list[bytes]:
    return [SHEET_HEAD, dimension, b"<sheetData>", *rows, b"</sheetData></worksheet>"]


def repeated(unit: bytes, count: int, per_chunk: int = 100_000):
    chunk = unit * per_chunk
    for _ in range(count // per_chunk):
        yield chunk
    yield unit * (count % per_chunk)


@pytest.fixture
def openpyxl_never_opens(monkeypatch):
    """Fail if the file reaches openpyxl: the refusal must come from the zip check."""

    def refuse(*args, **kwargs):
        raise AssertionError("openpyxl was asked to open a file the zip check should refuse")

    monkeypatch.setattr(openpyxl, "load_workbook", refuse)


@pytest.fixture
def rows_read(monkeypatch):
    """How many rows openpyxl handed out, counted at the worksheet's row iterator."""
    counter = {"rows": 0}
    iter_rows = ReadOnlyWorksheet.iter_rows

    def counting(self, *args, **kwargs):
        for row in iter_rows(self, *args, **kwargs):
            counter["rows"] += 1
            yield row

    monkeypatch.setattr(ReadOnlyWorksheet, "iter_rows", counting)
    return counter


# --- CSV: line endings, quotes, long fields -------------------------------------------------


def test_old_mac_line_endings_are_read_line_by_line():
    content = "nom;prénom;licence\rMartin;Léa;123\rDurand;Paul;\r".encode("cp1252")
    preview = parse_upload("joueurs.csv", content)
    assert messages(preview) == []
    # The licence gets its leading zeros back (tournament.players.licence).
    assert players(preview) == [(2, "Martin", "Léa", "0000123"), (3, "Durand", "Paul", "")]


def test_mixed_line_endings_keep_the_physical_line_numbers():
    preview = parse_upload("j.csv", b"nom,prenom\r\nMartin,Lea\rDurand,Paul\n\nPetit,Jo")
    assert players(preview) == [
        (2, "Martin", "Lea", ""),
        (3, "Durand", "Paul", ""),
        (5, "Petit", "Jo", ""),
    ]


def test_a_stray_quote_is_reported_on_its_line_and_the_next_lines_are_read():
    content = b'nom;prenom\nMartin;Lea\n"Durand;Paul\nPetit;Jo\n"Bon"x;Jean\nMa"rie;Ok\n'
    preview = parse_upload("j.csv", content)
    assert messages(preview) == [
        (3, "Guillemet mal fermé ou mal placé."),
        (5, "Guillemet mal fermé ou mal placé."),
    ]
    # A quote inside an unquoted field is plain text, as in any spreadsheet.
    assert players(preview) == [
        (2, "Martin", "Lea", ""),
        (4, "Petit", "Jo", ""),
        (6, 'Ma"rie', "Ok", ""),
    ]


def test_a_field_over_the_csv_module_limit_is_reported_on_its_line():
    huge = b"x" * 131_073  # csv.field_size_limit() is 131,072
    content = b"nom;club\nMartin;" + huge + b'\n"' + huge + b'";A\nDurand;B\n'
    preview = parse_upload("j.csv", content)
    too_long = f"Ligne trop longue (plus de {grouped(MAX_LINE_CHARS)} caractères)."
    assert messages(preview) == [(2, too_long), (3, too_long)]
    assert players(preview) == [(4, "Durand", "", "")]


def test_a_name_too_long_keeps_its_own_message():
    preview = parse_upload("j.csv", b"nom\n" + b"x" * 81 + b"\nDurand\n")
    assert messages(preview) == [(2, "Valeur trop longue.")]


def test_bad_files_get_a_message_never_an_exception():
    garbage = random.Random(7).randbytes(5000)
    unreadable = [(0, UNREADABLE)]
    assert messages(parse_upload("j.xlsx", garbage)) == unreadable
    assert messages(parse_upload("j.xlsx", b"PK\x03\x04" + garbage)) == unreadable
    assert messages(parse_upload("j.xlsx", b"nom\nMartin\n")) == unreadable  # a CSV named .xlsx
    genuine = xlsx([["nom"], ["Martin"]])
    assert messages(parse_upload("j.xlsx", genuine[: len(genuine) // 2])) == unreadable
    assert messages(parse_upload("j.csv", b"")) == [(0, "Le fichier est vide.")]
    assert messages(parse_upload("j.xlsx", b"")) == [(0, "Le fichier est vide.")]
    assert messages(parse_upload("j.csv", b"\n \n;;\n")) == [(0, "Le fichier est vide.")]
    assert messages(parse_upload("j.csv", b"nom;prenom\n")) == [
        (1, "Aucun joueur dans le fichier.")
    ]
    assert messages(parse_upload("j.xlsx", xlsx([["nom", "prénom"]]))) == [
        (1, "Aucun joueur dans le fichier.")
    ]
    assert parse_upload("j.csv", garbage).errors  # junk decoded as latin-1: messages only


def test_an_upload_over_the_size_limit_is_refused_unread():
    preview = parse_upload("j.csv", b"nom\n" + b"Martin\n" * 400_000)
    assert messages(preview) == [(0, "Fichier trop gros (2 Mo au plus).")]


# --- errors: kept in order as they come, and capped ----------------------------------------


class CountingLine(int):
    """A line number that counts how often it is compared."""

    comparisons = 0

    def __lt__(self, other):
        CountingLine.comparisons += 1
        return int(self) < int(other)

    def __le__(self, other):
        CountingLine.comparisons += 1
        return int(self) <= int(other)


def test_errors_arriving_in_line_order_are_appended_not_resorted():
    CountingLine.comparisons = 0
    preview = ImportPreview()
    for line in range(1, 2001):
        preview.error(CountingLine(line), "Nom manquant.")
    # One comparison per error (sorting the list at each error made it 2 million).
    assert CountingLine.comparisons <= 2 * 2000


def test_an_error_about_an_earlier_line_is_inserted_in_place():
    preview = ImportPreview()
    for line, message in ((2, "a"), (5, "b"), (5, "c"), (3, "d"), (0, "e"), (5, "f")):
        preview.error(line, message)
    assert messages(preview) == [(0, "e"), (2, "a"), (3, "d"), (5, "b"), (5, "c"), (5, "f")]


def test_errors_beyond_the_cap_are_counted_and_summed_up_last():
    content = b"nom;prenom\n" + b";sans nom\n" * 3000
    preview = parse_upload("j.csv", content)
    assert len(preview.errors) == MAX_ERRORS + 1
    assert [e.line for e in preview.errors[:-1]] == list(range(2, MAX_ERRORS + 2))
    assert preview.omitted == 3000 - MAX_ERRORS
    assert messages(preview)[-1] == (0, f"… et {grouped(3000 - MAX_ERRORS)} autres erreurs.")

    # A check made later about an earlier line still shows first; the summary stays last.
    preview.error(1, "En-tête.")
    assert messages(preview)[0] == (1, "En-tête.")
    assert messages(preview)[-1] == (0, f"… et {grouped(3001 - MAX_ERRORS)} autres erreurs.")
    assert len(preview.errors) == MAX_ERRORS + 1


# --- the row cap: refuse, and read no further ------------------------------------------------


def test_a_file_of_exactly_the_cap_is_accepted():
    content = "nom\n" + "".join(f"Joueur{n}\n" for n in range(MAX_ROWS))
    preview = parse_upload("j.csv", content.encode())
    assert preview.ok and len(preview.rows) == MAX_ROWS


def test_more_players_than_the_cap_are_refused_without_reading_the_rest():
    consumed = 0

    def lines():
        nonlocal consumed
        for cells in [["nom"]] + [[f"Joueur{n}"] for n in range(100_000)]:
            consumed += 1
            yield cells

    preview = parse_table(lines())
    assert messages(preview) == [
        (0, too_many_rows() + " : découpez-le et importez les morceaux l'un après l'autre.")
    ]
    assert preview.rows == []
    assert consumed == MAX_ROWS + 2  # the header, the players allowed, and the one over


def test_blank_lines_count_toward_the_lines_read():
    content = b"nom\nMartin\n" + b";;\n" * MAX_LINES_READ + b"Durand\n"
    preview = parse_upload("j.csv", content)
    assert [m for _, m in messages(preview)] == [
        too_many_lines() + " : supprimez les lignes vides (en fin de feuille notamment) et "
        "envoyez-le à nouveau."
    ]
    assert preview.rows == []


def test_xlsx_over_the_cap_is_refused_and_openpyxl_stops_there(rows_read):
    content = xlsx([["nom"]] + [[f"Joueur{n}"] for n in range(MAX_ROWS + 50)])
    preview = parse_upload("j.xlsx", content)
    assert preview.errors[0].message.startswith(too_many_rows())
    assert preview.rows == []
    assert rows_read["rows"] == MAX_ROWS + 2


def test_xlsx_cell_far_below_stops_at_the_lines_bound(rows_read):
    # openpyxl fills the gap up to row 1,048,576 with empty rows.
    content = xlsx_with_sheet(
        sheet_xml(
            b'<row r="1">' + inline("A", 1, "nom") + b"</row>",
            b'<row r="2">' + inline("A", 2, "Martin") + b"</row>",
            b'<row r="1048576">' + inline("A", 1048576, "x") + b"</row>",
        )
    )
    preview = parse_upload("j.xlsx", content)
    assert preview.errors[0].message.startswith(too_many_lines())
    assert rows_read["rows"] == MAX_LINES_READ + 1


def test_xlsx_rows_below_a_wrong_dimension_are_still_read():
    rows = [
        b'<row r="%d">' % n + inline("A", n, name) + b"</row>"
        for n, name in ((1, "nom"), (2, "Martin"), (3, "Durand"), (4, "Petit"))
    ]
    content = xlsx_with_sheet(sheet_xml(*rows, dimension=b'<dimension ref="A1:A2"/>'))
    preview = parse_upload("j.xlsx", content)
    assert [r.last_name for r in preview.rows] == ["Martin", "Durand", "Petit"]


# --- XLSX refused before openpyxl opens it ---------------------------------------------------


def test_zip_bomb_is_refused_from_the_zip_directory(openpyxl_never_opens, monkeypatch):
    bomb = xlsx_with_sheet(sheet_xml(*repeated(b"<row/>", MAX_XLSX_BYTES // 6 + 1)))
    assert len(bomb) < 100_000  # 20 MB of sheet XML

    def never_inflate(*args, **kwargs):
        raise AssertionError("a member was inflated: the size is in the zip directory")

    monkeypatch.setattr(zipfile.ZipFile, "open", never_inflate)
    preview = parse_upload("bombe.xlsx", bomb)
    assert messages(preview) == [
        (
            0,
            "Le fichier Excel décompressé dépasse 20 Mo : enregistrez la liste des joueurs "
            "seule, en .xlsx ou en CSV.",
        )
    ]


def test_many_empty_rows_under_the_size_cap_are_refused_unparsed(openpyxl_never_opens):
    content = xlsx_with_sheet(sheet_xml(*repeated(b"<row/>", 1_000_000)))
    preview = parse_upload("j.xlsx", content)
    assert preview.errors[0].message.startswith(too_many_lines())


def test_many_players_under_the_size_cap_are_refused_unparsed(openpyxl_never_opens):
    row = b'<row><c t="inlineStr"><is><t>Martin</t></is></c></row>'
    content = xlsx_with_sheet(sheet_xml(*repeated(row, 200_000)))
    assert len(content) < 50_000
    preview = parse_upload("j.xlsx", content)
    assert preview.errors[0].message.startswith(too_many_rows())


def test_a_row_wider_than_excel_allows_is_refused_unparsed(openpyxl_never_opens):
    content = xlsx_with_sheet(sheet_xml(b"<row>", b"<c/>" * 16_385, b"</row>"))
    assert parse_upload("j.xlsx", content).errors[0].message.startswith(TOO_COMPLEX)


def test_one_sheet_declared_again_and_again_is_refused_unparsed(openpyxl_never_opens):
    # openpyxl scans the sheet's XML once per declaration: 100 declarations, 100 scans.
    content = xlsx_with_sheet(sheet_xml(*repeated(b"<row/>", 10_000)), sheet_declarations=100)
    assert parse_upload("j.xlsx", content).errors[0].message.startswith(TOO_COMPLEX)


def test_a_tag_of_many_attributes_is_refused_unparsed(openpyxl_never_opens):
    # A parser builds them all at once, when the tag ends: the scan stops before.
    tag = b'<row r="1" ' + b" ".join(b'a%d=""' % n for n in range(60_000)) + b"/>"
    content = xlsx_with_sheet(sheet_xml(tag))
    assert parse_upload("j.xlsx", content).errors[0].message.startswith(TOO_COMPLEX)


def test_a_doctype_is_refused_unparsed(openpyxl_never_opens):
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    )
    content = xlsx_with_sheet([laughs, *sheet_xml(b"<row><c><v>&b;</v></c></row>")])
    assert messages(parse_upload("j.xlsx", content)) == [(0, UNREADABLE)]


# --- through the upload page -----------------------------------------------------------------


@pytest.fixture
def tournament(arbiter):
    return Tournament.objects.create(name="Open", date="2026-11-21", owner=arbiter)


def upload(client, tournament, name, content):
    return client.post(
        reverse("player-import", args=[tournament.pk]),
        {"file": SimpleUploadedFile(name, content)},
    )


@pytest.mark.django_db
def test_hostile_csv_upload_gets_the_messages_not_a_server_error(arbiter_client, tournament):
    content = b'nom;club\nMartin;A\n"Durand;B\nPetit;' + b"x" * 131_073 + b"\nBon;C\n"
    response = upload(arbiter_client, tournament, "joueurs.csv", content)
    # A preview with errors is answered 400, with the page and its messages.
    assert response.status_code == 400
    assert "Ligne 3 : Guillemet mal fermé ou mal placé." in response.text
    assert (
        f"Ligne 4 : Ligne trop longue (plus de {grouped(MAX_LINE_CHARS)} caractères)."
        in response.text
    )
    assert "Inscrire ces" not in response.text
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_old_mac_csv_upload_is_previewed(arbiter_client, tournament):
    response = upload(
        arbiter_client, tournament, "joueurs.csv", b"nom;prenom\rMartin;Lea\rDurand;Paul"
    )
    assert response.status_code == 200
    assert "Inscrire ces 2 joueurs" in response.text


@pytest.mark.django_db
def test_zip_bomb_upload_is_refused_with_its_message(arbiter_client, tournament):
    bomb = xlsx_with_sheet(sheet_xml(*repeated(b"<row/>", 10_000_000)))
    response = upload(arbiter_client, tournament, "joueurs.xlsx", bomb)
    assert response.status_code == 400
    assert "Le fichier Excel décompressé dépasse 20 Mo" in response.text
