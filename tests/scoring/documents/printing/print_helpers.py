"""Fetch a printed document through its view and read it back with pypdf."""

from __future__ import annotations

import hashlib
import io

from pypdf import PdfReader

# pypdf's text of each page by the PDF's digest: the same bytes read the same text, and several
# tests read the same document (see conftest.py).
_TEXT_OF_PDF: dict[str, list[str]] = {}


def fetch_pdf(client, url: str, *, post: bool = False) -> tuple[PdfReader, list[str]]:
    """The PDF behind `url` (checked to be one) and the text of each page; `post` sends the
    print button's POST instead of a GET."""
    response = client.post(url) if post else client.get(url)
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].endswith('.pdf"')
    reader = PdfReader(io.BytesIO(response.content))
    digest = hashlib.sha256(response.content).hexdigest()
    if digest not in _TEXT_OF_PDF:
        _TEXT_OF_PDF[digest] = [page.extract_text() for page in reader.pages]
    return reader, list(_TEXT_OF_PDF[digest])


def refused_to_anonymous(client, url: str) -> bool:
    """Anonymous visitors are sent to the login page and get no PDF."""
    response = client.get(url)
    return response.status_code == 302 and "/connexion/" in response["Location"]
