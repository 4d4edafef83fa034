"""Validating untrusted API JSON into IR models, with pydantic.

The IR models (:mod:`hclgpu.ir.models`) are plain classes that never validate: the decoder
has already converted every value. API JSON from a file or a server (``hclgpu import``) is
another matter: each value must have its field's type, nested objects must be the nested
models, and an unknown key is an error. For that, each IR model gets a pydantic twin on
first use, with the same fields, aliases, defaults and annotations (nested models replaced
by their twins); the validated twin is then copied into the IR model, with the fields the
input set. Importing pydantic is thereby paid only by the commands that read API JSON.
"""

from __future__ import annotations

import types
import typing
from functools import cache
from typing import TYPE_CHECKING, Any, Union, get_args, get_origin

from hclgpu.ir.base import Node

if TYPE_CHECKING:
    from pydantic import BaseModel

N = typing.TypeVar("N", bound=Node)


def validate(model: type[N], data: Any) -> N:
    """``data`` (Go field names, or Python names) as a ``model``; pydantic's
    ``ValidationError`` (a ``ValueError``) when it is not one."""
    checked = _twin(model).model_validate(data)
    node: N = _from_twin(checked)
    return node


@cache
def _twin(model: type[Node]) -> type[BaseModel]:
    """The pydantic model with ``model``'s fields, nested models replaced by their twins."""
    from pydantic import ConfigDict, Field, create_model

    config = ConfigDict(populate_by_name=True, arbitrary_types_allowed=True, extra="forbid")
    fields: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        if name == "span":
            continue
        annotation = _twin_type(info.annotation)
        if info.metadata:
            annotation = typing.Annotated[(annotation, *info.metadata)]
        default = (
            Field(default_factory=info.default_factory, alias=info.alias)
            if info.default_factory is not None
            else Field(info.default, alias=info.alias)
        )
        fields[name] = (annotation, default)
    twin: type[BaseModel] = create_model(
        f"{model.__name__}Twin", __config__=config, __module__=__name__, **fields
    )
    twin.__hclgpu_model__ = model  # type: ignore[attr-defined]
    return twin


def _twin_type(annotation: Any) -> Any:
    """``annotation`` with every IR model in it replaced by its twin."""
    if isinstance(annotation, type) and issubclass(annotation, Node):
        return _twin(annotation)
    origin, args = get_origin(annotation), get_args(annotation)
    if not args:
        return annotation
    replaced = tuple(_twin_type(arg) for arg in args)
    if origin in (types.UnionType, Union):
        return Union[replaced]  # noqa: UP007 - built from a tuple
    if origin is list:
        return list[replaced[0]]  # type: ignore[valid-type]
    if origin is dict:
        return dict[replaced[0], replaced[1]]  # type: ignore[valid-type]
    return annotation


def _from_twin(value: Any) -> Any:
    """A validated twin (and everything in it) as IR models."""
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        model: type[Node] = type(value).__hclgpu_model__  # type: ignore[attr-defined]
        values = {name: _from_twin(getattr(value, name)) for name in type(value).model_fields}
        node = model.build(**values)
        object.__setattr__(node, "model_fields_set", set(value.model_fields_set))
        return node
    if isinstance(value, list):
        return [_from_twin(item) for item in value]
    if isinstance(value, dict):
        return {key: _from_twin(item) for key, item in value.items()}
    return value
