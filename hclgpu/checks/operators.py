"""Operators and the values they need, as Nomad's server validates them (HG220-HG226).

`Constraint.Validate` and `Affinity.Validate` run when a job is registered, not when it
is parsed, so `nomad job run -output` never shows these problems.
"""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context, Placed
from hclgpu.eval.expr import did_you_mean, suggested

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


def _kind(placed: Placed) -> str:
    return "affinity" if placed.node.__class__.__name__ == "Affinity" else "constraint"


@rule("HG220")
def unknown_operator(ctx: Context) -> None:
    for placed in ctx.all_placed():
        operand = placed.node.operand
        if operand not in OPERATORS:
            close = suggested(did_you_mean(operand, list(OPERATORS)))
            ctx.report(
                "HG220",
                f"`{operand}` is not an operator Nomad knows",
                ctx.value_span(placed.node, "operator"),
                help=f"did you mean `{close}`?" if close else f"operators are {', '.join(OPERATORS)}",
                fix=ctx.written(placed.node, "operator", f'"{close}"') if close else (),
            )


@rule("HG221")
def operator_not_allowed_here(ctx: Context) -> None:
    for placed in ctx.all_placed():
        operand, kind = placed.node.operand, _kind(placed)
        if kind == "affinity" and operand in NOT_IN_AFFINITY:
            where = "an affinity"
        elif placed.scope == "device" and operand in NOT_IN_DEVICE:
            where = "a device constraint"
        else:
            continue
        ctx.report(
            "HG221",
            f"`{operand}` is not allowed in {where}",
            ctx.value_span(placed.node, "operator", operand),
            help="`distinct_*` belong to job or group constraints; affinities take comparisons",
        )


@rule("HG222")
def invalid_regexp(ctx: Context) -> None:
    for placed in ctx.all_placed():
        if placed.node.operand != "regexp":
            continue
        from hclgpu.re2 import re2_problem

        problem = re2_problem(placed.node.r_target)
        if problem:
            ctx.report(
                "HG222",
                f"the regular expression does not compile with Go's RE2: {problem}",
                ctx.value_span(placed.node, "regexp", "value"),
                help="RE2 has no lookaround, backreferences, possessive quantifiers or atomic groups",
            )


@rule("HG223")
def invalid_version_constraint(ctx: Context) -> None:
    for placed in ctx.all_placed():
        operand = placed.node.operand
        if operand not in ("version", "semver"):
            continue
        from hclgpu.units.versions import semver_constraint_problem, version_constraint_problem

        check = version_constraint_problem if operand == "version" else semver_constraint_problem
        problem = check(placed.node.r_target)
        if problem:
            ctx.report(
                "HG223",
                f"the {operand} constraint `{placed.node.r_target}` does not parse: {problem}",
                ctx.value_span(placed.node, operand, "value"),
                help='write it like ">= 1.2, < 2" or "~> 1.0"',
            )


def _dropped(ctx: Context, placed: Placed) -> list[str]:
    if _kind(placed) != "constraint":
        return []
    return [name for name in DROPPED_SHORTCUTS if ctx.attribute(placed.node, name) is not None]


@rule("HG224")
def missing_value(ctx: Context) -> None:
    for placed in ctx.all_placed():
        node, operand = placed.node, placed.node.operand
        # a dropped shortcut (HG226) leaves an `=` with no value, which the server refuses
        # all the same: "Operator \"=\" requires an RTarget" (nomad/structs/structs.go,
        # Constraint.Validate, at aa026cc99c)
        if node.l_target == "" and operand != "distinct_hosts":
            ctx.report(
                "HG224",
                f"this {_kind(placed)} has no `attribute`",
                ctx.header_span(node),
                help='say what to compare: `attribute = "${device.model}"`',
            )
        elif node.r_target == "" and operand in (*COMPARISONS, *SETS):
            empty = ctx.attribute(node, "value") is not None  # `value = ""`, often a blank to fill
            ctx.report(
                "HG224",
                f"`{operand}` needs a non-empty `value`" if empty else f"`{operand}` needs a `value`",
                ctx.value_span(node, "value") if empty else ctx.value_span(node, "operator"),
                # nomad/structs/structs.go Constraint.Validate and Affinity.Validate (aa026cc99c):
                # `Operator %q requires an RTarget` for every comparison with an empty RTarget
                help="write the value to compare with; Nomad refuses an empty one when the job is registered",
            )


@rule("HG225")
def value_not_allowed(ctx: Context) -> None:
    for placed in ctx.all_placed():
        node = placed.node
        if node.operand in ("is_set", "is_not_set") and node.r_target != "":
            ctx.report(
                "HG225",
                f"`{node.operand}` takes no value",
                ctx.value_span(node, "value"),
                help="remove `value`",
            )


@rule("HG226")
def dropped_shortcut(ctx: Context) -> None:
    for placed in ctx.all_placed():
        for name in _dropped(ctx, placed):
            attribute = ctx.attribute(placed.node, name)
            assert attribute is not None
            ctx.report(
                "HG226",
                f"Nomad silently drops `{name} = ...` in a constraint, leaving an empty `=` comparison",
                attribute.name_span,
                help=f'write `operator = "{name}"` and `value = ...` instead',
            )
