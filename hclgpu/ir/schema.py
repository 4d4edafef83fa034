"""What HCL may write inside each model's block, read once from the models' field metadata.

gohcl derives a body schema from a Go struct's ``hcl`` tags; :func:`schema_of` does the
same from the :class:`~hclgpu.ir.base.Hcl` markers and caches it per model. Value
conversion (:func:`convert_value`) is gocty's: from an evaluated HCL value to the Go
type of the field, with its range and type errors.
"""

from __future__ import annotations

import math
import types
import typing
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from hclgpu.eval.dynamic import normalise
from hclgpu.eval.values import EvalError, Value, to_bool, to_number, to_string, type_name
from hclgpu.ir.base import Hcl, Node, OmitEmpty
from hclgpu.numbers import BigFloat
from hclgpu.numbers import exact as exact_fraction

if TYPE_CHECKING:
    from fractions import Fraction

_INT_RANGES = {
    "int8": (-(2**7), 2**7 - 1),
    "uint8": (0, 2**8 - 1),
    "uint16": (0, 2**16 - 1),
    "uint64": (0, 2**64 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "int": (-(2**63), 2**63 - 1),
    "duration": (-(2**63), 2**63 - 1),
}


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One settable field: its Python name, HCL marker and the Python type it holds."""

    name: str
    alias: str
    hcl: Hcl
    annotation: Any
    model: type[Node] | None
    """The nested model for a block field, else None."""
    container: str | None
    """``list`` or ``dict`` for repeated blocks, None for a singleton."""
    plain_text: bool = False
    """A string field without Go conversion: a string value is stored as it is."""


@dataclass(slots=True)
class Schema:
    attributes: dict[str, FieldSpec] = field(default_factory=dict)
    blocks: dict[str, FieldSpec] = field(default_factory=dict)
    labels: list[FieldSpec] = field(default_factory=list)
    omit_empty: frozenset[str] = frozenset()
    """Go field names (aliases) with a json ``omitempty`` tag."""
    owner: str = ""
    """The model's name (``Job``, ``Service``...), which :data:`REMOVED` is keyed by."""
    required: tuple[str, ...] = ()
    """The HCL names of the attributes that must be set, in schema order."""


REMOVED: dict[tuple[str, str], tuple[str, str]] = {
    # api/services.go, hashicorp/nomad 890d4a91b7 (first in v1.3.0)
    ("Service", "id"): ("1.3", "delete it: Nomad names each service registration itself"),
    ("ServiceCheck", "id"): ("1.3", "delete it: Nomad names each check itself"),
    # api/jobs.go, hashicorp/nomad 7268053174 and 5c4d0e923d (first in v1.10.0)
    ("Job", "vault_token"): (
        "1.10",
        "delete it: the token-based Vault workflow is gone; tasks get Vault tokens through their "
        "workload identity (`vault { role = ... }`)",
    ),
    ("Job", "consul_token"): (
        "1.10",
        "delete it: the token-based Consul workflow is gone; tasks and services authenticate to "
        "Consul with their workload identity",
    ),
}
"""Arguments Nomad's job specification once had and no longer has, by (model, name): the
release that removed each, and what to do. Found by comparing the ``hcl`` tags of every
``api`` struct across Nomad's release tags from v1.0.0 to v2.0."""


_STRING_TYPES = frozenset({str, str | None})


@cache
def schema_of(model: type[Node]) -> Schema:
    schema = Schema(owner=model.__name__)
    omit: set[str] = set()
    for name, info in model.model_fields.items():
        marker = next((m for m in info.metadata if isinstance(m, Hcl)), None)
        alias = info.alias or name
        if any(isinstance(m, OmitEmpty) for m in info.metadata) or (marker and marker.omitempty):
            omit.add(alias)
        if marker is None:
            continue
        inner, container = _unwrap(info.annotation)
        nested = inner if isinstance(inner, type) and issubclass(inner, Node) else None
        if nested is None:
            container = None  # a map written as one block (`meta { }`, `config { }`)
        plain = marker.go == "" and info.annotation in _STRING_TYPES
        spec = FieldSpec(name, alias, marker, info.annotation, nested, container, plain)
        if marker.kind == "label":
            schema.labels.append(spec)
        elif marker.kind == "block":
            schema.blocks[marker.name] = spec
        elif marker.kind == "attr":
            schema.attributes[marker.name] = spec
    schema.omit_empty = frozenset(omit)
    schema.required = tuple(name for name, spec in schema.attributes.items() if spec.hcl.required)
    return schema


@cache
def _nullable(annotation: Any) -> bool:
    """A Go pointer, slice or map field (``X | None``) may be null; a plain value may not."""
    return typing.get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in typing.get_args(
        annotation
    )


@cache
def _strip_none(annotation: Any) -> Any:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def map_value_type(annotation: Any) -> Any:
    """The value type of a ``dict[str, X] | None`` annotation (Any when not a dict)."""
    base = _strip_none(annotation)
    return typing.get_args(base)[1] if typing.get_origin(base) is dict else Any


def _unwrap(annotation: Any) -> tuple[Any, str | None]:
    """The element type and container kind of a block field's annotation."""
    base = _strip_none(annotation)
    origin = typing.get_origin(base)
    if origin is list:
        return typing.get_args(base)[0], "list"
    if origin is dict:
        return typing.get_args(base)[1], "dict"
    return base, None


def convert_value(value: Value, annotation: Any, go: str = "") -> Value:
    """Convert an evaluated value to a field's Python type, as gocty converts to Go types."""
    if go == "any":
        return normalise(value)
    if value is None:
        if go == "duration":
            raise EvalError("expected a duration string or number, but found null")
        if not _nullable(annotation):
            raise EvalError("null value is not allowed")
        return None
    if isinstance(value, str) and go == "" and annotation in _STRING_TYPES:
        return value  # the common case, kept cheap
    base = _strip_none(annotation)
    if type(value) is int and base is int and go != "duration":  # the next most common
        low, high = _INT_RANGES.get(go or "int", _INT_RANGES["int"])
        if low <= value <= high:
            return value
    origin = typing.get_origin(base)
    if origin is list:
        (element,) = typing.get_args(base)
        if not isinstance(value, list):
            raise EvalError(f"{_describe(base)} required, but have {type_name(value)}")
        return [_element(item, element, go) for item in value]
    if origin is dict:
        _, element = typing.get_args(base)
        if not isinstance(value, dict):
            raise EvalError(f"{_describe(base)} required, but have {type_name(value)}")
        return {key: _element(value[key], element, go) for key in sorted(value)}
    return _scalar(value, base, go)


def _element(value: Value, annotation: Any, go: str) -> Value:
    if value is None:
        raise EvalError("element must not be null")
    return convert_value(value, annotation, go)


def _scalar(value: Value, base: Any, go: str) -> Value:
    if isinstance(value, (list, dict)) and base is not Any:
        raise EvalError(f"{_describe(base)} required, but have {type_name(value)}")
    if base is str:
        return to_string(value)
    if base is bool:
        return to_bool(value)
    if go == "duration":
        return duration(value)
    if base is int:
        return _whole(value, go or "int")
    if base is float:
        return to_number(value)
    if base is Any:
        return normalise(value)
    raise EvalError(f"{_describe(base)} cannot be written as a value")


def _whole(value: Value, go: str) -> int:
    """An integer field, as gocty converts a cty number (zclconf/go-cty cty/gocty/out.go:146,
    :177): ``big.Float.Int64`` must be exact, so `count = 1.5` is refused. An unsigned field
    goes through ``big.Float.Uint64``, which Go reports exact for any value of at least 1
    whose mantissa needs at most 64 bits (math/big float.go: ``x.MinPrec() <= 64``): a device
    `count = 1.5` is taken as 1, `count = 1.1` (no short binary form) and `0.5` are refused."""
    number = to_number(value)
    low, high = _INT_RANGES.get(go, _INT_RANGES["int"])
    refused = EvalError(f"value must be a whole number, between {low} and {high} inclusive")
    if isinstance(number, float) and not math.isfinite(number) and not isinstance(number, BigFloat):
        raise refused
    exact = exact_fraction(number)
    whole = int(exact)  # toward zero
    if exact != whole and not (low == 0 and exact >= 1 and _significant_bits(exact) <= 64):
        raise refused
    if not low <= whole <= high:
        raise refused
    return whole


def _significant_bits(value: Fraction) -> int:
    """``big.Float.MinPrec``: the bits of the binary mantissa, past 64 for a value that has no
    short binary form (a denominator that is not a power of two)."""
    numerator, denominator = abs(value.numerator), value.denominator
    if denominator & (denominator - 1):
        return 65
    return (numerator >> ((numerator & -numerator).bit_length() - 1)).bit_length()


def _describe(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    if origin is list:
        return f"list of {_describe(typing.get_args(annotation)[0])}"
    if origin is dict:
        return f"map of {_describe(typing.get_args(annotation)[1])}"
    names = {str: "string", int: "number", float: "number", bool: "bool"}
    if annotation in names:
        return names[annotation]
    return "object" if isinstance(annotation, type) and issubclass(annotation, Node) else "value"


# ---- durations ----------------------------------------------------------------------

_UNITS = {
    "ns": 1,
    "us": 1_000,
    "µs": 1_000,
    "μs": 1_000,
    "ms": 1_000_000,
    "s": 1_000_000_000,
    "m": 60_000_000_000,
    "h": 3_600_000_000_000,
}


def duration(value: Value) -> int:
    """A duration field: a Go duration string (``"1h30m"``) or a number of nanoseconds."""
    if isinstance(value, str):
        return parse_go_duration(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise EvalError(f"expected a string but found {type_name(value)}")
    return _whole(value, "duration")


def parse_go_duration(text: str) -> int:
    """``time.ParseDuration``: a sequence of decimal numbers with units, optional sign."""
    original = text
    sign = 1
    if text[:1] in "+-" and text:
        sign = -1 if text[0] == "-" else 1
        text = text[1:]
    if text == "0":
        return 0
    if not text:
        raise EvalError(f'time: invalid duration "{original}"')
    total: int | float = 0
    while text:
        i = 0
        while i < len(text) and (text[i].isdigit() or text[i] == "."):
            i += 1
        digits, text = text[:i], text[i:]
        if not digits or digits == "." or digits.count(".") > 1:
            raise EvalError(f'time: invalid duration "{original}"')
        j = 0
        while j < len(text) and not (text[j].isdigit() or text[j] == "."):
            j += 1
        unit, text = text[:j], text[j:]
        if not unit:
            raise EvalError(f'time: missing unit in duration "{original}"')
        if unit not in _UNITS:
            raise EvalError(f'time: unknown unit "{unit}" in duration "{original}"')
        total += float(digits) * _UNITS[unit] if "." in digits else int(digits) * _UNITS[unit]
    result = int(total) * sign
    if abs(result) > 2**63 - 1:
        raise EvalError(f'time: invalid duration "{original}"')
    return result


@cache
@cache
def labelled_blocks(model: type[Node]) -> frozenset[str]:
    """The block types of ``model``'s body that take labels (a `dynamic` block of one must
    say its `labels`)."""
    schema = schema_of(model)
    return frozenset(
        name
        for name, spec in schema.blocks.items()
        if spec.model is not None and schema_of(spec.model).labels
    )
