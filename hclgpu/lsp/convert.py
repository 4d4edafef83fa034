"""hclgpu diagnostics as LSP diagnostics: severity, code with its documentation link target,
help and related spans as related information, the range in UTF-16 columns."""

from __future__ import annotations

from lsprotocol import types

from hclgpu.codes import Severity
from hclgpu.diagnostics import Diagnostic
from hclgpu.lsp.analysis import Analysis
from hclgpu.source import Span

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


def lsp_diagnostics(analysis: Analysis) -> list[types.Diagnostic]:
    return [lsp_diagnostic(analysis, d) for d in analysis.diagnostics]


def lsp_diagnostic(analysis: Analysis, diagnostic: Diagnostic) -> types.Diagnostic:
    span = diagnostic.span or Span(0, 0)
    message = f"{diagnostic.message} [{diagnostic.check_name}]"
    message += f"\nhelp: {diagnostic.help}" if diagnostic.help else ""
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(uri=analysis.uri, range=analysis.index.range(item.span)),
            message=item.message,
        )
        for item in diagnostic.related
    ]
    return types.Diagnostic(
        range=analysis.index.range(span),
        message=message,
        severity=_SEVERITY.get(diagnostic.severity, types.DiagnosticSeverity.Warning),
        code=diagnostic.code,
        source="hclgpu",
        related_information=related or None,
        data={"fix": bool(diagnostic.fix), "check": diagnostic.check_name},
    )
