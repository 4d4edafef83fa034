"""Reduction callbacks: grammar rules to syntax-tree nodes.

The parser calls one function per rule of ``grammar/hcl.lark`` (keyed by the rule's
alias, else its name) with the rule's children: tokens for terminals, nodes or lists
for nonterminals. Every function is small and allocation-light; this is the hot path
of parsing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hclgpu.source import Span
from hclgpu.syntax import ast
from hclgpu.syntax.lexer import Token

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
    text = token.value
    value: int | float = float(text) if ("." in text or "e" in text or "E" in text) else int(text)
    return ast.Literal(value, Span(token.start, token.end))


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
    return ast.Template(parts, span)


def heredoc(c: Children) -> ast.Template:
    opener, parts, closer = c
    flush = opener.value.startswith("<<-")
    if flush:
        _dedent(parts)
    return ast.Template(parts, Span(opener.start, closer.end), heredoc=closer.value, flush=flush)


def _dedent(parts: list[ast.TemplatePart]) -> None:
    """Remove the common leading whitespace of a `<<-` heredoc's lines."""
    texts = [part for part in parts if isinstance(part, ast.TemplateText)]
    indents: list[int] = []
    at_line_start = True
    for part in parts:
        if not isinstance(part, ast.TemplateText):
            at_line_start = False
            continue
        lines = part.text.split("\n")
        for i, line in enumerate(lines):
            if (i > 0 or at_line_start) and line.strip():
                indents.append(len(line) - len(line.lstrip(" \t")))
        at_line_start = part.text.endswith("\n")
    strip = min(indents, default=0)
    if not strip:
        return
    at_line_start = True
    for part in parts:
        if part not in texts:
            at_line_start = False
            continue
        assert isinstance(part, ast.TemplateText)
        lines = part.text.split("\n")
        part.text = "\n".join(
            line[strip:] if (i > 0 or at_line_start) else line for i, line in enumerate(lines)
        )
        at_line_start = part.text.endswith("\n")


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
    c[0].append(c[2])
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


def _opens_stripping(token: Token) -> bool:
    return token.value.startswith("%{~")


def _closes_stripping(token: Token) -> bool:
    return token.value.startswith("~")


def _strip_body(parts: list[ast.TemplatePart], start: bool, end: bool) -> list[ast.TemplatePart]:
    """Apply `~` markers of the directives around a body to the body's own text, as HCL does."""
    if start and parts and isinstance(parts[0], ast.TemplateText):
        parts[0].text = parts[0].text.lstrip()
    if end and parts and isinstance(parts[-1], ast.TemplateText):
        parts[-1].text = parts[-1].text.rstrip()
    return parts


def tif(c: Children) -> ast.TemplateIf:
    if len(c) == 9:  # if cond } then else } otherwise endif }
        then = _strip_body(c[3], _closes_stripping(c[2]), _opens_stripping(c[4]))
        otherwise = _strip_body(c[6], _closes_stripping(c[5]), _opens_stripping(c[7]))
    else:
        then, otherwise = _strip_body(c[3], _closes_stripping(c[2]), _opens_stripping(c[4])), None
    node = ast.TemplateIf(c[1], then, otherwise, _span(c[0], c[-1]))
    node.strip_left, node.strip_right = _opens_stripping(c[0]), _closes_stripping(c[-1])
    return node


def tfor(c: Children) -> ast.TemplateFor:
    key_var, value_var = c[1]
    body = _strip_body(c[5], _closes_stripping(c[4]), _opens_stripping(c[6]))
    node = ast.TemplateFor(key_var, value_var, c[3], body, _span(c[0], c[-1]))
    node.strip_left, node.strip_right = _opens_stripping(c[0]), _closes_stripping(c[-1])
    return node


CALLBACKS: dict[str, Callable[[Children], Any]] = {
    name: function
    for name, function in globals().items()
    if callable(function) and not name.startswith("_") and name not in ("Callable", "Span", "Token", "Any")
}
