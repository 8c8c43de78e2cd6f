"""The path converter of every id in a URL: digits that a database id column can hold.

Django's `int` converter passes any number of digits to the view, and an id past 2^63 - 1 (the
largest value of SQLite's INTEGER and PostgreSQL's bigint) crashes the query that looks it up
(SQLite: OverflowError, a server error). An id that no row can have names no page: the URL does
not match, so the answer is the 404 of any unknown address, before any view runs.
"""

from __future__ import annotations

from django.urls import register_converter
from django.urls.converters import get_converters

MAX_ID = 2**63 - 1  # BigAutoField's largest value, on SQLite and PostgreSQL alike


class IdConverter:
    regex = "[0-9]{1,19}"  # 19 digits hold MAX_ID; longer ones are refused by the regex

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError(value)  # the pattern does not match: 404
        return number

    def to_url(self, value: int | str) -> str:
        return str(value)


def register() -> None:
    """Called once, from the app's ready(), before any URL module is read."""
    if "id" not in get_converters():  # registering twice is deprecated (Django 6 refuses it)
        register_converter(IdConverter, "id")
