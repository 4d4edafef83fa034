"""The machinery every function module shares: parameter specs, errors, conversions.

A function is a plain Python body plus a signature of :class:`Param` values. The
wrapper built by :func:`define` does what HCL and cty do around every call, in the same
order, so the body can assume well-typed arguments:

1. arity (HCL: "Not enough function arguments" / "Too many function arguments");
2. each argument converted to its parameter's type with cty's implicit conversions
   (numbers and bools become strings, numeric strings become numbers, tuples become
   lists or sets of one unified element type), nulls refused unless allowed;
3. the body runs; it reports problems by raising :class:`ArgError` (one argument is
   wrong) or :class:`CallError` (the call failed), which become HCL's messages:
   ``Invalid value for "str" parameter: ...`` and ``Call to function "f" failed: ...``;
4. every string in the result is NFC-normalised, as ``cty.StringVal`` does.

Errors leave as :class:`FunctionError` (an :class:`EvalError`): ``message`` is HCL's
diagnostic detail, word for word, ``summary`` its diagnostic summary and ``arg`` the
argument to point at. No other exception escapes a call.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from hclgpu.codes.base import Code
from hclgpu.eval.functions.bigfloat import text
from hclgpu.eval.values import EvalError, Value, equal, number, to_string
from hclgpu.numbers import NumberOutOfRange, parse_decimal

__all__ = [
    "MAX_RESULT_TEXT",
    "MAX_RESULT_VALUES",
    "WHOLE_NUMBER",
    "ArgError",
    "CallError",
    "ConversionError",
    "Function",
    "FunctionError",
    "Measured",
    "Param",
    "ResultTooLarge",
    "check_result",
    "define",
    "friendly_type",
    "go_quote",
    "measure",
    "nfc",
    "require_text",
    "require_values",
    "set_of",
    "to_int",
    "to_num",
    "to_str",
    "unify",
]

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
WHOLE_NUMBER = f"value must be a whole number, between {INT64_MIN} and {INT64_MAX}"
"""gocty's message when a number does not fit a Go ``int``."""

Kind: TypeAlias = Literal["any", "string", "number", "list_string", "list_any", "set_any"]


class FunctionError(EvalError):
    """A function call failed. ``message`` is HCL's detail text, ``summary`` its summary."""

    def __init__(self, message: str, arg: int | None = None, summary: str = "Error in function call") -> None:
        super().__init__(message, arg)
        self.summary = summary


class ConversionError(Exception):
    """A value does not convert to a parameter's type (cty's ``convert`` error text)."""


class ArgError(Exception):
    """Raised by a body: argument ``index`` is wrong (cty's ``function.NewArgError``)."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index
        self.message = message


class CallError(Exception):
    """Raised by a body: the call failed (a plain Go error). ``arg`` only locates it.

    ``code`` overrides the diagnostic code (HG107 when a file function is refused a path).
    """

    def __init__(self, message: str, arg: int | None = None, code: Code | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.arg = arg
        self.code = code


# --- the result budget --------------------------------------------------------------


class TooMuchWork(Exception):
    """A file past one of its evaluation budget's limits (:mod:`hclgpu.eval.budget`); the
    message says which. Passes through a function's wrapper untouched: the limit is the
    file's, not an error of the call."""


MAX_RESULT_TEXT = 16 * 1024 * 1024
"""The most characters a function's result holds in all its strings (the input limit)."""
MAX_RESULT_VALUES = 1_000_000
"""The most values a function's result holds, counting the elements of every level."""


class ResultTooLarge(CallError):
    """A result past the budget. Raised before the work where its size is known in advance
    (``format`` widths, ``indent``, ``setproduct``), otherwise once it is built. ``walked``:
    how many values a :func:`measure` that stopped here had looked at."""

    def __init__(self, walked: int = 0) -> None:
        super().__init__(
            f"the result would exceed hclgpu's limit for a function result: "
            f"{MAX_RESULT_TEXT // 2**20} MiB of text, {MAX_RESULT_VALUES:,} values"
        )
        self.walked = walked


def require_text(length: int) -> None:
    """Refuse to build a string of ``length`` characters past the budget."""
    if length > MAX_RESULT_TEXT:
        raise ResultTooLarge


def require_values(count: int) -> None:
    """Refuse to build a collection of ``count`` values past the budget."""
    if count > MAX_RESULT_VALUES:
        raise ResultTooLarge


Measured: TypeAlias = dict[int, tuple[Value, int, int]]
"""Containers already measured, by id: (the container, kept so its id stays its own;
its values; its characters)."""


def measure(value: Value, known: Measured | None = None) -> tuple[int, int, int]:
    """The values and characters ``value`` holds, and how many values the walk looked at;
    :class:`ResultTooLarge` as soon as it is past the budget.

    The walk counts shared parts each time they appear (a YAML alias, a list built from
    one value repeated), since every later step sees them expanded; a container in
    ``known`` counts as recorded there, without being walked again.
    """
    values = text = walked = 0
    stack = [value]
    while stack:
        item = stack.pop()
        walked += 1
        recorded = known.get(id(item)) if known and isinstance(item, (list, dict)) else None
        if recorded is not None:
            values, text = values + recorded[1], text + recorded[2]
            if values + len(stack) > MAX_RESULT_VALUES:
                raise ResultTooLarge(walked)
            continue
        values += 1
        if isinstance(item, str):
            text += len(item)
        elif isinstance(item, (list, dict)):
            if values + len(stack) + len(item) > MAX_RESULT_VALUES:  # each element is a value
                raise ResultTooLarge(walked)
            if isinstance(item, dict):
                text += sum(len(key) for key in item)
            stack.extend(item.values() if isinstance(item, dict) else item)
        if text > MAX_RESULT_TEXT:
            raise ResultTooLarge(walked)
    return values, text, walked


def check_result(value: Value) -> None:
    """Measure a result against the budget (see :func:`measure`)."""
    if isinstance(value, str):
        require_text(len(value))
    elif isinstance(value, (list, dict)):
        measure(value)


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter: its name (used in messages), the type it converts to, nullability."""

    name: str
    kind: Kind = "any"
    allow_null: bool = False


@dataclass(frozen=True, slots=True)
class Function:
    """A callable HCL function. ``impl`` takes evaluated values positionally."""

    name: str
    impl: Callable[..., Value]
    min_args: int
    max_args: int | None
    params: tuple[Param, ...] = ()
    var_param: Param | None = None

    def check_arity(self, count: int) -> str | None:
        """None when ``count`` arguments are acceptable, else HCL's message."""
        qualifier = " at least" if self.var_param is not None else ""
        if count < len(self.params):
            missing = self.params[count].name
            return (
                f'Not enough function arguments: Function "{self.name}" expects{qualifier} '
                f'{len(self.params)} argument(s). Missing value for "{missing}".'
            )
        if self.var_param is None and count > len(self.params):
            return (
                f'Too many function arguments: Function "{self.name}" expects only '
                f"{len(self.params)} argument(s)."
            )
        return None

    def param(self, index: int) -> Param:
        """The parameter that argument ``index`` binds to (the variadic one past the end)."""
        if index < len(self.params):
            return self.params[index]
        if self.var_param is not None:
            return self.var_param
        return Param(f"arg{index}")


def define(
    name: str,
    body: Callable[..., Value],
    *params: Param,
    var: Param | None = None,
) -> Function:
    """Wrap ``body`` with HCL's call protocol (see the module docstring)."""
    holder: list[Function] = []

    def impl(*args: Value) -> Value:
        """Call ``body`` the way HCL calls a cty function."""
        return _invoke(holder[0], body, args)

    function = Function(name, impl, len(params), None if var else len(params), tuple(params), var)
    holder.append(function)
    return function


def _invoke(function: Function, body: Callable[..., Value], args: Sequence[Value]) -> Value:
    """Check, convert, call and translate errors, as ``hclsyntax.FunctionCallExpr`` does."""
    problem = function.check_arity(len(args))
    if problem is not None:
        raise FunctionError(problem, summary=problem.split(":", 1)[0])
    converted = [_convert_arg(function, index, value) for index, value in enumerate(args)]
    try:
        result = body(*converted)
        check_result(result)  # before nfc, which would copy an oversized result
        return nfc(result)
    except (FunctionError, TooMuchWork):
        raise
    except ArgError as exc:
        error = _arg_error(function, exc.index, exc.message)
        if exc.index >= len(args):  # HCL then points at the whole call
            error.arg = None
        raise error from None
    except CallError as exc:
        raise _call_error(function, exc.message, exc.arg, exc.code) from None
    except EvalError as exc:
        raise _call_error(function, exc.message, exc.arg) from None
    except RecursionError:
        raise _call_error(function, "the value is nested too deeply") from None
    except Exception as exc:  # a body must never leak a Python exception
        raise _call_error(function, f"panic in function implementation: {exc}") from None


def _convert_arg(function: Function, index: int, value: Value) -> Value:
    """Convert one argument, reporting failures against its parameter."""
    param = function.param(index)
    try:
        return convert(value, param)
    except ConversionError as exc:
        raise _arg_error(function, index, str(exc)) from None


def _arg_error(function: Function, index: int, message: str) -> FunctionError:
    """HCL's "Invalid function argument" diagnostic detail."""
    name = function.param(index).name
    return FunctionError(
        f'Invalid value for "{name}" parameter: {message}.', arg=index, summary="Invalid function argument"
    )


def _call_error(
    function: Function, message: str, arg: int | None = None, code: Code | None = None
) -> FunctionError:
    """HCL's "Error in function call" diagnostic detail."""
    error = FunctionError(f'Call to function "{function.name}" failed: {message}.', arg=arg)
    error.code = code
    return error


# --- conversions -------------------------------------------------------------------


def convert(value: Value, param: Param) -> Value:
    """cty's conversion of an argument to a parameter type, with its error text."""
    if value is None:
        if param.allow_null:
            return None
        raise ConversionError("argument must not be null")
    kind = param.kind
    if kind == "any":
        return value
    if kind == "string":
        return to_str(value)
    if kind == "number":
        return to_num(value)
    if not isinstance(value, list):
        noun = {"list_string": "list of string", "list_any": "list of any single type"}
        raise ConversionError(f"{noun.get(kind, 'set of any single type')} required")
    if kind == "list_string":
        return [_element_str(index, item) for index, item in enumerate(value)]
    try:
        unified = unify(value)
    except ConversionError:
        collection = "list" if kind == "list_any" else "set"
        raise ConversionError(f"all {collection} elements must have the same type") from None
    return unified if kind == "list_any" else set_of(unified)


def _element_str(index: int, item: Value) -> Value:
    """One element of a ``list(string)`` argument; nulls stay null, as in cty."""
    if item is None:
        return None
    try:
        return to_str(item)
    except ConversionError as exc:
        raise ConversionError(f"element {index}: {exc}") from None


def to_str(value: Value) -> str:
    """cty's conversion to string (bools and numbers convert), with a parameter's messages."""
    if value is None:
        raise ConversionError("argument must not be null")
    if isinstance(value, (list, dict)):
        raise ConversionError("string required")
    return to_string(value)


_NUMBER_TEXT = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_INFINITY_TEXT = re.compile(r"[-+]?[iI]nf")


def to_num(value: Value) -> int | float:
    """cty's conversion to number: numbers, and strings that ``big.ParseFloat`` accepts."""
    if isinstance(value, bool):
        raise ConversionError("number required")
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        if _NUMBER_TEXT.fullmatch(value):
            try:
                return number(parse_decimal(value))
            except NumberOutOfRange as error:
                raise ConversionError(str(error)) from error
        if _INFINITY_TEXT.fullmatch(value):
            return -math.inf if value.startswith("-") else math.inf
        raise ConversionError("a number is required")
    if value is None:
        raise ConversionError("argument must not be null")
    raise ConversionError("number required")


def to_int(value: int | float) -> int:
    """gocty's conversion of a number to a Go ``int``: whole and within 64 bits."""
    if isinstance(value, float) and not value.is_integer():
        raise ValueError(WHOLE_NUMBER)
    whole = int(value) if not (isinstance(value, float) and math.isinf(value)) else INT64_MAX + 1
    if not INT64_MIN <= whole <= INT64_MAX:
        raise ValueError(WHOLE_NUMBER)
    return whole


def whole(value: int | float, index: int | None = None, prefix: str = "") -> int:
    """:func:`to_int` raising the call error cty raises (an argument error with ``index``)."""
    try:
        return to_int(value)
    except ValueError as exc:
        if index is None:
            raise CallError(prefix + str(exc)) from None
        raise ArgError(index, prefix + str(exc)) from None


# --- type unification and sets -------------------------------------------------------


def _kind_of(value: Value) -> str | None:
    """The coarse cty kind of a value; None for null (which unifies with anything)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "list" if isinstance(value, list) else "map"


_PRIMITIVE = frozenset({"bool", "number", "string"})


def unify(values: list[Value]) -> list[Value]:
    """Convert values to one common type, as ``convert.UnifyUnsafe`` then ``Convert``.

    Mixed primitives unify to string when a string is among them (number and bool alone
    do not unify); sequences unify element-wise when of equal length, else all their
    elements together; maps likewise by key. Raises :class:`ConversionError` otherwise.
    """
    kinds = {_kind_of(v) for v in values} - {None}
    if len(kinds) <= 1 and kinds <= _PRIMITIVE:
        return values
    if kinds <= _PRIMITIVE:
        if "string" not in kinds:
            raise ConversionError("no common type")
        return [None if v is None else to_str(v) for v in values]
    if kinds == {"list"}:
        return _unify_lists(values)
    if kinds == {"map"}:
        return _unify_maps(values)
    raise ConversionError("no common type")


def _unify_lists(values: list[Value]) -> list[Value]:
    """Sequences: element-wise when all have one length, else as a single list type."""
    present = [v for v in values if v is not None]
    if len({len(v) for v in present}) == 1:
        columns = [unify([v[i] for v in present]) for i in range(len(present[0]))]
        rows = iter([[column[j] for column in columns] for j in range(len(present))])
    else:
        flat = unify([item for v in present for item in v])
        pieces, start = [], 0
        for v in present:
            pieces.append(flat[start : start + len(v)])
            start += len(v)
        rows = iter(pieces)
    return [None if v is None else next(rows) for v in values]


def _unify_maps(values: list[Value]) -> list[Value]:
    """Maps/objects: attribute-wise when all share keys, else as a single map type."""
    present = [v for v in values if v is not None]
    keys = set(present[0])
    if all(set(v) == keys for v in present):
        columns = {k: unify([v[k] for v in present]) for k in keys}
        rows = iter([{k: columns[k][j] for k in present[j]} for j in range(len(present))])
    else:
        flat = unify([item for v in present for item in v.values()])
        pieces, start = [], 0
        for v in present:
            pieces.append(dict(zip(v, flat[start : start + len(v)], strict=True)))
            start += len(v)
        rows = iter(pieces)
    return [None if v is None else next(rows) for v in values]


def set_of(values: list[Value]) -> list[Value]:
    """A cty set: duplicates (by cty equality) removed, elements in cty's set order."""
    unique: list[Value] = []
    buckets: dict[bytes, list[Value]] = {}
    for value in values:
        bucket = buckets.setdefault(hash_bytes(value), [])
        if not any(equal(value, seen) for seen in bucket):
            bucket.append(value)
            unique.append(value)
    return sorted(unique, key=functools.cmp_to_key(_set_compare))


def _set_compare(left: Value, right: Value) -> int:
    """cty's ``setRules.Less``: nulls last; strings, numbers, bools by value; else by hash."""
    if left is None or right is None:
        return (left is None) - (right is None)
    kind = _kind_of(left)
    if kind in _PRIMITIVE and kind == _kind_of(right):
        return int(left > right) - int(left < right)
    a, b = hash_bytes(left), hash_bytes(right)
    return (a > b) - (a < b)


def hash_bytes(value: Value) -> bytes:
    """cty's ``makeSetHashBytes``, which orders set elements that have no natural order."""
    return _hash_text(value).encode("utf-8", "surrogatepass")


def _hash_text(value: Value) -> str:
    """The text behind :func:`hash_bytes` (objects as ``<...>``, sequences as ``[...]``)."""
    if value is None:
        return "~"
    if isinstance(value, bool):
        return "T" if value else "F"
    if isinstance(value, (int, float)):
        return text(value, "g", 10)
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, list):
        return "[" + "".join(_hash_text(v) + ";" for v in value) + "]"
    return "<" + "".join(_hash_text(value[k]) + ";" for k in sorted(value)) + ">"


# --- small shared helpers ----------------------------------------------------------


def friendly_type(value: Value) -> str:
    """cty's ``FriendlyName`` for the type a value would have in HCL."""
    kind = _kind_of(value)
    if kind is None:
        return "dynamic"
    return {"list": "tuple", "map": "object"}.get(kind, kind)


_GO_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}


def go_quote(value: str) -> str:
    """Go's ``strconv.Quote`` (the ``%q`` verb of Go's fmt on a string)."""
    if value.isprintable() and '"' not in value and "\\" not in value:
        return f'"{value}"'  # nothing to escape: most names and values
    out = ['"']
    for char in value:
        if char in '"\\':
            out.append("\\" + char)
        elif char.isprintable():
            out.append(char)
        elif char in _GO_ESCAPES:
            out.append(_GO_ESCAPES[char])
        else:
            code = ord(char)
            if code < 0x20 or code == 0x7F:
                out.append(f"\\x{code:02x}")
            elif code < 0x10000:
                out.append(f"\\u{code:04x}")
            else:
                out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


def go_quote_rune(char: str) -> str:
    """Go's ``strconv.QuoteRune`` (``%q`` of a single character)."""
    if char == "'":
        return "'\\''"
    if char == '"':
        return "'\"'"
    return "'" + go_quote(char)[1:-1] + "'"


def nfc(value: Value) -> Value:
    """NFC-normalise every string (and key) in a value, as ``cty.StringVal`` does."""
    if isinstance(value, str):
        if value.isascii():
            return value
        import unicodedata

        return unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        return [nfc(v) for v in value]
    if isinstance(value, dict):
        return {nfc(k): nfc(v) for k, v in value.items()}
    return value


def sorted_dict(value: dict[str, Any]) -> dict[str, Any]:
    """A dict with keys in cty's (lexical) attribute order."""
    return {k: value[k] for k in sorted(value)}
