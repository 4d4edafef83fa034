"""Attributes set twice in one body: HCL rejects them while parsing ("Attribute redefined").

Checked on the syntax tree rather than while decoding so that every body is covered —
schemaless ones (task `config`, `env`, `meta`), `dynamic` blocks, validation rules and
var files alike — exactly once.
"""

from __future__ import annotations

from hclgpu.codes.evaluation import HG109
from hclgpu.diagnostics import Related, Sink
from hclgpu.source import SourceFile
from hclgpu.syntax import ast


def check_redefined(tree: ast.File, source: SourceFile, sink: Sink) -> None:
    """Report every attribute whose name an earlier attribute of the same body already set
    (the blocks the parse saw set nothing twice, :attr:`~hclgpu.syntax.ast.File.whole_blocks`,
    are not looked in)."""
    whole = tree.whole_blocks
    stack = [tree.body]
    while stack:
        body = stack.pop()
        first: dict[str, ast.Attribute] = {}
        for item in body.items:
            if isinstance(item, ast.Block):
                if id(item) not in whole:
                    stack.append(item.body)
            elif item.name in first:
                sink.emit(
                    HG109,
                    f"the argument `{item.name}` is set more than once in this block",
                    source,
                    item.name_span,
                    related=[Related(first[item.name].name_span, "first set here")],
                )
            else:
                first[item.name] = item
