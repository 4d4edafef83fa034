"""Every code and every check, loaded from their declarations; and the index written from them.

The declarations are spread over their homes (each rule module holds its codes and its
conditions), and output needs them without importing every rule: :func:`index_module`
writes :mod:`hclgpu.codes.index` from them, and a test keeps that file equal to what it
would write now (``pytest --update-golden`` rewrites it).
"""

from __future__ import annotations

import json

from hclgpu.checks import load_rules
from hclgpu.checks.server import CONDITIONS, OWN_CHECKS, Check, Condition
from hclgpu.codes import MODULES
from hclgpu.codes.base import REGISTRY, Code


def every_code() -> dict[str, Code]:
    """Every declared code by id, in order: those of :mod:`hclgpu.codes` and the rules'."""
    from importlib import import_module

    for name in MODULES:
        import_module(f"hclgpu.codes.{name}")
    load_rules()
    return dict(sorted(REGISTRY.items()))


def checks_of(code: str) -> list[Condition | Check]:
    """The named checks of ``code``, by name: Nomad's (the conditions, those it documents but
    cannot make offline included: :attr:`Condition.needs`) and hclgpu's own."""
    load_rules()
    named: list[Condition | Check] = [*CONDITIONS.values(), *OWN_CHECKS.values()]
    return sorted((c for c in named if c.code == code), key=lambda c: c.id)


def addressable() -> dict[str, str]:
    """Every check a finding names, as name → code: the conditions a rule reports (not those
    that need the cluster's configuration: they never are) and hclgpu's own checks."""
    load_rules()
    found = [(c.code, c.id) for c in CONDITIONS.values() if c.code is not None and not c.needs]
    found += [(c.code, c.id) for c in OWN_CHECKS.values()]
    return {name: code.id for code, name in sorted(found)}


def _row(code: Code) -> tuple[str, ...]:
    return (code.id, code.name, str(code.severity), code.home, code.summary)


def index_module() -> str:
    """The text of :mod:`hclgpu.codes.index`: every code but its documentation, and every
    check of :func:`addressable`."""
    codes = "".join(
        "    (" + ", ".join(json.dumps(v, ensure_ascii=False) for v in _row(c)) + f", {c.fatal!r}),\n"
        for c in every_code().values()
    )
    checks = "".join(f'    "{name}": "{code}",\n' for name, code in addressable().items())
    return (
        '"""Every code without its documentation, and every check a finding can name with its\n'
        "code: generated from the declarations (``hclgpu.checks.registry.index_module``;\n"
        "``pytest --update-golden`` rewrites it), so that output and settings know them without\n"
        'importing a rule."""\n\n'
        "INDEX: tuple[tuple[str, str, str, str, str, bool], ...] = (\n"
        "    # id, name, severity, home module, summary, fatal\n"
        f"{codes})\n\n"
        f"CHECKS: dict[str, str] = {{\n{checks}}}\n"
    )
