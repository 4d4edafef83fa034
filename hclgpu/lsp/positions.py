"""Offsets in the text (code points, as hclgpu's spans count) to LSP positions and back.

LSP counts columns in UTF-16 code units unless another encoding is negotiated: a character
outside the Basic Multilingual Plane (an emoji) is two units. ASCII lines, nearly all of a
job file, take the fast path.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from lsprotocol import types

from hclgpu.source import Span

_NEWLINE = re.compile("\n")


class LineIndex:
    """Where each line starts, to convert offsets and positions in O(log n) plus the line."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]
        self.ascii = text.isascii()

    def position(self, offset: int) -> types.Position:
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        if self.ascii:
            return types.Position(line=line, character=offset - start)
        prefix = self.text[start:offset]
        return types.Position(line=line, character=len(prefix) + sum(ord(c) > 0xFFFF for c in prefix))

    def offset(self, position: types.Position) -> int:
        if position.line >= len(self.starts):
            return len(self.text)
        start = self.starts[position.line]
        end = self.starts[position.line + 1] - 1 if position.line + 1 < len(self.starts) else len(self.text)
        if self.ascii:
            return min(start + position.character, end)
        units = 0
        for index in range(start, end):
            if units >= position.character:
                return index
            units += 2 if ord(self.text[index]) > 0xFFFF else 1
        return end

    def range(self, span: Span) -> types.Range:
        return types.Range(start=self.position(span.start), end=self.position(span.end))

    def whole(self) -> types.Range:
        return types.Range(start=types.Position(line=0, character=0), end=self.position(len(self.text)))
