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
from hclgpu.codes.base import Code, W
from hclgpu.eval.expr import closest

HG210 = Code(
    "HG210",
    "unresolvable-device-target",
    W,
    summary="A target inside a device block that Nomad never resolves there",
    doc="""What: inside `device`, only `${device.ids}`, `${device.model}`,
`${device.vendor}`, `${device.type}` and `${device.attr.<name>}` resolve. Node
targets (`${node.*}`, `${attr.*}`, `${meta.*}`) and anything else are "not found".

Why: a constraint on a target that is never found never matches (the device is
never placed); an affinity on it never scores.

Example:
    device "nvidia/gpu" {
      constraint { attribute = "${attr.kernel.name}"  value = "linux" }
    }

Fix: move node constraints to the task, group or job; use `${device.*}` here.""",
)


HG211 = Code(
    "HG211",
    "device-target-outside-device",
    W,
    summary="A `${device.*}` target in a job, group or task constraint",
    doc="""What: a constraint or affinity outside any `device` block refers to
`${device.*}`.

Why: node constraints resolve targets against the node, where `${device.*}` does
not exist: the constraint never matches.

Example:
    task "t" {
      constraint { attribute = "${device.model}"  value = "A100" }
    }

Fix: move it inside the `device` block it is about.""",
)


HG212 = Code(
    "HG212",
    "spaces-in-target",
    W,
    summary="Spaces inside `${ }` of a constraint or affinity target",
    doc="""What: `"${ device.model }"` is kept as written, spaces included.

Why: Nomad compares targets literally: `${ device.model }` is not
`${device.model}`; inside a device it never resolves, and the server rejects it in a
node constraint.

Example:
    affinity { attribute = "${ device.vendor }"  value = "nvidia" }

Fix: remove the spaces: `"${device.vendor}"`.""",
)


HG213 = Code(
    "HG213",
    "unknown-device-attribute",
    W,
    summary="A `${device.attr.X}` that the NVIDIA plugin does not report",
    doc="""What: the NVIDIA device plugin reports `memory`, `bar1`, `power`, `cores_clock`,
`memory_clock`, `pci_bandwidth`, `driver_version`, `display_state` and
`persistence_mode` (names are case-sensitive). `shared` (MPS sharing: `unset`,
`inactive`, `active`, and `inelegible`, spelt so, for MIG instances) is set only by the
plugin's unreleased GPU-sharing branch, for Nomad's draft device sharing; no released
plugin (1.0.0, 1.1.0) reports it.

Why: an attribute that does not exist is "not found": a constraint on it never
matches, an affinity never scores.

Example:
    constraint { attribute = "${device.attr.memory_mb}"  operator = ">="  value = "16 GiB" }

Fix: use one of the reported names (the help suggests the closest).""",
)


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
SHARING_VALUES = ("unset", "inactive", "active", "inelegible")
"""The values of `shared` where a plugin sets it: `device.Shared.String()` of Nomad's
nmd_1234/gpu-sharing branch (plugins/device/device.go:20-40 at 331d9baaaf; "inelegible" is
spelt so there), set by nomad-device-nvidia's NMD-1234 branch (fingerprint.go:28, 77-99 and
236-238 at 398981f). Neither is released: the attribute is known so that a constraint on it is
explained, not suggested away."""
_ATTR = re.compile(r"\$\{device\.attr\.(?P<name>.+)\}")


def resolves_in_device(target: str) -> bool:
    return target in DEVICE_TARGETS or bool(_ATTR.fullmatch(target))


def _references(ctx: Context) -> list[tuple[Placed, str, str]]:
    """(placed, which attribute wrote it, target) for each side of every constraint and
    affinity that is a `${...}` reference (listed once per run)."""
    return ctx.shared(_each_reference)


def _each_reference(ctx: Context) -> list[tuple[Placed, str, str]]:
    found = []
    for placed in ctx.all_placed():
        node = placed.node
        if node.l_target.startswith("$"):
            found.append((placed, "attribute", node.l_target))
        if node.r_target.startswith("$"):
            found.append((placed, "value", node.r_target))
    return found


def _where(placed: Placed) -> str:
    return "affinity" if placed.node.__class__.__name__ == "Affinity" else "constraint"


@rule(HG210)
def unresolvable_device_target(ctx: Context) -> None:
    for placed, side, target in _references(ctx):
        if placed.scope == "device" and not resolves_in_device(target) and " " not in target:
            fixed = _as_device_target(target, placed)
            ctx.report(
                HG210,
                f"`{target}` never resolves inside a device block: this {_where(placed)} never matches",
                ctx.value_span(placed.node, side),
                help=f"did you mean `{fixed}`?"
                if fixed
                else "only ${device.ids|model|vendor|type} and ${device.attr.<name>} resolve here; "
                "node constraints belong to the task, group or job",
                fix=ctx.written(placed.node, side, f'"{fixed}"') if fixed else (),
            )


def _as_device_target(target: str, placed: Placed) -> str | None:
    """The device target a node target inside an NVIDIA device block most likely means:
    `${attr.memory}` → `${device.attr.memory}` where the plugin reports that attribute."""
    device = placed.device
    match = re.fullmatch(r"\$\{attr\.([\w.]+)\}", target)
    if device is None or match is None or device.name.split("/", 1)[0] != "nvidia":
        return None
    return f"${{device.attr.{match[1]}}}" if match[1] in NVIDIA_ATTRIBUTES else None


@rule(HG211)
def device_target_outside_device(ctx: Context) -> None:
    for placed, side, target in _references(ctx):
        if placed.scope != "device" and target.startswith("${device."):
            ctx.report(
                HG211,
                f"`{target}` in a {placed.scope} {_where(placed)} never matches: nodes have no device",
                ctx.value_span(placed.node, side),
                help="move it into the `device` block it is about",
            )


@rule(HG212)
def spaces_in_target(ctx: Context) -> None:
    for placed, side, target in _references(ctx):
        if target.startswith("${") and target.endswith("}") and target[2:-1] != target[2:-1].strip():
            fixed = "${" + target[2:-1].strip() + "}"
            quoted = '"' + fixed.replace("\\", "\\\\").replace('"', '\\"') + '"'
            ctx.report(
                HG212,
                f"`{target}` has spaces inside `${{ }}`; Nomad compares targets as written",
                ctx.value_span(placed.node, side),
                help=f"write `{fixed}`",
                fix=ctx.written(placed.node, side, quoted),
                fix_safe=True,  # the target Nomad would have to see to resolve it
            )


@rule(HG213)
def unknown_device_attribute(ctx: Context) -> None:
    for placed, side, target in _references(ctx):
        device = placed.device
        if device is not None and device.name.split("/", 1)[0] == "nvidia":
            match = _ATTR.fullmatch(target)
            if match and match["name"] == "shared":
                ctx.report(
                    HG213,
                    "no released NVIDIA plugin reports `shared` (only its unreleased GPU-sharing "
                    f"branch, for Nomad's draft device sharing), so this {_where(placed)} never matches",
                    ctx.value_span(placed.node, side),
                    help=f"where a plugin sets it, its values are {', '.join(SHARING_VALUES)}",
                )
            elif match and match["name"] not in NVIDIA_ATTRIBUTES:
                close = closest(match["name"], list(NVIDIA_ATTRIBUTES))
                ctx.report(
                    HG213,
                    f"the NVIDIA plugin reports no attribute `{match['name']}`, so this "
                    f"{_where(placed)} never matches",
                    ctx.value_span(placed.node, side),
                    help=f"did you mean `{close}`?"
                    if close
                    else f"it reports {', '.join(NVIDIA_ATTRIBUTES)}",
                    fix=ctx.written(placed.node, side, f'"${{device.attr.{close}}}"') if close else (),
                )
