"""Document symbols (job → groups → tasks → devices, with the other blocks under them),
go to definition and find references for variables and locals."""

from __future__ import annotations

from lsprotocol import types

from hclgpu.lsp.analysis import Analysis
from hclgpu.lsp.syntax import contains, declarations, references
from hclgpu.syntax import ast

_KINDS = {
    "job": types.SymbolKind.Module,
    "group": types.SymbolKind.Namespace,
    "task": types.SymbolKind.Class,
    "device": types.SymbolKind.Struct,
    "variable": types.SymbolKind.Variable,
    "locals": types.SymbolKind.Namespace,
    "service": types.SymbolKind.Interface,
    "network": types.SymbolKind.Package,
}
_OUTLINE = frozenset(
    {"job", "group", "task", "resources", "device", "service", "network", "variable", "locals"}
)


def symbols(analysis: Analysis) -> list[types.DocumentSymbol]:
    tree = analysis.result.tree
    return [] if tree is None else _symbols(analysis, tree.body)


def _symbols(analysis: Analysis, body: ast.Body) -> list[types.DocumentSymbol]:
    out = []
    for block in body.blocks():
        inner = _symbols(analysis, block.body)
        if block.type not in _OUTLINE:
            out += inner
            continue
        label = block.labels[0].value if block.labels else ""
        selection = block.labels[0].span if block.labels else block.type_span
        out.append(
            types.DocumentSymbol(
                name=label or block.type,
                detail=block.type,
                kind=_KINDS.get(block.type, types.SymbolKind.Object),
                range=analysis.index.range(block.span),
                selection_range=analysis.index.range(selection),
                children=inner or None,
            )
        )
    return out


def definition(analysis: Analysis, position: types.Position) -> list[types.Location]:
    found = _reference_at(analysis, position)
    tree = analysis.result.tree
    if found is None or tree is None:
        return []
    span = declarations(tree).get(found)
    return [] if span is None else [types.Location(uri=analysis.uri, range=analysis.index.range(span))]


def find_references(analysis: Analysis, position: types.Position, declaration: bool) -> list[types.Location]:
    found = _reference_at(analysis, position)
    tree = analysis.result.tree
    if found is None or tree is None:
        return []
    spans = [r.span for r in references(tree) if (r.kind, r.name) == found]
    declared = declarations(tree).get(found)
    if declaration and declared is not None:
        spans.insert(0, declared)
    return [types.Location(uri=analysis.uri, range=analysis.index.range(span)) for span in spans]


def _reference_at(analysis: Analysis, position: types.Position) -> tuple[str, str] | None:
    """The variable or local at the cursor: a `var.x` / `local.y` or its declaration."""
    tree = analysis.result.tree
    if tree is None:
        return None
    offset = analysis.index.offset(position)
    for reference in references(tree):
        if contains(reference.span, offset):
            return reference.kind, reference.name
    for key, span in declarations(tree).items():
        if contains(span, offset):
            return key
    return None
