"""What a diagnostic code is: the record every registry module declares (see :mod:`hclgpu.codes`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    """How much a finding matters: errors fail a run; warnings fail it with ``--strict``."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


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
