"""Collection functions from go-cty's stdlib (``collection.go``, ``set.go``, ``sequence.go``).

The value model has one Python ``list`` for cty's list, tuple and set and one ``dict``
for map and object, so type-only distinctions are approximated: a ``dict`` is accepted
wherever cty takes a map *or* an object (``length``, ``index``, ``lookup``), and set
results are lists in cty's set order. Note that Nomad's ``index`` is cty's element
lookup, ``index(collection, key)``, not Terraform's search for a value.
"""

from __future__ import annotations

import math

from hclgpu.eval.functions.base import (
    ArgError,
    CallError,
    ConversionError,
    Function,
    Param,
    define,
    friendly_type,
    require_values,
    set_of,
    sorted_dict,
    to_int,
    unify,
    whole,
)
from hclgpu.eval.values import Value, equal

__all__ = ["TABLE"]

_COLLECTION = "collection must be a list, a map or a tuple"
_END = object()
"""Marks an exhausted iterator in :func:`_flatten`."""


def _length(collection: Value) -> int:
    """Elements of a list, tuple, set or map."""
    if isinstance(collection, (list, dict)):
        return len(collection)
    raise CallError(_COLLECTION, arg=0)


def _element(items: Value, index: int | float) -> Value:
    """The element at ``index`` modulo the length (negative indexes count from the end)."""
    if not isinstance(items, list):
        raise CallError(f"cannot read elements from {friendly_type(items)}", arg=0)
    position = whole(index, prefix="invalid index: ")
    if not items:
        raise CallError("cannot use element function with an empty list", arg=0)
    return items[position % len(items)]


def _index(collection: Value, key: Value) -> Value:
    """cty's ``index``: the element of a list/tuple at a number, or of a map at a string."""
    if isinstance(collection, list):
        if isinstance(key, bool) or not isinstance(key, (int, float)):
            raise CallError("key for tuple must be number", arg=1)
        try:
            position = to_int(key)
        except ValueError as exc:
            raise CallError(f"invalid key for tuple: {exc}", arg=1) from None
        if not 0 <= position < len(collection):
            raise CallError(f"key must be between 0 and {len(collection)} inclusive", arg=1)
        return collection[position]
    if isinstance(collection, dict):
        if not isinstance(key, str):
            raise CallError("key for map must be string", arg=1)
        if key not in collection:
            raise CallError("invalid index", arg=1)
        return collection[key]
    raise CallError(_COLLECTION, arg=0)


def _coalesce(*values: Value) -> Value:
    """The first non-null argument, after converting all to one type."""
    try:
        unified = unify(list(values)) if values else None
    except ConversionError:
        unified = None
    if unified is None:
        raise CallError("all arguments must have the same type")
    for value in unified:
        if value is not None:
            return value
    raise CallError("no non-null arguments")


def _coalescelist(*values: Value) -> Value:
    """The first non-empty list or tuple argument."""
    if not values:
        raise CallError("at least one argument is required")
    for value in values:
        if value is not None and not isinstance(value, list):
            raise CallError("coalescelist arguments must be lists or tuples")
    for value in values:
        if value:
            return value
    raise CallError("no non-null arguments")


def _compact(items: list[Value]) -> list[Value]:
    """Drop null and empty strings."""
    return [item for item in items if item is not None and item != ""]


def _concat(*sequences: Value) -> list[Value]:
    """Join lists and tuples end to end."""
    if not sequences:
        raise CallError("at least one argument is required")
    result: list[Value] = []
    for index, sequence in enumerate(sequences):
        if not isinstance(sequence, list):
            raise ArgError(index, f"all arguments must be lists or tuples; got {friendly_type(sequence)}")
        result.extend(sequence)
    return result


def _contains(items: Value, value: Value) -> bool:
    """Whether a list, tuple or set has an element equal to ``value`` (types must match)."""
    if not isinstance(items, list):
        raise CallError("argument must be list, tuple, or set", arg=0)
    return any(equal(item, value) for item in items)


def _distinct(items: list[Value]) -> list[Value]:
    """Remove later duplicates, keeping the first occurrence's position."""
    result: list[Value] = []
    for item in items:
        if not any(equal(item, seen) for seen in result):
            result.append(item)
    return result


def _chunklist(items: list[Value], size: int | float) -> list[list[Value]]:
    """Split into chunks of ``size`` elements; size 0 gives the whole list as one chunk."""
    count = whole(size, prefix="invalid size: ")
    if count < 0:
        raise CallError("the size argument must be positive", arg=1)
    if not items:
        return []
    if count == 0:
        return [items]
    return [items[i : i + count] for i in range(0, len(items), count)]


def _flatten(items: Value) -> list[Value]:
    """Replace nested lists, tuples and sets by their elements, recursively."""
    if not isinstance(items, list):
        raise CallError("can only flatten lists, sets and tuples", arg=0)
    result: list[Value] = []
    stack = [iter(items)]
    while stack:
        item = next(stack[-1], _END)
        if item is _END:
            stack.pop()
            continue
        if isinstance(item, list):
            stack.append(iter(item))
        else:
            result.append(item)
    return result


def _keys(mapping: Value) -> list[str]:
    """The keys of a map or object, sorted."""
    if not isinstance(mapping, dict):
        raise ArgError(0, "must have map or object type")
    return sorted(mapping)


def _values(mapping: Value) -> list[Value]:
    """The values of a map or object, in key order."""
    if not isinstance(mapping, dict):
        raise CallError("values() requires a map as the first argument", arg=0)
    return [mapping[key] for key in sorted(mapping)]


def _lookup(mapping: Value, key: str, default: Value) -> Value:
    """``mapping[key]``, or ``default`` when the key is absent."""
    if not isinstance(mapping, dict):
        raise ArgError(0, "lookup() requires a map as the first argument")
    return mapping.get(key, default)


def _merge(*mappings: Value) -> dict[str, Value]:
    """Later maps or objects win; null arguments are skipped."""
    result: dict[str, Value] = {}
    for mapping in mappings:
        if mapping is None:
            continue
        if not isinstance(mapping, dict):
            raise CallError(f'arguments must be maps or objects, got "{friendly_type(mapping)}"')
        result.update(mapping)
    return sorted_dict(result)


def _set_args(sets: tuple[list[Value], ...]) -> list[list[Value]]:
    """Convert all set arguments to one element type (cty unifies across the sets)."""
    lengths = [len(s) for s in sets]
    try:
        flat = unify([item for s in sets for item in s])
    except ConversionError:
        raise CallError("given sets must all have compatible element types") from None
    result, start = [], 0
    for length in lengths:
        result.append(flat[start : start + length])
        start += length
    return result


def _setunion(*sets: list[Value]) -> list[Value]:
    """Every element of any set."""
    return set_of([item for s in _set_args(sets) for item in s])


def _setintersection(*sets: list[Value]) -> list[Value]:
    """Elements present in every set."""
    converted = _set_args(sets)
    first, others = converted[0], converted[1:]
    return set_of([item for item in first if all(any(equal(item, o) for o in other) for other in others)])


def _setproduct(*sets: Value) -> list[list[Value]]:
    """The cartesian product, in the order of the inputs (first argument slowest)."""
    if len(sets) < 2:
        raise CallError("at least two arguments are required")
    columns: list[list[Value]] = []
    for index, items in enumerate(sets):
        if not isinstance(items, list):
            raise ArgError(index, "a set or a list is required")
        try:
            columns.append(unify(items))
        except ConversionError:
            raise ArgError(index, "all elements must be of the same type") from None
    rows = math.prod(len(column) for column in columns)
    require_values(rows * (len(columns) + 1))  # each row and its elements, before building any
    product: list[list[Value]] = [[]]
    for column in columns:
        product = [[*row, item] for row in product for item in column]
    return product


def _slice(items: Value, start: int | float, end: int | float) -> list[Value]:
    """Elements from ``start`` (inclusive) to ``end`` (exclusive)."""
    if not isinstance(items, list):
        raise ArgError(0, "must be a list or tuple value")
    first = whole(start, 1, "invalid start index: ")
    if first < 0:
        raise ArgError(1, "start index must not be less than zero")
    if first > len(items):
        raise ArgError(1, "start index must not be greater than the length of the list")
    last = whole(end, 2, "invalid end index: ")
    if last < 0:
        raise ArgError(2, "end index must not be less than zero")
    if last > len(items):
        raise ArgError(2, "end index must not be greater than the length of the list")
    if first > last:
        raise ArgError(1, "start index must not be greater than end index")
    return items[first:last]


def _zipmap(keys: list[Value], values: Value) -> dict[str, Value]:
    """A map from parallel lists of keys and values."""
    if not isinstance(values, list):
        raise CallError("values argument must be a list or tuple value", arg=1)
    if len(keys) != len(values):
        raise CallError(f"number of keys ({len(keys)}) does not match number of values ({len(values)})")
    for index, key in enumerate(keys):
        if key is None:
            raise CallError(f"keys list has null value at index {index}", arg=0)
    return sorted_dict(dict(zip(keys, values, strict=True)))


_LIST = Param("list")
_SETS = (Param("first_set", "set_any"),)
_OTHER_SETS = Param("other_sets", "set_any")

TABLE: tuple[Function, ...] = (
    define("length", _length, Param("collection")),
    define("element", _element, _LIST, Param("index", "number")),
    define("index", _index, Param("collection"), Param("key")),
    define("coalesce", _coalesce, var=Param("vals", allow_null=True)),
    define("coalescelist", _coalescelist, var=Param("vals", allow_null=True)),
    define("compact", _compact, Param("list", "list_string")),
    define("concat", _concat, var=Param("seqs")),
    define("contains", _contains, _LIST, Param("value")),
    define("distinct", _distinct, Param("list", "list_any")),
    define("chunklist", _chunklist, Param("list", "list_any"), Param("size", "number")),
    define("flatten", _flatten, _LIST),
    define("keys", _keys, Param("inputMap")),
    define("values", _values, Param("mapping")),
    define("lookup", _lookup, Param("inputMap"), Param("key", "string"), Param("default")),
    define("merge", _merge, var=Param("maps", allow_null=True)),
    define("setunion", _setunion, *_SETS, var=_OTHER_SETS),
    define("setintersection", _setintersection, *_SETS, var=_OTHER_SETS),
    define("setproduct", _setproduct, var=Param("sets")),
    define("slice", _slice, _LIST, Param("start_index", "number"), Param("end_index", "number")),
    define("zipmap", _zipmap, Param("keys", "list_string"), Param("values")),
)
