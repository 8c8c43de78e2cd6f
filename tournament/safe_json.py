"""JSON from outside, parsed with its nesting bounded before the parser can recurse."""

from __future__ import annotations

import json
from typing import Any


class JSONTooDeep(ValueError):
    """The document nests deeper than allowed (json.loads would recurse without bound)."""


def nesting_depth(text: str, limit: int) -> int:
    """The deepest [ or { nesting outside strings, in one pass; stops early past `limit`."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    raise JSONTooDeep(f"nesting deeper than {limit}")
        elif char in "]}":
            depth -= 1
    return deepest


def loads_bounded(data: bytes | str, *, max_depth: int = 64) -> Any:
    """json.loads, refusing documents nested deeper than `max_depth` (ValueError otherwise)."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ValueError("not UTF-8") from err
    nesting_depth(data, max_depth)
    try:
        return json.loads(data, parse_constant=_no_constant)
    except RecursionError as err:  # belt and braces: the scan above should prevent it
        raise JSONTooDeep("nesting too deep") from err


def _no_constant(name: str) -> Any:
    # NaN and Infinity are not JSON; a score or a version can never be one.
    raise ValueError(f"{name} is not allowed")
