"""Nomad's device-attribute units: parsing, comparison and constraint operators.

Layer 1: imports only the standard library and its own modules, and only what a call
needs (``fractions``, ``re`` and ``unicodedata`` load on first use), because editors run
the checks on every keystroke.

* :mod:`hclgpu.units.table` — the unit table (``UNITS``), exactly Nomad's.
* :mod:`hclgpu.units.attribute` — ``ParseAttribute``, ``Compare`` and
  ``checkAttributeConstraint`` with Go's int64, ``strconv`` and ``big.Float`` behaviour.
* :mod:`hclgpu.units.strconv` — Go's ``strconv`` number and boolean parsing.
* :mod:`hclgpu.units.versions` — go-version and semver constraints: acceptance and matching.

The ``regexp`` operator's RE2 engine is a package of its own, :mod:`hclgpu.re2`.
"""

from __future__ import annotations

from hclgpu.units.attribute import (
    Attribute,
    Kind,
    check_operator,
    compare,
    describe,
    in_base_units,
    parse_attribute,
    string_attribute,
)
from hclgpu.units.table import BASES, UNITS, Unit

__all__ = [
    "BASES",
    "UNITS",
    "Attribute",
    "Kind",
    "Unit",
    "check_operator",
    "compare",
    "describe",
    "in_base_units",
    "parse_attribute",
    "string_attribute",
]
