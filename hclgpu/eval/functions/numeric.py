"""Number functions from go-cty's stdlib (``number.go``, ``sequence.go``'s ``range``).

``log`` and ``pow`` compute in float64 with Go's special cases (``log(0)`` is -Inf,
``pow(0, -1)`` is +Inf) where Python's ``math`` raises; a NaN result is an error, as cty
cannot hold NaN. ``range`` steps in decimal arithmetic so ``range(0, 1, 0.1)`` yields
``0.3`` rather than ``0.30000000000000004``, as cty's big floats do.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from hclgpu.eval.functions.base import (
    ArgError,
    CallError,
    Function,
    Param,
    define,
    friendly_type,
    go_quote,
    whole,
)
from hclgpu.eval.values import Value, number
from hclgpu.numbers import MAX_DIGITS, NumberOutOfRange, fits

if TYPE_CHECKING:
    from decimal import Decimal

__all__ = ["TABLE"]

_NUM = Param("num", "number")
_NAN = "panic in function implementation: NewFloat(NaN)"


def _finite_result(value: float) -> int | float:
    """``cty.NumberFloatVal``: NaN is refused (cty panics), the rest is normalised."""
    if math.isnan(value):
        raise CallError(_NAN)
    return number(value)


def _abs(value: int | float) -> int | float:
    """The magnitude."""
    return abs(value)


def _ceil(value: int | float) -> int | float:
    """The smallest whole number not below ``value``; infinities stay."""
    return value if isinstance(value, int) or math.isinf(value) else math.ceil(value)


def _floor(value: int | float) -> int | float:
    """The largest whole number not above ``value``; infinities stay."""
    return value if isinstance(value, int) or math.isinf(value) else math.floor(value)


def _go_log(value: float) -> float:
    """Go's ``math.Log``: -Inf at zero, NaN below."""
    if value == 0:
        return -math.inf
    if value < 0 or math.isnan(value):
        return math.nan
    return math.log(value)


def _go_divide(left: float, right: float) -> float:
    """IEEE division, as Go does it (Python raises on a zero divisor)."""
    if right != 0:
        return left / right
    if left == 0 or math.isnan(left):
        return math.nan
    return math.copysign(math.inf, left) * math.copysign(1.0, right)


def _log(value: int | float, base: int | float) -> int | float:
    """``log(num) / log(base)`` in float64."""
    return _finite_result(_go_divide(_go_log(float(value)), _go_log(float(base))))


def _go_pow(base: float, exponent: float) -> float:
    """Go's ``math.Pow``, including its infinite and NaN special cases."""
    try:
        return math.pow(base, exponent)
    except OverflowError:
        odd = exponent.is_integer() and int(exponent) % 2 == 1
        return -math.inf if base < 0 and odd else math.inf
    except ValueError:
        if base == 0 and exponent < 0:
            odd = exponent.is_integer() and int(exponent) % 2 == 1
            return math.copysign(math.inf, base) if odd else math.inf
        return math.nan


def _pow(value: int | float, power: int | float) -> int | float:
    """``num`` raised to ``power``, in float64."""
    if isinstance(value, int) and isinstance(power, int) and 0 <= power <= 64 and abs(value) < 2**16:
        return number(float(value**power)) if abs(value**power) >= 2**53 else value**power
    return _finite_result(_go_pow(float(value), float(power)))


def _signum(value: int | float) -> int:
    """-1, 0 or 1; the argument must be a whole number (cty converts it to a Go int)."""
    whole_value = whole(value)
    return (whole_value > 0) - (whole_value < 0)


def _max(*numbers: int | float) -> int | float:
    """The greatest argument."""
    if not numbers:
        raise CallError("must pass at least one number")
    return max(numbers)


def _min(*numbers: int | float) -> int | float:
    """The smallest argument."""
    if not numbers:
        raise CallError("must pass at least one number")
    return min(numbers)


def _digit_value(char: str, base: int) -> int:
    """The value of one digit as Go's ``big.Int.SetString`` reads it, or -1."""
    if "0" <= char <= "9":
        return ord(char) - ord("0")
    if "a" <= char <= "z":
        return ord(char) - ord("a") + 10
    if "A" <= char <= "Z":
        return ord(char) - ord("A") + (10 if base <= 36 else 36)
    return -1


def _parseint(text: Value, base: int | float) -> int:
    """Go's ``big.Int.SetString(text, base)`` for bases 2 to 62: a sign, then digits only."""
    if not isinstance(text, str):
        raise ArgError(0, f"first argument must be a string, not {friendly_type(text)}")
    radix = whole(base, 1)
    if not 2 <= radix <= 62:
        raise ArgError(1, "base must be a whole number between 2 and 62 inclusive")
    sign, digits = (-1, text[1:]) if text.startswith("-") else (1, text.removeprefix("+"))
    values = [_digit_value(char, radix) for char in digits]
    if not digits or not all(0 <= digit < radix for digit in values):
        raise ArgError(0, f"cannot parse {go_quote(text)} as a base {radix} integer")
    if len(digits.lstrip("0")) * math.log10(radix) > MAX_DIGITS + 1:  # checked before the quadratic loop
        raise CallError(str(NumberOutOfRange()))
    result = 0
    for digit in values:
        result = result * radix + digit
    result *= sign
    if not fits(result):
        raise CallError(str(NumberOutOfRange()))
    return result


def _decimal(value: int | float) -> Decimal:
    """A number as an exact decimal of its literal digits."""
    from decimal import Decimal

    return Decimal(value) if isinstance(value, int) else Decimal(repr(value))


def _range(*params: int | float) -> list[int | float]:
    """``range(end)``, ``range(start, end)`` or ``range(start, end, step)``; at most 1024 values."""
    from decimal import Decimal

    if not 1 <= len(params) <= 3:
        raise CallError("must have one, two, or three arguments")
    values = [_decimal(p) for p in params]
    start, end = (Decimal(0), values[0]) if len(values) == 1 else (values[0], values[1])
    step = values[2] if len(values) == 3 else Decimal(-1 if end < start else 1)
    if step == 0:
        raise ArgError(2, "step must not be zero")
    down = step < 0
    if down and end > start:
        raise ArgError(1, "end must be less than start when step is negative")
    if not down and end < start:
        raise ArgError(1, "end must be greater than start when step is positive")
    result: list[int | float] = []
    current = start
    while (current > end) if down else (current < end):
        if len(result) >= 1024:
            raise CallError(
                "more than 1024 values were generated; either decrease the difference "
                "between start and end or use a smaller step"
            )
        result.append(int(current) if current == current.to_integral_value() else number(float(current)))
        current += step
    return result


TABLE: tuple[Function, ...] = (
    define("abs", _abs, _NUM),
    define("ceil", _ceil, _NUM),
    define("floor", _floor, _NUM),
    define("log", _log, _NUM, Param("base", "number")),
    define("pow", _pow, _NUM, Param("power", "number")),
    define("signum", _signum, _NUM),
    define("max", _max, var=Param("numbers", "number")),
    define("min", _min, var=Param("numbers", "number")),
    define("parseint", _parseint, Param("number"), Param("base", "number")),
    define("range", _range, var=Param("params", "number")),
)
