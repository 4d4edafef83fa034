"""The syntax tree as JSON-ready data, for ``hclgpu dump ast``.

Each node becomes an object with its class name under ``"node"``, its fields, and
its span as 1-based lines and code-point columns (end exclusive), the same
convention as diagnostics.
"""

from __future__ import annotations

from typing import Any

from hclgpu.source import SourceFile, Span
from hclgpu.syntax import ast


def span_json(source: SourceFile, span: Span) -> dict[str, int]:
    start = source.position(span.start)
    end = source.position(span.end)
    return {"line": start.line, "column": start.column, "end_line": end.line, "end_column": end.column}


def to_json(node: Any, source: SourceFile) -> Any:
    """Convert a node (or a list, or a plain value) of the syntax tree."""
    if isinstance(node, list):
        return [to_json(item, source) for item in node]
    if isinstance(node, Span):
        return span_json(source, node)
    if not isinstance(node, ast.Syntax):
        return node
    data: dict[str, Any] = {"node": type(node).__name__}
    for name in ast.fields_of(node):
        value = getattr(node, name)
        if name == "comments" and isinstance(node, ast.File):
            value = [comment.text for comment in value]
        elif isinstance(value, ast.Comment):
            value = value.text
        elif name == "leading":
            value = [comment.text for comment in value]
        data[name] = to_json(value, source)
    return data
