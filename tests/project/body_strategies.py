"""Hypothesis strategies built from a body's schema (tournament.core.schema): bodies that match
it, and bodies wrong in exactly one field (its type, its range, its list's shape, a key too
many or missing), each with the key the answer must name."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from hypothesis import strategies as st

from tournament.core.schema import (
    AnyObject,
    Bool,
    Int,
    ListOf,
    Number,
    Obj,
    Pair,
    Shape,
    Text,
)

# Values of every JSON type, to put where another is expected.
OTHER_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1e308, -0.0, 4.0, 0.5]),
    st.text(max_size=12),
    st.sampled_from(["", "1", "true", "null", "\x00", "=1+1", "9" * 40]),
)
OTHER_VALUES = st.one_of(
    OTHER_SCALARS,
    st.lists(OTHER_SCALARS, max_size=3),
    st.dictionaries(st.text(max_size=6), OTHER_SCALARS, max_size=3),
)


def per_shape(
    build: Callable[[Shape], st.SearchStrategy[Any]],
) -> Callable[[Shape], st.SearchStrategy[Any]]:
    """`build`'s strategy made once per shape (the schemas are the views' constants): the same
    strategy for every example, instead of a new tree of strategies at each draw, which
    Hypothesis then inspects again (what it may draw, whether it is empty)."""
    made: dict[int, tuple[Shape, st.SearchStrategy[Any]]] = {}

    @wraps(build)
    def cached(shape: Shape) -> st.SearchStrategy[Any]:
        hit = made.get(id(shape))
        if hit is None or hit[0] is not shape:
            hit = made[id(shape)] = (shape, build(shape))
        return hit[1]

    return cached


@per_shape
def valid(shape: Shape) -> st.SearchStrategy[Any]:
    """Values `shape` accepts."""
    strategy = _valid(shape)
    return st.one_of(st.none(), strategy) if shape.nullable else strategy


def _valid(shape: Shape) -> st.SearchStrategy[Any]:
    if isinstance(shape, Int):
        return st.one_of(
            st.integers(shape.low, shape.high),
            st.sampled_from([shape.low, shape.high]),
            st.integers(max(shape.low, -1), min(shape.high, 5)),
        )
    if isinstance(shape, Number):
        return st.one_of(
            st.integers(int(shape.low), int(shape.high)),
            st.floats(shape.low, shape.high, allow_nan=False),
            st.sampled_from([0, 40.5, 91]).filter(lambda v: shape.low <= v <= shape.high),
        )
    if isinstance(shape, Bool):
        return st.booleans()
    if isinstance(shape, Text):
        if shape.choices:
            return st.sampled_from(shape.choices)
        return st.text(max_size=min(shape.max_length, 20))
    if isinstance(shape, ListOf):
        return st.lists(valid(shape.item), max_size=shape.max_items)
    if isinstance(shape, Pair):
        return st.tuples(valid(shape.first), valid(shape.second)).map(list)
    if isinstance(shape, Obj):
        optional = {k: valid(f) for k, f in shape.fields.items() if k not in shape.required}
        required = {key: valid(shape.fields[key]) for key in shape.required}
        return st.fixed_dictionaries(required, optional=optional)
    if isinstance(shape, AnyObject):
        if shape.schema is not None:
            return valid(shape.schema)
        return st.dictionaries(st.text(max_size=8), OTHER_SCALARS, max_size=4)
    raise AssertionError(f"no strategy for {shape!r}: teach body_strategies its shape")


@per_shape
def wrong(shape: Shape) -> st.SearchStrategy[Any]:
    """Values `shape` refuses: another type, out of range, too long, a list of the wrong shape."""
    refused = OTHER_VALUES.filter(lambda value: not _accepts(shape, value))
    if isinstance(shape, Int):
        beyond = [shape.low - 1, shape.high + 1, 2**63, -(2**63) - 1, 10**18, 10**40]
        return st.one_of(st.sampled_from(beyond).filter(lambda v: _refused(shape, v)), refused)
    if isinstance(shape, Number):
        return st.one_of(st.sampled_from([shape.high * 10, shape.low * 10, 1e308]), refused)
    if isinstance(shape, Text):
        return st.one_of(st.just("x" * (shape.max_length + 1)), refused)
    if isinstance(shape, ListOf):
        too_many = st.lists(
            valid(shape.item), min_size=shape.max_items + 1, max_size=shape.max_items + 3
        )
        one_wrong = st.tuples(st.lists(valid(shape.item), max_size=2), wrong(shape.item)).map(
            lambda pair: [*pair[0], pair[1]]
        )
        return st.one_of(too_many, one_wrong, refused)
    if isinstance(shape, Pair):
        return st.one_of(
            st.tuples(valid(shape.first)).map(list),
            st.tuples(valid(shape.first), valid(shape.second), OTHER_SCALARS).map(list),
            st.tuples(wrong(shape.first), valid(shape.second)).map(list),
            st.tuples(valid(shape.first), wrong(shape.second)).map(list),
            refused,
        )
    return refused


def _refused(shape: Shape, value: Any) -> bool:
    return not _accepts(shape, value)


def _accepts(shape: Shape, value: Any) -> bool:
    try:
        shape.check(value)
    except ValueError:
        return False
    return True


@st.composite
def one_field_wrong(draw, shape: Obj) -> tuple[dict[str, Any], str]:
    """A body `shape` accepts but for one field, and that field's key: a wrong value, a key
    unknown to the schema, or a required key left out."""
    body = draw(valid(shape))
    how = draw(st.sampled_from(["value", "value", "value", "unknown", "missing"]))
    if how == "missing" and shape.required:
        key = draw(st.sampled_from(sorted(shape.required)))
        body.pop(key, None)
        return body, key
    if how == "unknown" or not shape.fields:
        key = draw(st.text(min_size=1, max_size=8).filter(lambda k: k not in shape.fields))
        body[key] = draw(OTHER_SCALARS)
        return body, key
    key = draw(st.sampled_from(sorted(shape.fields)))
    body[key] = draw(wrong(shape.fields[key]))
    return body, key
