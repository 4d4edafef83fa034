"""The variables an expression refers to (`var.x`, `local.y`, bare names), found without evaluating it.

Locals are evaluated in dependency order and validation conditions may refer only to
their own variable; both need the references of an expression before any value exists.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hclgpu.source import Span
from hclgpu.syntax import ast


def references(expr: Any) -> Iterable[tuple[str, str | None, Span]]:
    """Every ``root.attr`` reference in an expression tree (roots other than for-variables included)."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Traversal) and isinstance(node.source, ast.Variable):
            first = node.steps[0] if node.steps else None
            attr = first.name if isinstance(first, ast.GetAttr) else None
            yield node.source.name, attr, node.span
            stack.extend(step.key for step in node.steps if isinstance(step, ast.Index))
            continue
        if isinstance(node, ast.Variable):
            yield node.name, None, node.span
            continue
        stack.extend(_children(node))


def _children(node: Any) -> list[Any]:
    if isinstance(node, ast.Template):
        out: list[Any] = []
        for part in node.parts:
            out.extend(_template_children(part))
        return out
    children: list[Any] = []
    for name in getattr(node, "__slots__", ()):
        if name == "span":
            continue
        child = getattr(node, name)
        if isinstance(child, list):
            children.extend(c for c in child if hasattr(c, "span"))
        elif hasattr(child, "span") and not isinstance(child, Span):
            children.append(child)
    return children


def _template_children(part: Any) -> list[Any]:
    if isinstance(part, ast.Interpolation):
        return [part.expr]
    if isinstance(part, ast.TemplateIf):
        inner = [part.condition]
        for p in [*part.then, *(part.otherwise or [])]:
            inner.extend(_template_children(p))
        return inner
    if isinstance(part, ast.TemplateFor):
        inner = [part.collection]
        for p in part.body:
            inner.extend(_template_children(p))
        return inner
    return []
