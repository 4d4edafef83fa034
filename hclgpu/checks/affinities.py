"""Affinity weights: what Nomad stores and what its server accepts (HG230-HG233).

The parser truncates the weight toward zero and stores it in an int8, wrapping around
with no error; the server then requires a stored weight in [-100, 100] other than 0.
"""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.server import Condition, reject
from hclgpu.codes.base import Code, E, W
from hclgpu.ir import models as m
from hclgpu.syntax import ast

HG230 = Code(
    "HG230",
    "zero-affinity-weight",
    E,
    summary="An affinity with weight zero",
    doc="""What: `weight = 0`.

Why: Nomad rejects the job at registration ("Affinity weight cannot be zero").

Example:
    affinity { attribute = "${device.model}"  value = "A100"  weight = 0 }

Fix: use a weight between -100 and 100 other than 0, or remove the affinity.""",
)


HG231 = Code(
    "HG231",
    "affinity-weight-out-of-range",
    E,
    summary="An affinity weight outside -100..100",
    doc="""What: the weight Nomad stores is outside [-100, 100].

Why: Nomad rejects the job at registration.

Example:
    weight = 120

Fix: use a weight between -100 and 100.""",
)


HG232 = Code(
    "HG232",
    "affinity-weight-wraps",
    W,
    summary="An affinity weight outside -128..127 that Nomad wraps around",
    doc="""What: Nomad stores the weight in an 8-bit integer: 200 becomes -56, -129 becomes
127, with no error.

Why: the stored weight may pass validation with the opposite meaning: a strong
preference becomes an aversion.

Example:
    weight = 200

Fix: use a weight between -100 and 100.""",
)


HG233 = Code(
    "HG233",
    "fractional-affinity-weight",
    W,
    summary="An affinity weight with a fraction",
    doc="""What: Nomad cuts the fraction off (`-50.7` becomes `-50`).

Why: the weight used is not the one written.

Example:
    weight = 12.5

Fix: write a whole number.""",
)

AFFINITY_WEIGHT_ZERO = Condition(
    "affinity-weight-zero",
    code=HG230,
    nomad="Affinity.Validate",
    source="nomad/structs/structs.go:10200",
    condition="an affinity `weight` of 0",
    message="Affinity weight cannot be zero",
)

AFFINITY_WEIGHT_RANGE = Condition(
    "affinity-weight-range",
    code=HG231,
    nomad="Affinity.Validate",
    source="nomad/structs/structs.go:10204",
    condition="an affinity `weight` outside -100..100",
    message="Affinity weight must be within the range [-100,100]",
)


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


@rule(HG230)
def zero_affinity_weight(ctx: Context) -> None:
    for affinity in _affinities(ctx):
        if affinity.weight == 0:
            reject(
                ctx,
                AFFINITY_WEIGHT_ZERO,
                ctx.value_span(affinity, "weight"),
                help="Nomad refuses a weight of 0; use a weight between -100 and 100 other than 0",
            )


@rule(HG231)
def affinity_weight_out_of_range(ctx: Context) -> None:
    for affinity in _affinities(ctx):
        if affinity.weight is not None and not -100 <= affinity.weight <= 100:
            reject(
                ctx,
                AFFINITY_WEIGHT_RANGE,
                ctx.value_span(affinity, "weight"),
                help=f"the weight Nomad stores is {affinity.weight}; use a weight between -100 and 100",
                fix=ctx.written(affinity, "weight", str(max(-100, min(100, affinity.weight)))),
            )


@rule(HG232)
def affinity_weight_wraps(ctx: Context) -> None:
    for affinity in _affinities(ctx):
        written = written_weight(ctx, affinity)
        if written is not None and not -128 <= int(written) <= 127:
            ctx.report(
                HG232,
                f"Nomad stores the weight {written:g} in 8 bits, as {affinity.weight}",
                ctx.value_span(affinity, "weight"),
                help="use a weight between -100 and 100",
                fix=ctx.written(affinity, "weight", str(max(-100, min(100, int(written))))),
            )


@rule(HG233)
def fractional_affinity_weight(ctx: Context) -> None:
    for affinity in _affinities(ctx):
        written = written_weight(ctx, affinity)
        if isinstance(written, float) and not written.is_integer():
            ctx.report(
                HG233,
                f"Nomad cuts the weight {written:g} to {int(written)}",
                ctx.value_span(affinity, "weight"),
                help=f"write `weight = {int(written)}`",
                fix=ctx.written(affinity, "weight", str(int(written))),
                fix_safe=True,  # the weight Nomad uses: the meaning does not change
            )
