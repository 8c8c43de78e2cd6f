"""Every QR code of a PDF read back as a phone would: poppler renders the pages, zbar reads them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def qr_codes(pdf: bytes, workdir: Path, *, dpi: int = 200) -> list[list[str]]:
    """By page, the text of each QR code found on it."""
    for tool in ("pdftoppm", "zbarimg"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is missing: `make test` installs poppler-utils and zbar-tools")
    source = workdir / "document.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-png", str(source), str(workdir / "page")], check=True
    )
    pages = []
    for image in sorted(workdir.glob("page-*.png")):
        found = subprocess.run(
            ["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(image)],
            capture_output=True,
            text=True,
            check=False,
        )
        pages.append([line for line in found.stdout.splitlines() if line.strip()])
    return pages
