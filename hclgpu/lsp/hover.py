"""Hover: a diagnostic's code and meaning, the documentation of the block or argument under
the cursor, a unit value restated ("16130 MiB = 15.75 GiB"), and the value of `var.x` or
`local.y` as this file evaluates it."""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from hclgpu.lsp.analysis import Analysis
from hclgpu.lsp.docs import describe_attribute, describe_block
from hclgpu.lsp.syntax import attribute_at, block_types, blocks_at, contains, innermost, model_for
from hclgpu.syntax import ast


def hover(analysis: Analysis, position: types.Position) -> types.Hover | None:
    offset = analysis.index.offset(position)
    parts = [p for p in (_diagnostics(analysis, offset), _syntax(analysis, offset)) if p]
    if not parts:
        return None
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts))
    )


def _diagnostics(analysis: Analysis, offset: int) -> str | None:
    from hclgpu.codes import CODES

    found = []
    for d in analysis.diagnostics:
        if d.span is not None and contains(d.span, offset) and d.code in CODES:
            code = CODES[d.code]
            first = code.doc.strip().split("\n\n")[0]
            found.append(f"**{d.code}** `{code.name}` ({d.severity}): {code.summary}\n\n{first}")
    return "\n\n".join(found) or None


def _syntax(analysis: Analysis, offset: int) -> str | None:
    tree = analysis.result.tree
    if tree is None:
        return None
    chain = blocks_at(tree, offset)
    kinds = block_types(chain)
    if chain and contains(chain[-1].type_span, offset):
        return describe_block(model_for(kinds), kinds[-1])
    body = chain[-1].body if chain else tree.body
    attribute = attribute_at(body, offset)
    if attribute is None:
        return None
    if contains(attribute.name_span, offset):
        return describe_attribute(model_for(kinds), attribute.name)
    return _expression(analysis, attribute.value, offset)


def _expression(analysis: Analysis, expr: ast.Expr, offset: int) -> str | None:
    for node in reversed(innermost(expr, offset)):
        if isinstance(node, ast.Traversal) and isinstance(node.source, ast.Variable):
            text = _reference_value(analysis, node)
            if text is not None:
                return text
        if isinstance(node, ast.Literal) and isinstance(node.value, str):
            return unit_text(node.value)
        if isinstance(node, ast.TemplateText):
            return unit_text(node.text)
    return None


def _reference_value(analysis: Analysis, node: ast.Traversal) -> str | None:
    root = node.source.name if isinstance(node.source, ast.Variable) else ""
    first = node.steps[0] if node.steps else None
    scope = analysis.result.scope or {}
    if root not in ("var", "local") or not isinstance(first, ast.GetAttr):
        return None
    values = scope.get(root)
    if not isinstance(values, dict) or first.name not in values:
        return f"`{root}.{first.name}` has no value here"
    return f"`{root}.{first.name}` = `{_value_text(values[first.name])}`"


def _value_text(value: Any) -> str:
    from hclgpu.eval.functions.base import ResultTooLarge, check_result
    from hclgpu.importers.hcl_writer import expression

    try:
        check_result(value)  # a value of shared parts can stand for billions of elements
    except ResultTooLarge:
        return "(a value too large to show)"
    try:
        text = expression(value, 0)
    except TypeError:
        text = repr(value)
    return text if len(text) < 400 else text[:400] + "…"


def unit_text(text: str) -> str | None:
    """A value with a unit restated: ``16130 MiB = 15.75 GiB``; bytes also in MiB, as Nomad
    compares device memory in whole MiB."""
    from hclgpu.units import describe, in_base_units, parse_attribute

    attribute = parse_attribute(text)
    if attribute.unit is None:
        return None
    described = describe(attribute)
    head, _, alternative = described.partition(" (")
    lines = [f"`{text.strip()}` = {alternative.rstrip(')')}" if alternative else f"`{head}`"]
    base = in_base_units(attribute)
    if attribute.unit.base == "byte" and base is not None:
        lines.append(f"= {float(base) / 2**20:g} MiB = {int(base)} bytes")
    return " ".join(lines)
