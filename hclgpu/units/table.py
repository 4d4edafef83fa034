"""Nomad's table of device-attribute units (``plugins/shared/structs/units.go``).

The table is exact and case-sensitive: ``"4 GiB"`` has a unit, ``"4 gib"`` does not and
silently becomes a string. There is no plain ``B``, ``B/s``, ``Hz`` or ``kHz``. ``KB`` is
an alias of ``kB``, and ``mW`` is the only unit whose multiplier divides (Nomad's
``InverseMultiplier``). ``MHz`` is 10^6 Hz here as in current Nomad; Nomad releases before
the fix used 10^3.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BASES", "BYTE", "BYTE_RATE", "HERTZ", "SUFFIXES", "UNITS", "WATT", "Unit", "unit_suffix"]

BYTE = "byte"
BYTE_RATE = "byte/s"
HERTZ = "hertz"
WATT = "watt"
BASES = (BYTE, BYTE_RATE, HERTZ, WATT)
"""The base units; two units compare only when their bases are equal."""


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit: its name, the base it converts to, and the factor to get there.

    ``inverse`` means the base value is ``value / multiplier`` (only ``mW``); with integer
    values Nomad divides with truncation, so ``1500 mW`` equals ``1 W``.
    """

    name: str
    base: str
    multiplier: int
    inverse: bool


def _family(base: str, names: tuple[str, ...], multipliers: tuple[int, ...]) -> list[Unit]:
    """Units of one base, in Nomad's declaration order."""
    return [Unit(name, base, multiplier, False) for name, multiplier in zip(names, multipliers, strict=True)]


_IEC = tuple(1 << shift for shift in (10, 20, 30, 40, 50, 60))
_SI = (10**3, 10**3, 10**6, 10**9, 10**12, 10**15, 10**18)

_ALL = [
    *_family(BYTE, ("KiB", "MiB", "GiB", "TiB", "PiB", "EiB"), _IEC),
    *_family(BYTE, ("kB", "KB", "MB", "GB", "TB", "PB", "EB"), _SI),
    *_family(BYTE_RATE, ("KiB/s", "MiB/s", "GiB/s", "TiB/s", "PiB/s", "EiB/s"), _IEC),
    *_family(BYTE_RATE, ("kB/s", "KB/s", "MB/s", "GB/s", "TB/s", "PB/s", "EB/s"), _SI),
    Unit("mW", WATT, 10**3, True),
    *_family(WATT, ("W", "kW", "MW", "GW"), (1, 10**3, 10**6, 10**9)),
    *_family(HERTZ, ("MHz", "GHz"), (10**6, 10**9)),
]

UNITS: dict[str, Unit] = {unit.name: unit for unit in _ALL}
"""Every unit Nomad knows, by its exact (case-sensitive) name."""

SUFFIXES: tuple[str, ...] = tuple(sorted(UNITS, key=len, reverse=True))
"""Unit names longest first: ``ParseAttribute`` takes the first that ends the text."""


def unit_suffix(text: str) -> Unit | None:
    """The unit ending ``text``, preferring the longest (``"5 MW"`` is megawatts, not watts).

    Nomad only looks when the last byte is a letter; every unit name ends in an ASCII
    letter, so a suffix match implies that test.
    """
    for name in SUFFIXES:
        if text.endswith(name):
            return UNITS[name]
    return None
