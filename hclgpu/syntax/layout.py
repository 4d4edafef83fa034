"""Where HCL wants a newline: single-line blocks, and the end of every item.

hclgpu's grammar reads a body as items separated by newlines, with or without a newline
after ``{`` and before ``}``. HCL's own parser is stricter, and Nomad uses it, so a job
written in the looser way passes ``check`` and is refused by ``nomad job run``. The rules,
from hashicorp/hcl ``hclsyntax/parser.go`` at the ``v2.20.2-nomad-1`` tag Nomad pins
(``finishParsingBodyBlock``, ``parseSingleAttrBody``, ``finishParsingBodyAttribute``):

* a block whose first item starts on the line of its ``{`` is a *single-line block*: it
  holds exactly one argument, and its ``}`` follows on the same line
  (``resources { device "nvidia/gpu" { count = 1 } }`` is refused: the nested block must
  be on a line of its own);
* in any other body, every argument and every block ends with a newline, so ``}`` never
  follows an item on its line (``image = "x" }``, ``} }``).

A line comment (``#``, ``//``) ends with the newline it absorbs, so it counts as one; a
``/* */`` comment does not, even across lines. Each message is HCL's summary, its detail
the help.
"""

from __future__ import annotations

from collections.abc import Collection

from hclgpu.codes.syntax import HG001
from hclgpu.diagnostics import Sink
from hclgpu.source import SourceFile, Span
from hclgpu.syntax import ast

_NESTED = (
    "Argument definition required",
    "A single-line block definition can contain only a single argument. If you meant to define "
    'argument "{name}", use an equals sign to assign it a value. To define a nested block, place '
    "it on a line of its own within its parent block.",
)
_NOT_CLOSED = (
    "Invalid single-argument block definition",
    "An argument definition on the same line as its containing block creates a single-line block "
    "definition, which must also be closed on the same line. Place the block's closing brace "
    "immediately after the argument definition.",
)
_ARGUMENT_END = ("Missing newline after argument", "An argument definition must end with a newline.")
_BLOCK_END = ("Missing newline after block definition", "A block definition must end with a newline.")


def check_layout(body: ast.Body, source: SourceFile, sink: Sink, whole: Collection[int] = ()) -> bool:
    """Report every block that breaks HCL's newline rules (HG001, one per block, in the
    order of the file); whether there was one. ``whole``: the ids of blocks known to be
    laid out as HCL wants, with everything inside them (the lexer's whole-line blocks)."""
    text = source.text
    found = []
    pending = [block for block in reversed(body.items) if isinstance(block, ast.Block)]
    while pending:
        block = pending.pop()
        if id(block) in whole:
            continue
        problem = _problem(block, text)
        if problem is not None:
            found.append(problem)
            if problem[0][0] == _NESTED[0]:
                found.extend((_NOT_CLOSED, span) for span in _blank_after(text, problem[1].start))
        pending.extend(item for item in reversed(block.body.items) if isinstance(item, ast.Block))
    for (summary, detail), span in sorted(found, key=lambda problem: problem[1].start):
        sink.emit(HG001, summary, source, span, help=detail)
    return bool(found)


def _problem(block: ast.Block, text: str) -> tuple[tuple[str, str], Span] | None:
    """HCL's objection to ``block``'s layout, with where it points; None when it has none.
    The block's body spans from just after its ``{`` to its ``}``."""
    inner = block.body
    items = inner.items
    if not items:
        return None
    first, last = items[0], items[-1]
    if not _newline_in(text, inner.span.start, first.span.start):
        if isinstance(first, ast.Block):
            summary, detail = _NESTED
            return (summary, detail.format(name=first.type)), Span(first.type_span.start, _after_type(first))
        if len(items) > 1 or _newline_in(text, first.span.end, inner.span.end):
            return _NOT_CLOSED, _newline_after(text, first.span.end)
        return None
    if not _newline_in(text, last.span.end, inner.span.end):
        closing = Span(inner.span.end, inner.span.end + 1)
        return (_ARGUMENT_END if isinstance(last, ast.Attribute) else _BLOCK_END), closing
    return None


def _blank_after(text: str, start: int) -> list[Span]:
    """HCL's second objection to a nested block in a single-line one. Its parser skips to the
    end of the line (``recoverAfterBodyItem``) and then wants the block's ``}``: a newline
    token right there, from an empty line or a line comment, is "Invalid single-argument block
    definition" too (``finishParsingBodyBlock``); anything else it lets pass, recovering."""
    end = text.find("\n", start)
    if end < 0:
        return []
    line_end = text.find("\n", end + 1)
    line = text[end + 1 : len(text) if line_end < 0 else line_end]
    stripped = line.lstrip(" \t")
    if line_end >= 0 and (not stripped or stripped.startswith(("#", "//"))):
        at = end + 1 + len(line) - len(stripped)
        return [Span(at, at + 1)]
    return []


def _after_type(block: ast.Block) -> int:
    """The end of the token after a block's type (a label's opening quote, an unquoted
    label, or the ``{``), where HCL's range for a nested block in a single-line one ends."""
    if block.labels:
        label = block.labels[0]
        return label.span.start + 1 if label.quoted else label.span.end
    return block.body.span.start


def _newline_in(text: str, start: int, end: int) -> bool:
    """Whether the space between two items holds a newline: outside a ``/* */`` comment, and
    counting the one a line comment ends with."""
    at = start
    while at < end:
        if text.startswith("/*", at):
            close = text.find("*/", at + 2, end)
            at = end if close < 0 else close + 2
        elif text[at] == "\n":
            return True
        elif text[at] == "#" or text.startswith("//", at):
            return text.find("\n", at, end) >= 0
        else:
            at += 1
    return False


def _newline_after(text: str, start: int) -> Span:
    """The first newline after ``start`` (where HCL points when a single-line block goes on)."""
    at = text.find("\n", start)
    at = len(text) if at < 0 else at
    return Span(at, at + 1)
