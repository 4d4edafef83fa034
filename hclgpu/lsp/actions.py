"""Quick fixes (the diagnostics that carry exactly one clear fix: a did-you-mean rename, the
`port_map` rewrite, a clamped weight, a target without spaces), the action that applies every
safe fix at once (`source.fixAll.hclgpu`, what `check --fix` applies in one round), and
whole-document formatting with the `fmt` printer (nothing when the file does not parse)."""

from __future__ import annotations

from lsprotocol import types

from hclgpu.codes import Severity
from hclgpu.lsp.analysis import Analysis

FIX_ALL = "source.fixAll.hclgpu"
"""The kind of the "fix all" action (an editor runs `source.fixAll` on save when asked)."""


def code_actions(
    analysis: Analysis, wanted: types.Range, only: list[str] | None = None
) -> list[types.CodeAction]:
    """The quick fixes of the findings in ``wanted``, and one action applying every safe fix
    of the document; ``only`` (the client's filter of kinds) keeps those of the kinds named."""
    actions = []
    if _asked(types.CodeActionKind.QuickFix, only):
        actions += _quick_fixes(analysis, wanted)
    if _asked(FIX_ALL, only):
        actions += _fix_all(analysis)
    return actions


def _asked(kind: str, only: list[str] | None) -> bool:
    """Whether the client's ``only`` takes ``kind`` (a kind takes its sub-kinds: `source`
    takes `source.fixAll.hclgpu`); a quick fix comes unasked, the whole-document fix does not
    (editors ask for `source.*` kinds only when they want them)."""
    if only is None:
        return kind == types.CodeActionKind.QuickFix
    return any(kind == k or kind.startswith(f"{k}.") for k in only)


def _fix_all(analysis: Analysis) -> list[types.CodeAction]:
    """Every safe fix that applies together with the others, as one action."""
    from hclgpu.diagnostics import fixes_to_apply

    chosen = fixes_to_apply(analysis.diagnostics)
    if not chosen:
        return []
    edits = [
        types.TextEdit(range=analysis.index.range(e.span), new_text=e.text) for d in chosen for e in d.fix
    ]
    return [
        types.CodeAction(
            title=f"hclgpu: fix all safe problems ({len(chosen)})",
            kind=FIX_ALL,
            edit=types.WorkspaceEdit(changes={analysis.uri: edits}),
        )
    ]


def _quick_fixes(analysis: Analysis, wanted: types.Range) -> list[types.CodeAction]:
    start, end = analysis.index.offset(wanted.start), analysis.index.offset(wanted.end)
    from hclgpu.lsp.convert import lsp_diagnostic

    actions = []
    for diagnostic in analysis.diagnostics:
        span = diagnostic.span
        if not diagnostic.fix or span is None or span.end < start or span.start > end:
            continue
        edits = [types.TextEdit(range=analysis.index.range(e.span), new_text=e.text) for e in diagnostic.fix]
        title = f"{diagnostic.code}: {diagnostic.help}" if diagnostic.help else f"fix {diagnostic.code}"
        if len(diagnostic.fix) == 1 and "\n" not in diagnostic.fix[0].text:
            title = f"{diagnostic.code}: replace with `{diagnostic.fix[0].text}`"
        actions.append(
            types.CodeAction(
                title=title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp_diagnostic(analysis, diagnostic)],
                edit=types.WorkspaceEdit(changes={analysis.uri: edits}),
                is_preferred=diagnostic.fix_safe,
            )
        )
    return actions


def formatting(analysis: Analysis) -> list[types.TextEdit] | None:
    """One edit replacing the document with its `hclgpu fmt` layout; None when the file has a
    syntax error (an editor then keeps the text as it is)."""
    from hclgpu.printer.fmt import UnsafeFormat, format_document

    result = analysis.result
    if result.tree is None or any(
        d.severity is Severity.ERROR and d.code.startswith("HG0") for d in result.diagnostics
    ):
        return None
    try:
        formatted = format_document(result.tree, analysis.text, analysis.path)
    except (UnsafeFormat, RecursionError):
        return None
    if formatted == analysis.text:
        return []
    return [types.TextEdit(range=analysis.index.whole(), new_text=formatted)]
