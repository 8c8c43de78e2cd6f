"""Fetch a printed document through its view and read it back with pypdf."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from typing import overload

from pypdf import PdfReader

# pypdf's text of each page by the PDF's digest and the page's index: the same bytes read the
# same text, and several tests read the same document (see conftest.py).
_TEXT_OF_PAGE: dict[tuple[str, int], str] = {}


class PageTexts(Sequence[str]):
    """The text of each page, extracted when a test first reads that page: a test reading one
    sheet of four, or none (a fetch for its side effects), does not pay pypdf for the others."""

    def __init__(self, reader: PdfReader, digest: str) -> None:
        self._reader, self._digest = reader, digest

    def __len__(self) -> int:
        return len(self._reader.pages)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        number = range(len(self))[index]  # IndexError past the last page, as a list
        key = (self._digest, number)
        if key not in _TEXT_OF_PAGE:
            _TEXT_OF_PAGE[key] = self._reader.pages[number].extract_text()
        return _TEXT_OF_PAGE[key]


def fetch_pdf(client, url: str, *, post: bool = False) -> tuple[PdfReader, PageTexts]:
    """The PDF behind `url` (checked to be one, its pages parsed) and the text of each page;
    `post` sends the print button's POST instead of a GET."""
    response = client.post(url) if post else client.get(url)
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].endswith('.pdf"')
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) >= 1  # the page tree reads back
    return reader, PageTexts(reader, hashlib.sha256(response.content).hexdigest())


def refused_to_anonymous(client, url: str) -> bool:
    """Anonymous visitors are sent to the login page and get no PDF."""
    response = client.get(url)
    return response.status_code == 302 and "/connexion/" in response["Location"]
