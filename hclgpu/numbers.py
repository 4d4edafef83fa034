"""How large a number hclgpu holds, and reading decimal text within that bound.

cty keeps every number as an arbitrary-precision ``big.Float``; hclgpu holds exact Python
integers and float64 values. Integers are bounded at :data:`MAX_DIGITS` decimal digits:
Python refuses to turn longer ones into text and back by default, no job file needs
them, and without a bound one literal or one multiplication could make every later step
slow. A decimal literal beyond float64's range (``1e400``) is a whole number at that size,
so it is read as the exact integer cty prints for it (``1`` and 400 zeros) rather than as
an infinity.
"""

from __future__ import annotations

import math

__all__ = ["MAX_DIGITS", "NumberOutOfRange", "fits", "parse_decimal"]

MAX_DIGITS = 4300
"""The most decimal digits of a number (Python's own default for int/text conversion)."""

_LIMIT: int = 10**MAX_DIGITS


class NumberOutOfRange(ValueError):
    """A number of more than :data:`MAX_DIGITS` digits; the message says so for the user."""

    def __init__(self, text: str = "") -> None:
        self.text = text
        """The number as written, when there is one."""
        what = f"`{_shown(text)}` is too large" if text else "the number is too large"
        super().__init__(f"{what}: hclgpu holds numbers of at most {MAX_DIGITS} digits")


def fits(value: int) -> bool:
    """True when ``value`` has at most :data:`MAX_DIGITS` digits (cheap: no conversion)."""
    return -_LIMIT < value < _LIMIT


def _shown(text: str) -> str:
    """The start of a long number for a message: a diagnostic quotes it, never 5000 digits."""
    return text if len(text) <= 24 else text[:20] + "..."


def parse_decimal(text: str) -> int | float:
    """A decimal number as HCL and JSON write it: sign, digits, fraction, exponent.

    Whole numbers without fraction or exponent are exact integers; others are float64,
    except beyond float64's range, where the value is a whole number and becomes the
    nearest integer. ``text`` must already match a number syntax (Python's ``float``
    grammar is the widest accepted). Raises :class:`NumberOutOfRange` past the bound.
    """
    if "." not in text and "e" not in text and "E" not in text:  # the common case, kept cheap
        if len(text) > MAX_DIGITS and len(text.lstrip("+-").lstrip("0")) > MAX_DIGITS:
            raise NumberOutOfRange(text)
        return int(text)
    value = float(text)
    if not math.isinf(value):
        return value
    from decimal import Decimal, InvalidOperation  # imported only for such numbers: it is slow to load

    try:
        exact = Decimal(text)
        if exact.adjusted() >= MAX_DIGITS:
            raise NumberOutOfRange(text)
        return int(exact.to_integral_value())
    except InvalidOperation:  # an exponent beyond even Decimal's range
        raise NumberOutOfRange(text) from None
