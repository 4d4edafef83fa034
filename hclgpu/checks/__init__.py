"""Semantic rules: what Nomad accepts but never schedules, or schedules wrongly (HG2xx).

Each rule is one function registered with :func:`rule` under the code it reports; its
documentation is the code's entry in :mod:`hclgpu.codes`. Rules run on the decoded job
and point into the source through :class:`~hclgpu.checks.context.Context`. Rule modules
are imported by :func:`run_checks`, so importing this package costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hclgpu.codes.base import Code
from hclgpu.codes.syntax import HG901

if TYPE_CHECKING:
    from hclgpu.checks.context import Context
    from hclgpu.diagnostics import Sink
    from hclgpu.ir import models as m
    from hclgpu.settings.profile import Profile
    from hclgpu.source import SourceFile
    from hclgpu.syntax import ast

Rule = Callable[["Context"], None]
RULES: dict[str, list[Rule]] = {}
TARGET_RULES: dict[str, str] = {}
"""Codes whose findings are about one translation target (HG267: names Kubernetes refuses),
each with its target: their rules run only when the profile or the command names it."""
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
    "docker",
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
)


def rule(code: Code, target: str = "") -> Callable[[Rule], Rule]:
    """Register a rule function under its code; with ``target``, a rule about that
    translation target only."""
    if target:
        TARGET_RULES[code] = target

    def register(function: Rule) -> Rule:
        functions = RULES.setdefault(code, [])
        if any(f.__qualname__ == function.__qualname__ for f in functions):
            raise ValueError(f"{function.__qualname__} is registered twice for {code}")
        functions.append(function)
        return function

    return register


def load_rules() -> dict[str, list[Rule]]:
    """Import every rule module once (they register themselves) and return the registry. A
    name in :data:`RULE_MODULES` without its module fails at once (ModuleNotFoundError): a
    misspelt entry must not leave its rules out in silence."""
    from importlib import import_module

    for name in RULE_MODULES:
        import_module(f"hclgpu.checks.{name}")
    return RULES


def run_checks(
    job: m.Job, tree: ast.File, source: SourceFile, sink: Sink, profile: Profile | None = None
) -> None:
    """Run every rule on one decoded job, for the cluster ``profile`` describes."""
    from hclgpu.checks.context import Context
    from hclgpu.settings.profile import Profile

    context = Context(job, source, tree, sink, profile or Profile())
    for code, functions in load_rules().items():
        target = TARGET_RULES.get(code)
        if target is not None and target not in context.profile.targets:
            continue
        for function in functions:
            try:
                function(context)
            except Exception as error:  # a bug in one rule must not hide the others' findings
                sink.emit(
                    HG901,
                    f"internal error in the rule for {code}: {type(error).__name__}: {error}",
                    source,
                    help="this is a bug in hclgpu; please report it with the file",
                )


def __getattr__(name: str) -> Any:
    """``Context`` on first use: the package is imported by what only reads suppression
    comments (:mod:`hclgpu.checks.suppress`), which needs no rule machinery."""
    if name == "Context":
        from hclgpu.checks.context import Context

        return Context
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["RULES", "Context", "load_rules", "rule", "run_checks"]
