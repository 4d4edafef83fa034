"""Nomad API JSON, byte for byte what ``nomad job run -output`` prints.

The IR models mirror Nomad's ``api`` structs field for field, so lowering is a plain
walk: Go field names in declaration order, ``null`` for unset pointers, fields with a
json ``omitempty`` tag dropped when empty. The text is Go's ``json.MarshalIndent``
with a four-space indent and Go's HTML-safe escaping of ``<``, ``>`` and ``&``.
"""

from __future__ import annotations

import json
from typing import Any

from hclgpu.ir.base import Node
from hclgpu.ir.schema import schema_of


def to_api(node: Node) -> dict[str, Any]:
    """A model as the API's JSON object."""
    schema = schema_of(type(node))
    out: dict[str, Any] = {}
    values = node.__dict__
    for name, info in type(node).model_fields.items():
        if name == "span":
            continue
        alias = info.alias or name
        value = _lower(values.get(name))
        if alias in schema.omit_empty and _empty(value):
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
    text = json.dumps({"Job": to_api(job)}, indent=4, ensure_ascii=False)
    return go_escape(text) + "\n"


def go_escape(text: str) -> str:
    """Go's encoder escapes these for safe embedding in HTML; so must we, to match it."""
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )
