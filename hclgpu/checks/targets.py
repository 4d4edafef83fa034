"""Targets: what `${...}` resolves where (HG210-HG213).

Inside a device block only `${device.ids}`, `${device.model}`, `${device.vendor}`,
`${device.type}` and `${device.attr.X}` resolve (resolveDeviceTarget); node constraints
resolve against the node, where `${device.*}` does not exist. Targets are compared as
written, so `${ device.model }` is something else.
"""

from __future__ import annotations

import re

from hclgpu.checks import rule
from hclgpu.checks.context import Context, Placed
from hclgpu.eval.expr import did_you_mean, suggested

DEVICE_TARGETS = ("${device.ids}", "${device.model}", "${device.vendor}", "${device.type}")
NVIDIA_ATTRIBUTES = (
    "memory",
    "bar1",
    "power",
    "cores_clock",
    "memory_clock",
    "pci_bandwidth",
    "driver_version",
    "display_state",
    "persistence_mode",
)
_ATTR = re.compile(r"\$\{device\.attr\.(?P<name>.+)\}")


def resolves_in_device(target: str) -> bool:
    return target in DEVICE_TARGETS or bool(_ATTR.fullmatch(target))


def _sides(placed: Placed) -> list[tuple[str, str]]:
    """(which attribute wrote it, target) for each side that is a `${...}` reference."""
    node = placed.node
    return [
        (name, t) for name, t in (("attribute", node.l_target), ("value", node.r_target)) if t.startswith("$")
    ]


def _where(placed: Placed) -> str:
    return "affinity" if placed.node.__class__.__name__ == "Affinity" else "constraint"


@rule("HG210")
def unresolvable_device_target(ctx: Context) -> None:
    for placed in ctx.all_placed():
        if placed.scope != "device":
            continue
        for side, target in _sides(placed):
            if not resolves_in_device(target) and " " not in target:
                ctx.report(
                    "HG210",
                    f"`{target}` never resolves inside a device block: this {_where(placed)} never matches",
                    ctx.value_span(placed.node, side),
                    help="only ${device.ids|model|vendor|type} and ${device.attr.<name>} resolve here; "
                    "node constraints belong to the task, group or job",
                )


@rule("HG211")
def device_target_outside_device(ctx: Context) -> None:
    for placed in ctx.all_placed():
        if placed.scope == "device":
            continue
        for side, target in _sides(placed):
            if target.startswith("${device."):
                ctx.report(
                    "HG211",
                    f"`{target}` in a {placed.scope} {_where(placed)} never matches: nodes have no device",
                    ctx.value_span(placed.node, side),
                    help="move it into the `device` block it is about",
                )


@rule("HG212")
def spaces_in_target(ctx: Context) -> None:
    for placed in ctx.all_placed():
        for side, target in _sides(placed):
            if target.startswith("${") and target.endswith("}") and target[2:-1] != target[2:-1].strip():
                fixed = "${" + target[2:-1].strip() + "}"
                quoted = '"' + fixed.replace("\\", "\\\\").replace('"', '\\"') + '"'
                ctx.report(
                    "HG212",
                    f"`{target}` has spaces inside `${{ }}`; Nomad compares targets as written",
                    ctx.value_span(placed.node, side),
                    help=f"write `{fixed}`",
                    fix=ctx.written(placed.node, side, quoted),
                )


@rule("HG213")
def unknown_device_attribute(ctx: Context) -> None:
    for placed in ctx.all_placed():
        device = placed.device
        if device is None or device.name.split("/", 1)[0] != "nvidia":
            continue
        for side, target in _sides(placed):
            match = _ATTR.fullmatch(target)
            if match and match["name"] not in NVIDIA_ATTRIBUTES:
                close = suggested(did_you_mean(match["name"], list(NVIDIA_ATTRIBUTES)))
                ctx.report(
                    "HG213",
                    f"the NVIDIA plugin reports no attribute `{match['name']}`, so this "
                    f"{_where(placed)} never matches",
                    ctx.value_span(placed.node, side),
                    help=f"did you mean `{close}`?"
                    if close
                    else f"it reports {', '.join(NVIDIA_ATTRIBUTES)}",
                    fix=ctx.written(placed.node, side, f'"${{device.attr.{close}}}"') if close else (),
                )
