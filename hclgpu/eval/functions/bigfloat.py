"""Go's ``math/big`` number formatting, which cty uses for every number it prints.

cty numbers are arbitrary-precision ``big.Float`` values, and cty turns them into text
with ``Text('f', -1)`` (string conversion, JSON, YAML) or hands them to ``fmt.Sprintf``
(the ``format`` function). Python's own formatting differs in small ways that show up in
job files: no exponent padding (``1e+6`` vs Go's ``1e+06``), other rounding, ``%g``
thresholds. This module reproduces Go's algorithm on a decimal digit string.

A Python float stands for the shortest decimal that round-trips (its ``repr``), which is
what the job file's author wrote; cty keeps that literal at 512-bit precision, so using
the repr digits matches cty's output far better than the float's exact binary value. A
fractional literal, or a result of arithmetic on one, is a :class:`~hclgpu.numbers.BigFloat`,
which carries cty's 512-bit value and prints its digits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from hclgpu.numbers import BigFloat, is_negative

__all__ = ["GoDecimal", "format_float", "format_int", "number_text", "text"]


@dataclass(slots=True)
class GoDecimal:
    """A non-negative decimal ``0.mant × 10**exp``, as Go's ``big.decimal``."""

    mant: str
    """Significant digits, no leading or trailing zeros; empty for zero."""
    exp: int

    def at(self, index: int) -> str:
        """The digit at ``index``, or ``0`` outside the mantissa (Go's ``decimal.at``)."""
        return self.mant[index] if 0 <= index < len(self.mant) else "0"

    def trim(self) -> None:
        """Drop trailing zeros; zero has exponent 0 (Go's ``trim``)."""
        self.mant = self.mant.rstrip("0")
        if not self.mant:
            self.exp = 0

    def round(self, n: int) -> None:
        """Round to ``n`` digits, half to even on the exact digits (Go's ``decimal.round``)."""
        if n < 0 or n >= len(self.mant):
            return
        if self._should_round_up(n):
            self._round_up(n)
        else:
            self.mant = self.mant[:n]
            self.trim()

    def _should_round_up(self, n: int) -> bool:
        """Ties round to even only when the tie is exact (nothing follows the 5)."""
        if self.mant[n] == "5" and n + 1 == len(self.mant):
            return n > 0 and int(self.mant[n - 1]) % 2 == 1
        return self.mant[n] >= "5"

    def _round_up(self, n: int) -> None:
        """Increment the digit before ``n``, carrying through nines."""
        while n > 0 and self.mant[n - 1] == "9":
            n -= 1
        if n == 0:
            self.mant = "1"
            self.exp += 1
            return
        self.mant = self.mant[: n - 1] + chr(ord(self.mant[n - 1]) + 1)


def decimal_of(value: int | float) -> GoDecimal:
    """The decimal digits of ``|value|``: exact for ints, the shortest repr for floats."""
    if isinstance(value, int):
        digits, exp = str(abs(value)), len(str(abs(value)))
    elif isinstance(value, BigFloat):
        return GoDecimal(*value.digits())
    else:
        mantissa, _, exponent = repr(abs(value)).partition("e")
        whole, _, fraction = mantissa.partition(".")
        digits, exp = whole + fraction, len(whole) + (int(exponent) if exponent else 0)
    stripped = digits.lstrip("0")
    exp -= len(digits) - len(stripped)
    result = GoDecimal(stripped, exp)
    result.trim()
    return result


def _fmt_e(d: GoDecimal, letter: str, prec: int) -> str:
    """Go's ``fmtE``: one digit, ``prec`` more, and an exponent of at least two digits."""
    out = d.mant[0] if d.mant else "0"
    if prec > 0:
        out += "." + d.mant[1 : prec + 1].ljust(prec, "0")
    exp = d.exp - 1 if d.mant else 0
    sign = "-" if exp < 0 else "+"
    return f"{out}{letter}{sign}{abs(exp):02d}"


def _fmt_f(d: GoDecimal, prec: int) -> str:
    """Go's ``fmtF``: integer part padded with zeros, then ``prec`` fraction digits."""
    out = d.mant[: d.exp].ljust(d.exp, "0") if d.exp > 0 else "0"
    if prec > 0:
        out += "." + "".join(d.at(d.exp + i) for i in range(prec))
    return out


def _digits(d: GoDecimal, fmt: str, prec: int) -> str:
    """Go's ``Float.Append`` for one of ``e E f g G`` without the sign."""
    shortest = prec < 0
    if shortest:
        prec = {"e": len(d.mant) - 1, "f": max(len(d.mant) - d.exp, 0)}.get(fmt.lower(), len(d.mant))
    elif fmt in "eE":
        d.round(1 + prec)
    elif fmt == "f":
        d.round(d.exp + prec)
    else:
        prec = max(prec, 1)
        d.round(prec)
    if fmt in "eE":
        return _fmt_e(d, fmt, prec)
    if fmt == "f":
        return _fmt_f(d, prec)
    eprec = prec
    if eprec > len(d.mant) and len(d.mant) >= d.exp:
        eprec = len(d.mant)
    if shortest:
        eprec = 6
    exp = d.exp - 1
    if exp < -4 or exp >= eprec:
        return _fmt_e(d, "e" if fmt == "g" else "E", min(prec, len(d.mant)) - 1)
    if prec > d.exp:
        prec = len(d.mant)
    return _fmt_f(d, max(prec - d.exp, 0))


def text(value: int | float, fmt: str, prec: int = -1) -> str:
    """``big.Float.Text(fmt, prec)``: ``prec`` < 0 asks for the shortest exact digits."""
    if isinstance(value, float) and math.isinf(value) and not isinstance(value, BigFloat):
        return "+Inf" if value > 0 else "-Inf"
    body = _digits(decimal_of(value), fmt, prec)
    return "-" + body if is_negative(value) else body  # big.Float keeps -0's sign


def number_text(value: int | float) -> str:
    """A number as cty writes it in strings and JSON: ``Text('f', -1)``, never an exponent."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return text(value, "f")


def _pad(sign: str, body: str, flags: str, width: int | None, zero_ok: bool) -> str:
    """Width padding as ``big.Float.Format`` does it: zeros after the sign, or spaces."""
    padding = max((width or 0) - len(sign) - len(body), 0)
    if "0" in flags and zero_ok:
        return sign + "0" * padding + body
    if "-" in flags:
        return sign + body + " " * padding
    return " " * padding + sign + body


def format_float(value: int | float, verb: str, flags: str, width: int | None, prec: int | None) -> str:
    """``fmt.Sprintf`` of a ``*big.Float`` for the verbs ``e E f g G``."""
    if prec is None:
        prec = -1 if verb in "gG" else 6
    infinite = isinstance(value, float) and math.isinf(value)
    body = text(value, verb, prec)
    sign = ""
    if body[0] == "-":
        sign, body = "-", body[1:]
    elif body[0] == "+":
        sign, body = (" " if " " in flags else "+"), body[1:]
    elif "+" in flags:
        sign = "+"
    elif " " in flags:
        sign = " "
    return _pad(sign, body, flags, width, not infinite)


_PREFIX = {"b": "0b", "o": "0", "x": "0x", "X": "0X"}


def format_int(value: int, verb: str, flags: str, width: int | None, prec: int | None) -> str:
    """``fmt.Sprintf`` of a ``*big.Int`` for the verbs ``b d o x X`` (Go's ``Int.Format``)."""
    base = {"b": 2, "o": 8, "d": 10, "x": 16, "X": 16}[verb]
    digits = _to_base(abs(value), base)
    if verb == "X":
        digits = digits.upper()
    sign = "-" if value < 0 else "+" if "+" in flags else " " if " " in flags else ""
    prefix = _PREFIX.get(verb, "") if "#" in flags else ""
    zeros = 0
    if prec is not None:
        if len(digits) < prec:
            zeros = prec - len(digits)
        elif digits == "0" and prec == 0:
            return ""
    length = len(sign) + len(prefix) + zeros + len(digits)
    left = right = 0
    if width is not None and length < width:
        if "-" in flags:
            right = width - length
        elif "0" in flags and prec is None:
            zeros = width - length
        else:
            left = width - length
    return " " * left + sign + prefix + "0" * zeros + digits + " " * right


def _to_base(value: int, base: int) -> str:
    """Digits of a non-negative integer in base 2, 8, 10 or 16, lower case."""
    if base == 10:
        return str(value)
    return format(value, {2: "b", 8: "o", 16: "x"}[base])
