"""Operators and the values they need, as Nomad's server validates them (HG220-HG226).

`Constraint.Validate` and `Affinity.Validate` (nomad/structs/structs.go:10021 and :10161 at
aa026cc99c) run when a job is registered, not when it is parsed, so `nomad job run -output`
never shows these problems. Each finding carries Nomad's message; hclgpu's explanation is
its help.
"""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context, Placed
from hclgpu.eval.expr import did_you_mean, suggested
from hclgpu.eval.functions.base import go_quote

COMPARISONS = ("=", "==", "is", "!=", "not", "<", "<=", ">", ">=")
SETS = ("set_contains", "set_contains_all", "set_contains_any")
OPERATORS = (
    *COMPARISONS,
    "regexp",
    "version",
    "semver",
    *SETS,
    "is_set",
    "is_not_set",
    "distinct_hosts",
    "distinct_property",
)
NOT_IN_DEVICE = ("distinct_hosts", "distinct_property")
NOT_IN_AFFINITY = ("is_set", "is_not_set", "distinct_hosts", "distinct_property")
DROPPED_SHORTCUTS = ("set_contains_all", "set_contains_any", "is_set", "is_not_set")


_UNKNOWN = {"affinity": "operator", "constraint": "type"}
"""Nomad's word for an unknown operator: "Unknown constraint type", "Unknown affinity operator"."""


def _kind(placed: Placed) -> str:
    return "affinity" if placed.node.__class__.__name__ == "Affinity" else "constraint"


@rule("HG220")
def unknown_operator(ctx: Context) -> None:
    for placed in ctx.validated():
        operand = placed.node.operand
        if operand not in OPERATORS:
            close = suggested(did_you_mean(operand, list(OPERATORS)))
            ctx.report(
                "HG220",
                f"Unknown {_kind(placed)} {_UNKNOWN[_kind(placed)]} {go_quote(operand)}",
                ctx.value_span(placed.node, "operator"),
                help=f"`{operand}` is not an operator Nomad knows; did you mean `{close}`?"
                if close
                else f"`{operand}` is not an operator Nomad knows; operators are {', '.join(OPERATORS)}",
                fix=ctx.written(placed.node, "operator", f'"{close}"') if close else (),
            )


@rule("HG221")
def operator_not_allowed_here(ctx: Context) -> None:
    for placed in ctx.validated():
        operand, kind = placed.node.operand, _kind(placed)
        if kind == "affinity" and operand in NOT_IN_AFFINITY:
            where, message = "an affinity", f"Unknown affinity operator {go_quote(operand)}"
        elif placed.scope == "device" and operand in NOT_IN_DEVICE:
            # RequestedDevice.Validate (structs.go:3139 at aa026cc99c) refuses them before
            # Constraint.Validate sees them
            where, message = "a device constraint", f"using unsupported operand {go_quote(operand)}"
        else:
            continue
        ctx.report(
            "HG221",
            message,
            ctx.value_span(placed.node, "operator", operand),
            help=f"`{operand}` is not allowed in {where}: `distinct_*` belong to job or group "
            "constraints; affinities take comparisons",
        )


@rule("HG222")
def invalid_regexp(ctx: Context) -> None:
    for placed in ctx.validated():
        if placed.node.operand != "regexp":
            continue
        from hclgpu.re2 import re2_problem

        problem = re2_problem(placed.node.r_target)
        if problem:
            ctx.report(
                "HG222",
                f"Regular expression failed to compile: error parsing regexp: {problem}",
                ctx.value_span(placed.node, "regexp", "value"),
                help="the expression does not compile with Go's RE2, which has no lookaround, "
                "backreferences, possessive quantifiers or atomic groups",
            )


@rule("HG223")
def invalid_version_constraint(ctx: Context) -> None:
    for placed in ctx.validated():
        operand = placed.node.operand
        if operand not in ("version", "semver"):
            continue
        from hclgpu.units.versions import semver_constraint_problem, version_constraint_problem

        check = version_constraint_problem if operand == "version" else semver_constraint_problem
        problem = check(placed.node.r_target)
        if problem:
            ctx.report(
                "HG223",
                f"{operand.capitalize()} {_kind(placed)} is invalid: {problem}",
                ctx.value_span(placed.node, operand, "value"),
                help=f"the {operand} constraint `{placed.node.r_target}` does not parse; "
                'write it like ">= 1.2, < 2" or "~> 1.0"',
            )


def _dropped(ctx: Context, placed: Placed) -> list[str]:
    if _kind(placed) != "constraint":
        return []
    return [name for name in DROPPED_SHORTCUTS if ctx.attribute(placed.node, name) is not None]


@rule("HG224")
def missing_value(ctx: Context) -> None:
    for placed in ctx.validated():
        node, operand = placed.node, placed.node.operand
        # a dropped shortcut (HG226) leaves an `=` with no value, which the server refuses
        # all the same: "Operator \"=\" requires an RTarget" (nomad/structs/structs.go,
        # Constraint.Validate, at aa026cc99c)
        affinity = _kind(placed) == "affinity"
        if node.l_target == "" and operand != "distinct_hosts":
            ctx.report(
                "HG224",
                "No LTarget provided but is required"
                if affinity
                else "no attribute provided but is required by operator",
                ctx.header_span(node),
                help=f"this {_kind(placed)} has no `attribute`; "
                'say what to compare: `attribute = "${device.model}"`',
            )
        elif node.r_target == "" and operand in (*COMPARISONS, *SETS):
            empty = ctx.attribute(node, "value") is not None  # `value = ""`, often a blank to fill
            ctx.report(
                "HG224",
                _needs_value(operand, affinity),
                ctx.value_span(node, "value") if empty else ctx.value_span(node, "operator"),
                help=(f"`{operand}` needs a non-empty `value`" if empty else f"`{operand}` needs a `value`")
                + "; write the value to compare with: Nomad refuses an empty one when the job is registered",
            )


def _needs_value(operand: str, affinity: bool) -> str:
    """Nomad's words for a comparison or set operator without a value."""
    if operand in COMPARISONS:
        return f"Operator {go_quote(operand)} requires an RTarget"
    return (
        "Set contains operators require an RTarget"
        if affinity
        else "Set contains constraint requires an RTarget"
    )


@rule("HG225")
def value_not_allowed(ctx: Context) -> None:
    for placed in ctx.validated():
        node = placed.node  # an affinity's is_set is an unknown operator (HG221), not this
        if node.operand in ("is_set", "is_not_set") and node.r_target != "" and _kind(placed) == "constraint":
            ctx.report(
                "HG225",
                f"Operator {go_quote(node.operand)} does not support an RTarget",
                ctx.value_span(node, "value"),
                help=f"`{node.operand}` takes no value: remove `value`",
            )


@rule("HG226")
def dropped_shortcut(ctx: Context) -> None:
    for placed in ctx.validated():
        for name in _dropped(ctx, placed):
            attribute = ctx.attribute(placed.node, name)
            assert attribute is not None
            ctx.report(
                "HG226",
                f"Nomad silently drops `{name} = ...` in a constraint, leaving an empty `=` comparison",
                attribute.name_span,
                help=f'write `operator = "{name}"` and `value = ...` instead',
            )
