"""Semantic rules: what Nomad accepts but never schedules, or schedules wrongly (HG2xx).

Each rule is one function registered with :func:`rule` under the code it reports; its
documentation is the code's entry in :mod:`hclgpu.codes`. Rules run on the decoded job
and point into the source through :class:`~hclgpu.checks.context.Context`. Rule modules
are imported by :func:`run_checks`, so importing this package costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from hclgpu.checks.context import Context
from hclgpu.diagnostics import Sink
from hclgpu.ir import models as m
from hclgpu.source import SourceFile
from hclgpu.syntax import ast

Rule = Callable[[Context], None]
RULES: dict[str, list[Rule]] = {}
"""The rules of each code (filled when the rule modules are imported). A code of Nomad's
server validation can have one rule per block family it covers (HG280: the group's disk,
the task's logs)."""

RULE_MODULES = (
    "devices",
    "targets",
    "values",
    "operators",
    "affinities",
    "satisfiable",
    "resources",
    "networks",
    "deprecations",
    "naming",
    "jobs",
    "groups",
    "policies",
    "strategies",
    "tasks",
    "task_blocks",
    "task_files",
    "services",
    "service_checks",
    "gateways",
    "connect",
    "connect_admission",
    "secrets",
    "volumes",
    "hooks",
    "warnings",
    "covered",
)


def rule(code: str) -> Callable[[Rule], Rule]:
    """Register a rule function under its code."""

    def register(function: Rule) -> Rule:
        functions = RULES.setdefault(code, [])
        if any(f.__qualname__ == function.__qualname__ for f in functions):
            raise ValueError(f"{function.__qualname__} is registered twice for {code}")
        functions.append(function)
        return function

    return register


def load_rules() -> dict[str, list[Rule]]:
    """Import every rule module once (they register themselves) and return the registry."""
    from importlib import import_module
    from importlib.util import find_spec

    for name in RULE_MODULES:
        module = f"hclgpu.checks.{name}"
        if find_spec(module) is not None:
            import_module(module)
    return RULES


def run_checks(
    job: m.Job, tree: ast.File, source: SourceFile, sink: Sink, nomad_version: str = "2.0"
) -> None:
    """Run every rule on one decoded job, against the server of Nomad ``nomad_version``."""
    context = Context(job, source, tree, sink, nomad_version)
    for code, functions in load_rules().items():
        for function in functions:
            try:
                function(context)
            except Exception as error:  # a bug in one rule must not hide the others' findings
                sink.emit(
                    "HG901",
                    f"internal error in the rule for {code}: {type(error).__name__}: {error}",
                    source,
                    help="this is a bug in hclgpu; please report it with the file",
                )


__all__ = ["RULES", "Context", "load_rules", "rule", "run_checks"]
