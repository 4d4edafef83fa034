"""Operators and the values they need, as Nomad's server validates them (HG220-HG226).

`Constraint.Validate` and `Affinity.Validate` (nomad/structs/structs.go:10021 and :10161 at
aa026cc99c) run when a job is registered, not when it is parsed, so `nomad job run -output`
never shows these problems. Each finding carries Nomad's message; hclgpu's explanation is
its help.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hclgpu.checks import rule
from hclgpu.checks.context import Context, Placed
from hclgpu.checks.server import Check, Condition, reject
from hclgpu.codes.base import Code, E, W
from hclgpu.eval.expr import closest
from hclgpu.eval.functions.base import go_quote

if TYPE_CHECKING:
    from hclgpu.diagnostics import Edit
    from hclgpu.ir.base import Node

HG220 = Code(
    "HG220",
    "unknown-operator",
    E,
    summary="An operator Nomad does not know",
    doc="""What: operators are `=`, `==`, `is`, `!=`, `not`, `<`, `<=`, `>`, `>=`, `regexp`,
`version`, `semver`, `set_contains`, `set_contains_all`, `set_contains_any`,
`is_set`, `is_not_set`, `distinct_hosts` and `distinct_property`.

Why: Nomad rejects the job at registration ("Unknown constraint type").

Example:
    operator = "=~"

Fix: use one of the operators (the help suggests the closest).""",
)


HG221 = Code(
    "HG221",
    "operator-not-allowed-here",
    E,
    summary="An operator that this kind of constraint or affinity does not take",
    doc="""What: `distinct_hosts` and `distinct_property` are not allowed in a device
constraint; affinities take neither those nor `is_set`/`is_not_set`.

Why: Nomad rejects the job at registration.

Example:
    device "nvidia/gpu" { constraint { distinct_hosts = true } }

Fix: move `distinct_*` to the job or group; write affinities with a comparison.""",
)


HG222 = Code(
    "HG222",
    "invalid-regexp",
    E,
    summary="A `regexp` that Go's RE2 engine does not accept",
    doc="""What: Nomad compiles the pattern with Go's `regexp` (RE2 syntax): no lookaround,
no backreferences, no possessive quantifiers or atomic groups.

Why: Nomad rejects the job at registration.

Example:
    regexp = "^(?!Tesla).*"

Fix: rewrite the pattern without the unsupported construct (or use `!=`).""",
)


HG223 = Code(
    "HG223",
    "invalid-version-constraint",
    E,
    summary="A `version` or `semver` constraint that does not parse",
    doc="""What: `version` takes hashicorp/go-version constraints (`">= 1.2, < 2"`,
`"~> 1.0"`), `semver` strict semantic versions.

Why: Nomad rejects the job at registration.

Example:
    version = "=> 535"

Fix: write the constraint in go-version syntax (`">= 535"`).""",
)


HG224 = Code(
    "HG224",
    "missing-value",
    E,
    summary="An operator that needs a value has none",
    doc="""What: comparisons and the `set_contains*` operators need a `value`.

Why: Nomad rejects the job at registration ("requires an RTarget").

Example:
    constraint { attribute = "${device.model}"  operator = "set_contains" }

Fix: add the value.""",
)


HG225 = Code(
    "HG225",
    "value-not-allowed",
    E,
    summary="`is_set` or `is_not_set` with a value",
    doc="""What: `is_set` and `is_not_set` test only whether the attribute exists.

Why: Nomad rejects the job at registration when a value is given.

Example:
    constraint { attribute = "${device.attr.power}"  operator = "is_set"  value = "true" }

Fix: remove the value.""",
)


HG226 = Code(
    "HG226",
    "dropped-shortcut",
    W,
    summary="A constraint shortcut attribute that Nomad silently drops",
    doc="""What: a constraint accepts `set_contains_all = X`, `set_contains_any = X`,
`is_set = X` and `is_not_set = X` as attributes, but ignores them: the constraint
becomes `attribute = ""`, operator `=`.

Why: the constraint no longer says what was written, and the server then rejects it
for its empty value ("Operator "=" requires an RTarget"), reported beside this as
HG224.

Example:
    constraint { attribute = "${device.attr.x}"  set_contains_all = "a,b" }

Fix: write `operator = "set_contains_all"` and `value = "a,b"`.""",
)

DEVICE_CONSTRAINT_OPERATOR = Condition(
    "device-constraint-operator",
    code=HG221,
    nomad="RequestedDevice.Validate",
    source="nomad/structs/structs.go:3139",
    condition="a device constraint uses distinct_hosts or distinct_property",
    message="Constraint {index} validation failed: using unsupported operand {operator!r}",
)

CONSTRAINT_SET_CONTAINS_VALUE = Condition(
    "constraint-set-contains-value",
    code=HG224,
    nomad="Constraint.Validate",
    source="nomad/structs/structs.go:10037",
    condition="a set_contains constraint has no `value`",
    message="Set contains constraint requires an RTarget",
)

CONSTRAINT_REGEXP = Condition(
    "constraint-regexp",
    code=HG222,
    nomad="Constraint.Validate",
    source="nomad/structs/structs.go:10041",
    condition="a regexp constraint's `value` does not compile",
    message="Regular expression failed to compile: {error}",
)

CONSTRAINT_VERSION = Condition(
    "constraint-version",
    code=HG223,
    nomad="Constraint.Validate",
    source="nomad/structs/structs.go:10045",
    condition="a version constraint's `value` does not parse",
    message="Version constraint is invalid: {error}",
)

CONSTRAINT_SEMVER = Condition(
    "constraint-semver",
    code=HG223,
    nomad="Constraint.Validate",
    source="nomad/structs/structs.go:10049",
    condition="a semver constraint's `value` does not parse",
    message="Semver constraint is invalid: {error}",
)

CONSTRAINT_IS_SET_VALUE = Condition(
    "constraint-is-set-value",
    code=HG225,
    nomad="Constraint.Validate",
    source="nomad/structs/structs.go:10063",
    condition="is_set or is_not_set with a `value`",
    message="Operator {operator!r} does not support an RTarget",
)

CONSTRAINT_OPERATOR_VALUE = Condition(
    "constraint-operator-value",
    code=HG224,
    nomad="Constraint.Validate",
    source="nomad/structs/structs.go:10067",
    condition="a comparison operator without a `value`",
    message="Operator {operator!r} requires an RTarget",
)

CONSTRAINT_OPERATOR = Condition(
    "constraint-operator",
    code=HG220,
    nomad="Constraint.Validate",
    source="nomad/structs/structs.go:10070",
    condition="an unknown constraint `operator`",
    message="Unknown constraint type {operator!r}",
)

CONSTRAINT_ATTRIBUTE = Condition(
    "constraint-attribute",
    code=HG224,
    nomad="Constraint.Validate",
    source="nomad/structs/structs.go:10077",
    condition="a constraint without `attribute` (other than distinct_hosts)",
    message="no attribute provided but is required by operator",
)

AFFINITY_SET_CONTAINS_VALUE = Condition(
    "affinity-set-contains-value",
    code=HG224,
    nomad="Affinity.Validate",
    source="nomad/structs/structs.go:10171",
    condition="a set_contains, set_contains_all or set_contains_any affinity has no `value`",
    message="Set contains operators require an RTarget",
)

AFFINITY_REGEXP = Condition(
    "affinity-regexp",
    code=HG222,
    nomad="Affinity.Validate",
    source="nomad/structs/structs.go:10175",
    condition="a regexp affinity's `value` does not compile",
    message="Regular expression failed to compile: {error}",
)

AFFINITY_VERSION = Condition(
    "affinity-version",
    code=HG223,
    nomad="Affinity.Validate",
    source="nomad/structs/structs.go:10179",
    condition="a version affinity's `value` does not parse",
    message="Version affinity is invalid: {error}",
)

AFFINITY_SEMVER = Condition(
    "affinity-semver",
    code=HG223,
    nomad="Affinity.Validate",
    source="nomad/structs/structs.go:10183",
    condition="a semver affinity's `value` does not parse",
    message="Semver affinity is invalid: {error}",
)

AFFINITY_OPERATOR_VALUE = Condition(
    "affinity-operator-value",
    code=HG224,
    nomad="Affinity.Validate",
    source="nomad/structs/structs.go:10187",
    condition="a comparison affinity without a `value`",
    message="Operator {operator!r} requires an RTarget",
)

AFFINITY_OPERATOR = Condition(
    "affinity-operator",
    code=HG220,
    nomad="Affinity.Validate",
    source="nomad/structs/structs.go:10190",
    condition="an unknown affinity `operator`, or one affinities do not take",
    message="Unknown affinity operator {operator!r}",
)

AFFINITY_ATTRIBUTE = Condition(
    "affinity-attribute",
    code=HG224,
    nomad="Affinity.Validate",
    source="nomad/structs/structs.go:10195",
    condition="an affinity without `attribute`",
    message="No LTarget provided but is required",
)


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


AFFINITY_OPERATOR_NOT_ALLOWED = Check(
    "affinity-operator-not-allowed",
    code=HG221,
    condition="an affinity uses is_set, is_not_set, distinct_hosts or distinct_property (Nomad's"
    " `Affinity.Validate` finds them unknown: affinity-operator)",
)
_VERSION_CHECKS = {
    ("constraint", "version"): CONSTRAINT_VERSION,
    ("constraint", "semver"): CONSTRAINT_SEMVER,
    ("affinity", "version"): AFFINITY_VERSION,
    ("affinity", "semver"): AFFINITY_SEMVER,
}
_VALUE_CHECKS = {
    (False, True): CONSTRAINT_OPERATOR_VALUE,
    (False, False): CONSTRAINT_SET_CONTAINS_VALUE,
    (True, True): AFFINITY_OPERATOR_VALUE,
    (True, False): AFFINITY_SET_CONTAINS_VALUE,
}
"""The check of a missing value, by (affinity, comparison operator)."""


def _position(placed: Placed) -> int:
    """The constraint's place among its device's, from 1, as `RequestedDevice.Validate` counts."""
    constraints = placed.device.constraints if placed.device is not None else None
    return next((i for i, c in enumerate(constraints or [], 1) if c is placed.node), 1)


def _kind(placed: Placed) -> str:
    return "affinity" if placed.node.__class__.__name__ == "Affinity" else "constraint"


@rule(HG220)
def unknown_operator(ctx: Context) -> None:
    for placed in ctx.validated():
        operand = placed.node.operand
        if operand not in OPERATORS:
            close = closest(operand, list(OPERATORS))
            reject(
                ctx,
                AFFINITY_OPERATOR if _kind(placed) == "affinity" else CONSTRAINT_OPERATOR,
                ctx.value_span(placed.node, "operator"),
                operator=operand,
                help=f"`{operand}` is not an operator Nomad knows; did you mean `{close}`?"
                if close
                else f"`{operand}` is not an operator Nomad knows; operators are {', '.join(OPERATORS)}",
                fix=ctx.written(placed.node, "operator", f'"{close}"') if close else (),
            )


@rule(HG221)
def operator_not_allowed_here(ctx: Context) -> None:
    for placed in ctx.validated():
        operand, kind = placed.node.operand, _kind(placed)
        help = "`distinct_*` belong to job or group constraints; affinities take comparisons"
        if kind == "affinity" and operand in NOT_IN_AFFINITY:
            ctx.report(
                HG221,
                f"Unknown affinity operator {go_quote(operand)}",
                ctx.value_span(placed.node, "operator", operand),
                help=f"`{operand}` is not allowed in an affinity: {help}",
                check=AFFINITY_OPERATOR_NOT_ALLOWED.id,
            )
        elif placed.scope == "device" and operand in NOT_IN_DEVICE:
            # RequestedDevice.Validate refuses them before Constraint.Validate sees them
            reject(
                ctx,
                DEVICE_CONSTRAINT_OPERATOR,
                ctx.value_span(placed.node, "operator", operand),
                index=_position(placed),
                operator=operand,
                help=f"`{operand}` is not allowed in a device constraint: {help}",
            )


@rule(HG222)
def invalid_regexp(ctx: Context) -> None:
    for placed in ctx.validated():
        if placed.node.operand != "regexp":
            continue
        from hclgpu.re2 import re2_problem

        problem = re2_problem(placed.node.r_target)
        if problem:
            reject(
                ctx,
                AFFINITY_REGEXP if _kind(placed) == "affinity" else CONSTRAINT_REGEXP,
                ctx.value_span(placed.node, "regexp", "value"),
                error=f"error parsing regexp: {problem}",
                help="the expression does not compile with Go's RE2, which has no lookaround, "
                "backreferences, possessive quantifiers or atomic groups",
            )


@rule(HG223)
def invalid_version_constraint(ctx: Context) -> None:
    for placed in ctx.validated():
        operand = placed.node.operand
        if operand not in ("version", "semver"):
            continue
        from hclgpu.units.versions import semver_constraint_problem, version_constraint_problem

        check = version_constraint_problem if operand == "version" else semver_constraint_problem
        problem = check(placed.node.r_target)
        if problem:
            reject(
                ctx,
                _VERSION_CHECKS[_kind(placed), operand],
                ctx.value_span(placed.node, operand, "value"),
                error=problem,
                help=f"the {operand} constraint `{placed.node.r_target}` does not parse; "
                'write it like ">= 1.2, < 2" or "~> 1.0"',
            )


def _dropped(ctx: Context, placed: Placed) -> list[str]:
    if _kind(placed) != "constraint":
        return []
    return [name for name in DROPPED_SHORTCUTS if ctx.attribute(placed.node, name) is not None]


@rule(HG224)
def missing_value(ctx: Context) -> None:
    for placed in ctx.validated():
        node, operand = placed.node, placed.node.operand
        # a dropped shortcut (HG226) leaves an `=` with no value, which the server refuses
        # all the same: "Operator \"=\" requires an RTarget" (nomad/structs/structs.go,
        # Constraint.Validate, at aa026cc99c)
        affinity = _kind(placed) == "affinity"
        if node.l_target == "" and operand != "distinct_hosts":
            reject(
                ctx,
                AFFINITY_ATTRIBUTE if affinity else CONSTRAINT_ATTRIBUTE,
                ctx.header_span(node),
                help=f"this {_kind(placed)} has no `attribute`; "
                'say what to compare: `attribute = "${device.model}"`',
            )
        elif node.r_target == "" and operand in (*COMPARISONS, *SETS):
            empty = ctx.attribute(node, "value") is not None  # `value = ""`, often a blank to fill
            reject(
                ctx,
                _VALUE_CHECKS[affinity, operand in COMPARISONS],
                ctx.value_span(node, "value") if empty else ctx.value_span(node, "operator"),
                operator=operand,
                help=(f"`{operand}` needs a non-empty `value`" if empty else f"`{operand}` needs a `value`")
                + "; write the value to compare with: Nomad refuses an empty one when the job is registered",
            )


@rule(HG225)
def value_not_allowed(ctx: Context) -> None:
    for placed in ctx.validated():
        node = placed.node  # an affinity's is_set is an unknown operator (HG221), not this
        if node.operand in ("is_set", "is_not_set") and node.r_target != "" and _kind(placed) == "constraint":
            reject(
                ctx,
                CONSTRAINT_IS_SET_VALUE,
                ctx.value_span(node, "value"),
                operator=node.operand,
                help=f"`{node.operand}` takes no value: remove `value`",
            )


@rule(HG226)
def dropped_shortcut(ctx: Context) -> None:
    for placed in ctx.validated():
        for name in _dropped(ctx, placed):
            attribute = ctx.attribute(placed.node, name)
            assert attribute is not None
            ctx.report(
                HG226,
                f"Nomad silently drops `{name} = ...` in a constraint, leaving an empty `=` comparison",
                attribute.name_span,
                help=f'write `operator = "{name}"` and `value = ...` instead',
                fix=_operator_written(ctx, placed.node, name),
                fix_safe=True,  # the operator the attribute names, with its value
            )


def _operator_written(ctx: Context, node: Node, name: str) -> tuple[Edit, ...]:
    """`set_contains_all = "a,b"` as `operator = "set_contains_all"` and `value = "a,b"`;
    `is_set = true` as the operator alone. Nothing where the block already sets an operator or
    a value, or where the shortcut's value is not what the operator would take."""
    from hclgpu.ir.moves import replace_lines

    attribute = ctx.attribute(node, name)
    if attribute is None or any(ctx.attribute(node, other) for other in ("operator", "value")):
        return ()
    written = ctx.source.text[attribute.value.span.start : attribute.value.span.end]
    lines = [f'operator = "{name}"']
    if name.startswith("set_contains"):
        lines.append(f"value = {written}")
    elif written != "true":
        return ()
    return replace_lines(ctx.source.text, attribute.span, lines)
