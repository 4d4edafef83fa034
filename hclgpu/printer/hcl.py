"""Canonical layout for native-syntax HCL files.

Expressions are printed as their original source text and only the layout around
attributes and blocks is normalised, the way ``terraform fmt`` and ``nomad fmt`` do it:
re-printing expressions from the tree would risk changing escapes, number spellings or
heredoc bodies, and a formatter that can change semantics is worse than none. Lines of a
multi-line expression are re-indented relative to their attribute, except lines that
start inside a string, heredoc or comment, whose bytes are content.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from typing import TypeAlias

from hclgpu.source import Span
from hclgpu.syntax import ast

INDENT = "  "

_Item: TypeAlias = ast.Attribute | ast.Block


def format_tree(tree: ast.File, text: str) -> str:
    """The canonical text of ``tree``, parsed from ``text``; ends with one newline unless empty."""
    lines = _Printer(tree, text).file()
    return "\n".join(lines) + "\n" if lines else ""


def _is_blank_gap(text: str, start: int, end: int) -> bool:
    """True when the source between two things holds an empty line (kept as one blank line)."""
    return text.count("\n", start, max(start, end)) >= 2


class _Printer:
    def __init__(self, tree: ast.File, text: str) -> None:
        self.tree = tree
        self.text = text
        self.comments = tree.comments
        self.starts = [comment.span.start for comment in tree.comments]

    # ---- helpers ---------------------------------------------------------------------

    def _between(self, start: int, end: int) -> list[ast.Comment]:
        """The comments that start in ``[start, end)``."""
        return self.comments[bisect_left(self.starts, start) : bisect_left(self.starts, end)]

    def _comment_lines(self, comment: ast.Comment, indent: str) -> list[str]:
        # a /* */ comment's inner lines are kept byte for byte: only its first line moves
        text = comment.text.rstrip() if not comment.text.startswith("/*") else comment.text
        first, *rest = text.split("\n")
        return [indent + first, *rest]

    def _end(self, item: _Item) -> int:
        return item.trailing.span.end if item.trailing is not None else item.span.end

    def _extra_leading(self, item: _Item) -> list[ast.Comment]:
        """Comments inside an item but outside the parts printed verbatim (`a /* x */ = 1`,
        `job /* x */ "a" {`): moved up to the item's leading comments so none is lost."""
        if isinstance(item, ast.Attribute):
            value = item.value.span
            return [
                c
                for c in self._between(item.span.start, item.span.end)
                if not value.start <= c.span.start < value.end
            ]
        body = item.body.span
        return [
            c
            for c in self._between(item.span.start, item.span.end)
            if not body.start <= c.span.start < body.end
        ]

    # ---- structure -------------------------------------------------------------------

    def file(self) -> list[str]:
        return self._body(self.tree.body, "")

    def _body(self, body: ast.Body, indent: str) -> list[str]:
        out: list[str] = []
        items = body.items
        previous: _Item | None = None
        run: list[ast.Attribute] = []
        previous_lines = 0
        index = 0
        while index < len(items):
            item = items[index]
            leading = [*item.leading, *self._extra_leading(item)]
            leading.sort(key=lambda c: c.span.start)
            first_start = leading[0].span.start if leading else item.span.start
            block_lines = self._block(item, indent) if isinstance(item, ast.Block) else []
            if previous is not None:
                # blocks are set apart by a blank line, except runs of one-line blocks
                # (`port "http" { to = 8080 }`), which read as a list
                both_blocks = isinstance(previous, ast.Block) and isinstance(item, ast.Block)
                short = len(block_lines) == 1 and previous_lines == 1
                if (both_blocks and not short) or _is_blank_gap(self.text, self._end(previous), first_start):
                    out.append("")
            out.extend(self._leading(leading, item, indent))
            if isinstance(item, ast.Attribute) and self._single_line(item):
                run = [item]
                while index + 1 < len(items):
                    following = items[index + 1]
                    if not (
                        isinstance(following, ast.Attribute)
                        and self._single_line(following)
                        and not following.leading
                        and not self._extra_leading(following)
                        and not _is_blank_gap(self.text, self._end(run[-1]), following.span.start)
                    ):
                        break
                    run.append(following)
                    index += 1
                width = max(len(attribute.name) for attribute in run)
                for attribute in run:
                    out.append(self._attribute(attribute, indent, width))
                previous = run[-1]
            elif isinstance(item, ast.Attribute):
                out.append(self._attribute(item, indent, len(item.name)))
                previous = item
            else:
                out.extend(block_lines)
                previous = item
            previous_lines = len(block_lines)
            index += 1
        # comments after the last item (or in an empty body) belong to no item
        tail_start = self._end(previous) if previous is not None else body.span.start
        orphans = self._between(tail_start, body.span.end)
        before = tail_start
        for number, comment in enumerate(orphans):
            if (previous is not None or number > 0) and _is_blank_gap(self.text, before, comment.span.start):
                out.append("")
            out.extend(self._comment_lines(comment, indent))
            before = comment.span.end
        return out

    def _leading(self, leading: list[ast.Comment], item: _Item, indent: str) -> list[str]:
        out: list[str] = []
        for number, comment in enumerate(leading):
            out.extend(self._comment_lines(comment, indent))
            following = leading[number + 1].span.start if number + 1 < len(leading) else item.span.start
            if _is_blank_gap(self.text, comment.span.end, following):
                out.append("")
        return out

    def _single_line(self, attribute: ast.Attribute) -> bool:
        """True when the value spans one line of layout: every line break in it lies inside a
        heredoc or string. Such attributes align with their neighbours, as in ``terraform fmt``
        (whose line-based aligner sees a heredoc as part of its attribute's line)."""
        span = attribute.value.span
        source = self.text[span.start : span.end]
        if "\n" not in source:
            return True
        protected = _protected_spans(attribute.value, self._between(span.start, span.end))
        return all(
            any(p.start < span.start + at + 1 < p.end for p in protected)
            for at, char in enumerate(source)
            if char == "\n"
        )

    def _attribute(self, attribute: ast.Attribute, indent: str, width: int) -> str:
        value = self._expression(attribute, indent)
        line = f"{indent}{attribute.name.ljust(width)} = {value}"
        if attribute.trailing is not None:
            line += " " + attribute.trailing.text.rstrip()
        return line

    def _block(self, block: ast.Block, indent: str) -> list[str]:
        labels = "".join(" " + self._label(label) for label in block.labels)
        head = f"{indent}{block.type}{labels}"
        inner = self._body(block.body, indent + INDENT)
        trailing = " " + block.trailing.text.rstrip() if block.trailing is not None else ""
        if not inner:
            return [f"{head} {{}}{trailing}"]
        if self._one_line_block(block):
            return [f"{head} {{ {inner[0].strip()} }}{trailing}"]
        return [f"{head} {{", *inner, f"{indent}}}{trailing}"]

    def _one_line_block(self, block: ast.Block) -> bool:
        """`port "http" { to = 8080 }` stays on one line, as written: HCL allows exactly one
        single-line attribute there, and ``nomad fmt`` keeps such blocks."""
        items = block.body.items
        return (
            "\n" not in self.text[block.span.start : block.span.end]
            and len(items) == 1
            and isinstance(items[0], ast.Attribute)
            and items[0].trailing is None
            and not self._between(block.span.start, block.span.end)
        )

    def _label(self, label: ast.Label) -> str:
        if label.quoted:
            return self.text[label.span.start : label.span.end]
        return f'"{label.value}"'  # an identifier label needs no escaping

    # ---- expressions -----------------------------------------------------------------

    def _expression(self, attribute: ast.Attribute, indent: str) -> str:
        """The value's source text, its later lines shifted by the attribute's change of indent."""
        span = attribute.value.span
        source = self.text[span.start : span.end]
        if "\n" not in source:
            return source
        line_start = self.text.rfind("\n", 0, attribute.span.start) + 1
        base = len(self.text[line_start : attribute.span.start]) - len(
            self.text[line_start : attribute.span.start].lstrip(" \t")
        )
        protected = _protected_spans(attribute.value, self._between(span.start, span.end))
        pieces = [source[: source.index("\n")]]
        offset = span.start + len(pieces[0])  # the newline ending the previous piece
        for line in source.split("\n")[1:]:
            line_start_at = offset + 1
            if any(p.start < line_start_at < p.end for p in protected):
                pieces.append(line)  # inside a heredoc, string or comment: content, not layout
            elif not line.strip(" \t"):
                pieces.append("")
            else:
                stripped = line.lstrip(" \t")
                own = len(line) - len(stripped)
                pieces.append(indent + (line[base:] if own >= base else stripped))
            offset = line_start_at + len(line)
        return "\n".join(pieces)


def _protected_spans(expr: ast.Expr, comments: list[ast.Comment]) -> list[Span]:
    """Spans whose text is content: strings, templates, heredocs and comments."""
    found = [comment.span for comment in comments]
    stack: list[object] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, ast.Syntax):
            continue
        if isinstance(node, ast.Template) or (isinstance(node, ast.Literal) and isinstance(node.value, str)):
            found.append(node.span)
            continue
        for name in ast.fields_of(node):
            if name not in _IGNORED:
                stack.append(getattr(node, name))
    return found


# ---- comparing trees ------------------------------------------------------------------

_IGNORED = frozenset({"span", "name_span", "type_span", "leading", "trailing", "comments", "quoted"})


def same_tree(left: ast.File, right: ast.File) -> bool:
    """True when two files mean the same: equal trees, spans and comment placement aside,
    and the same comments. ``fmt`` checks this before writing anything."""
    if not _same(left, right):
        return False
    return Counter(c.text.strip() for c in left.comments) == Counter(c.text.strip() for c in right.comments)


def _same(left: object, right: object) -> bool:
    """Structural equality of two syntax trees, with a stack of pairs rather than recursion:
    a chain of 100000 operators is one node deep per operator, far past Python's stack."""
    pending: list[tuple[object, object]] = [(left, right)]
    while pending:
        a, b = pending.pop()
        if type(a) is not type(b):
            return False
        if isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                return False
            pending.extend(zip(a, b, strict=True))
        elif isinstance(a, ast.Syntax):
            pending.extend(
                (getattr(a, name), getattr(b, name)) for name in ast.fields_of(a) if name not in _IGNORED
            )
        elif not _same_leaf(a, b):
            return False
    return True


def _same_leaf(left: object, right: object) -> bool:
    if isinstance(left, float) and isinstance(right, float) and left != left and right != right:
        return True  # NaN
    return left == right
