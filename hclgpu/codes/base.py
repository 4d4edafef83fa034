"""What a diagnostic code is: the constant every rule module and registry module declares.

A code is its id, a ``str`` (``"HG272"``) that also carries its name, severity, summary and
documentation. Stages report a code by its constant (``sink.emit(HG272, ...)``), so a
misspelt code is an unknown name to Python and mypy, never a silent string; diagnostics,
caches and output keep the id, and compare equal to the constant.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import StrEnum


class Severity(StrEnum):
    """How much a finding matters: errors fail a run; warnings fail it with ``--strict``."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


REGISTRY: dict[str, Code] = {}
"""Every code declared so far, by id (filled as the modules that declare codes load; the
index of :mod:`hclgpu.codes` lists them all without importing them)."""


class Code(str):
    """A diagnostic code: its id as a string, and what ``hclgpu explain`` shows of it."""

    __slots__ = ("doc", "fatal", "home", "name", "severity", "summary")
    name: str
    """Kebab-case, stable, taken by `select`, `ignore` and suppression comments."""
    severity: Severity
    summary: str
    doc: str
    """What, Why, Example and Fix, as ``hclgpu explain`` prints them."""
    fatal: bool
    """A fatal code means the input could not be read at all: exit status 2."""
    home: str
    """The module that declares it (as ``namedtuple`` finds its caller's)."""

    def __new__(
        cls, id: str, name: str, severity: Severity, *, summary: str, doc: str, fatal: bool = False
    ) -> Code:
        code = super().__new__(cls, id)
        code.name, code.severity, code.summary, code.doc, code.fatal = name, severity, summary, doc, fatal
        code.home = sys._getframe(1).f_globals.get("__name__", "")
        if id in REGISTRY:
            raise ValueError(f"code {id} is declared twice")
        REGISTRY[id] = code
        return code

    @property
    def id(self) -> str:
        return str(self)

    def __reduce__(self) -> tuple[Callable[[str], Code], tuple[str]]:
        """A code crosses a process boundary as its id, declared again on the other side."""
        return (declared, (str(self),))


def declared(code: str) -> Code:
    """The declaration of ``code`` (an id the index lists), its home imported if need be."""
    if code not in REGISTRY:
        from importlib import import_module

        from hclgpu.codes.index import INDEX

        import_module(next(row[3] for row in INDEX if row[0] == code))
    return REGISTRY[code]


E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
"""Shorthands for the severities in the declarations."""
