"""Fixes that move whole lines between blocks: a block to the block where Nomad reads it (a
`device` written in the task rather than in its `resources`), an attribute into a block that
replaces it (`max_client_disconnect` → `disconnect { lost_after }`), a line added at the end
of a block (`shutdown_delay`). What moves is indented as the block it lands in.

Only whole lines move: a block that shares a line with other text (`x = 1 device "a" {}`)
gets no fix, so that a fix never leaves half a line behind.
"""

from __future__ import annotations

from hclgpu.diagnostics import Edit
from hclgpu.source import Span
from hclgpu.syntax import ast

INDENT = "  "


def move_into(text: str, block: ast.Block, home: str, siblings: list[ast.Block]) -> tuple[Edit, ...]:
    """Edits moving ``block`` into the ``home`` block among ``siblings`` (the blocks of the
    same body), or wrapping it in a new ``home`` block when there is none; no edits when the
    move is not clear (the block does not own its lines, or several ``home`` blocks)."""
    lines = _own_lines(text, block.span)
    if lines is None:
        return ()
    homes = [b for b in siblings if b.type == home]
    if len(homes) > 1:
        return ()
    if not homes and next(b for b in siblings if b.type == block.type) is not block:
        return ()  # one new home at a time: the others move into it once it is written
    indent = _indent_at(text, block.span.start)
    body = text[lines.start : lines.end].rstrip("\n")
    if not homes:
        wrapped = f"{indent}{home} {{\n{_reindented(body, indent, indent + INDENT)}\n{indent}}}\n"
        return (Edit(lines, wrapped),)
    target = homes[0]
    line_start = _closing_line(text, target)
    if line_start is None:
        return ()  # `resources { ... }` on one line: no clear place to write
    inner = _indent_at(text, target.span.start) + INDENT
    moved = _reindented(body, indent, inner) + "\n"
    return (Edit(Span(line_start, line_start), moved), Edit(lines, ""))


def append_line(text: str, block: ast.Block, line: str) -> tuple[Edit, ...]:
    """The edit writing ``line`` as the last line of ``block``'s body (no edit when the
    block's closing brace does not start its own line)."""
    where = _closing_line(text, block)
    if where is None:
        return ()
    return (Edit(Span(where, where), f"{_indent_at(text, block.span.start)}{INDENT}{line}\n"),)


def replace_lines(text: str, span: Span, lines: list[str]) -> tuple[Edit, ...]:
    """The edit replacing the whole lines of ``span`` with ``lines``, indented as it was (no
    edit when something else shares its lines); no ``lines`` deletes them."""
    own = _own_lines(text, span)
    if own is None:
        return ()
    indent = _indent_at(text, span.start)
    return (Edit(own, "".join(f"{indent}{line}\n" if line else "\n" for line in lines)),)


def _closing_line(text: str, block: ast.Block) -> int | None:
    """The offset where the line of the block's closing brace starts, when the brace is
    alone on it."""
    closing = block.span.end - 1
    if text[closing : closing + 1] != "}":
        return None
    start = text.rfind("\n", 0, closing) + 1
    return None if text[start:closing].strip() else start


def _own_lines(text: str, span: Span) -> Span | None:
    """The whole lines of ``span`` (with the newline after it), when nothing else is on them."""
    start = text.rfind("\n", 0, span.start) + 1
    newline = text.find("\n", span.end)
    end = len(text) if newline < 0 else newline + 1
    if text[start : span.start].strip() or text[span.end : end].strip():
        return None
    return Span(start, end)


def _indent_at(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    line = text[start:offset]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _reindented(body: str, old: str, new: str) -> str:
    """``body``'s lines with their leading ``old`` indentation replaced by ``new``."""
    out = []
    for line in body.split("\n"):
        if line.startswith(old):
            out.append(new + line[len(old) :])
        else:
            out.append(new + line.lstrip() if line.strip() else "")
    return "\n".join(out)
