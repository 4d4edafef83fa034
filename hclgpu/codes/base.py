"""What a diagnostic code is: the record every registry module declares (see :mod:`hclgpu.codes`)."""

from __future__ import annotations

from dataclasses import dataclass

from hclgpu.diagnostics import Severity


@dataclass(frozen=True, slots=True)
class Code:
    id: str
    name: str
    severity: Severity
    summary: str
    doc: str
    fatal: bool = False
    """A fatal code means the input could not be read at all: exit status 2."""


E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
"""Shorthands for the severities in the registry modules."""
