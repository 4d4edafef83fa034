"""Kubernetes resource quantities (``500m``, ``8Gi``, ``1e9``, ``2``) as exact numbers.

The back end writes Nomad's MHz as millicores and MiB as ``Mi``; reading them back must be
exact for those forms and honest (rounded, and said so) for any other.
"""

from __future__ import annotations

import re
from fractions import Fraction

_SUFFIXES = {
    "": Fraction(1),
    "m": Fraction(1, 1000),
    "k": Fraction(10**3),
    "M": Fraction(10**6),
    "G": Fraction(10**9),
    "T": Fraction(10**12),
    "P": Fraction(10**15),
    "E": Fraction(10**18),
    "Ki": Fraction(2**10),
    "Mi": Fraction(2**20),
    "Gi": Fraction(2**30),
    "Ti": Fraction(2**40),
    "Pi": Fraction(2**50),
    "Ei": Fraction(2**60),
}
_QUANTITY = re.compile(r"([+-]?(?:\d+\.?\d*|\.\d+))(?:[eE]([+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E))?\Z")
_LONGEST = 40
"""The most characters a quantity's number or exponent may have: Kubernetes keeps a quantity
in 64 bits with nine decimal places, so a longer one is no real amount (and Python would
refuse to convert 4300 digits)."""
MIB = 2**20
LIMIT = 2**53
"""The largest amount read: beyond it no resource is meant, and Nomad's int64 fields overflow."""


def quantity(value: object) -> Fraction | None:
    """The exact value of a quantity (a number or a quantity string), None when it is not one
    or is negative or absurdly large (above :data:`LIMIT`)."""
    found = _quantity(value)
    return found if found is not None and 0 <= found <= LIMIT else None


def _quantity(value: object) -> Fraction | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(value) if value == value and abs(value) != float("inf") else None
    if not isinstance(value, str):
        return None
    match = _QUANTITY.match(value.strip())
    if match is None or len(match[1]) > _LONGEST or len(match[2] or "") > _LONGEST:
        return None
    number = Fraction(match[1])
    if match[2] is not None:
        exponent = int(match[2])
        if abs(exponent) > 30:
            return None
        return number * Fraction(10) ** exponent
    return number * _SUFFIXES[match[3] or ""]


def whole(value: Fraction) -> tuple[int, bool]:
    """``value`` rounded up to an integer, and whether that was exact."""
    rounded = -((-value.numerator) // value.denominator)
    return rounded, rounded == value
