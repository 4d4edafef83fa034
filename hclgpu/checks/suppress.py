"""Suppression comments: `# hclgpu-ignore: HG203` and `# hclgpu-ignore-file: HG203`.

`hclgpu-ignore` on a line of its own applies to the next line; at the end of a line it
applies to that line. `hclgpu-ignore-file` applies to the whole file. Each entry,
separated by commas, is what `select` and `ignore` take: a code, a code prefix, or the
name of a code or of one of its checks (`memory-oversubscription-disabled`). Only semantic,
target and policy-finding codes (HG2xx, HG3xx, HG401, HG402) can be suppressed: an
evaluation or decoding error means the job Nomad reads is not the one the file shows, and a
broken policy is not the job's to excuse. A suppression that suppresses nothing is itself
reported (HG290); one of a policy finding only when the policies ran (``check`` without
``--policy`` cannot know).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hclgpu.codes.policies import HG401, HG402
from hclgpu.codes.suppression import HG290, HG291
from hclgpu.diagnostics import Diagnostic, Edit, Sink
from hclgpu.source import SourceFile, Span
from hclgpu.syntax import ast

_COMMENT = re.compile(r"(?:#|//|/\*)\s*hclgpu-ignore(?P<file>-file)?\s*:\s*(?P<codes>[\w\s,-]+)")
SUPPRESSIBLE = ("HG2", "HG3", HG401, HG402)
POLICY_FINDINGS = (HG401, HG402)
_SUPPRESSIBLE = "only HG2xx, HG3xx, HG401 and HG402 codes (and their checks) can be suppressed"


@dataclass(slots=True)
class Suppression:
    codes: dict[str, str]
    """Selector -> the text written in the comment."""
    span: Span
    line: int | None
    """The line it applies to, or None for the whole file."""
    used: set[str] = field(default_factory=set)


def read_suppressions(tree: ast.File, source: SourceFile, sink: Sink) -> list[Suppression]:
    """Parse every suppression comment; report codes that do not exist or cannot be suppressed."""
    from hclgpu.settings.selectors import UnknownSelector, codes_of, selector

    found: list[Suppression] = []
    for comment in tree.comments:
        match = _COMMENT.match(comment.text)
        if match is None:
            continue
        codes: dict[str, str] = {}
        for word in (w.strip() for w in match["codes"].split(",")):
            try:
                chosen = selector(word)
            except UnknownSelector as unknown:
                sink.emit(HG291, str(unknown), source, comment.span, help=_SUPPRESSIBLE)
                continue
            if not any(code.startswith(SUPPRESSIBLE) for code in codes_of(chosen)):
                sink.emit(HG291, f"`{word}` cannot be suppressed", source, comment.span, help=_SUPPRESSIBLE)
                continue
            codes[chosen] = word
        found.append(
            Suppression(codes, comment.span, None if match["file"] else _target_line(comment, source))
        )
    return found


def _target_line(comment: ast.Comment, source: SourceFile) -> int:
    """A comment alone on its line applies to the next line; a trailing one to its own."""
    position = source.position(comment.span.start)
    before = source.line_text(position.line)[: position.column - 1]
    return position.line + 1 if before.strip() == "" else position.line


def apply_suppressions(
    diagnostics: list[Diagnostic],
    suppressions: list[Suppression],
    source: SourceFile,
    report_unused: bool,
    policies_ran: bool = False,
) -> list[Diagnostic]:
    """Drop suppressed diagnostics of ``source``; add HG290 for suppressions that were not used
    (only when the rules ran: after an error they had no chance to report anything; for a
    policy finding's code, only when the policies ran too)."""
    if not suppressions:
        return diagnostics
    kept: list[Diagnostic] = []
    for diagnostic in diagnostics:
        if not _suppressed(diagnostic, suppressions, source):
            kept.append(diagnostic)
    sink = Sink(kept)
    from hclgpu.settings.selectors import codes_of

    for suppression in suppressions if report_unused else ():
        for chosen, written in suppression.codes.items():
            of_policies = all(code in POLICY_FINDINGS for code in codes_of(chosen))
            if chosen not in suppression.used and (policies_ran or not of_policies):
                where = "in this file" if suppression.line is None else "on the line it applies to"
                sink.emit(
                    HG290,
                    f"`{written}` is not reported {where}",
                    source,
                    suppression.span,
                    help="remove it from the suppression comment",
                    fix=_without(source.text, suppression.span, written),
                    fix_safe=True,  # it suppressed nothing: the report is the same without it
                )
    return sink.sorted()


def _without(text: str, span: Span, written: str) -> tuple[Edit, ...]:
    """The suppression comment at ``span`` without the code ``written``; without the
    comment where that was its only code (its line too, where the comment is alone on it)."""
    from hclgpu.ir.moves import replace_lines

    comment = text[span.start : span.end]
    match = _COMMENT.match(comment)
    if match is None:
        return ()
    codes = match["codes"]
    kept = [word for word in (w.strip() for w in codes.split(",")) if word and word != written]
    if kept:
        where = Span(span.start + match.start("codes"), span.start + match.end("codes"))
        return (Edit(where, ", ".join(kept) + codes[len(codes.rstrip()) :]),)
    line_start = text.rfind("\n", 0, span.start) + 1
    before = text[line_start : span.start]
    if not before.strip():
        return replace_lines(text, span, [])
    return (Edit(Span(line_start + len(before.rstrip()), span.end), ""),)


def _suppressed(diagnostic: Diagnostic, suppressions: list[Suppression], source: SourceFile) -> bool:
    from hclgpu.settings.selectors import matches

    if diagnostic.source is not source or not diagnostic.code.startswith(SUPPRESSIBLE):
        return False
    line = source.position(diagnostic.span.start).line if diagnostic.span is not None else None
    code, check = diagnostic.code, diagnostic.check_name
    for suppression in suppressions:
        if suppression.line not in (None, line):
            continue
        for chosen in suppression.codes:
            if matches(code, check, chosen):
                suppression.used.add(chosen)
                return True
    return False
