"""Translations for a test: an English catalogue entry the lead's makemessages will add."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.utils.translation import trans_real


@contextmanager
def english_translation(msgid: str, english: str) -> Iterator[None]:
    """The loaded English catalogue with `msgid` translated as `english`, restored afterwards."""
    catalogue = trans_real.translation("en")._catalog._catalogs[0]
    had = msgid in catalogue
    previous = catalogue.get(msgid)
    catalogue[msgid] = english
    try:
        yield
    finally:
        if had:
            catalogue[msgid] = previous
        else:
            del catalogue[msgid]
