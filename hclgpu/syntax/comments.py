"""Attach comments to the attributes and blocks they describe.

The comments between the previous item (or the opening brace) and an item are its
``leading`` comments; a comment after an item on the item's last line is its
``trailing`` comment. Every comment also stays, in order, in ``File.comments``, so
a formatter can print back comments that sit inside expressions.
"""

from __future__ import annotations

from bisect import bisect_left

from hclgpu.source import Span
from hclgpu.syntax import ast


def attach_comments(file: ast.File, spans: list[tuple[int, int]], text: str) -> None:
    comments = [ast.Comment(text[start:end], Span(start, end)) for start, end in spans]
    file.comments = comments
    if comments:
        starts = [comment.span.start for comment in comments]
        _attach_body(file.body, comments, starts, text)


def _attach_body(body: ast.Body, comments: list[ast.Comment], starts: list[int], text: str) -> None:
    previous_end = body.span.start if body.span.start >= 0 else 0
    for item in body.items:
        line_end = text.find("\n", item.span.end)
        line_end = len(text) if line_end < 0 else line_end
        first = bisect_left(starts, previous_end)
        if first == len(starts) or starts[first] >= line_end:
            # No comment from the previous item to the end of this one's last line: nothing
            # to attach here or anywhere inside (most items of most files).
            previous_end = item.span.end
            continue
        last = bisect_left(starts, item.span.start)
        item.leading.extend(comments[first:last])
        after = bisect_left(starts, item.span.end)
        if after < len(comments) and comments[after].span.start < line_end:
            item.trailing = comments[after]
        previous_end = line_end if item.trailing else item.span.end
        if isinstance(item, ast.Block):
            _attach_body(item.body, comments, starts, text)
