"""The value model every evaluator module shares, and cty's implicit conversions.

HCL values are cty values. They are represented here by plain Python data so that
evaluation stays cheap and the results can be handed straight to the decoder:

=============  ===========================================================
cty            Python
=============  ===========================================================
string         ``str``
number         ``int`` when integral, else ``float`` (see :func:`number`)
bool           ``bool`` (always tested before numbers: ``bool`` is an ``int``)
null           ``None``
list / tuple   ``list``
set            ``list`` without duplicates, in cty's order (sorted)
map / object   ``dict`` with ``str`` keys
=============  ===========================================================

A reference Nomad resolves only at run time (``${node.unique.name}``,
``${NOMAD_ALLOC_DIR}``, ``device.model``) is an ordinary string holding its source
text wrapped in ``${ }``, exactly as jobspec2 keeps it.

Conversions follow go-cty's implicit ("safe and unsafe") conversions used when a
value reaches a function parameter or a typed field: numbers and bools become
strings, numeric strings become numbers, ``"true"``/``"false"`` become bools.
"""

from __future__ import annotations

import math
import re
from typing import Any, TypeAlias

from hclgpu.codes.base import Code
from hclgpu.numbers import BigFloat, NumberOutOfRange, fits, parse_decimal

Value: TypeAlias = Any
"""A cty value as Python data (see the module docstring)."""


class _Unset:
    """The value of a variable that has none, or whose declaration is broken.

    The problem is reported once where the variable is declared; every use of it
    then fails silently instead of repeating the error at each reference.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET = _Unset()


class EvalError(Exception):
    """A value cannot be used as asked. Carries a message in Nomad's words.

    ``arg`` is the 0-based index of the function argument at fault, when known, so
    the evaluator can point at that argument instead of the whole call.
    """

    def __init__(self, message: str, arg: int | None = None, code: Code | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.arg = arg
        self.code = code
        """The diagnostic code when it is not the caller's default (HG107 for file confinement)."""


_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")


def number(value: int | float) -> int | float:
    """Normalise a number: integral floats of a sane size become ints (cty has one number type).

    An integer result past hclgpu's bound is an error here, where it is computed, rather
    than a failure wherever it is later printed.
    """
    if isinstance(value, BigFloat):
        return value  # never a whole number that fits 64 bits (arithmetic() gives those as ints)
    if isinstance(value, float):
        if math.isnan(value):
            raise EvalError("the result is not a number (NaN)")
        if value.is_integer() and abs(value) < 2**63 and (value or math.copysign(1.0, value) > 0):
            return int(value)  # but -0 stays a float: big.Float keeps its sign, `-0` prints "-0"
    elif not fits(value):
        raise EvalError(str(NumberOutOfRange()))
    return value


SURROGATE = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate, which no UTF-8 text can hold."""


def _fix_text(text: str) -> str:
    return SURROGATE.sub("\ufffd", text) if SURROGATE.search(text) else text


def without_surrogates(value: Value) -> Value:
    """Decoded data as Go decodes it: a lone surrogate becomes U+FFFD, in strings and keys.

    Python's JSON parser keeps ``"\\ud800"`` as a lone surrogate and its command line
    keeps bytes that are not UTF-8 as surrogates; Go's decoders write U+FFFD for both,
    and no UTF-8 output could hold a surrogate. Lists and dicts are fixed in place (the
    caller has just decoded them), walked with a stack rather than recursion.
    """
    if isinstance(value, str):
        return _fix_text(value)
    stack = [value] if isinstance(value, (list, dict)) else []
    while stack:
        node = stack.pop()
        if isinstance(node, dict) and any(SURROGATE.search(key) for key in node):
            pairs = list(node.items())
            node.clear()
            node.update((_fix_text(key), item) for key, item in pairs)
        for key, item in list(node.items()) if isinstance(node, dict) else enumerate(node):
            if isinstance(item, str):
                node[key] = _fix_text(item)
            elif isinstance(item, (list, dict)):
                stack.append(item)
    return value


def type_name(value: Value) -> str:
    """The cty type name used in messages ("string", "number", "list of string", ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "tuple"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def format_number(value: int | float) -> str:
    """A number as cty writes it in a string: no exponent, no trailing zeros (1e-07 is 0.0000001)."""
    if isinstance(value, int):
        return str(value)
    if math.isinf(value) and not isinstance(value, BigFloat):
        return "+Inf" if value > 0 else "-Inf"
    from hclgpu.eval.functions.bigfloat import number_text

    return number_text(value)


def to_string(value: Value) -> str:
    """Convert to string as cty does; lists, maps and null cannot be."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return format_number(value)
    if value is None:
        raise EvalError("a null value cannot be used as a string")
    raise EvalError(f"string required, but have {type_name(value)}")


def to_number(value: Value) -> int | float:
    """Convert to number as cty does: numbers, and strings that spell a number."""
    if isinstance(value, bool):
        raise EvalError("number required, but have bool")
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        if _NUMBER.fullmatch(value):
            try:
                return number(parse_decimal(value))
            except NumberOutOfRange as error:
                raise EvalError(str(error)) from None
        raise EvalError(f"a number is required, but {value!r} is not a number")
    if value is None:
        raise EvalError("a null value cannot be used as a number")
    raise EvalError(f"number required, but have {type_name(value)}")


def to_bool(value: Value) -> bool:
    """Convert to bool as cty does: bools, and the strings "true" and "false"."""
    if isinstance(value, bool):
        return value
    if value == "true":
        return True
    if value == "false":
        return False
    if value is None:
        raise EvalError("a null value cannot be used as a bool")
    raise EvalError(f"bool required, but have {type_name(value)}")


def to_int(value: Value) -> int:
    """A whole number, as functions such as substr() and range() need."""
    n = to_number(value)
    if isinstance(n, float):
        if n == 0:
            return 0  # -0
        raise EvalError(f"value must be a whole number, got {format_number(n)}")
    return n


def to_list(value: Value) -> list[Value]:
    """A list, tuple or set; a map or object gives its values in key order (cty does this for sets)."""
    if isinstance(value, list):
        return value
    if value is None:
        raise EvalError("a null value cannot be used as a list")
    raise EvalError(f"list required, but have {type_name(value)}")


def to_map(value: Value) -> dict[str, Value]:
    """A map or object."""
    if isinstance(value, dict):
        return value
    if value is None:
        raise EvalError("a null value cannot be used as a map")
    raise EvalError(f"map required, but have {type_name(value)}")


def equal(left: Value, right: Value) -> bool:
    """cty equality: types must agree (``1 == "1"`` is false), numbers compare by value."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return left == right
    if type(left) is not type(right):
        return False
    if left is right and isinstance(left, (list, dict)):  # a local compared with itself
        return True
    if isinstance(left, list):
        return len(left) == len(right) and all(equal(a, b) for a, b in zip(left, right, strict=True))
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(equal(left[k], right[k]) for k in left)
    return bool(left == right)
