"""The registry of diagnostic codes.

Every diagnostic hclgpu can emit is declared once, in the module of its range: its
stable id, a kebab-case name, its default severity, a one-line summary and a longer doc
shown by ``hclgpu explain``. Codes are never reused; ranges: HG0xx syntax and input,
HG1xx schema and evaluation, HG2xx semantics, HG3xx target support, HG4xx team policies, HG9xx internal.
"""

from __future__ import annotations

from hclgpu.codes import devices, evaluation, policies, resources, server, suppression, syntax, targets
from hclgpu.codes.base import Code, Severity

_ALL = sorted(
    (
        *syntax.CODES,
        *evaluation.CODES,
        *devices.CODES,
        *resources.CODES,
        *server.CODES,
        *suppression.CODES,
        *targets.CODES,
        *policies.CODES,
    ),
    key=lambda code: code.id,
)

CODES: dict[str, Code] = {code.id: code for code in _ALL}
BY_NAME: dict[str, Code] = {code.name: code for code in _ALL}


def lookup(key: str) -> Code | None:
    """Find a code by id (`HG001`, case-insensitive) or by name (`syntax-error`)."""
    return CODES.get(key.upper()) or BY_NAME.get(key.lower())


__all__ = ["BY_NAME", "CODES", "Code", "Severity", "lookup"]
