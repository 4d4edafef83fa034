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

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from fractions import Fraction  # loaded only for a fractional number: it takes 10 ms

__all__ = [
    "MAX_DIGITS",
    "BigFloat",
    "NumberOutOfRange",
    "arithmetic",
    "exact",
    "fits",
    "is_negative",
    "parse_decimal",
]

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

    Whole numbers without fraction or exponent are exact integers; other whole numbers
    below 2**63 are float64 (ints once evaluated); the rest are :class:`BigFloat`, as cty
    holds them (``1e400`` is a 1 and 400 zeros, not an infinity). ``text`` must already match a number syntax
    (Python's ``float`` grammar is the widest accepted). Raises :class:`NumberOutOfRange` past the bound.
    """
    if "." not in text and "e" not in text and "E" not in text:  # the common case, kept cheap
        if len(text) > MAX_DIGITS and len(text.lstrip("+-").lstrip("0")) > MAX_DIGITS:
            raise NumberOutOfRange(text)
        return int(text)
    value = float(text)
    if value == 0 or (value.is_integer() and abs(value) < 2**63 and _significant_digits(text) <= 15):
        return value  # a whole number (or one below float64's range, as float64 reads it)
    if math.isinf(value):
        from decimal import Decimal, InvalidOperation  # imported only for such numbers: it is slow to load

        try:
            if Decimal(text).adjusted() >= MAX_DIGITS:
                raise NumberOutOfRange(text)
        except InvalidOperation:  # an exponent beyond even Decimal's range
            raise NumberOutOfRange(text) from None
    return BigFloat.parse(text, value)


def _significant_digits(text: str) -> int:
    """How many significant digits a decimal literal writes (``0.00120`` has 2): up to 15,
    float64 holds the literal exactly as written."""
    mantissa = text.lstrip("+-").partition("e")[0].partition("E")[0]
    return len(mantissa.replace(".", "").strip("0"))


CTY_PRECISION = 512
"""The bits of mantissa cty parses a number to (``cty.ParseNumberVal``: ``big.ParseFloat(s,
10, 512, big.ToNearestEven)``, zclconf/go-cty cty/value_init.go), and so the precision of
its arithmetic on them: ``big.Float`` computes at the larger of its operands' precisions."""


class BigFloat(float):
    """A fractional number as cty holds it: a 512-bit ``big.Float``. Its float value serves
    comparisons and functions, which cty computes in float64 too; its text and arithmetic
    are cty's. Nomad prints `meta { pi = 3.14159265358979323846264 }` digit for digit and
    `0.1 + 0.2` as "0.3", where float64 gives 3.141592653589793 and 0.30000000000000004.

    The 512-bit value is worked out when first needed (a job rarely needs it): from the
    literal's text, or given by the arithmetic that made the number."""

    __slots__ = ("_exact", "_text")
    _text: str
    _exact: tuple[int, int] | None
    """``(m, e)``: the value is ``m·2**e``, with ``|m|`` of :data:`CTY_PRECISION` bits."""

    @classmethod
    def parse(cls, text: str, value: float) -> BigFloat:
        made = cls(value)
        made._text, made._exact = text, None
        return made

    @classmethod
    def of(cls, m: int, e: int) -> BigFloat:
        from fractions import Fraction

        held = Fraction(m) * Fraction(2) ** e
        try:
            value = float(held)
        except OverflowError:
            value = math.copysign(math.inf, m)
        made = cls(value)
        made._text, made._exact = "", (m, e)
        return made

    def __reduce__(self) -> tuple[object, ...]:
        m, e = self.binary()
        return (BigFloat.of, (m, e))

    def __neg__(self) -> BigFloat:
        m, e = self.binary()
        return BigFloat.of(-m, e)

    def binary(self) -> tuple[int, int]:
        """``(m, e)`` with ``self == m·2**e`` in cty's 512 bits."""
        if self._exact is None:
            from decimal import Decimal
            from fractions import Fraction

            written = Fraction(Decimal(self._text))
            m, e = _binary(abs(written.numerator), written.denominator)
            self._exact = (-m if written < 0 else m, e)
        return self._exact

    def fraction(self) -> Fraction:
        from fractions import Fraction

        m, e = self.binary()
        return Fraction(m) * Fraction(2) ** e

    def digits(self) -> tuple[str, int]:
        """``(mant, exp)``: ``|self| = 0.mant × 10**exp`` in the fewest digits that read back
        to the same 512 bits (what ``Text('f', -1)`` prints)."""
        m, e = self.binary()
        return _shortest(abs(m), e)


def arithmetic(op: str, a: int | float, b: int | float) -> int | float | None:
    """``a op b`` (``+ - * / %``) as cty computes it, when that differs from Python's: a
    :class:`BigFloat` or an integer (cty's literals are 512-bit) on either side, or an
    integer division with a remainder. None when Python's arithmetic is cty's: two ints
    (but ``/`` with a remainder), two float64 values (function results), an infinity."""
    if isinstance(a, int) and isinstance(b, int):
        if op == "*" and (a == 0 or b == 0):
            return _signed_zero(op, a, b)
        if op != "/" or a % b == 0:
            return None  # Python's exact integers; `%` is Go's truncated remainder
    if not (isinstance(a, int | BigFloat) or isinstance(b, int | BigFloat)):
        return None
    if not all(isinstance(v, BigFloat) or math.isfinite(v) for v in (a, b)):
        return None  # a float64 infinity from a function
    x, y = exact(a), exact(b)
    if op == "%":  # cty's Modulo: a - trunc(a / b) * b (zclconf/go-cty cty/value_ops.go)
        result = x - int(_rounded(x / y)) * y
    else:
        result = x + y if op == "+" else x - y if op == "-" else x * y if op == "*" else x / y
    if result == 0:
        return _signed_zero(op, a, b)
    if result.denominator == 1 and abs(result.numerator).bit_length() <= CTY_PRECISION:
        return result.numerator  # exact in 512 bits; hclgpu's whole numbers are ints
    m, e = _binary(abs(result.numerator), result.denominator)
    if not -_MAX_SCALE <= e <= 3 * _MAX_SCALE:  # more digits than hclgpu holds
        raise NumberOutOfRange()
    return BigFloat.of(-m if result < 0 else m, e)


_MAX_SCALE = 4500
"""The widest binary exponent of a computed :class:`BigFloat`: its exact decimal (which
printing it works from) then has fewer than :data:`MAX_DIGITS` digits."""


def _rounded(value: Fraction) -> Fraction:
    """``value`` rounded to cty's 512 bits."""
    from fractions import Fraction

    if value == 0:
        return value
    m, e = _binary(abs(value.numerator), value.denominator)
    return Fraction(-m if value < 0 else m) * Fraction(2) ** e


def exact(value: int | float) -> Fraction:
    """A number's exact value as cty holds it: a BigFloat's 512 bits, an int's or float64's own."""
    from fractions import Fraction

    return value.fraction() if isinstance(value, BigFloat) else Fraction(value)


def is_negative(value: int | float) -> bool:
    """Whether a number has its sign bit set, -0 included (big.Float keeps it); an int of any
    size is compared, never turned into a float."""
    return value < 0 if isinstance(value, int) else math.copysign(1.0, value) < 0


def _signed_zero(op: str, a: int | float, b: int | float) -> int | float:
    """A zero result keeps big.Float's sign: a product's or quotient's is the operands'
    (``0 * -1`` is -0); a sum is -0 only of two negative zeros."""
    if op == "%":
        negative = False  # a - a: big.Float's difference of equal values is +0
    elif op in "*/":
        negative = is_negative(a) != is_negative(b)
    else:
        negative = is_negative(a) and (is_negative(b) if op == "+" else not is_negative(b)) and a == b == 0
    return -0.0 if negative else 0


def _binary(n: int, d: int) -> tuple[int, int]:
    """``n/d`` (> 0) rounded to :data:`CTY_PRECISION` bits, to nearest even: ``(m, e)``
    with a ``CTY_PRECISION``-bit ``m`` and ``n/d ≈ m·2**e``."""
    e = n.bit_length() - d.bit_length() - CTY_PRECISION
    while True:
        num, den = (n, d << e) if e >= 0 else (n << -e, d)
        m, rest = divmod(num, den)
        if m.bit_length() != CTY_PRECISION:
            e += 1 if m.bit_length() > CTY_PRECISION else -1
            continue
        if 2 * rest > den or (2 * rest == den and m & 1):
            m += 1
        if m.bit_length() > CTY_PRECISION:
            m, e = m >> 1, e + 1
        return m, e


def _decimal(m: int, e: int) -> tuple[str, int]:
    """The exact decimal of ``m·2**e`` as ``(digits, exp)``: ``0.digits × 10**exp``."""
    digits = str(m << e) if e >= 0 else str(m * 5**-e)
    return digits.rstrip("0"), len(digits) + min(e, 0)


def _shortest(m: int, e: int) -> tuple[str, int]:
    """The fewest significant digits that read back to ``m·2**e`` at the same precision,
    the nearest such when two qualify: Go's ``roundShortest`` (math/big ftoa.go), which
    ``Text('f', -1)`` uses. The bounds are half a unit of the last bit either side, and
    belong to the value only when ``m`` is even (reading rounds ties to even)."""
    from fractions import Fraction

    value = Fraction(m) * Fraction(2) ** e
    half = Fraction(2) ** (e - 1)
    lower, upper, inclusive = value - half, value + half, m % 2 == 0
    digits, exp = _decimal(m, e)
    for count in range(1, len(digits) + 1):
        scale = Fraction(10) ** (exp - count)
        kept = int(digits[:count])
        down, up = kept * scale, (kept + 1) * scale
        ok_down = down > lower or (inclusive and down == lower)
        ok_up = up < upper or (inclusive and up == upper)
        if not (ok_down or ok_up):
            continue
        if ok_down and ok_up:  # the nearer, ties to the even digit
            ok_down = value - down < up - value or (value - down == up - value and kept % 2 == 0)
        if ok_down:
            return str(kept).rstrip("0"), exp
        raised = str(kept + 1)
        return raised.rstrip("0"), exp + len(raised) - count
    return digits, exp
