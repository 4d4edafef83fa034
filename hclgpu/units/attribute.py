"""Device attributes as Nomad parses, compares and tests them.

A constraint's literal target (``value = "4 GiB"``) goes through Nomad's
``ParseAttribute`` and is compared with the device's fingerprinted attribute by
``Attribute.Compare`` (``plugins/shared/structs/attribute.go``), under the operator rules
of ``checkAttributeConstraint`` (``scheduler/feasible/feasible.go``). This module mirrors
all three, quirks included, because a checker that is "more correct" than Nomad would
accept constraints that never place:

* a numeric part that Go's ``strconv`` rejects (``"1,5 GHz"``, ``"1e400 MiB"``) makes the
  whole text a string, and a string never compares with a number;
* two integers compare in wrapping int64 arithmetic (``16 EiB`` < ``1 KiB``) and ``mW``
  divides with truncation (``1500 mW`` == ``1 W``);
* once a float is involved the comparison is exact (Go uses 256-bit ``big.Float``; the
  only rounding is in ``mW``'s 1/1000, which is reproduced bit for bit).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from hclgpu.units.strconv import go_parse_bool, go_parse_float, go_parse_int, go_trim_space
from hclgpu.units.table import UNITS, Unit, unit_suffix

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = [
    "Attribute",
    "Kind",
    "check_operator",
    "compare",
    "describe",
    "in_base_units",
    "parse_attribute",
    "string_attribute",
]

Kind = Literal["int", "float", "bool", "string"]

_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1
_BIG_FLOAT_PRECISION = 256
"""``floatPrecision`` in attribute.go: the mantissa bits of Nomad's ``big.Float``."""


@dataclass(frozen=True, slots=True)
class Attribute:
    """A parsed attribute: one typed value, an optional unit and the text it came from.

    ``unit`` is ``None`` for strings and booleans, and for a number whose unit Nomad does
    not know (a plugin may report one; Nomad then treats the number as unitless).
    """

    kind: Kind
    value: int | float | bool | str
    unit: Unit | None
    text: str


def string_attribute(value: str) -> Attribute:
    """A string attribute as ``NewStringAttribute`` makes one (``${device.model}`` and the
    other non-typed device targets): never parsed, so ``"1"`` stays a string."""
    return Attribute("string", value, None, value)


# --- ParseAttribute ----------------------------------------------------------------------


@lru_cache(maxsize=4096)
def parse_attribute(text: str) -> Attribute:
    """Nomad's ``ParseAttribute``: how a literal constraint target is typed.

    1. ``""`` is the empty string.
    2. If a unit ends the text (longest first, case-sensitive), the rest with Go's white
       space trimmed is the number: ``"4GiB"``, ``" 4 GiB"``; ``"4 GiB "`` has no unit.
    3. That number as an int64, else as a float64; else the *whole* text as a Go bool
       (``"T"``, ``"true"``; ``"1"`` was an int already); else the whole text as a string,
       the unit dropped (``"4,5 GiB"`` is a string).
    """
    if text == "":
        return Attribute("string", "", None, text)
    unit = unit_suffix(text)
    numeric = go_trim_space(text[: -len(unit.name)]) if unit else text
    as_int = go_parse_int(numeric)
    if as_int is not None:
        return Attribute("int", as_int, unit, text)
    as_float = go_parse_float(numeric)
    if as_float is not None:
        return Attribute("float", as_float, unit, text)
    as_bool = go_parse_bool(text)
    if as_bool is not None:
        return Attribute("bool", as_bool, None, text)
    return Attribute("string", text, None, text)


# --- Compare -----------------------------------------------------------------------------


def _comparable(a: Attribute, b: Attribute) -> bool:
    """``Attribute.Comparable``: units of one base, or no units and matching kinds."""
    if a.unit is not None or b.unit is not None:
        return a.unit is not None and b.unit is not None and a.unit.base == b.unit.base
    if a.kind in ("string", "bool") or b.kind in ("string", "bool"):
        return a.kind == b.kind
    return True


def compare(a: Attribute, b: Attribute) -> int | None:
    """``a.Compare(b)``: -1, 0 or 1, or ``None`` when Nomad finds them not comparable.

    Booleans give 0 when equal and 1 otherwise (so ``<`` never holds between booleans).
    Strings compare bytewise (code-point order is UTF-8 byte order). A NaN makes Go's
    ``big.Float`` panic; here it is simply not comparable.
    """
    if not _comparable(a, b):
        return None
    if a.kind == "bool" or b.kind == "bool":
        return (0 if a.value == b.value else 1) if a.kind == b.kind else None
    if a.kind == "string" or b.kind == "string":
        if a.kind != b.kind:
            return None
        return _sign(a.value, b.value)
    if a.kind == "int" and b.kind == "int":
        return _sign(_go_int_in_base(a), _go_int_in_base(b))
    left, right = _big_float_in_base(a), _big_float_in_base(b)
    if left is None or right is None:
        return None
    return _sign(left, right)


def _sign(left: Any, right: Any) -> int:
    """-1, 0 or 1 for two values of one ordered type (str, int, or Fraction/±inf)."""
    return int(left > right) - int(left < right)


def _wrap_int64(value: int) -> int:
    """Two's-complement wrap-around, as Go's int64 multiplication does silently."""
    return (value - _INT64_MIN) % (1 << 64) + _INT64_MIN


def _go_int_in_base(attribute: Attribute) -> int:
    """``getInt``: value × multiplier in wrapping int64, or value / 1000 truncated (mW)."""
    value = int(attribute.value)
    unit = attribute.unit
    if unit is None:
        return value
    if unit.inverse:
        quotient = abs(value) // unit.multiplier
        return -quotient if value < 0 else quotient
    return _wrap_int64(value * unit.multiplier)


def _big_float_in_base(attribute: Attribute) -> Fraction | float | None:
    """``getBigFloat``: the exact value × multiplier; ±inf stays a float, NaN is ``None``.

    Only an inverse multiplier rounds: Go computes 1/1000 and the product in 256 bits.
    """
    from fractions import Fraction

    value = attribute.value
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None if value != value else value
    exact = Fraction(value)
    unit = attribute.unit
    if unit is None:
        return exact
    if unit.inverse:
        reciprocal = _round_to_bits(Fraction(1, unit.multiplier), _BIG_FLOAT_PRECISION)
        return _round_to_bits(exact * reciprocal, _BIG_FLOAT_PRECISION)
    return exact * unit.multiplier


def _round_to_bits(value: Fraction, bits: int) -> Fraction:
    """Round to ``bits`` significant bits, ties to even (``big.Float``'s default mode)."""
    from fractions import Fraction

    if value == 0:
        return value
    numerator, denominator = abs(value.numerator), value.denominator
    exponent = numerator.bit_length() - denominator.bit_length()
    if _below_power_of_two(numerator, denominator, exponent):
        exponent -= 1  # now 2**exponent <= |value| < 2**(exponent + 1)
    shift = exponent - bits + 1
    if shift >= 0:
        mantissa, remainder = divmod(numerator, denominator << shift)
        half = (denominator << shift) - 2 * remainder
    else:
        mantissa, remainder = divmod(numerator << -shift, denominator)
        half = denominator - 2 * remainder
    if half < 0 or (half == 0 and mantissa & 1):
        mantissa += 1
    scaled = Fraction(mantissa) * Fraction(2) ** shift
    return -scaled if value < 0 else scaled


def _below_power_of_two(numerator: int, denominator: int, exponent: int) -> bool:
    """Whether ``numerator / denominator < 2**exponent``."""
    if exponent >= 0:
        return numerator < denominator << exponent
    return numerator << -exponent < denominator


def in_base_units(attribute: Attribute) -> int | Fraction | None:
    """The number Nomad compares: value × multiplier in the unit's base.

    For an int this is the wrapped/truncated int64 of an int-to-int comparison (``16
    EiB`` gives 0; ``1500 mW`` gives 1); compared with a float Nomad uses the exact value
    instead. A float gives its exact value (``mW`` rounded as Go rounds it). Strings,
    booleans, NaN and infinities give ``None``.
    """
    if attribute.kind == "int":
        return _go_int_in_base(attribute)
    if attribute.kind != "float":
        return None
    value = _big_float_in_base(attribute)
    return None if value is None or isinstance(value, float) else value


# --- Operators ---------------------------------------------------------------------------

_ORDER_OPERATORS = ("=", "==", "is", "<", "<=", ">", ">=")


def _order_holds(op: str, result: int) -> bool:
    """The ``Compare`` result each comparison operator needs (``<=`` is "not +1", so two
    different booleans, which compare as 1, are never ``<=``)."""
    if op in ("=", "==", "is"):
        return result == 0
    if op == "<":
        return result == -1
    if op == "<=":
        return result != 1
    if op == ">":
        return result == 1
    return result != -1


def check_operator(op: str, left: Attribute | None, right: Attribute | None) -> bool:
    """``checkAttributeConstraint``: does a device constraint (or affinity) hold?

    ``left``/``right`` are the resolved targets, ``None`` where Nomad finds none (an absent
    ``${device.attr.X}``, any ``${node.*}`` in a device block). Unknown operands are false;
    ``distinct_*`` are true here because validation rejects them in devices first.
    """
    if op in ("distinct_hosts", "distinct_property"):
        return True
    if op in ("!=", "not"):
        return _check_not_equal(left, right)
    if op == "is_set":
        return left is not None
    if op == "is_not_set":
        return left is None
    if left is None or right is None:
        return False
    if op in _ORDER_OPERATORS:
        result = compare(left, right)
        return result is not None and _order_holds(op, result)
    if op in ("version", "semver"):
        return _check_version(op, left, right)
    if left.kind != "string" or right.kind != "string":
        return False
    return _check_string_operator(op, str(left.value), str(right.value))


def _check_not_equal(left: Attribute | None, right: Attribute | None) -> bool:
    """``!=``: true when exactly one side is found; false when neither is, or when both
    are found but are not comparable (so ``"4096"`` != ``16130 MiB`` is false)."""
    if left is None or right is None:
        return (left is None) != (right is None)
    result = compare(left, right)
    return result is not None and result != 0


def _check_version(op: str, left: Attribute, right: Attribute) -> bool:
    """``checkAttributeVersionMatch``: a string or int left side (the int printed with
    ``%d``, its unit ignored) against a string constraint."""
    from hclgpu.units.versions import semver_matches, version_matches

    if left.kind not in ("string", "int") or right.kind != "string":
        return False
    matches = version_matches if op == "version" else semver_matches
    return bool(matches(str(right.value), str(left.value)))


def _check_string_operator(op: str, left: str, right: str) -> bool:
    """``regexp`` (unanchored RE2 search) and the ``set_contains*`` family."""
    if op == "regexp":
        from hclgpu.re2 import re2_search

        return re2_search(right, left)
    if op not in ("set_contains", "set_contains_all", "set_contains_any"):
        return False
    have = {go_trim_space(item) for item in left.split(",")}
    wanted = [go_trim_space(item) for item in right.split(",")]
    if op == "set_contains_any":
        return any(item in have for item in wanted)
    return all(item in have for item in wanted)


# --- Human-readable ----------------------------------------------------------------------

_DISPLAY_FAMILIES: tuple[tuple[str, ...], ...] = (
    ("KiB", "MiB", "GiB", "TiB", "PiB", "EiB"),
    ("kB", "MB", "GB", "TB", "PB", "EB"),
    ("KiB/s", "MiB/s", "GiB/s", "TiB/s", "PiB/s", "EiB/s"),
    ("kB/s", "MB/s", "GB/s", "TB/s", "PB/s", "EB/s"),
    ("MHz", "GHz"),
    ("mW", "W", "kW", "MW", "GW"),
)
_DISPLAY_ALIASES = {"KB": "kB", "KB/s": "kB/s"}


def describe(attribute: Attribute) -> str:
    """For messages: ``"16130 MiB (15.75 GiB)"``, ``"1500 MHz (1.5 GHz)"``, ``"300 W"``.

    The parenthesis restates the value in the largest unit of the same family that keeps
    it at least 1; strings show as themselves, booleans as ``true``/``false``.
    """
    if attribute.kind == "bool":
        return "true" if attribute.value else "false"
    if attribute.kind == "string":
        return str(attribute.value)
    number = _format_number(attribute.value)
    unit = attribute.unit
    if unit is None:
        return number
    shown = f"{number} {unit.name}"
    better = _better_unit(attribute)
    if better is None:
        return shown
    return f"{shown} ({better})"


def _better_unit(attribute: Attribute) -> str | None:
    """The value restated in a nicer unit of its family, or ``None`` if none is nicer."""
    from fractions import Fraction

    unit, value = attribute.unit, attribute.value
    if unit is None or not isinstance(value, int | float) or value != value or abs(value) == float("inf"):
        return None
    name = _DISPLAY_ALIASES.get(unit.name, unit.name)
    family = next(names for names in _DISPLAY_FAMILIES if name in names)
    exact = Fraction(value) / unit.multiplier if unit.inverse else Fraction(value) * unit.multiplier
    if exact == 0:
        return None
    chosen, scaled = family[0], exact / _scale(UNITS[family[0]])
    for candidate in family[1:]:
        if abs(exact) >= _scale(UNITS[candidate]):
            chosen, scaled = candidate, exact / _scale(UNITS[candidate])
    if chosen == name:
        return None
    return f"{_format_fraction(scaled)} {chosen}"


def _scale(unit: Unit) -> Fraction:
    """One of ``unit`` in its base unit."""
    from fractions import Fraction

    return Fraction(1, unit.multiplier) if unit.inverse else Fraction(unit.multiplier)


def _format_number(value: object) -> str:
    """An int as digits, a float in its shortest round-trip form without a trailing ``.0``
    (``1.5``, ``1500``, ``1e+21``), and Go's spellings of the non-finite ones."""
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "+Inf" if value > 0 else "-Inf"
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text
    return str(value)


def _format_fraction(value: Fraction) -> str:
    """Two decimals at most, trailing zeros dropped: ``15.75``, ``1.5``, ``4``."""
    hundredths = round(value * 100)
    whole, cents = divmod(abs(hundredths), 100)
    sign = "-" if hundredths < 0 else ""
    if cents == 0:
        return f"{sign}{whole}"
    return f"{sign}{whole}.{cents:02d}".rstrip("0")
