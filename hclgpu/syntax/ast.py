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

from dataclasses import dataclass, field
from typing import TypeAlias

from hclgpu.source import Span


@dataclass(slots=True, eq=False)
class Comment:
    text: str
    """The comment as written, markers included (`# x`, `// x`, `/* x */`)."""
    span: Span


# ---- expressions ------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Literal:
    """A number, a plain string without templates, `true`, `false` or `null`."""

    value: str | int | float | bool | None
    span: Span


@dataclass(slots=True, eq=False)
class TemplateText:
    text: str
    """Literal text with escapes already decoded (`$${` is `${` here)."""
    span: Span


@dataclass(slots=True, eq=False)
class Interpolation:
    expr: Expr
    span: Span
    strip_left: bool = False
    strip_right: bool = False


@dataclass(slots=True, eq=False)
class TemplateIf:
    """`%{ if }...%{ else }...%{ endif }`.

    ``markers`` records the `~` strip markers of its directives in source order: `%{~ if`,
    `if ~}`, `%{~ else`, `else ~}`, `%{~ endif`, `endif ~}`. They were already applied to the
    template's text when it was parsed; they are kept for printing."""

    condition: Expr
    then: list[TemplatePart]
    otherwise: list[TemplatePart] | None
    span: Span
    markers: tuple[bool, bool, bool, bool, bool, bool] = (False,) * 6


@dataclass(slots=True, eq=False)
class TemplateFor:
    """`%{ for k, v in coll }...%{ endfor }`; ``markers`` as for :class:`TemplateIf`:
    `%{~ for`, `for ~}`, `%{~ endfor`, `endfor ~}`."""

    key_var: str | None
    value_var: str
    collection: Expr
    body: list[TemplatePart]
    span: Span
    markers: tuple[bool, bool, bool, bool] = (False,) * 4


TemplatePart: TypeAlias = TemplateText | Interpolation | TemplateIf | TemplateFor


@dataclass(slots=True, eq=False)
class Template:
    """A quoted string with `${ }` or `%{ }`, or any heredoc."""

    parts: list[TemplatePart]
    span: Span
    heredoc: str | None = None
    """The heredoc marker (`EOF`), or None for a quoted template."""
    flush: bool = False
    """True for `<<-` heredocs, whose common indentation is removed."""


@dataclass(slots=True, eq=False)
class Variable:
    name: str
    span: Span


@dataclass(slots=True, eq=False)
class GetAttr:
    name: str
    span: Span


@dataclass(slots=True, eq=False)
class Index:
    key: Expr
    span: Span


@dataclass(slots=True, eq=False)
class LegacyIndex:
    """`.0` — index written as an attribute, kept from HCL1."""

    index: int
    span: Span


@dataclass(slots=True, eq=False)
class Splat:
    """`.*` (attribute-only splat) or `[*]` (full splat)."""

    full: bool
    span: Span


Step: TypeAlias = GetAttr | Index | LegacyIndex | Splat


@dataclass(slots=True, eq=False)
class Traversal:
    """An expression followed by attribute accesses, indexes and splats."""

    source: Expr
    steps: list[Step]
    span: Span


@dataclass(slots=True, eq=False)
class FunctionCall:
    name: str
    name_span: Span
    args: list[Expr]
    span: Span
    expand_final: bool = False


@dataclass(slots=True, eq=False)
class Tuple:
    items: list[Expr]
    span: Span


@dataclass(slots=True, eq=False)
class ObjectItem:
    key: Expr
    value: Expr
    span: Span


@dataclass(slots=True, eq=False)
class Object:
    items: list[ObjectItem]
    span: Span


@dataclass(slots=True, eq=False)
class UnaryOp:
    op: str
    operand: Expr
    span: Span


@dataclass(slots=True, eq=False)
class BinaryOp:
    op: str
    left: Expr
    right: Expr
    span: Span


@dataclass(slots=True, eq=False)
class Conditional:
    condition: Expr
    true: Expr
    false: Expr
    span: Span


@dataclass(slots=True, eq=False)
class Parens:
    expr: Expr
    span: Span


@dataclass(slots=True, eq=False)
class ForExpr:
    """`[for v in xs : e if c]` (``key`` is None) or `{for k, v in m : k => v... if c}`."""

    key_var: str | None
    value_var: str
    collection: Expr
    key: Expr | None
    value: Expr
    condition: Expr | None
    grouping: bool
    span: Span


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


@dataclass(slots=True, eq=False)
class Attribute:
    name: str
    name_span: Span
    value: Expr
    span: Span
    leading: list[Comment] = field(default_factory=list)
    trailing: Comment | None = None


@dataclass(slots=True, eq=False)
class Label:
    value: str
    span: Span
    quoted: bool = True


@dataclass(slots=True, eq=False)
class Block:
    type: str
    type_span: Span
    labels: list[Label]
    body: Body
    span: Span
    leading: list[Comment] = field(default_factory=list)
    trailing: Comment | None = None


@dataclass(slots=True, eq=False)
class Body:
    items: list[Attribute | Block]
    span: Span

    def attributes(self) -> list[Attribute]:
        return [item for item in self.items if isinstance(item, Attribute)]

    def blocks(self, type: str | None = None) -> list[Block]:
        return [
            item for item in self.items if isinstance(item, Block) and (type is None or item.type == type)
        ]


@dataclass(slots=True, eq=False)
class File:
    body: Body
    comments: list[Comment]
    span: Span


Node: TypeAlias = File | Body | Attribute | Block | Label | Comment | Expr | ObjectItem | Step | TemplatePart
