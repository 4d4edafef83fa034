"""Compose's value forms read as plain Python values: durations, byte sizes, argv lists,
``KEY=value`` lists and mappings.

Compose accepts several spellings for most fields (a command as a string or a list, an
environment as a mapping or a list); these helpers bring each to one form, or return None
when the value is not one the field takes, so the caller can report it at its pointer.
"""

from __future__ import annotations

import math
import re
import shlex
from typing import Any

_DURATION_PART = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)")
_DURATION_UNITS = {
    "ns": 1,
    "us": 1_000,
    "µs": 1_000,
    "ms": 1_000_000,
    "s": 1_000_000_000,
    "m": 60_000_000_000,
    "h": 3_600_000_000_000,
}
_SIZE = re.compile(r"(\d+(?:\.\d+)?) ?([kKmMgGtTpP]?)[iI]?[bB]?")
_SIZE_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50}
MIB = 1 << 20
_MOST_BYTES = 1 << 62
"""Larger sizes are no real request, and their MiB or byte counts would overflow Nomad's int64."""


def scalar_text(value: Any) -> str | None:
    """A YAML scalar as the string Compose makes of it (``true``, ``8``, ``0.5``); None for
    mappings, lists and null."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    return None


def duration_ns(value: Any) -> int | None:
    """A Go duration (``1m30s``, ``500ms``; Compose's form) in nanoseconds, or None."""
    text = scalar_text(value)
    if text is None or isinstance(value, bool):
        return None
    text = text.strip()
    if text in ("0", ""):
        return 0 if text == "0" else None
    total, end = 0.0, 0
    for match in _DURATION_PART.finditer(text):
        if match.start() != end:
            return None
        total += float(match.group(1)) * _DURATION_UNITS[match.group(2)]
        end = match.end()
    if end != len(text) or end == 0 or total > 2**63 - 1:
        return None
    return round(total)


def size_bytes(value: Any) -> int | None:
    """A byte size as Compose parses it (go-units RAMInBytes: ``512m``, ``1.5gb``, binary
    multiples) or a plain number of bytes; None when it is neither."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value <= _MOST_BYTES else None
    if not isinstance(value, str):
        return None
    match = _SIZE.fullmatch(value.strip())
    if match is None:
        return None
    number = float(match.group(1)) * _SIZE_UNITS[match.group(2).lower()]
    return int(number) if number <= _MOST_BYTES else None


def mebibytes(size: int) -> tuple[int, bool]:
    """Bytes as whole MiB, rounded up, and whether that was exact."""
    return math.ceil(size / MIB), size % MIB == 0


def argv(value: Any) -> list[str] | None:
    """A command or entrypoint: a list as it is, a string split as Compose splits it (shell
    words, no shell); None when it is neither or its quotes do not close."""
    if isinstance(value, list):
        words = [scalar_text(item) for item in value]
        return None if any(word is None for word in words) else [w for w in words if w is not None]
    if isinstance(value, str):
        try:
            return shlex.split(value)
        except ValueError:
            return None
    return None


def string_list(value: Any) -> list[str] | None:
    """A list of scalars (a lone scalar counts as a list of one) as strings; None otherwise."""
    items = value if isinstance(value, list) else [value]
    texts = [scalar_text(item) for item in items]
    return None if any(text is None for text in texts) else [t for t in texts if t is not None]


def key_values(value: Any, separator: str = "=") -> dict[str, str | None] | None:
    """A mapping, or a list of ``KEY=value`` items, as a mapping; a key without a value (a
    null in the mapping, a list item without ``=``) maps to None. None when it is neither."""
    if isinstance(value, dict):
        out: dict[str, str | None] = {}
        for key, item in value.items():
            if item is not None and scalar_text(item) is None:
                return None
            out[str(key)] = None if item is None else scalar_text(item)
        return out
    if isinstance(value, list):
        out = {}
        for item in value:
            text = scalar_text(item)
            if text is None:
                return None
            key, found, rest = text.partition(separator)
            out[key] = rest if found else None
        return out
    return None
