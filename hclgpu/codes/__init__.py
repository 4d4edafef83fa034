"""The registry of diagnostic codes, read from its index.

A code is declared once, as a constant (:class:`~hclgpu.codes.base.Code`) in its home: the
rule module of :mod:`hclgpu.checks` that reports it (HG2xx), or here for the codes of the
stages that are not rules (:data:`MODULES`: syntax, evaluation, suppression comments, targets,
team policies). Ranges: HG0xx syntax and input, HG1xx schema and evaluation, HG2xx
semantics, HG3xx target support, HG4xx team policies, HG9xx internal; codes are never reused.

Output, settings and ``hclgpu rules`` need every code's name and severity without importing
every rule: :mod:`hclgpu.codes.index` lists them (generated from the declarations by
``hclgpu.checks.registry.index_module``; a test keeps it equal), and :func:`declared` imports
a code's home when its documentation is wanted.
"""

from __future__ import annotations

from typing import NamedTuple

from hclgpu.codes.base import Code, Severity, declared
from hclgpu.codes.index import CHECKS, INDEX

MODULES = ("syntax", "evaluation", "suppression", "targets", "policies")
"""The modules of this package that declare codes (the rest live in their rule modules)."""


class Entry(NamedTuple):
    """A code as the index lists it: all but its documentation."""

    id: str
    name: str
    severity: Severity
    home: str
    """The module that declares it."""
    summary: str
    fatal: bool

    @property
    def doc(self) -> str:
        return declared(self.id).doc


CODES: dict[str, Entry] = {
    row[0]: Entry(row[0], row[1], Severity(row[2]), row[3], row[4], row[5]) for row in INDEX
}
BY_NAME: dict[str, Entry] = {entry.name: entry for entry in CODES.values()}


def lookup(key: str) -> Entry | None:
    """Find a code by id (`HG001`, case-insensitive) or by name (`syntax-error`)."""
    return CODES.get(key.upper()) or BY_NAME.get(key.lower())


__all__ = ["BY_NAME", "CHECKS", "CODES", "MODULES", "Code", "Entry", "Severity", "declared", "lookup"]
