"""Nomad API JSON, byte for byte what ``nomad job run -output`` prints.

The IR models mirror Nomad's ``api`` structs field for field, so lowering is a plain
walk: Go field names in declaration order, ``null`` for unset pointers, fields with a
json ``omitempty`` tag dropped when empty. The text is Go's ``json.MarshalIndent``
with a four-space indent and Go's HTML-safe escaping of ``<``, ``>`` and ``&``.
"""

from __future__ import annotations

from functools import cache
from json.encoder import encode_basestring as _string
from typing import Any

from hclgpu.ir.base import Node
from hclgpu.ir.schema import schema_of


@cache
def _fields(model: type[Node]) -> tuple[tuple[str, str, bool], ...]:
    """(python name, Go name, omitempty) of each printed field, in declaration order."""
    omit = schema_of(model).omit_empty
    return tuple(
        (name, info.alias or name, (info.alias or name) in omit)
        for name, info in model.model_fields.items()
        if name != "span"
    )


def to_api(node: Node) -> dict[str, Any]:
    """A model as the API's JSON object."""
    out: dict[str, Any] = {}
    values = node.__dict__
    for name, alias, omitempty in _fields(type(node)):
        value = _lower(values.get(name))
        if omitempty and _empty(value):
            continue
        out[alias] = value
    return out


def _lower(value: Any) -> Any:
    if isinstance(value, Node):
        return to_api(value)
    if isinstance(value, list):
        return [_lower(v) for v in value]
    if isinstance(value, dict):
        return {k: _lower(v) for k, v in value.items()}
    return value


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == 0 or value is False or value == [] or value == {}


def render(job: Node) -> str:
    """The document `nomad job run -output` prints for this job, with a final newline."""
    out: list[str] = []
    _write({"Job": job}, "\n", out)
    return go_escape("".join(out)) + "\n"


_STEP = "    "


def _write(value: Any, newline: str, out: list[str]) -> None:
    """json.dumps(indent=4) without the generator machinery (several times faster for big jobs)."""
    if isinstance(value, str):
        out.append(_string(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, float):
        out.append(go_float(value))
    elif isinstance(value, Node):
        _write_node(value, newline, out)
    elif isinstance(value, dict):
        _write_object(value, newline, out)
    elif isinstance(value, list):
        _write_array(value, newline, out)
    else:
        raise TypeError(f"cannot print {type(value).__name__} as JSON")


def _write_object(value: dict[str, Any], newline: str, out: list[str]) -> None:
    if not value:
        out.append("{}")
        return
    inner = newline + _STEP
    out.append("{")
    first = True
    for key, item in value.items():
        out.append(inner if first else "," + inner)
        first = False
        out.append(_string(key))
        out.append(": ")
        _write(item, inner, out)
    out.append(newline + "}")


@cache
def _keys(model: type[Node], newline: str) -> tuple[tuple[str, str, str, str, bool], ...]:
    """Per printed field of ``model`` at the indentation ``newline``: its name, what is
    written before its value as the first field (`{`, newline, `"Name": `) and as a later
    one (`,` first), that with `null` already after it, and whether it is omitempty."""
    inner = newline + _STEP
    return tuple(
        (name, f'{{{inner}"{alias}": ', f',{inner}"{alias}": ', f',{inner}"{alias}": null', omitempty)
        for name, alias, omitempty in _fields(model)
    )


def _write_node(node: Node, newline: str, out: list[str]) -> None:
    """One model as a JSON object; scalars are written inline (the hot path for big jobs)."""
    values = node.__dict__
    first = True
    for name, opening, following, null, omitempty in _keys(type(node), newline):
        value: Any = values[name]
        if omitempty and _empty(value):
            continue
        if not first:
            if value is None:
                out.append(null)
                continue
            prefix = following
        else:
            first = False
            prefix = opening
            if value is None:
                out.append(opening + "null")
                continue
        kind: type = type(value)
        if kind is str:
            out.append(prefix + _string(value))
        elif kind is bool:
            out.append(prefix + ("true" if value else "false"))
        elif kind is int:
            out.append(prefix + str(value))
        else:
            out.append(prefix)
            _write(value, newline + _STEP, out)
    out.append("{}" if first else newline + "}")


def _write_array(value: list[Any], newline: str, out: list[str]) -> None:
    if not value:
        out.append("[]")
        return
    inner = newline + _STEP
    out.append("[")
    first = True
    mark = len(out)
    for item in value:
        out.append(inner if first else "," + inner)
        first = False
        _write(item, inner, out)
        if len(out) - mark > _CHUNK:  # join what the last items wrote: their pieces are freed
            joined = "".join(out[mark:])  # for the next ones (a 1 MB job's are 300,000 strings)
            del out[mark:]
            out.append(joined)
            mark = len(out)
    out.append(newline + "]")


_CHUNK = 8192
"""Pieces of output after which an array's items so far are joined into one string."""


def go_float(value: float) -> str:
    """A float64 as Go's encoding/json writes it: positional between 1e-6 and 1e21,
    otherwise an exponent without a leading zero (`1e-7`, `1e+21`)."""
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{value} cannot be written as JSON")
    text = repr(value)
    magnitude = abs(value)
    if magnitude == 0 or 1e-6 <= magnitude < 1e21:
        if "e" in text:
            from decimal import Decimal

            text = format(Decimal(text), "f")
        return text[:-2] if text.endswith(".0") else text
    mantissa, _, exponent = text.partition("e")
    sign, digits = exponent[0], exponent[1:].lstrip("0") or "0"
    return f"{mantissa}e{sign}{digits.zfill(2) if sign == '+' else digits}"


def go_escape(text: str) -> str:
    """Go's encoder escapes these for safe embedding in HTML; so must we, to match it."""
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )
