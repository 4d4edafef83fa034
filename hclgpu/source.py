"""Source text and spans.

A span is a half-open range of code-point offsets into one source file. Nodes and
diagnostics carry spans, never line/column pairs: lines and columns are derived on
demand (by bisecting the line-start table) because most spans are never printed.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cached_property


class Span:
    """Half-open range ``[start, end)`` of code-point offsets."""

    __slots__ = ("end", "start")

    def __init__(self, start: int, end: int) -> None:
        self.start = start
        self.end = end

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Span) and self.start == other.start and self.end == other.end

    def __hash__(self) -> int:
        return hash((self.start, self.end))

    def __repr__(self) -> str:
        return f"Span({self.start}, {self.end})"

    def cover(self, other: Span) -> Span:
        """The smallest span holding both spans."""
        return Span(min(self.start, other.start), max(self.end, other.end))


class Position:
    """A 1-based line and a 1-based column counted in code points."""

    __slots__ = ("column", "line")

    def __init__(self, line: int, column: int) -> None:
        self.line = line
        self.column = column

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and (self.line, self.column) == (other.line, other.column)

    def __repr__(self) -> str:
        return f"{self.line}:{self.column}"


def looks_like_json(text: str) -> bool:
    """Whether ``text`` is in HCL's JSON syntax, as jobspec2's ``isJSON`` decides: spaces (only
    spaces, not tabs or newlines) skipped, then ``{``."""
    return text.lstrip(" ").startswith("{")


class SourceFile:
    """The text of one input and the path it is reported under."""

    __slots__ = ("__dict__", "path", "text")

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text

    @cached_property
    def line_starts(self) -> list[int]:
        starts = [0]
        find = self.text.find
        at = find("\n")
        while at != -1:
            starts.append(at + 1)
            at = find("\n", at + 1)
        return starts

    def position(self, offset: int) -> Position:
        """Line and column of a code-point offset (offsets past the end clamp to it)."""
        offset = max(0, min(offset, len(self.text)))
        index = bisect_right(self.line_starts, offset) - 1
        return Position(index + 1, offset - self.line_starts[index] + 1)

    def line_text(self, line: int) -> str:
        """The text of a 1-based line, without its line ending."""
        starts = self.line_starts
        if line < 1 or line > len(starts):
            return ""
        end = starts[line] - 1 if line < len(starts) else len(self.text)
        return self.text[starts[line - 1] : end].rstrip("\r")

    @property
    def line_count(self) -> int:
        return len(self.line_starts)
