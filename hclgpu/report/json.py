"""``--format json``: the stable, versioned report described in DESIGN.md."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hclgpu.codes import Severity
from hclgpu.diagnostics import Diagnostic
from hclgpu.report.location import diagnostic_region, region
from hclgpu.source import Span

VERSION = 1


def diagnostic_json(diagnostic: Diagnostic) -> dict[str, Any]:
    data: dict[str, Any] = {
        "path": diagnostic.path,
        "code": diagnostic.code,
        "name": diagnostic.name,
        "check": diagnostic.check_name,
        "severity": str(diagnostic.severity),
        "message": diagnostic.message,
        "help": diagnostic.help,
    }
    where = diagnostic_region(diagnostic)
    if where is not None:
        data.update(where.as_dict())
    if diagnostic.related:
        data["related"] = [
            {"message": related.message, **_region_dict(diagnostic, related.span)}
            for related in diagnostic.related
        ]
    if diagnostic.fix:
        data["fix"] = {
            "applicability": "safe" if diagnostic.fix_safe else "unsafe",
            "edits": [{"content": e.text, **_region_dict(diagnostic, e.span)} for e in diagnostic.fix],
        }
    return data


def _region_dict(diagnostic: Diagnostic, span: Span) -> dict[str, int]:
    where = region(diagnostic.source, span)
    return where.as_dict() if where is not None else {}


def render_json(diagnostics: Sequence[Diagnostic], files: int) -> str:
    summary = {
        "files": files,
        "errors": sum(d.severity is Severity.ERROR for d in diagnostics),
        "warnings": sum(d.severity is Severity.WARNING for d in diagnostics),
        "infos": sum(d.severity is Severity.INFO for d in diagnostics),
    }
    report = {
        "version": VERSION,
        "summary": summary,
        "diagnostics": [diagnostic_json(d) for d in diagnostics],
    }
    return json.dumps(report, ensure_ascii=False, indent=2) + "\n"
