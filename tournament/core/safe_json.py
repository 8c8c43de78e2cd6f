"""JSON from outside (API bodies, phone entries, backups): nesting and numbers bounded before
the parser can recurse or build infinities."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any


class JSONTooDeep(ValueError):
    """The document nests deeper than allowed (json.loads would recurse without bound)."""


class TooLongInteger:
    """An integer literal of more digits than any field holds, read as this marker (never
    converted) when the caller checks every value against a schema: the schema then refuses it
    naming its field (tournament.core.schema), not the whole body."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __str__(self) -> str:
        return f"<{self.digits} chiffres>"


# A JSON string, escapes included; what is left once strings are removed is structure and scalars.
# An unterminated string runs to the end of the text: the pattern never fails once it has seen a
# quote, so no quote is scanned from twice (failing there would make the scan quadratic).
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
# No field of this project holds an integer beyond 64 bits.
MAX_INT_DIGITS = 19


def nesting_depth(text: str, limit: int) -> int:
    """The deepest [ / { nesting outside strings, in linear time; stops counting past `limit`.

    The regular expressions run in C, so a 60 MB document is scanned in well under a second.
    """
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    depth = deepest = 0
    for char in brackets:
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        else:
            depth -= 1
    return deepest


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400
        raise ValueError("number out of range")
    return value


def _int_parser(max_digits: int | None, mark: bool) -> Callable[[str], int | TooLongInteger]:
    def parse(text: str) -> int | TooLongInteger:
        # Python's own limit (4300 digits, a ValueError) bounds the rest.
        digits = len(text.lstrip("-"))
        if max_digits is not None and digits > max_digits:
            if mark:
                return TooLongInteger(digits)
            raise ValueError("number out of range")
        return int(text)

    return parse


def _no_constant(name: str) -> Any:
    # NaN and Infinity are not JSON; a score or a version can never be one.
    raise ValueError(f"{name} is not allowed")


def loads_bounded(
    data: bytes | str,
    *,
    max_depth: int = 64,
    max_int_digits: int | None = MAX_INT_DIGITS,
    mark_long_integers: bool = False,
) -> Any:
    """json.loads, refusing documents nested deeper than `max_depth` (JSONTooDeep), text that
    is not UTF-8, infinite or NaN numbers and integers of more than `max_int_digits` digits
    (ValueError, or a TooLongInteger in their place with `mark_long_integers`, for a body
    whose every value a schema checks); None leaves integers to Python's own limit (a backup's
    history keeps what the site once stored, and the restore checks each column's range)."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ValueError("not UTF-8") from err
    if nesting_depth(data, max_depth) > max_depth:
        raise JSONTooDeep(f"nesting deeper than {max_depth}")
    try:
        return json.loads(
            data,
            parse_float=_parse_float,
            parse_int=_int_parser(max_int_digits, mark_long_integers),
            parse_constant=_no_constant,
        )
    except RecursionError as err:  # belt and braces: the scan above prevents it
        raise JSONTooDeep("nesting too deep") from err
