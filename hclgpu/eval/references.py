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
    """Every ``root.attr`` (or ``root["attr"]``) reference in an expression tree.

    Names bound by a `for` expression or directive are not references inside it, as in
    HCL's ``Variables()``. The walk uses an explicit stack, so deep expressions are safe.
    """
    stack: list[tuple[Any, frozenset[str]]] = [(expr, frozenset())]
    while stack:
        node, bound = stack.pop()
        if isinstance(node, ast.Traversal) and isinstance(node.source, ast.Variable):
            if node.source.name not in bound:
                yield node.source.name, _first_name(node.steps), node.span
            stack.extend((step.key, bound) for step in node.steps if isinstance(step, ast.Index))
        elif isinstance(node, ast.Variable):
            if node.name not in bound:
                yield node.name, None, node.span
        elif isinstance(node, (ast.ForExpr, ast.TemplateFor)):
            names = bound | {n for n in (node.key_var, node.value_var) if n}
            stack.append((node.collection, bound))
            stack.extend((child, names) for child in _children(node) if child is not node.collection)
        else:
            stack.extend((child, bound) for child in _children(node))


def _first_name(steps: list[ast.Step]) -> str | None:
    """The attribute a traversal starts with: `.name`, or `["name"]` with a literal string."""
    first = steps[0] if steps else None
    if isinstance(first, ast.GetAttr):
        return first.name
    if (
        isinstance(first, ast.Index)
        and isinstance(first.key, ast.Literal)
        and isinstance(first.key.value, str)
    ):
        return first.key.value
    return None


def _children(node: Any) -> list[Any]:
    if isinstance(node, ast.Template):
        return list(node.parts)
    if isinstance(node, ast.Interpolation):
        return [node.expr]
    if isinstance(node, ast.TemplateIf):
        return [node.condition, *node.then, *(node.otherwise or [])]
    if isinstance(node, ast.TemplateFor):
        return [node.collection, *node.body]
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
