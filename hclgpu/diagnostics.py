"""The diagnostics model: what every stage reports instead of raising.

Stages append to a :class:`Sink` and carry on with a best-effort result, so one run
reports every independent problem in a file. A Python exception escaping a stage is a
bug in hclgpu and is reported as HG901, never shown to the user as a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from hclgpu.codes import CODES, Code, Severity
from hclgpu.source import SourceFile, Span


class Edit(NamedTuple):
    """Replace the text of ``span`` with ``text`` (an empty span inserts)."""

    span: Span
    text: str


@dataclass(frozen=True, slots=True)
class Related:
    """A secondary location that explains the primary one ("opened here")."""

    span: Span
    message: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    source: SourceFile
    span: Span | None = None
    help: str | None = None
    related: tuple[Related, ...] = ()
    target: str | None = None
    fix: tuple[Edit, ...] = ()
    """The edits that fix the problem, when there is exactly one clear fix (editors offer it
    as a quick fix)."""
    fix_safe: bool = False
    """Whether the fix only says what the file evidently means (a block moved where Nomad
    reads it, a target's spaces removed): `check --fix` applies it. A fix that guesses (a
    did-you-mean, a value brought into range) is applied only with `--unsafe-fixes`."""
    check: str | None = None
    """Which of the code's checks found it (one of Nomad's server checks, by its name), when
    the code has several that a team may want to tell apart."""

    @property
    def name(self) -> str:
        return CODES[self.code].name if self.code in CODES else "unknown"

    @property
    def check_name(self) -> str:
        """The check that found it, as output shows it and `select`/`ignore` take it: the
        server check's name, else the code's name."""
        return self.check or self.name

    @property
    def path(self) -> str:
        return self.source.path

    def sort_key(self) -> tuple[str, int, int, str]:
        start = self.span.start if self.span else -1
        end = self.span.end if self.span else -1
        return (self.source.path, start, end, self.code)


@dataclass(slots=True)
class Sink:
    """Collects diagnostics for one or more files."""

    items: list[Diagnostic] = field(default_factory=list)

    def emit(
        self,
        code: Code,
        message: str,
        source: SourceFile,
        span: Span | None = None,
        *,
        help: str | None = None,
        related: Iterable[Related] = (),
        severity: Severity | None = None,
        target: str | None = None,
        fix: Iterable[Edit] = (),
        check: str | None = None,
        fix_safe: bool = False,
    ) -> Diagnostic:
        diagnostic = Diagnostic(
            code=code,
            severity=severity or code.severity,
            message=message,
            source=source,
            span=span,
            help=help,
            related=tuple(related),
            target=target,
            fix=tuple(fix),
            check=check,
            fix_safe=fix_safe,
        )
        self.items.append(diagnostic)
        return diagnostic

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.items.extend(diagnostics)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.items if d.severity is severity)

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items, key=Diagnostic.sort_key)


def fixable(diagnostic: Diagnostic, unsafe: bool = False) -> bool:
    """Whether the finding's fix is applied: it has one, at a place, and it is safe (or
    ``unsafe`` fixes are asked for too)."""
    return bool(diagnostic.fix) and diagnostic.span is not None and (diagnostic.fix_safe or unsafe)


def fixes_to_apply(diagnostics: Iterable[Diagnostic], unsafe: bool = False) -> list[Diagnostic]:
    """The findings whose fixes apply together: safe ones (``unsafe``: all), in file order,
    each unless its edits touch text an earlier one edits (two insertions at one place count,
    their order being unclear). `check --fix` and the editor's "fix all" take these."""
    chosen: list[Diagnostic] = []
    taken: list[Edit] = []
    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        if not fixable(diagnostic, unsafe):
            continue
        if any(_overlap(edit, other) for edit in diagnostic.fix for other in taken):
            continue
        chosen.append(diagnostic)
        taken += diagnostic.fix
    return chosen


def _overlap(a: Edit, b: Edit) -> bool:
    if a.span.start == a.span.end == b.span.start == b.span.end:
        return True
    return a.span.start < b.span.end and b.span.start < a.span.end


def wanted(diagnostic: Diagnostic, select: tuple[str, ...], ignore: tuple[str, ...]) -> bool:
    """Whether ``diagnostic`` survives ``select`` and ``ignore`` (selectors: codes, code
    prefixes, code or check names; see :mod:`hclgpu.settings.selectors`), as both the command
    line and the language server apply them; some findings are never hidden (``can_hide``)."""
    from hclgpu.settings.selectors import any_matches, can_hide

    if not can_hide(diagnostic.code, str(diagnostic.severity)):
        return True

    code, check = diagnostic.code, diagnostic.check_name
    if select and not any_matches(code, check, select):
        return False
    return not (ignore and any_matches(code, check, ignore))
