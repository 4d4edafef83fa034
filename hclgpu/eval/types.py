"""Type constraints (`type = list(string)`) and cty's conversion of values to them.

A type is a small immutable tuple: ``("string",)``, ``("list", elem)``,
``("object", {"a": T}, optional_names)``, ``("tuple", (T, ...))`` and so on, so it
can be compared and used as a dict key. Conversion follows go-cty's ``convert``: a
null converts to any type and stays null; primitives convert between each other
where cty allows; collections convert element by element.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from hclgpu.eval.values import EvalError, Value, to_bool, to_number, to_string, type_name
from hclgpu.syntax import ast

Type: TypeAlias = tuple[Any, ...]

STRING: Type = ("string",)
NUMBER: Type = ("number",)
BOOL: Type = ("bool",)
ANY: Type = ("any",)

_PRIMITIVES = {"string": STRING, "number": NUMBER, "bool": BOOL, "any": ANY}
_COLLECTIONS = ("list", "set", "map")


class TypeExprError(Exception):
    """A type expression is malformed; carries the span of the offending part."""

    def __init__(self, message: str, node: ast.Expr) -> None:
        super().__init__(message)
        self.message = message
        self.node = node


def parse_type(expr: ast.Expr, constraint: bool = True) -> Type:
    """Read a type expression as HCL's typeexpr package does (`list(string)`, `object({...})`).

    A variable's `type` is an exact type (``constraint=False``, typeexpr.Type): `any` and
    `optional(...)` are refused there, as in Nomad; `convert()` takes a type constraint.
    """
    if isinstance(expr, ast.Variable):
        if expr.name == "any" and not constraint:
            raise TypeExprError(
                'The keyword "any" cannot be used in this type specification: an exact type is required.',
                expr,
            )
        if expr.name in _PRIMITIVES:
            return _PRIMITIVES[expr.name]
        if expr.name in _COLLECTIONS:
            raise TypeExprError(
                f"The {expr.name} type constructor requires one argument specifying the element type.", expr
            )
        raise TypeExprError(f"The keyword {expr.name!r} is not a valid type specification.", expr)
    if isinstance(expr, ast.FunctionCall):
        return _parse_constructor(expr, constraint)
    if isinstance(expr, ast.Parens):
        return parse_type(expr.expr, constraint)
    raise TypeExprError(
        "A type specification is a primitive type keyword (bool, number, string) "
        "or a complex type constructor call, like list(string).",
        expr,
    )


def _parse_constructor(call: ast.FunctionCall, constraint: bool) -> Type:
    name = call.name
    if name in _COLLECTIONS:
        if len(call.args) != 1:
            raise TypeExprError(
                f"The {name} type constructor requires one argument specifying the element type.", call
            )
        return (name, parse_type(call.args[0], constraint))
    if name == "tuple":
        if len(call.args) != 1 or not isinstance(call.args[0], ast.Tuple):
            raise TypeExprError(
                "The tuple type constructor requires one argument specifying the element types as a list.",
                call,
            )
        return ("tuple", tuple(parse_type(item, constraint) for item in call.args[0].items))
    if name == "object":
        if len(call.args) != 1 or not isinstance(call.args[0], ast.Object):
            raise TypeExprError(
                "The object type constructor requires one argument specifying the attribute types as a map.",
                call,
            )
        return _parse_object(call.args[0], constraint)
    raise TypeExprError(f"Keyword {name!r} is not a valid type constructor.", call)


def _parse_object(obj: ast.Object, constraint: bool) -> Type:
    attrs: dict[str, Type] = {}
    optional: set[str] = set()
    for item in obj.items:
        key = item.key
        if isinstance(key, ast.Variable):
            name = key.name
        elif isinstance(key, ast.Literal) and isinstance(key.value, str):
            name = key.value
        else:
            raise TypeExprError("Object constructor map keys must be attribute names.", key)
        value = item.value
        if isinstance(value, ast.FunctionCall) and value.name == "optional":
            if not constraint:
                raise TypeExprError("Optional attribute modifier is only for type constraints.", value)
            if len(value.args) != 1:
                raise TypeExprError(
                    "The optional modifier takes exactly one argument: the attribute's type.", value
                )
            optional.add(name)
            value = value.args[0]
        attrs[name] = parse_type(value, constraint)
    return ("object", attrs, frozenset(optional))


def describe(t: Type) -> str:
    """A type in cty's words: `list of string`, `map of number`, `object`."""
    kind = t[0]
    if kind in _COLLECTIONS:
        return f"{kind} of {describe(t[1])}"
    if kind == "any":
        return "any type"
    return str(kind)


def convert(value: Value, t: Type) -> Value:
    """Convert ``value`` to type ``t`` or raise :class:`EvalError` saying why not."""
    if value is None or t[0] == "any":
        return value
    kind = t[0]
    if kind == "string":
        if isinstance(value, (list, dict)):
            raise EvalError(f"string required, but have {type_name(value)}")
        return to_string(value)
    if kind == "number":
        if isinstance(value, (list, dict)):
            raise EvalError(f"number required, but have {type_name(value)}")
        return to_number(value)
    if kind == "bool":
        if isinstance(value, (list, dict)):
            raise EvalError(f"bool required, but have {type_name(value)}")
        return to_bool(value)
    if kind in ("list", "set"):
        return _convert_sequence(value, t)
    if kind == "map":
        if not isinstance(value, dict):
            raise EvalError(f"{describe(t)} required, but have {type_name(value)}")
        return {k: _element(v, t[1], k) for k, v in value.items()}
    if kind == "tuple":
        return _convert_tuple(value, t)
    return _convert_object(value, t)


def _element(value: Value, t: Type, where: object) -> Value:
    try:
        return convert(value, t)
    except EvalError as error:
        label = f"[{where!r}]" if isinstance(where, str) else f"[{where}]"
        raise EvalError(f"element {label}: {error.message}") from None


def _convert_sequence(value: Value, t: Type) -> Value:
    if not isinstance(value, list):
        raise EvalError(f"{describe(t)} required, but have {type_name(value)}")
    items = [_element(item, t[1], i) for i, item in enumerate(value)]
    if t[0] == "set":
        unique: list[Value] = []
        for item in items:
            if item not in unique:
                unique.append(item)
        try:
            return sorted(unique)
        except TypeError:
            return unique
    return items


def _convert_tuple(value: Value, t: Type) -> Value:
    if not isinstance(value, list):
        raise EvalError(f"tuple required, but have {type_name(value)}")
    if len(value) != len(t[1]):
        raise EvalError(f"tuple required with {len(t[1])} elements, but have {len(value)}")
    return [_element(item, et, i) for i, (item, et) in enumerate(zip(value, t[1], strict=True))]


def _convert_object(value: Value, t: Type) -> Value:
    _, attrs, optional = t
    if not isinstance(value, dict):
        raise EvalError(f"object required, but have {type_name(value)}")
    result: dict[str, Value] = {}
    for name, attr_type in attrs.items():
        if name in value:
            try:
                result[name] = convert(value[name], attr_type)
            except EvalError as error:
                raise EvalError(f"attribute {name!r}: {error.message}") from None
        elif name in optional:
            result[name] = None
        else:
            raise EvalError(f"attribute {name!r} is required")
    return result
