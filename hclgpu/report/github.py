"""``--format github``: GitHub Actions workflow-command annotations.

Escaping follows @actions/core: the message escapes ``%``, CR and LF; property
values also escape ``:`` and ``,``.
"""

from __future__ import annotations

from collections.abc import Sequence

from hclgpu.codes import Severity
from hclgpu.diagnostics import Diagnostic
from hclgpu.report.location import diagnostic_region

_COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(diagnostic: Diagnostic) -> str:
    properties = [f"file={escape_property(diagnostic.path)}"]
    where = diagnostic_region(diagnostic)
    if where is not None:
        properties.append(f"line={where.line}")
        properties.append(f"endLine={where.end_line}")
        if where.line == where.end_line:
            properties.append(f"col={where.column}")
            properties.append(f"endColumn={where.end_column}")
    title = f"hclgpu ({diagnostic.code} {diagnostic.check_name})"
    properties.append(f"title={escape_property(title)}")
    message = diagnostic.message + (f"\n  help: {diagnostic.help}" if diagnostic.help else "")
    return f"::{_COMMANDS[diagnostic.severity]} {','.join(properties)}::{escape_data(message)}"


def render_github(diagnostics: Sequence[Diagnostic]) -> str:
    return "".join(annotation(d) + "\n" for d in diagnostics)
