"""The generic HCL2 syntax tree.

Plain slotted classes rather than pydantic models: a 1 MB job file has hundreds of
thousands of nodes, and validation at construction would dominate parse time. Every
node has a ``span``; attribute names, block types and each block label have their
own spans so diagnostics can point at exactly the characters that are wrong.
Comments are kept: each body item records the comments on the lines just above it
(``leading``) and the one after it on its last line (``trailing``); every comment
of the file is also listed in order on :class:`File`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import ClassVar, TypeAlias

from hclgpu.source import Span


class Syntax:
    """Base of every node: slotted, with its fields named in ``_fields`` in order (what the
    tree walkers, the printer and ``dump ast`` read), compared by identity. Written out
    rather than made with ``dataclasses``: building the classes is then no work at import,
    which every command pays."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({shown})"


def fields_of(node: Syntax) -> tuple[str, ...]:
    """The names of ``node``'s fields, in order."""
    return node._fields


class Comment(Syntax):
    _fields = ("text", "span")
    __slots__ = _fields

    text: str
    """The comment as written, markers included (`# x`, `// x`, `/* x */`)."""
    span: Span

    def __init__(self, text: str, span: Span) -> None:
        self.text = text
        self.span = span


# ---- expressions ------------------------------------------------------------------


class Literal(Syntax):
    """A number, a plain string without templates, `true`, `false` or `null`."""

    _fields = ("value", "span")
    __slots__ = _fields

    value: str | int | float | bool | None
    span: Span

    def __init__(self, value: str | int | float | bool | None, span: Span) -> None:
        self.value = value
        self.span = span


class TemplateText(Syntax):
    _fields = ("text", "span")
    __slots__ = _fields

    text: str
    """Literal text with escapes already decoded (`$${` is `${` here)."""
    span: Span

    def __init__(self, text: str, span: Span) -> None:
        self.text = text
        self.span = span


class Interpolation(Syntax):
    _fields = ("expr", "span", "strip_left", "strip_right")
    __slots__ = _fields

    expr: Expr
    span: Span
    strip_left: bool
    strip_right: bool

    def __init__(self, expr: Expr, span: Span, strip_left: bool = False, strip_right: bool = False) -> None:
        self.expr = expr
        self.span = span
        self.strip_left = strip_left
        self.strip_right = strip_right


class TemplateIf(Syntax):
    """`%{ if }...%{ else }...%{ endif }`.

    ``markers`` records the `~` strip markers of its directives in source order: `%{~ if`,
    `if ~}`, `%{~ else`, `else ~}`, `%{~ endif`, `endif ~}`. They were already applied to the
    template's text when it was parsed; they are kept for printing."""

    _fields = ("condition", "then", "otherwise", "span", "markers")
    __slots__ = _fields

    condition: Expr
    then: list[TemplatePart]
    otherwise: list[TemplatePart] | None
    span: Span
    markers: tuple[bool, bool, bool, bool, bool, bool]

    def __init__(
        self,
        condition: Expr,
        then: list[TemplatePart],
        otherwise: list[TemplatePart] | None,
        span: Span,
        markers: tuple[bool, bool, bool, bool, bool, bool] = (False,) * 6,
    ) -> None:
        self.condition = condition
        self.then = then
        self.otherwise = otherwise
        self.span = span
        self.markers = markers


class TemplateFor(Syntax):
    """`%{ for k, v in coll }...%{ endfor }`; ``markers`` as for :class:`TemplateIf`:
    `%{~ for`, `for ~}`, `%{~ endfor`, `endfor ~}`."""

    _fields = ("key_var", "value_var", "collection", "body", "span", "markers")
    __slots__ = _fields

    key_var: str | None
    value_var: str
    collection: Expr
    body: list[TemplatePart]
    span: Span
    markers: tuple[bool, bool, bool, bool]

    def __init__(
        self,
        key_var: str | None,
        value_var: str,
        collection: Expr,
        body: list[TemplatePart],
        span: Span,
        markers: tuple[bool, bool, bool, bool] = (False,) * 4,
    ) -> None:
        self.key_var = key_var
        self.value_var = value_var
        self.collection = collection
        self.body = body
        self.span = span
        self.markers = markers


TemplatePart: TypeAlias = TemplateText | Interpolation | TemplateIf | TemplateFor


class Template(Syntax):
    """A quoted string with `${ }` or `%{ }`, or any heredoc."""

    _fields = ("parts", "span", "heredoc", "flush")
    __slots__ = _fields

    parts: list[TemplatePart]
    span: Span
    heredoc: str | None
    """The heredoc marker (`EOF`), or None for a quoted template."""
    flush: bool
    """True for `<<-` heredocs, whose common indentation is removed."""

    def __init__(
        self,
        parts: list[TemplatePart],
        span: Span,
        heredoc: str | None = None,
        flush: bool = False,
    ) -> None:
        self.parts = parts
        self.span = span
        self.heredoc = heredoc
        self.flush = flush


class Variable(Syntax):
    _fields = ("name", "span")
    __slots__ = _fields

    name: str
    span: Span

    def __init__(self, name: str, span: Span) -> None:
        self.name = name
        self.span = span


class GetAttr(Syntax):
    _fields = ("name", "span")
    __slots__ = _fields

    name: str
    span: Span

    def __init__(self, name: str, span: Span) -> None:
        self.name = name
        self.span = span


class Index(Syntax):
    _fields = ("key", "span")
    __slots__ = _fields

    key: Expr
    span: Span

    def __init__(self, key: Expr, span: Span) -> None:
        self.key = key
        self.span = span


class LegacyIndex(Syntax):
    """`.0` — index written as an attribute, kept from HCL1."""

    _fields = ("index", "span")
    __slots__ = _fields

    index: int
    span: Span

    def __init__(self, index: int, span: Span) -> None:
        self.index = index
        self.span = span


class Splat(Syntax):
    """`.*` (attribute-only splat) or `[*]` (full splat)."""

    _fields = ("full", "span")
    __slots__ = _fields

    full: bool
    span: Span

    def __init__(self, full: bool, span: Span) -> None:
        self.full = full
        self.span = span


Step: TypeAlias = GetAttr | Index | LegacyIndex | Splat


class Traversal(Syntax):
    """An expression followed by attribute accesses, indexes and splats."""

    _fields = ("source", "steps", "span")
    __slots__ = _fields

    source: Expr
    steps: list[Step]
    span: Span

    def __init__(self, source: Expr, steps: list[Step], span: Span) -> None:
        self.source = source
        self.steps = steps
        self.span = span


class FunctionCall(Syntax):
    _fields = ("name", "name_span", "args", "span", "expand_final")
    __slots__ = _fields

    name: str
    name_span: Span
    args: list[Expr]
    span: Span
    expand_final: bool

    def __init__(
        self,
        name: str,
        name_span: Span,
        args: list[Expr],
        span: Span,
        expand_final: bool = False,
    ) -> None:
        self.name = name
        self.name_span = name_span
        self.args = args
        self.span = span
        self.expand_final = expand_final


class Tuple(Syntax):
    _fields = ("items", "span")
    __slots__ = _fields

    items: list[Expr]
    span: Span

    def __init__(self, items: list[Expr], span: Span) -> None:
        self.items = items
        self.span = span


class ObjectItem(Syntax):
    _fields = ("key", "value", "span")
    __slots__ = _fields

    key: Expr
    value: Expr
    span: Span

    def __init__(self, key: Expr, value: Expr, span: Span) -> None:
        self.key = key
        self.value = value
        self.span = span


class Object(Syntax):
    _fields = ("items", "span")
    __slots__ = _fields

    items: list[ObjectItem]
    span: Span

    def __init__(self, items: list[ObjectItem], span: Span) -> None:
        self.items = items
        self.span = span


class UnaryOp(Syntax):
    _fields = ("op", "operand", "span")
    __slots__ = _fields

    op: str
    operand: Expr
    span: Span

    def __init__(self, op: str, operand: Expr, span: Span) -> None:
        self.op = op
        self.operand = operand
        self.span = span


class BinaryOp(Syntax):
    _fields = ("op", "left", "right", "span")
    __slots__ = _fields

    op: str
    left: Expr
    right: Expr
    span: Span

    def __init__(self, op: str, left: Expr, right: Expr, span: Span) -> None:
        self.op = op
        self.left = left
        self.right = right
        self.span = span


class Conditional(Syntax):
    _fields = ("condition", "true", "false", "span")
    __slots__ = _fields

    condition: Expr
    true: Expr
    false: Expr
    span: Span

    def __init__(self, condition: Expr, true: Expr, false: Expr, span: Span) -> None:
        self.condition = condition
        self.true = true
        self.false = false
        self.span = span


class Parens(Syntax):
    _fields = ("expr", "span")
    __slots__ = _fields

    expr: Expr
    span: Span

    def __init__(self, expr: Expr, span: Span) -> None:
        self.expr = expr
        self.span = span


class ForExpr(Syntax):
    """`[for v in xs : e if c]` (``key`` is None) or `{for k, v in m : k => v... if c}`."""

    _fields = ("key_var", "value_var", "collection", "key", "value", "condition", "grouping", "span")
    __slots__ = _fields

    key_var: str | None
    value_var: str
    collection: Expr
    key: Expr | None
    value: Expr
    condition: Expr | None
    grouping: bool
    span: Span

    def __init__(
        self,
        key_var: str | None,
        value_var: str,
        collection: Expr,
        key: Expr | None,
        value: Expr,
        condition: Expr | None,
        grouping: bool,
        span: Span,
    ) -> None:
        self.key_var = key_var
        self.value_var = value_var
        self.collection = collection
        self.key = key
        self.value = value
        self.condition = condition
        self.grouping = grouping
        self.span = span


Expr: TypeAlias = (
    Literal
    | Template
    | Variable
    | Traversal
    | FunctionCall
    | Tuple
    | Object
    | UnaryOp
    | BinaryOp
    | Conditional
    | Parens
    | ForExpr
)

# ---- structure ----------------------------------------------------------------------


class Attribute(Syntax):
    _fields = ("name", "name_span", "value", "span", "leading", "trailing")
    __slots__ = _fields

    name: str
    name_span: Span
    value: Expr
    span: Span
    leading: list[Comment]
    trailing: Comment | None

    def __init__(
        self,
        name: str,
        name_span: Span,
        value: Expr,
        span: Span,
        leading: list[Comment] | None = None,
        trailing: Comment | None = None,
    ) -> None:
        self.name = name
        self.name_span = name_span
        self.value = value
        self.span = span
        self.leading = [] if leading is None else leading
        self.trailing = trailing


class Label(Syntax):
    _fields = ("value", "span", "quoted")
    __slots__ = _fields

    value: str
    span: Span
    quoted: bool

    def __init__(self, value: str, span: Span, quoted: bool = True) -> None:
        self.value = value
        self.span = span
        self.quoted = quoted


class Block(Syntax):
    _fields = ("type", "type_span", "labels", "body", "span", "leading", "trailing")
    __slots__ = _fields

    type: str
    type_span: Span
    labels: list[Label]
    body: Body
    span: Span
    leading: list[Comment]
    trailing: Comment | None

    def __init__(
        self,
        type: str,
        type_span: Span,
        labels: list[Label],
        body: Body,
        span: Span,
        leading: list[Comment] | None = None,
        trailing: Comment | None = None,
    ) -> None:
        self.type = type
        self.type_span = type_span
        self.labels = labels
        self.body = body
        self.span = span
        self.leading = [] if leading is None else leading
        self.trailing = trailing


class Body(Syntax):
    _fields = ("items", "span")
    __slots__ = _fields

    items: list[Attribute | Block]
    span: Span

    def __init__(self, items: list[Attribute | Block], span: Span) -> None:
        self.items = items
        self.span = span

    def attributes(self) -> list[Attribute]:
        return [item for item in self.items if isinstance(item, Attribute)]

    def blocks(self, type: str | None = None) -> list[Block]:
        return [
            item for item in self.items if isinstance(item, Block) and (type is None or item.type == type)
        ]


class File(Syntax):
    _fields = ("body", "comments", "span")
    __slots__ = (*_fields, "whole_blocks")

    body: Body
    comments: list[Comment]
    span: Span
    whole_blocks: Collection[int]
    """The ids of the blocks the parse found laid out as HCL wants with nothing redefined
    inside (:attr:`hclgpu.syntax.lexer.Lexer.whole_blocks`): valid while the tree is as
    parsed. Not a field: no walk, print or dump sees it."""

    def __init__(
        self, body: Body, comments: list[Comment], span: Span, whole_blocks: Collection[int] = frozenset()
    ) -> None:
        self.body = body
        self.comments = comments
        self.span = span
        self.whole_blocks = whole_blocks


Node: TypeAlias = File | Body | Attribute | Block | Label | Comment | Expr | ObjectItem | Step | TemplatePart
