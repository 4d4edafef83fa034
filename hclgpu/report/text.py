"""Human-readable diagnostics in the style of ruff and rustc.

::

    job.nomad.hcl:12:19: error[HG001]: expected `=` or a block `{` after `port`, found `static`
       |
    12 |       port "http" static = 8080
       |                   ^^^^^^
       = help: write an attribute as `name = value`, a block as `name "label" { ... }`

Built from rich ``Text`` objects, never markup strings: job files and messages are
full of brackets. Colour follows rich's own detection (TTY, NO_COLOR, FORCE_COLOR,
TERM=dumb) unless ``--color`` says otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from hclgpu.codes import Severity
from hclgpu.codes.syntax import HG023
from hclgpu.diagnostics import Diagnostic
from hclgpu.report.location import Region, region
from hclgpu.source import SourceFile

_STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold cyan"}


def make_console(stream: TextIO, color: str) -> Console:
    if color == "always":
        return Console(file=stream, force_terminal=True, highlight=False, soft_wrap=True)
    if color == "never":
        return Console(file=stream, no_color=True, force_terminal=False, highlight=False, soft_wrap=True)
    return Console(file=stream, highlight=False, soft_wrap=True)


WINDOW = 120
"""Longer source lines are shown as a window of this many characters around the span."""


def _snippet(source: SourceFile, where: Region, gutter: int, style: str, label: str = "") -> list[Text]:
    """The first line of a span with carets under it (a window of it when the line is long)."""
    raw = source.line_text(where.line)
    start = where.column - 1
    end = where.end_column - 1 if where.end_line == where.line else len(raw)
    left = max(0, min(start - WINDOW // 3, len(raw) - WINDOW)) if len(raw) > WINDOW else 0
    right = min(len(raw), left + WINDOW)
    lead, tail = ("…" if left else ""), ("…" if right < len(raw) else "")
    line = (lead + raw[left:right] + tail).expandtabs(4)
    prefix = (lead + raw[left:start]).expandtabs(4)
    marked = raw[start : max(min(end, right), start + 1)]
    width = max(cell_len(marked.expandtabs(4)), 1)
    pad = " " * gutter
    carets = Text(pad + " | ", style="bold blue")
    carets.append(" " * cell_len(prefix) + "^" * width, style=style)
    if label:
        carets.append(" " + label, style=style)
    number = Text(str(where.line).rjust(gutter) + " | ", style="bold blue")
    number.append(line)
    return [number, carets]


def format_diagnostic(diagnostic: Diagnostic) -> list[Text]:
    style = _STYLES[diagnostic.severity]
    where = region(diagnostic.source, diagnostic.span)
    location = diagnostic.path + (f":{where.line}:{where.column}" if where else "")
    header = Text(location + ": ", style="bold")
    header.append(f"{diagnostic.severity}[{diagnostic.code}]", style=style)
    header.append(": " + diagnostic.message)
    lines = [header]
    if where is not None and diagnostic.source.text:
        related = [(region(diagnostic.source, r.span), r.message) for r in diagnostic.related]
        gutter = len(str(max([where.line] + [r.line for r, _ in related if r])))
        lines.append(Text(" " * gutter + " |", style="bold blue"))
        lines.extend(_snippet(diagnostic.source, where, gutter, style))
        for other, message in related:
            if other is not None and diagnostic.source.line_text(other.line).strip():
                lines.extend(_snippet(diagnostic.source, other, gutter, "bold blue", message))
            else:
                lines.append(Text(" " * gutter + " = note: " + message, style="bold blue"))
        lines.append(Text(" " * gutter + " = check: " + diagnostic.check_name, style="bold blue"))
        if diagnostic.help:
            lines.append(Text(" " * gutter + " = help: " + diagnostic.help, style="bold blue"))
    else:
        lines.append(Text("  = check: " + diagnostic.check_name, style="bold blue"))
        if diagnostic.help:
            lines.append(Text("  = help: " + diagnostic.help, style="bold blue"))
    return lines


def summary_line(diagnostics: Sequence[Diagnostic], files: int) -> str:
    errors = sum(d.severity is Severity.ERROR for d in diagnostics)
    warnings = sum(d.severity is Severity.WARNING for d in diagnostics)
    skipped = sum(d.code == HG023 for d in diagnostics)
    checked = f"{files - skipped} file{'s' if files - skipped != 1 else ''}"
    if skipped:
        checked += f", {skipped} skipped"
    if not errors and not warnings:
        return f"All checks passed ({checked})."
    parts = [f"{errors} error{'s' if errors != 1 else ''}"]
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    return f"Found {' and '.join(parts)} in {checked}."


def render_text(
    diagnostics: Sequence[Diagnostic],
    files: int,
    stream: TextIO,
    *,
    color: str = "auto",
    summary: bool = True,
) -> None:
    console = make_console(stream, color)
    for diagnostic in diagnostics:
        _print(console, [*format_diagnostic(diagnostic), Text()])
    if summary:
        _print(console, [Text(summary_line(diagnostics, files), style="bold")])
    console.file.flush()  # as rich does after each line it prints


def _print(console: Console, lines: list[Text]) -> None:
    """The lines as ``console.print`` writes them, one by one.

    rich's rendering of a line costs far more than building it (seconds for 50,000
    diagnostics). Without colour it adds only the newline: control codes are removed when
    a ``Text`` is made, and soft wrap means no wrapping or cropping. The one exception is a
    tab, which it expands; so lines without one are written as they are, and any other case
    is left to rich.
    """
    if _colourless(console) and not any("\t" in line.plain for line in lines):
        console.file.write("".join(line.plain + "\n" for line in lines))
        return
    for line in lines:
        console.print(line)


def _colourless(console: Console) -> bool:
    """Whether rich writes a line's characters and nothing else (no styles, no HTML, no record)."""
    special = console.is_jupyter or console.record or console.legacy_windows
    return console.color_system is None and not special
