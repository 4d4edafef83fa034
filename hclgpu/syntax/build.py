"""Reduction callbacks: grammar rules to syntax-tree nodes.

The parser calls one function per rule of ``grammar/hcl.lark`` (keyed by the rule's
alias, else its name) with the rule's children: tokens for terminals, nodes or lists
for nonterminals. Every function is small and allocation-light; this is the hot path
of parsing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from hclgpu.numbers import parse_decimal
from hclgpu.source import Span
from hclgpu.syntax import ast
from hclgpu.syntax.lexer import Token
from hclgpu.syntax.lexer import header_block as _header_block

Children = list[Any]

# Binding strength of HCL's binary operators (higher binds tighter).
_PRECEDENCE = {
    "||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, ">": 4, "<=": 4, ">=": 4,
    "+": 5, "-": 5, "*": 6, "/": 6, "%": 6,
}  # fmt: skip


class _Chain(list[Any]):
    """operand, op-token, operand, ... before precedence is applied."""


def _start(x: Any) -> int:
    return x.start if isinstance(x, Token) else x.span.start


def _end(x: Any) -> int:
    return x.end if isinstance(x, Token) else x.span.end


def _span(first: Any, last: Any) -> Span:
    return Span(_start(first), _end(last))


def _climb(chain: _Chain, index: int, min_prec: int) -> tuple[Any, int]:
    """Precedence climbing over a flat chain; returns (node, next index)."""
    left = chain[index]
    index += 1
    while index < len(chain):
        op = chain[index].value
        prec = _PRECEDENCE[op]
        if prec < min_prec:
            break
        right, index = _climb(chain, index + 1, prec + 1)
        left = ast.BinaryOp(op, left, right, Span(left.span.start, right.span.end))
    return left, index


def _finish(value: Any) -> Any:
    if isinstance(value, _Chain):
        return _climb(value, 0, 0)[0]
    return value


# ---- bodies --------------------------------------------------------------------------


def start(c: Children) -> ast.Body:
    return c[0]  # type: ignore[no-any-return]


def body(c: Children) -> ast.Body:
    for child in c:
        if isinstance(child, list):
            return ast.Body(child, Span(_start(child[0]), _end(child[-1])))
    return ast.Body([], Span(-1, -1))


def attribute(c: Children) -> ast.Attribute:
    name, _, value = c
    return ast.Attribute(name.value, Span(name.start, name.end), value, Span(name.start, value.span.end))


def first_lines(c: Children) -> list[ast.Attribute | ast.Block]:
    """The items of a LINES token (a list of its own) begin a body's items."""
    return c[0].value  # type: ignore[no-any-return]


def more_lines(c: Children) -> list[ast.Attribute | ast.Block]:
    c[0].extend(c[1].value)
    return c[0]  # type: ignore[no-any-return]


def line(c: Children) -> ast.Block:
    """A block from its HEADER, its body and its closing brace."""
    header, inner, rbrace = c
    return _header_block(header, inner, rbrace.end)


def block(c: Children) -> ast.Block:
    name, labels, lbrace, inner, rbrace = c
    inner.span = Span(lbrace.end, rbrace.start)
    return ast.Block(name.value, Span(name.start, name.end), labels, inner, Span(name.start, rbrace.end))


def labels(c: Children) -> list[ast.Label]:
    if not c:
        return []
    token = c[1]
    c[0].append(ast.Label(token.value, Span(token.start, token.end), token.type == "STRING"))
    return c[0]  # type: ignore[no-any-return]


# ---- operators -----------------------------------------------------------------------


def expr(c: Children) -> Any:
    if len(c) == 1:
        return _finish(c[0])
    condition = _finish(c[0])
    return ast.Conditional(condition, c[2], c[4], Span(condition.span.start, c[4].span.end))


def binary(c: Children) -> Any:
    if len(c) == 1:
        return c[0]
    left = c[0]
    if isinstance(left, _Chain):
        left.append(c[1])
        left.append(c[2])
        return left
    return _Chain(c)


def unary(c: Children) -> Any:
    if len(c) == 1:
        return c[0]
    op, operand = c
    return ast.UnaryOp(op.value, operand, Span(op.start, operand.span.end))


# ---- primaries -----------------------------------------------------------------------


def number(c: Children) -> ast.Literal:
    token = c[0]
    return ast.Literal(parse_decimal(token.value), Span(token.start, token.end))


_KEYWORD_LITERALS: dict[str, bool | None] = {"true": True, "false": False, "null": None}


def variable(c: Children) -> ast.Literal | ast.Variable:
    token = c[0]
    name = token.value
    if name in _KEYWORD_LITERALS:
        return ast.Literal(_KEYWORD_LITERALS[name], Span(token.start, token.end))
    return ast.Variable(name, Span(token.start, token.end))


def string(c: Children) -> ast.Literal:
    token = c[0]
    return ast.Literal(token.value, Span(token.start, token.end))


def template(c: Children) -> ast.Literal | ast.Template:
    opener, parts, closer = c
    span = Span(opener.start, closer.end)
    if all(isinstance(part, ast.TemplateText) for part in parts):
        return ast.Literal("".join(part.text for part in parts), span)
    _Tokens(parts, by_line=False).strip()
    return ast.Template(parts, span)


def heredoc(c: Children) -> ast.Template:
    opener, parts, closer = c
    flush = opener.value.startswith("<<-")
    tokens = _Tokens(parts, by_line=True)
    tokens.strip()
    if flush:
        tokens.flush()
    return ast.Template(parts, Span(opener.start, closer.end), heredoc=closer.value, flush=flush)


class _Tokens:
    """A template as HCL's parser sees it, to apply `~` markers and `<<-` indentation alike.

    HCL works on a flat token list: literal tokens (in a heredoc, one per line) and the
    tokens of interpolations and directives. A `~` strips the whitespace of the one literal
    token beside it, and a `<<-` heredoc's indentation is then computed line token by line
    token. Doing the same here reproduces HCL's results, including its known quirk that a
    `~}` at the end of a line keeps the next line from being dedented (hashicorp/terraform
    issue 23710).
    """

    def __init__(self, parts: list[ast.TemplatePart], by_line: bool) -> None:
        self.entries: list[tuple[ast.TemplateText, list[str]] | tuple[None, bool, bool]] = []
        self.by_line = by_line
        self._flatten(parts)

    def _literal(self, part: ast.TemplateText) -> None:
        tokens = re.findall(r"[^\n]*\n|[^\n]+", part.text) if self.by_line else [part.text]
        self.entries.append((part, tokens or [""]))

    def _marker(self, left: bool, right: bool) -> None:
        self.entries.append((None, left, right))

    def _flatten(self, parts: list[ast.TemplatePart]) -> None:
        for part in parts:
            if isinstance(part, ast.TemplateText):
                self._literal(part)
            elif isinstance(part, ast.Interpolation):
                self._marker(part.strip_left, part.strip_right)
            elif isinstance(part, ast.TemplateIf):
                if_l, if_r, else_l, else_r, end_l, end_r = part.markers
                self._marker(if_l, if_r)
                self._flatten(part.then)
                if part.otherwise is not None:
                    self._marker(else_l, else_r)
                    self._flatten(part.otherwise)
                self._marker(end_l, end_r)
            else:
                for_l, for_r, end_l, end_r = part.markers
                self._marker(for_l, for_r)
                self._flatten(part.body)
                self._marker(end_l, end_r)

    def strip(self) -> None:
        entries = self.entries
        for i, entry in enumerate(entries):
            if entry[0] is not None:
                continue
            _, left, right = entry
            before = entries[i - 1] if i > 0 else None
            after = entries[i + 1] if i + 1 < len(entries) else None
            if left and before is not None and before[0] is not None:
                tokens = before[1]
                tokens[-1] = tokens[-1].rstrip()
            if right and after is not None and after[0] is not None:
                tokens = after[1]
                tokens[0] = tokens[0].lstrip()
        self._write_back()

    def flush(self) -> None:
        """HCL's ``flushHeredocTemplateParts``: remove the least indentation of the lines."""
        least: int | None = None
        adjust: list[tuple[list[str], int]] = []
        newline = True
        for entry in self.entries:
            if entry[0] is None:
                if newline:
                    least, newline = 0, False
                continue
            tokens = entry[1]
            for index, token in enumerate(tokens):
                if newline:
                    newline = False
                    if not (token.strip() == "" and token.endswith("\n")):  # blank lines do not count
                        spaces = len(token) - len(token.lstrip())
                        least = spaces if least is None else min(least, spaces)
                        adjust.append((tokens, index))
                newline = token.endswith("\n")
        if least:
            for tokens, index in adjust:
                tokens[index] = tokens[index][least:]
        self._write_back()

    def _write_back(self) -> None:
        for entry in self.entries:
            if entry[0] is not None:
                entry[0].text = "".join(entry[1])


def parens(c: Children) -> ast.Parens:
    return ast.Parens(c[1], _span(c[0], c[2]))


def _traverse(source: Any, step: ast.Step) -> ast.Traversal:
    if isinstance(source, ast.Traversal):
        source.steps.append(step)
        source.span = Span(source.span.start, step.span.end)
        return source
    return ast.Traversal(source, [step], Span(source.span.start, step.span.end))


def get_attr(c: Children) -> ast.Traversal:
    name = c[2]
    return _traverse(c[0], ast.GetAttr(name.value, Span(c[1].start, name.end)))


def legacy_index(c: Children) -> ast.Traversal:
    digits = c[2]
    return _traverse(c[0], ast.LegacyIndex(int(digits.value), Span(c[1].start, digits.end)))


def attr_splat(c: Children) -> ast.Traversal:
    return _traverse(c[0], ast.Splat(False, Span(c[1].start, c[2].end)))


def index(c: Children) -> ast.Traversal:
    return _traverse(c[0], ast.Index(c[2], Span(c[1].start, c[3].end)))


def full_splat(c: Children) -> ast.Traversal:
    return _traverse(c[0], ast.Splat(True, Span(c[1].start, c[3].end)))


def postfix(c: Children) -> Any:
    return c[0]


def call(c: Children) -> ast.FunctionCall:
    name = c[0]
    args = c[2] if len(c) > 3 else []
    expand = len(c) == 5 and c[3].type == "ELLIPSIS"
    return ast.FunctionCall(name.value, Span(name.start, name.end), args, _span(name, c[-1]), expand)


def _list(c: Children) -> list[Any]:
    """`x` or `xs SEPARATOR x`: one growing list for items, args, elems and oitems."""
    if len(c) == 1:
        return [c[0]]
    c[0].append(c[-1])  # `items line` has no separator: the line holds its newline
    return c[0]  # type: ignore[no-any-return]


items = _list
args = _list
elems = _list
oitems = _list


def tuple_cons(c: Children) -> ast.Tuple:
    values = c[1] if len(c) > 2 else []
    return ast.Tuple(values, _span(c[0], c[-1]))


def object_cons(c: Children) -> ast.Object:
    return ast.Object(c[1], _span(c[0], c[2]))


def obody(c: Children) -> list[ast.ObjectItem]:
    for child in c:
        if isinstance(child, list):
            return child
    return []


def osep(c: Children) -> None:
    return None


def oitem(c: Children) -> ast.ObjectItem:
    key, _, value = c
    return ast.ObjectItem(key, value, Span(key.span.start, value.span.end))


def for_vars(c: Children) -> tuple[str | None, str]:
    if len(c) == 1:
        return None, c[0].value
    return c[0].value, c[2].value


def for_tuple(c: Children) -> ast.ForExpr:
    key_var, value_var = c[2]
    condition = c[8] if len(c) == 10 else None
    return ast.ForExpr(key_var, value_var, c[4], None, c[6], condition, False, _span(c[0], c[-1]))


def for_object(c: Children) -> ast.ForExpr:
    key_var, value_var = c[2]
    rest = c[9:-1]
    grouping = bool(rest) and isinstance(rest[0], Token) and rest[0].type == "ELLIPSIS"
    condition = rest[-1] if rest and not isinstance(rest[-1], Token) else None
    return ast.ForExpr(key_var, value_var, c[4], c[6], c[8], condition, grouping, _span(c[0], c[-1]))


# ---- templates -----------------------------------------------------------------------


def tparts(c: Children) -> list[ast.TemplatePart]:
    if not c:
        return []
    parts: list[ast.TemplatePart] = c[0]
    if len(c) == 2:
        item = c[1]
        if isinstance(item, Token):
            parts.append(ast.TemplateText(item.value, Span(item.start, item.end)))
        else:
            parts.append(item)
        return parts
    opener, inner, closer = c[1], c[2], c[3]
    parts.append(
        ast.Interpolation(
            inner, _span(opener, closer), opener.value.endswith("~"), closer.value.startswith("~")
        )
    )
    return parts


def _tilde_open(token: Token) -> bool:
    return token.value.startswith("%{~")


def _tilde_close(token: Token) -> bool:
    return token.value.startswith("~")


def tif(c: Children) -> ast.TemplateIf:
    if len(c) == 9:  # %{if cond} then %{else} otherwise %{endif}
        markers = (c[0], c[2], c[4], c[5], c[7], c[8])
        otherwise = c[6]
    else:  # %{if cond} then %{endif}
        markers, otherwise = (c[0], c[2], None, None, c[4], c[5]), None
    flags = tuple(
        t is not None and (_tilde_open(t) if i % 2 == 0 else _tilde_close(t)) for i, t in enumerate(markers)
    )
    return ast.TemplateIf(c[1], c[3], otherwise, _span(c[0], c[-1]), flags)  # type: ignore[arg-type]


def tfor(c: Children) -> ast.TemplateFor:
    key_var, value_var = c[1]
    flags = (_tilde_open(c[0]), _tilde_close(c[4]), _tilde_open(c[6]), _tilde_close(c[7]))
    return ast.TemplateFor(key_var, value_var, c[3], c[5], _span(c[0], c[-1]), flags)


PASS_THROUGH = frozenset({"binary", "unary"})
"""Rules whose one-child form returns the child itself (``binary: unary``): the parser
reduces them without calling anything (two in five reductions of a typical file)."""

CALLBACKS: dict[str, Callable[[Children], Any]] = {
    name: function
    for name, function in globals().items()
    if callable(function) and not name.startswith("_") and name not in ("Callable", "Span", "Token", "Any")
}
