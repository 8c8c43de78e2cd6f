"""Every QR code of a PDF read back as a phone would: poppler renders the pages, zbar reads them."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ZBAR = "{http://zbar.sourceforge.net/2008/barcode}"


def qr_codes(pdf: bytes, workdir: Path, *, dpi: int = 200) -> list[list[str]]:
    """By page, the text of each QR code found on it.

    The pages are rendered in grey (no PNG to encode and decode) and zbar reads them all in one
    call, its XML output saying which page each code was found on.
    """
    for tool in ("pdftoppm", "zbarimg"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is missing: `make test` installs poppler-utils and zbar-tools")
    source = workdir / "document.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-gray", str(source), str(workdir / "page")], check=True
    )
    images = sorted(workdir.glob("page-*.pgm"))
    found = subprocess.run(  # exit status 4 when some page has no code: not an error here
        ["zbarimg", "--quiet", "--xml", "-Sdisable", "-Sqrcode.enable", *map(str, images)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert found.returncode in (0, 4), found.stderr
    sources = ET.fromstring(found.stdout).findall(f"{ZBAR}source")
    assert [s.get("href") for s in sources] == [str(image) for image in images]
    return [
        [data.text for data in s.iter(f"{ZBAR}data") if data.text and data.text.strip()]
        for s in sources
    ]
