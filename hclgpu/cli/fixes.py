"""``check --fix``, ``--unsafe-fixes``, ``--diff`` and ``--show-fixes``, as ruff means them.

A finding may carry one fix (:attr:`~hclgpu.diagnostics.Diagnostic.fix`), safe or not. A
file's fixes are applied together where their edits do not overlap, the text is checked
again with the file's own settings, and the fixes the new findings carry are applied in turn
(a moved block's own typo is fixed once it is in place), up to :data:`ROUNDS` times. A round
that would leave the file with a syntax error it did not have is undone. The file is then
written atomically, as ``fmt`` writes (or, with ``--diff``, shown as a unified diff and
left alone); nothing is written for a file no fix changed.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field

from hclgpu.diagnostics import Diagnostic, fixable, fixes_to_apply
from hclgpu.source import SourceFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import TextIO

ROUNDS = 10
"""The most times a file is fixed and checked again (each round needs a fix that applied)."""


@dataclass(slots=True)
class Fixed:
    """One file after its fixes: the new text, the findings of its last check, and how many
    fixes each code applied."""

    path: str
    before: str
    after: str
    diagnostics: list[Diagnostic]
    applied: Counter[str] = field(default_factory=Counter)


def apply_edits(text: str, diagnostics: Sequence[Diagnostic], unsafe: bool) -> tuple[str, Counter[str]]:
    """``text`` with the fixes that apply together (:func:`~hclgpu.diagnostics.fixes_to_apply`),
    and the fixes applied by code."""
    chosen = fixes_to_apply(diagnostics, unsafe)
    edits = sorted((e for d in chosen for e in d.fix), key=lambda e: (e.span.start, e.span.end), reverse=True)
    for edit in edits:
        text = text[: edit.span.start] + edit.text + text[edit.span.end :]
    return text, Counter(d.code for d in chosen)


def fix_file(
    path: str,
    text: str,
    diagnostics: list[Diagnostic],
    check: Callable[[SourceFile], list[Diagnostic]],
    unsafe: bool,
) -> Fixed:
    """Fix ``path`` (whose ``text`` has the findings ``diagnostics``) round by round, each
    round's text checked again by ``check``."""
    fixed = Fixed(path, text, text, diagnostics)
    for _ in range(ROUNDS):
        candidate, applied = apply_edits(fixed.after, fixed.diagnostics, unsafe)
        if not applied or candidate == fixed.after:
            break
        found = check(SourceFile(path, candidate))
        if _syntax_errors(found) > _syntax_errors(fixed.diagnostics):
            break  # the fix would break the file: keep the last good text
        fixed.after, fixed.diagnostics = candidate, found
        fixed.applied += applied
    return fixed


def _syntax_errors(diagnostics: Sequence[Diagnostic]) -> int:
    return sum(1 for d in diagnostics if d.code.startswith("HG0") and str(d.severity) == "error")


def unified_diff(fixed: Fixed) -> str:
    """The change to one file, as `diff -u` (and ruff's ``--diff``) show it."""
    from difflib import unified_diff as diff

    lines = diff(
        fixed.before.splitlines(keepends=True),
        fixed.after.splitlines(keepends=True),
        fromfile=fixed.path,
        tofile=fixed.path,
    )
    missing = "\n\\ No newline at end of file\n"
    return "".join(line if line.endswith("\n") else line + missing for line in lines)


def show_fixes(files: Sequence[Fixed], out: TextIO | None = None) -> None:
    """``--show-fixes``: per file, how many fixes each code applied."""
    from hclgpu.codes import CODES

    stream = out or sys.stderr
    changed = [f for f in files if f.applied]
    total = sum(sum(f.applied.values()) for f in changed)
    if not total:
        stream.write("No fixes applied.\n")
        return
    lines = [f"Fixed {total} error{'s' if total != 1 else ''}:"]
    for f in changed:
        lines.append(f"- {f.path}:")
        for code, count in sorted(f.applied.items()):
            lines.append(f"    {count} × {code} ({CODES[code].name if code in CODES else 'unknown'})")
    stream.write("\n".join(lines) + "\n")


def fix_hint(diagnostics: Sequence[Diagnostic]) -> str:
    """The line after a report that says what ``--fix`` would do (empty when nothing)."""
    safe = sum(1 for d in diagnostics if fixable(d))
    hidden = sum(1 for d in diagnostics if fixable(d, unsafe=True)) - safe
    if not safe and not hidden:
        return ""
    said = f"[*] {safe} fixable with `hclgpu check --fix`." if safe else "No fixes available"
    if hidden:
        said += f" ({hidden} hidden fix{'es' if hidden != 1 else ''} can be enabled with `--unsafe-fixes`.)"
    return said + "\n"
