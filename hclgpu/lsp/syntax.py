"""Finding things in the syntax tree: the blocks around an offset, the model each block
decodes to, the attribute or expression under the cursor, and every `var.x` / `local.y`
reference and declaration (for definitions and references)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from hclgpu.ir import models as m
from hclgpu.ir.base import Node
from hclgpu.ir.schema import schema_of
from hclgpu.source import Span
from hclgpu.syntax import ast

ROOT_BLOCKS = {"job": m.Job}


def contains(span: Span, offset: int) -> bool:
    return span.start <= offset <= span.end


def blocks_at(tree: ast.File, offset: int) -> list[ast.Block]:
    """The blocks whose braces hold ``offset``, outermost first."""
    chain: list[ast.Block] = []
    body: ast.Body | None = tree.body
    while body is not None:
        inner = next((b for b in body.blocks() if contains(b.span, offset)), None)
        if inner is None:
            break
        chain.append(inner)
        body = inner.body
    return chain


def block_types(chain: list[ast.Block]) -> list[str]:
    """The block types as the schema sees them: `dynamic "x"` is an `x`, its `content` too."""
    out: list[str] = []
    for block in chain:
        if block.type == "dynamic" and block.labels:
            out.append(block.labels[0].value)
        elif block.type == "content" and out and chain[len(out) - 1].type == "dynamic":
            continue
        else:
            out.append(block.type)
    return out


def model_for(types: list[str]) -> type[Node] | None:
    """The IR model a block at this path decodes to (None: not a schema'd block)."""
    if not types or types[0] not in ROOT_BLOCKS:
        return None
    model: type[Node] | None = ROOT_BLOCKS[types[0]]
    for name in types[1:]:
        spec = schema_of(model).blocks.get(name) if model is not None else None
        model = spec.model if spec is not None else None
        if model is None:
            return None
    return model


def attribute_at(block_body: ast.Body, offset: int) -> ast.Attribute | None:
    return next((a for a in block_body.attributes() if contains(a.span, offset)), None)


def children(node: object) -> Iterator[object]:
    """The syntax nodes directly inside ``node``."""
    if not isinstance(node, ast.Syntax):
        return
    for name in ast.fields_of(node):
        value = getattr(node, name)
        if isinstance(value, list):
            yield from (v for v in value if isinstance(v, ast.Syntax))
        elif isinstance(value, ast.Syntax):
            yield value


def innermost(node: object, offset: int) -> list[object]:
    """The chain of nodes with a span holding ``offset``, outermost first."""
    chain: list[object] = []
    current: object | None = node
    while current is not None:
        chain.append(current)
        current = next((c for c in children(current) if _holds(c, offset)), None)
    return chain


def _holds(node: object, offset: int) -> bool:
    span = getattr(node, "span", None)
    return isinstance(span, Span) and contains(span, offset)


@dataclass(frozen=True, slots=True)
class Reference:
    """``var.name`` or ``local.name`` written somewhere: ``span`` covers the two words."""

    kind: str
    name: str
    span: Span


def references(tree: ast.File) -> list[Reference]:
    out: list[Reference] = []
    stack: list[object] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Traversal) and isinstance(node.source, ast.Variable):
            root = node.source.name
            first = node.steps[0] if node.steps else None
            if root in ("var", "local") and isinstance(first, ast.GetAttr):
                out.append(Reference(root, first.name, Span(node.source.span.start, first.span.end)))
        stack.extend(children(node))
    out.sort(key=lambda r: r.span.start)
    return out


def declarations(tree: ast.File) -> dict[tuple[str, str], Span]:
    """Where each variable and local is declared (a `variable` label, a `variables` or
    `locals` attribute name)."""
    out: dict[tuple[str, str], Span] = {}
    for block in tree.body.blocks():
        if block.type == "variable" and block.labels:
            out.setdefault(("var", block.labels[0].value), block.labels[0].span)
        elif block.type in ("variables", "locals"):
            kind = "var" if block.type == "variables" else "local"
            for attribute in block.body.attributes():
                out.setdefault((kind, attribute.name), attribute.name_span)
    return out
