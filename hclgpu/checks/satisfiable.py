"""Device requests no device can satisfy (HG235-HG237, HG207).

A request's constraints all apply to the same device, so two of them on one target can
exclude each other; the model written in the device name is one more such constraint;
an affinity for a value those exclude never scores; a memory bound can exclude the very
model the request names (HG207, from the memory NVML reports for known models). Values
are compared with Nomad's own attribute semantics (:mod:`hclgpu.units`), so `8 GiB` and
`8192 MiB` are the same bound.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.devices import EQUALS, MODEL, pinned_models
from hclgpu.codes.base import Code, W
from hclgpu.diagnostics import Related
from hclgpu.ir import models as m

HG235 = Code(
    "HG235",
    "contradictory-constraints",
    W,
    summary="Constraints on one device target that no value can satisfy together",
    doc="""What: two constraints of one device request on the same target exclude each
other (`memory >= 8 GiB` and `memory < 4 GiB`, `model = "A100"` and
`model = "T4"`, `model = "A100"` and `regexp = "^Tesla"`).

Why: no device can ever match: the task is never placed.

Example:
    constraint { attribute = "${device.attr.memory}"  operator = ">="  value = "8 GiB" }
    constraint { attribute = "${device.attr.memory}"  operator = "<"   value = "4 GiB" }

Fix: fix the bounds or remove one constraint.""",
)


HG236 = Code(
    "HG236",
    "device-model-excluded",
    W,
    summary="The model in the device name is excluded by the request's own constraint",
    doc="""What: `device "nvidia/gpu/Tesla T4"` asks for one model, and a constraint on
`${device.model}` rules that model out.

Why: no device can match both: the task is never placed.

Example:
    device "nvidia/gpu/Tesla T4" {
      constraint { attribute = "${device.model}"  value = "A100" }
    }

Fix: keep the model in one place.""",
)


HG237 = Code(
    "HG237",
    "affinity-never-matches",
    W,
    summary="An affinity that the request's constraints make impossible",
    doc="""What: an affinity prefers a value that the same request's constraints (or its
name) already exclude.

Why: the affinity never scores; it only costs scheduling time and misleads readers.

Example:
    device "nvidia/gpu/Tesla T4" {
      affinity { attribute = "${device.model}"  value = "A100"  weight = 50 }
    }

Fix: remove the affinity or the conflicting constraint.""",
)


HG207 = Code(
    "HG207",
    "memory-constraint-excludes-model",
    W,
    summary="A `${device.attr.memory}` constraint that excludes the GPU model the request asks for",
    doc="""What: a device request names one NVIDIA model (`nvidia/gpu/<model>` or an `=`
constraint on `${device.model}`), and its `${device.attr.memory}` constraint excludes
the memory NVML reports for that model: `device "nvidia/gpu/NVIDIA H100 80GB HBM3"` with
`memory >= 80 GiB`, while the GPU reports 81559 MiB (79.65 GiB).

Why: Nomad's NVIDIA plugin (nomad-device-nvidia) sets the `memory` attribute to
`DeviceGetMemoryInfo().Total` in MiB, which is less than the marketed size, and the
scheduler compares it with the constraint by its units (scheduler/feasible/feasible.go:1583-1678
at aa026cc99c): no device of the model matches and the task is never placed.

Example:
    device "nvidia/gpu/NVIDIA H100 80GB HBM3" {
      constraint { attribute = "${device.attr.memory}"  operator = ">="  value = "80 GiB" }
    }

Fix: write a bound the model meets (`>= 79 GiB`, `>= 81559 MiB`), or drop the memory
constraint: the model already fixes the memory.

Only models whose reported memory is on record fire (see `MODEL_MEMORY_MIB`).""",
)


MODEL_MEMORY_MIB: dict[str, int] = {
    # nvidia-smi -q -x, <fb_memory_usage><total>: tests/data/nvidia-smi/q-x.xml:49
    "NVIDIA H100 80GB HBM3": 81559,
    # NVML DeviceGetMemoryInfo on an H200, driver 580.159.04: tests/data/nvidia-smi/h200/nvml.json
    "NVIDIA H200": 143771,
}
"""The memory NVML reports (MiB), by the exact model name the plugin reports as `device.model`.

Only HBM models, whose ECC is always on (a GDDR model's total changes with its ECC mode).
The go-nvml mock servers (pkg/nvml/mock/gpus) are not a source: they round to whole GiB
(81920 MiB for the H100) and name models differently ("NVIDIA H200 141GB HBM3e")."""


LOWER = (">", ">=")
UPPER = ("<", "<=")
CHECKABLE = (*EQUALS, *LOWER, *UPPER, "!=", "not", "regexp")
MEMORY = "${device.attr.memory}"


def _literal_constraints(device: m.RequestedDevice) -> dict[str, list[m.Constraint]]:
    by_target: dict[str, list[m.Constraint]] = defaultdict(list)
    for constraint in device.constraints or []:
        literal = constraint.r_target and not constraint.r_target.startswith("${")
        if constraint.l_target.startswith("${device.") and literal and constraint.operand in CHECKABLE:
            by_target[constraint.l_target].append(constraint)
    return by_target


def _value(text: str, target: str) -> object:
    """A device's value for ``target`` as Nomad holds it: models are strings, attributes parse."""
    from hclgpu.units import Attribute, parse_attribute

    if target == MODEL:
        return Attribute("string", text, None, text)
    return parse_attribute(text)


def _allows(constraint: m.Constraint, value: object) -> bool:
    from hclgpu.units import check_operator, parse_attribute

    return check_operator(constraint.operand, value, parse_attribute(constraint.r_target))  # type: ignore[arg-type]


def _excludes(a: m.Constraint, b: m.Constraint) -> bool:
    """Whether no value satisfies both constraints on one target."""
    from hclgpu.units import compare, parse_attribute

    if a.operand in EQUALS:
        return not _allows(b, _value(a.r_target, a.l_target))
    if b.operand in EQUALS:
        return not _allows(a, _value(b.r_target, b.l_target))
    lower, upper = (a, b) if a.operand in LOWER and b.operand in UPPER else (b, a)
    if lower.operand not in LOWER or upper.operand not in UPPER:
        return False
    order = compare(parse_attribute(lower.r_target), parse_attribute(upper.r_target))
    if order is None:
        return False
    return order > 0 or (order == 0 and (lower.operand == ">" or upper.operand == "<"))


@rule(HG235)
def contradictory_constraints(ctx: Context) -> None:
    for _, task, device in ctx.devices():
        for target, constraints in _literal_constraints(device).items():
            for first, second in combinations(constraints, 2):
                if _excludes(first, second):
                    span = ctx.value_span(first, "value")
                    ctx.report(
                        HG235,
                        f"no device satisfies both constraints on `{target}` in task `{task.name}`: "
                        f"`{first.operand} {first.r_target}` and `{second.operand} {second.r_target}`",
                        ctx.value_span(second, "value", "regexp"),
                        help="fix the bounds or remove one of the constraints",
                        related=[Related(span, "the other constraint")] if span else [],
                    )
                    break


def _model_of(device: m.RequestedDevice) -> str | None:
    parts = device.name.split("/", 2)
    return parts[2] if len(parts) == 3 and parts[2] else None


@rule(HG236)
def device_model_excluded(ctx: Context) -> None:
    for _, _, device in ctx.devices():
        model = _model_of(device)
        if model is None:
            continue
        for constraint in _literal_constraints(device).get(MODEL, []):
            if not _allows(constraint, _value(model, MODEL)):
                span = ctx.label_span(device)
                ctx.report(
                    HG236,
                    f"the device name asks for the model `{model}`, which this constraint excludes",
                    ctx.value_span(constraint, "value", "regexp"),
                    help="keep the model in one place: the name or the constraint",
                    related=[Related(span, "the model is named here")] if span else [],
                )


@rule(HG237)
def affinity_never_matches(ctx: Context) -> None:
    for _, _, device in ctx.devices():
        constraints = _literal_constraints(device)
        model = _model_of(device)
        for affinity in device.affinities or []:
            if affinity.operand not in EQUALS or not affinity.r_target or affinity.r_target.startswith("${"):
                continue
            value = _value(affinity.r_target, affinity.l_target)
            blocked = [c for c in constraints.get(affinity.l_target, []) if not _allows(c, value)]
            named = affinity.l_target == MODEL and model is not None and model != affinity.r_target
            if blocked or named:
                ctx.report(
                    HG237,
                    f"this affinity prefers `{affinity.r_target}`, which the request "
                    f"{'name' if named else 'constraints'} already exclude",
                    ctx.value_span(affinity, "value"),
                    help="remove the affinity or the conflicting constraint",
                )


def _asked_model(device: m.RequestedDevice) -> str | None:
    """The one NVIDIA model the request asks for, by name or by an `=` constraint."""
    models = {model for model, _ in pinned_models(device)}
    return models.pop() if len(models) == 1 else None


def _admitting(operand: str, mib: int) -> str:
    """A bound like the constraint's that admits ``mib``."""
    if operand in LOWER:
        return f"`>= {mib // 1024} GiB` or `>= {mib} MiB`"
    if operand in UPPER:
        return f"`<= {-(-mib // 1024)} GiB` or `<= {mib} MiB`"
    return f"`>= {mib // 1024} GiB`"


@rule(HG207)
def memory_constraint_excludes_model(ctx: Context) -> None:
    from hclgpu.units import parse_attribute

    for _, task, device in ctx.devices():
        model = _asked_model(device)
        mib = MODEL_MEMORY_MIB.get(model) if model is not None else None
        if mib is None:
            continue
        memory = parse_attribute(f"{mib} MiB")
        for constraint in _literal_constraints(device).get(MEMORY, []):
            if _allows(constraint, memory):
                continue
            span = ctx.label_span(device) if _model_of(device) is not None else None
            ctx.report(
                HG207,
                f"`{model}` reports {mib} MiB ({mib / 1024:.2f} GiB) of memory, which the constraint "
                f"`${{device.attr.memory}} {constraint.operand} {constraint.r_target}` in task "
                f"`{task.name}` excludes: no device of the model matches",
                ctx.value_span(constraint, "value"),
                help=f"write a bound the model meets, e.g. {_admitting(constraint.operand, mib)}, "
                "or drop the memory constraint",
                related=[Related(span, "the model is named here")] if span else [],
            )
