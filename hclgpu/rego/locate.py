"""From a path into the job's API JSON back to the HCL that produced it.

A policy names what it objects to with a path, ``["Job", "TaskGroups", 0, "Tasks", 1,
"Resources", "Devices", 0]`` (a list, or a JSON pointer ``/Job/TaskGroups/0``; the leading
``Job`` may be left out). The path is walked through the IR job, whose models mirror the API
structs field for field: every model on the way that came from a block keeps that block's
span, so the deepest one is where the finding belongs. What the path names below it (an
attribute, a key of `config` or `meta`) is then looked up in that block's syntax: the value
of the attribute that set it, or the nested block. A value the file never wrote (a default)
is blamed on the block that left it to the default, as the other rules do. A path that names
nothing in the document falls back to the job block, with a note.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from hclgpu.checks.context import Context
from hclgpu.ir.base import Node
from hclgpu.ir.schema import schema_of
from hclgpu.source import Span
from hclgpu.syntax import ast

Step = str | int


@dataclass(frozen=True, slots=True)
class Located:
    span: Span | None
    note: str | None = None
    """Why the finding is not where its path points."""


def steps_of(path: Any) -> list[Step] | None:
    """The path as steps: a list of keys and indexes, or a JSON pointer (RFC 6901); None
    when it is neither."""
    if isinstance(path, str):
        if path in ("", "/"):
            return []
        if not path.startswith("/"):
            return None
        parts = [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]
        return [int(p) if p.isdigit() else p for p in parts]
    if isinstance(path, list) and all(isinstance(p, (str, int)) and not isinstance(p, bool) for p in path):
        return list(path)
    return None


def locate(ctx: Context, path: Any) -> Located:
    """Where in the file the node at ``path`` of the API JSON comes from."""
    steps = steps_of(path)
    job_header = ctx.header_span(ctx.job)
    if steps is None:
        return Located(job_header, f"the path {_show(path)} is not a list of keys or a JSON pointer")
    if steps[:1] == ["Job"]:
        steps = steps[1:]
    elif steps[:1] == ["file"]:
        return Located(job_header)
    walked = _walk(ctx.job, steps)
    if walked is None:
        return Located(job_header, f"the path {_show(path)} names nothing in the job's API JSON")
    node, rest = walked
    return Located(_in_block(ctx, node, rest) or job_header)


def _walk(job: Node, steps: list[Step]) -> tuple[Node, list[Step]] | None:
    """The deepest model with a span on the path, and the steps left below it; None when a
    step does not exist in the document."""
    value: Any = job
    deepest: tuple[Node, list[Step]] = (job, steps)
    for position, step in enumerate(steps):
        if isinstance(value, Node):
            name = _python_names(type(value)).get(step) if isinstance(step, str) else None
            if name is None:
                return None
            value = value.__dict__.get(name)
        elif isinstance(value, list):
            index = int(step) if isinstance(step, str) and step.isdigit() else step
            if not isinstance(index, int) or not 0 <= index < len(value):
                return None
            value = value[index]
        elif isinstance(value, dict):
            key = str(step)
            if key not in value:
                return None
            value = value[key]
        else:
            return None
        if isinstance(value, Node) and value.span is not None:
            deepest = (value, steps[position + 1 :])
    return deepest


@cache
def _python_names(model: type[Node]) -> dict[str, str]:
    """Go field name → Python field name (the API document's keys are the Go names)."""
    return {info.alias or name: name for name, info in model.model_fields.items() if name != "span"}


@cache
def _hcl_names(model: type[Node]) -> dict[str, tuple[str, str]]:
    """Go field name → (kind, HCL name): what in a block sets the field."""
    schema = schema_of(model)
    names = {spec.alias: ("attr", hcl) for hcl, spec in schema.attributes.items()}
    names.update({spec.alias: ("block", hcl) for hcl, spec in schema.blocks.items()})
    names.update({spec.alias: ("label", str(index)) for index, spec in enumerate(schema.labels)})
    return names


def _in_block(ctx: Context, node: Node, rest: list[Step]) -> Span | None:
    """The narrowest span the file has for ``rest`` below ``node``'s block."""
    block = ctx.block_of(node)
    if block is None or not rest:
        return ctx.header_span(node)
    step = rest[0]
    kind, name = _hcl_names(type(node)).get(step, ("", "")) if isinstance(step, str) else ("", "")
    if kind == "label":
        index = int(name)
        return block.labels[index].span if index < len(block.labels) else ctx.header_span(node)
    if not name:
        return ctx.header_span(node)
    return _below(block, name, rest[1:]) or ctx.header_span(node)


def _below(block: ast.Block, name: str, rest: list[Step]) -> Span | None:
    """``name`` in ``block`` (an attribute's value, or a nested block), then the keys of
    ``rest`` inside it, as far as the syntax goes."""
    attribute = next((a for a in block.body.attributes() if a.name == name), None)
    if attribute is not None:
        return attribute.value.span
    blocks = block.body.blocks(name)
    if not blocks:
        return None
    inner = blocks[0]
    if rest and isinstance(rest[0], int):
        if rest[0] < len(blocks):
            inner = blocks[rest[0]]
        rest = rest[1:]
    header = Span(inner.type_span.start, inner.labels[-1].span.end if inner.labels else inner.type_span.end)
    if rest and isinstance(rest[0], str):
        return _below(inner, rest[0], rest[1:]) or header
    return header


def _show(path: Any) -> str:
    import json

    try:
        return f"`{json.dumps(path)}`"
    except (TypeError, ValueError):
        return f"`{path!r}`"
