"""The printing tests render many identical documents (several tests of one module print the
same tournament and read different parts): WeasyPrint lays out each distinct HTML document once
per test process and hands back its PDF for the same HTML again.

Keyed by the whole HTML and base URL, so any change of data or template (a different name, pk,
print time or column) is a new document, laid out for real. A module that measures the
rendering itself sets `RENDER_EVERY_PDF = True`.
"""

from __future__ import annotations

import hashlib

import pytest

from scoring.documents.printing import render

_PDF_OF_HTML: dict[str, bytes] = {}


def _key(html: str, base_url: str) -> str:
    return hashlib.sha256(f"{base_url}\0{html}".encode()).hexdigest()


@pytest.fixture(autouse=True)
def reuse_identical_pdf_layouts(request, monkeypatch):
    if getattr(request.module, "RENDER_EVERY_PDF", False):
        return
    real = render.html_to_pdf

    def html_to_pdf(html: str, base_url: str) -> bytes:
        key = _key(html, base_url)
        if key not in _PDF_OF_HTML:
            _PDF_OF_HTML[key] = real(html, base_url)
        return _PDF_OF_HTML[key]

    monkeypatch.setattr(render, "html_to_pdf", html_to_pdf)
