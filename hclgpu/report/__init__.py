"""Renderers for diagnostics: text (rich), json, sarif and github annotations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from hclgpu.diagnostics import Diagnostic

FORMATS = ("text", "json", "sarif", "github")


def write_report(
    format: str,
    diagnostics: Sequence[Diagnostic],
    files: int,
    stream: TextIO,
    *,
    color: str = "auto",
    summary: bool = True,
) -> None:
    """Write ``diagnostics`` in ``format``; only the text renderer imports rich. Without
    ``summary``, text output has no closing count line."""
    if format == "json":
        from hclgpu.report.json import render_json

        stream.write(render_json(diagnostics, files))
    elif format == "sarif":
        from hclgpu.report.sarif import render_sarif

        stream.write(render_sarif(diagnostics))
    elif format == "github":
        from hclgpu.report.github import render_github

        stream.write(render_github(diagnostics))
    else:
        from hclgpu.report.text import render_text

        render_text(diagnostics, files, stream, color=color, summary=summary)
