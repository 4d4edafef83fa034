"""Affinity weights: what Nomad stores and what its server accepts (HG230-HG233).

The parser truncates the weight toward zero and stores it in an int8, wrapping around
with no error; the server then requires a stored weight in [-100, 100] other than 0.
"""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.ir import models as m
from hclgpu.syntax import ast


def _affinities(ctx: Context) -> list[m.Affinity]:
    return [p.node for p in ctx.validated("affinities") if isinstance(p.node, m.Affinity)]


def written_weight(ctx: Context, affinity: m.Affinity) -> int | float | None:
    """The weight as written, when it is a number literal (possibly negated)."""
    attribute = ctx.attribute(affinity, "weight")
    if attribute is None:
        return None
    expr, sign = attribute.value, 1
    if isinstance(expr, ast.UnaryOp) and expr.op == "-":
        expr, sign = expr.operand, -1
    if (
        isinstance(expr, ast.Literal)
        and isinstance(expr.value, (int, float))
        and not isinstance(expr.value, bool)
    ):
        return sign * expr.value
    return None


@rule("HG230")
def zero_affinity_weight(ctx: Context) -> None:
    for affinity in _affinities(ctx):
        if affinity.weight == 0:
            ctx.report(
                "HG230",
                "Affinity weight cannot be zero",  # Affinity.Validate, structs.go:10200 at aa026cc99c
                ctx.value_span(affinity, "weight"),
                help="Nomad refuses a weight of 0; use a weight between -100 and 100 other than 0",
            )


@rule("HG231")
def affinity_weight_out_of_range(ctx: Context) -> None:
    for affinity in _affinities(ctx):
        if affinity.weight is not None and not -100 <= affinity.weight <= 100:
            ctx.report(
                "HG231",
                "Affinity weight must be within the range [-100,100]",  # structs.go:10204
                ctx.value_span(affinity, "weight"),
                help=f"the weight Nomad stores is {affinity.weight}; use a weight between -100 and 100",
                fix=ctx.written(affinity, "weight", str(max(-100, min(100, affinity.weight)))),
            )


@rule("HG232")
def affinity_weight_wraps(ctx: Context) -> None:
    for affinity in _affinities(ctx):
        written = written_weight(ctx, affinity)
        if written is not None and not -128 <= int(written) <= 127:
            ctx.report(
                "HG232",
                f"Nomad stores the weight {written:g} in 8 bits, as {affinity.weight}",
                ctx.value_span(affinity, "weight"),
                help="use a weight between -100 and 100",
                fix=ctx.written(affinity, "weight", str(max(-100, min(100, int(written))))),
            )


@rule("HG233")
def fractional_affinity_weight(ctx: Context) -> None:
    for affinity in _affinities(ctx):
        written = written_weight(ctx, affinity)
        if isinstance(written, float) and not written.is_integer():
            ctx.report(
                "HG233",
                f"Nomad cuts the weight {written:g} to {int(written)}",
                ctx.value_span(affinity, "weight"),
                help=f"write `weight = {int(written)}`",
            )
