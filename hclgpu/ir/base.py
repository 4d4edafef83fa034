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

Why :class:`Node` is not a pydantic model: the decoder builds every model from values it
has already converted and checked against the Go types, so validation never runs on the
hot path, and pydantic's class construction alone (its import and the 72 model classes)
was half of a cold ``hclgpu check``. A node keeps pydantic's surface where the code reads
it (``model_fields`` with ``alias``/``annotation``/``metadata``/``default``,
``model_fields_set``, ``model_copy``, ``model_dump``). API JSON, which is untrusted, is
validated with pydantic models derived from these on first use (:mod:`hclgpu.ir.validate`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import UnionType
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self, TypeVar, Union, get_args, get_origin

from hclgpu.source import Span

if TYPE_CHECKING:
    from typing import Annotated as Annotated
else:

    class Annotated:
        """``typing.Annotated`` as the models' class bodies need it when they run: the type
        and its markers, kept as written. Making a ``typing.Annotated`` costs about 10 µs, and
        the models declare 400 fields at every start of a command that reads a job. Type
        checkers see ``typing.Annotated``; :class:`Node` reads either."""

        __slots__ = ("__metadata__", "__origin__")

        def __class_getitem__(cls, parameters: tuple[Any, ...]) -> Annotated:
            marked = object.__new__(cls)
            marked.__origin__, *metadata = parameters
            marked.__metadata__ = tuple(metadata)
            return marked


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


_MISSING: Any = type("_Missing", (), {"__repr__": lambda self: "<missing>"})()


class FieldInfo:
    """One field of a model: what pydantic's ``FieldInfo`` says of it that the code reads."""

    __slots__ = ("alias", "annotation", "default", "default_factory", "exclude", "metadata", "repr")

    def __init__(
        self,
        default: Any = _MISSING,
        *,
        alias: str | None = None,
        default_factory: Any = None,
        exclude: bool = False,
        repr: bool = True,
    ) -> None:
        self.default, self.alias, self.default_factory = default, alias, default_factory
        self.exclude, self.repr = exclude, repr
        self.annotation: Any = Any
        self.metadata: list[Any] = []

    def __repr__(self) -> str:
        return f"FieldInfo(annotation={self.annotation!r}, default={self.default!r}, alias={self.alias!r})"


def Field(default: Any = _MISSING, **options: Any) -> Any:
    """A field's default and alias, as pydantic's ``Field`` declares them (typed ``Any``, so
    that ``count: int = Field(0, alias="Count")`` reads as the annotation says)."""
    return FieldInfo(default, **options)


class _ModelClass(type):
    """The models' metaclass: only so that a model class, as a cache key, is seen as what
    every class is, hashable (a model's instances compare by value and are not)."""


class Node(metaclass=_ModelClass):
    """Base of every IR model: its fields in a plain ``__dict__``, the source span beside them.

    The decoder builds models with :meth:`build` (values are already converted), so
    construction costs no validation; ``span`` is excluded from every dump.
    """

    __slots__ = ("__dict__", "model_fields_set")

    model_fields: ClassVar[dict[str, FieldInfo]]
    """Every field, the base's ``span`` first, then in declaration order."""
    _own_fields: ClassVar[dict[str, FieldInfo]]
    model_fields_set: set[str]
    """The fields the file (or the input) set, as pydantic's ``model_fields_set``."""

    span: Span | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Collect the class's fields from its annotations (real objects, not strings: the
        models module does not postpone them) and its ``Field(...)`` defaults."""
        super().__init_subclass__(**kwargs)
        fields = {
            name: info for base in reversed(cls.__mro__[1:]) for name, info in _own_fields(base).items()
        }
        own: dict[str, FieldInfo] = {}
        for name, annotation in inspect.get_annotations(cls).items():
            origin: Any = get_origin(annotation)
            if name.startswith("_") or origin is ClassVar:
                continue
            value = cls.__dict__.get(name, _MISSING)
            info = value if isinstance(value, FieldInfo) else FieldInfo(value)
            metadata = getattr(annotation, "__metadata__", None)  # typing's Annotated or ours
            if metadata is not None:
                info.annotation, info.metadata = annotation.__origin__, list(metadata)
            else:
                info.annotation = annotation
            own[name] = info
            if name in cls.__dict__:
                delattr(cls, name)  # the instance's __dict__ answers, never a class default
        cls._own_fields = own
        cls.model_fields = {**fields, **own}

    def __init__(self, **values: Any) -> None:
        """Construct from field names or Go names (aliases), defaults filled in, no validation."""
        names = _names_by_alias(type(self))
        chosen = {}
        for key, value in values.items():
            name = key if key in type(self).model_fields else names.get(key)
            if name is None:
                raise TypeError(f"{type(self).__name__} has no field {key!r}")
            chosen[name] = value
        _fill(self, type(self), chosen)

    @classmethod
    def build(cls, **values: Any) -> Self:
        """Construct from already converted values, defaults filled in, no validation: a
        1 MB job builds thousands of models, and the defaults of each class are read once."""
        node = cls.__new__(cls)
        _fill(node, cls, values)
        return node

    @classmethod
    def model_construct(cls, **values: Any) -> Self:
        """:meth:`build`, by pydantic's name."""
        return cls.build(**values)

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy, shallow unless ``deep``, with ``update``'s fields replaced."""
        copied: Self = _copied(self) if deep else _shallow(self)
        if update:
            copied.__dict__.update(update)
            copied.model_fields_set.update(update)
        return copied

    def tree_copy(self) -> Self:
        """A deep copy of this node and everything under it, spans shared.

        The same result as ``model_copy(deep=True)`` for an IR tree (nodes, lists, dicts
        and immutable leaves), several times faster than ``copy.deepcopy``, which keeps a
        memo of every object it meets that an acyclic tree never needs: a 1 MB job is
        copied twice on every check (the agent's defaults, the server's mutators)."""
        copied: Self = _copied(self)
        return copied

    def model_dump(
        self,
        *,
        mode: Literal["python", "json"] = "python",
        by_alias: bool = False,
        exclude_none: bool = False,
        exclude: set[str] | None = None,
    ) -> dict[str, Any]:
        """The fields as a dict, nested models as dicts, as pydantic's ``model_dump`` gives
        them (``exclude`` names top-level fields; ``span`` is never dumped)."""
        dumped: dict[str, Any] = _dumped(self, by_alias, exclude_none, exclude or set())
        return dumped

    def __setattr__(self, name: str, value: Any) -> None:
        """Set a field, and count it as set (as pydantic does): a label the decoder sets
        after building, a default a canonicalisation fills in."""
        self.__dict__[name] = value
        self.model_fields_set.add(name)

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        """(name, value) of each field, as iterating a pydantic model gives them."""
        yield from self.__dict__.items()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.__dict__ == other.__dict__

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name}={self.__dict__.get(name)!r}"
            for name, info in type(self).model_fields.items()
            if info.repr
        )
        return f"{type(self).__name__}({shown})"


Node.model_fields = {"span": FieldInfo(None, exclude=True, repr=False)}
Node.model_fields["span"].annotation = Span | None
Node._own_fields = Node.model_fields


def _own_fields(base: type) -> dict[str, FieldInfo]:
    own: dict[str, FieldInfo] = base.__dict__.get("_own_fields", {})
    return own


_ALIASES: dict[type[Node], dict[str, str]] = {}


def _names_by_alias(model: type[Node]) -> dict[str, str]:
    names = _ALIASES.get(model)
    if names is None:
        names = _ALIASES[model] = {
            info.alias: name for name, info in model.model_fields.items() if info.alias
        }
    return names


def _fill(node: Node, model: type[Node], values: dict[str, Any]) -> None:
    defaults = _DEFAULTS.get(model)
    if defaults is None:
        defaults = _DEFAULTS[model] = _defaults_of(model)
    plain, factories = defaults
    data = plain.copy()  # every field in declaration order; a value given keeps that place
    data.update(values)
    for name, factory in factories:
        if name not in values:
            data[name] = factory()
    _set = object.__setattr__
    _set(node, "__dict__", data)
    _set(node, "model_fields_set", set(values))


def _shallow(node: Node) -> Any:
    copied = object.__new__(type(node))
    _set = object.__setattr__
    _set(copied, "__dict__", dict(node.__dict__))
    _set(copied, "model_fields_set", set(node.model_fields_set))
    return copied


def _dumped(value: Any, by_alias: bool, exclude_none: bool, exclude: set[str]) -> Any:
    if isinstance(value, Node):
        out = {}
        for name, info in type(value).model_fields.items():
            if info.exclude or name in exclude:
                continue
            item = value.__dict__[name]
            if item is None and exclude_none:
                continue
            out[info.alias or name if by_alias else name] = _dumped(item, by_alias, exclude_none, set())
        return out
    if isinstance(value, list):
        return [_dumped(item, by_alias, exclude_none, set()) for item in value]
    if isinstance(value, dict):
        return {key: _dumped(item, by_alias, exclude_none, set()) for key, item in value.items()}
    return value


_LEAVES = frozenset({str, int, float, bool, type(None), Span})
"""Values a copy shares: immutable (a Span is never changed once built)."""


_SCALARS = frozenset({str, int, float, bool, Span})
_NESTED: dict[type[Node], tuple[str, ...]] = {}


def _nested_fields(model: type[Node]) -> tuple[str, ...]:
    """The fields of ``model`` that may hold a list, a dict or a node: those a copy must
    copy in turn (the others hold a scalar or None, by their annotation)."""
    nested = _NESTED.get(model)
    if nested is None:
        nested = _NESTED[model] = tuple(
            name for name, info in model.model_fields.items() if not _scalar(info.annotation)
        )
    return nested


def _scalar(annotation: Any) -> bool:
    if annotation in _SCALARS:
        return True
    if get_origin(annotation) in (Union, UnionType):
        return all(arg in _SCALARS or arg is type(None) for arg in get_args(annotation))
    return False


N = TypeVar("N", bound=Node)


def copied_toward(node: N, changed: frozenset[type[Node]]) -> N:
    """A copy of ``node`` in which every node of a ``changed`` model, and every node, list and
    dict on the way down to one, is new; everything else is shared with ``node``.

    What a pass that assigns fields only of ``changed`` models (and never changes a list or a
    dict in place) needs in order to leave ``node`` as it was, at a fraction of
    :meth:`Node.tree_copy`'s cost: the agent's defaults change about 40 of the models, and the
    constraints, ports, task configurations and the like beside them are shared."""
    plan = _PLANS.get(changed)
    if plan is None:
        plan = _PLANS[changed] = _plan_toward(changed)
    copied: N = _toward(node, plan)
    return copied


_PLANS: dict[frozenset[type[Node]], dict[type[Node], tuple[str, ...]]] = {}


def _plan_toward(changed: frozenset[type[Node]]) -> dict[type[Node], tuple[str, ...]]:
    """For each model that is ``changed`` or can hold one, the fields that can hold one."""
    models = _all_models()
    mentioned = {model: _models_in_fields(model) for model in models}
    reaching = set(changed)
    grown = True
    while grown:  # a fixed point: the models holding a field of a model already reaching
        grown = False
        for model in models:
            if model not in reaching and any(mentioned[model][name] & reaching for name in mentioned[model]):
                reaching.add(model)
                grown = True
    return {
        model: tuple(name for name, inner in mentioned[model].items() if inner & reaching)
        for model in reaching
    }


def _all_models() -> list[type[Node]]:
    found: list[type[Node]] = []
    pending = [Node]
    while pending:
        for model in pending.pop().__subclasses__():
            found.append(model)
            pending.append(model)
    return found


def _models_in_fields(model: type[Node]) -> dict[str, frozenset[type[Node]]]:
    """The models each field's annotation names, at any depth of lists, dicts and unions."""
    return {
        name: frozenset(_models_in(info.annotation))
        for name, info in model.model_fields.items()
        if name != "span"
    }


def _models_in(annotation: Any) -> Iterator[type[Node]]:
    if isinstance(annotation, type) and issubclass(annotation, Node):
        yield annotation
    for argument in get_args(annotation):
        yield from _models_in(argument)


def _toward(value: Any, plan: dict[type[Node], tuple[str, ...]]) -> Any:
    kind = type(value)
    if kind is list:
        return [_toward(item, plan) for item in value]
    if kind is dict:
        return {key: _toward(item, plan) for key, item in value.items()}
    names = plan.get(kind)
    if names is None:  # a leaf, or a node that holds nothing the pass changes
        return value
    fields = dict(value.__dict__)
    for name in names:
        item = fields.get(name)
        if item is not None:
            fields[name] = _toward(item, plan)
    node = object.__new__(kind)
    _set = object.__setattr__
    _set(node, "__dict__", fields)
    _set(node, "model_fields_set", set(value.model_fields_set))
    return node


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
        fields = dict(value.__dict__)
        nested = _nested_fields(kind)
        for name in nested if len(fields) == len(kind.model_fields) else fields:
            item = fields[name]
            if type(item) not in _LEAVES:
                fields[name] = _copied(item)
        _set = object.__setattr__
        _set(node, "__dict__", fields)
        _set(node, "model_fields_set", set(value.model_fields_set))
        return node
    if isinstance(value, (list, dict, set, tuple)):  # subclasses, sets and tuples: rare
        items = value.items() if isinstance(value, dict) else value
        copied = (
            [(k, _copied(v)) for k, v in items] if isinstance(value, dict) else [_copied(v) for v in items]
        )
        return type(value)(copied)
    return value


_Defaults = tuple[dict[str, Any], tuple[tuple[str, Callable[[], Any]], ...]]
_DEFAULTS: dict[type[Node], _Defaults] = {}


def _defaults_of(model: type[Node]) -> _Defaults:
    """Every field with its immutable default (None where a factory makes it, to hold its
    place), and the fields whose default is made afresh for each node: copying one dict and
    updating it is four times faster than choosing field by field."""
    plain: dict[str, Any] = {}
    factories: list[tuple[str, Callable[[], Any]]] = []
    for name, info in model.model_fields.items():
        plain[name] = None
        if info.default_factory is not None:
            factories.append((name, info.default_factory))
        elif isinstance(info.default, (list, dict, set)):
            factories.append((name, info.default.copy))
        else:
            plain[name] = info.default
    return plain, tuple(factories)
