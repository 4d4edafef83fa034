"""What every IR model shares, and the field metadata the decoder and the Nomad back end read.

Each model mirrors one struct of Nomad's ``api`` package. Fields are declared in the
Go struct's order (the Nomad back end emits them in declaration order), each with the
Go field name as its alias and, when HCL can set it, an :class:`Hcl` marker that says
how — the same information gohcl reads from the struct's ``hcl:"..."`` tag::

    class Constraint(Node):
        l_target: Annotated[str, Hcl("attribute")] = Field("", alias="LTarget")

Defaults follow Go: a pointer, slice or map field defaults to ``None`` (printed as
``null``), a plain ``string``/``int``/``bool`` to its zero value (``""``, ``0``,
``False``). A Go ``json:",omitempty"`` field carries ``Hcl(..., omitempty=True)`` or
:data:`OMIT_EMPTY` and is left out of the JSON when empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field

from hclgpu.source import Span

Kind = Literal["attr", "block", "label", "remain"]
GoType = Literal["", "duration", "int8", "uint64", "uint8", "uint16", "int64", "int", "float64", "any"]


@dataclass(frozen=True, slots=True)
class Hcl:
    """How HCL sets a field (gohcl's struct tag), plus the Go details the decoder needs.

    ``name``: the attribute/block name in HCL (empty for a label).
    ``kind``: ``attr`` (``hcl:"name,optional"``), ``block`` (``hcl:"name,block"``),
    ``label`` (``hcl:",label"``) or ``remain`` (``hcl:",remain"``).
    ``required``: gohcl's plain ``hcl:"name"`` tag (no ``,optional``): missing is an error.
    ``go``: the Go scalar type when it matters for conversion or range checks
    (``duration`` = ``time.Duration`` nanoseconds; ``int8`` wraps; unsigned types reject
    negatives; ``any`` = schemaless ``interface{}`` data).
    ``omitempty``: the Go json tag has ``omitempty``.
    """

    name: str = ""
    kind: Kind = "attr"
    required: bool = False
    go: GoType = ""
    omitempty: bool = False


@dataclass(frozen=True, slots=True)
class OmitEmpty:
    """Marker for a field with no HCL tag whose Go json tag has ``omitempty``."""


OMIT_EMPTY = OmitEmpty()


class Node(BaseModel):
    """Base of every IR model: keeps the source span, never validates on the hot path.

    The decoder builds models with ``model_construct`` (values are already converted),
    so construction costs no validation; ``span`` is excluded from every dump.
    """

    model_config = ConfigDict(
        populate_by_name=True,
        arbitrary_types_allowed=True,
        validate_assignment=False,
        extra="forbid",
        defer_build=True,
    )

    span: Span | None = Field(default=None, exclude=True, repr=False)

    @classmethod
    def build(cls, **values: Any) -> Self:
        """Construct from already converted values, defaults filled in, no validation.

        Equivalent to ``model_construct`` for field names, several times faster: a 1 MB
        job builds thousands of models, and the defaults of each class are read once.
        """
        defaults = _DEFAULTS.get(cls)
        if defaults is None:
            defaults = _DEFAULTS[cls] = _defaults_of(cls)
        data = {
            name: values[name] if name in values else (default() if factory else default)
            for name, (factory, default) in defaults.items()
        }
        node = cls.__new__(cls)
        _set = object.__setattr__
        _set(node, "__dict__", data)
        _set(node, "__pydantic_fields_set__", set(values))
        _set(node, "__pydantic_extra__", None)
        _set(node, "__pydantic_private__", None)
        return node

    def tree_copy(self) -> Self:
        """A deep copy of this node and everything under it, spans shared.

        The same result as ``model_copy(deep=True)`` for an IR tree (nodes, lists, dicts
        and immutable leaves), several times faster: ``copy.deepcopy`` keeps a memo of
        every object it meets, which an acyclic tree never needs, and a 1 MB job is
        copied twice on every check (the agent's defaults, the server's mutators)."""
        copied: Self = _copied(self)
        return copied


_LEAVES = frozenset({str, int, float, bool, type(None), Span})
"""Values a copy shares: immutable (a Span is never changed once built)."""


def _copied(value: Any) -> Any:
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is list:
        return [item if type(item) in _LEAVES else _copied(item) for item in value]
    if kind is dict:
        return {key: item if type(item) in _LEAVES else _copied(item) for key, item in value.items()}
    if isinstance(value, Node):
        node = object.__new__(kind)
        fields = {
            name: item if type(item) in _LEAVES else _copied(item) for name, item in value.__dict__.items()
        }
        _set = object.__setattr__
        _set(node, "__dict__", fields)
        _set(node, "__pydantic_fields_set__", set(value.__pydantic_fields_set__))
        _set(node, "__pydantic_extra__", None)
        _set(node, "__pydantic_private__", None)
        return node
    if isinstance(value, (list, dict, set, tuple)):  # subclasses, sets and tuples: rare
        items = value.items() if isinstance(value, dict) else value
        copied = (
            [(k, _copied(v)) for k, v in items] if isinstance(value, dict) else [_copied(v) for v in items]
        )
        return type(value)(copied)
    return value


_DEFAULTS: dict[type[Node], dict[str, tuple[bool, Any]]] = {}


def _defaults_of(model: type[Node]) -> dict[str, tuple[bool, Any]]:
    """Per field: (True, factory) or (False, an immutable default)."""
    out: dict[str, tuple[bool, Any]] = {}
    for name, info in model.model_fields.items():
        if info.default_factory is not None:
            out[name] = (True, info.default_factory)
        elif isinstance(info.default, (list, dict, set)):
            out[name] = (True, lambda value=info.default: value.copy())
        else:
            out[name] = (False, info.default)
    return out
