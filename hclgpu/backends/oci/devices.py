"""A task's ``device`` blocks as edits to its bundle, in the mode of ``--oci-devices``.

Nomad's device plugin picks devices on the node and hands the task their IDs (the NVIDIA
plugin: ``NVIDIA_VISIBLE_DEVICES=<uuid>,...``, nothing else; the docker driver then
switches to the ``nvidia`` runtime). A bundle has no node inventory, so a request for N
devices becomes devices ``0..N-1`` of the host that runs it (HG302, once per block), and
whatever the constraints and affinities ask of the device is not checked (HG301 at each),
except NVIDIA ``driver_version`` constraints, which become ``NVIDIA_REQUIRE_*`` terms
(:mod:`~hclgpu.backends.oci.requirements`) that the NVIDIA hook enforces.

Per vendor and mode:

* NVIDIA ``hook``: ``NVIDIA_VISIBLE_DEVICES``, ``NVIDIA_DRIVER_CAPABILITIES=compute,utility``
  (unless the task sets it), ``NVIDIA_REQUIRE_DRIVER`` and the one prestart hook the NVIDIA
  runtime injects in legacy mode; ``env``: the same variables, no hook (run the bundle with
  nvidia-container-runtime); ``cdi``: the ``cdi.k8s.io/`` annotation naming
  ``nvidia.com/gpu=<i>`` (and, with --cdi-spec, the spec's edits, :mod:`~hclgpu.backends.oci.cdi`).
  A MIG model's instances are ``<gpu>:<mig>`` in either (``0:0``, ``nvidia.com/gpu=0:0``).
* AWS Neuron: ``AWS_NEURON_VISIBLE_DEVICES``; in ``hook`` and ``cdi`` modes ``/dev/neuron<i>``
  bind-mounted from the host with a cgroup rule, plus (``hook``) the Neuron OCI prestart hook.
  The Neuron driver allocates its character major when it loads (``alloc_chrdev_region``;
  minor = device index), so the node cannot be declared in ``linux.devices`` with a fixed
  major: it is bind-mounted, and its cgroup rule allows that minor of any character major.
* AMD: ``ROCR_VISIBLE_DEVICES``; in ``hook`` mode ``/dev/kfd`` and ``/dev/dri`` bind-mounted
  (DRM major 226; kfd's major is dynamic like Neuron's); in ``cdi`` mode ``amd.com/gpu=<i>``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hclgpu.backends.containers import planned_ids
from hclgpu.backends.oci.options import oci_options
from hclgpu.backends.oci.reporting import HINTS, approximated, unsupported
from hclgpu.backends.oci.requirements import DRIVER_VERSION, Requirement, driver_requirement
from hclgpu.backends.oci.scope import TaskScope
from hclgpu.ir import models as m
from hclgpu.units.mig import parse_mig_model

Obj = dict[str, Any]

NVIDIA_HOOK: Obj = {
    "path": "/usr/bin/nvidia-container-runtime-hook",
    "args": ["nvidia-container-runtime-hook", "prestart"],
}
"""The prestart hook nvidia-container-runtime adds in legacy mode (toolkit `stable` modifier)."""
NEURON_HOOK: Obj = {"path": "/opt/aws/neuron/bin/oci_neuron_hook", "args": ["oci_neuron_hook"]}
"""The prestart hook of the Neuron SDK's oci-neuron runtime (aws-neuronx-oci-hook, default install)."""
DRM_MAJOR = 226

KNOWN = {("nvidia", "gpu"), ("aws", "neuron"), ("amd", "gpu")}
_DEFAULT_VENDORS = {"gpu": "nvidia", "neuron": "aws"}


@dataclass(slots=True)
class DeviceEdits:
    """What the device requests add to config.json, field by field."""

    assigned: dict[str, str] = field(default_factory=dict)
    """Device assignments: they replace the task's own value (as Nomad's plugin does)."""
    env: dict[str, str] = field(default_factory=dict)
    """Defaults: the task's own env wins."""
    hooks: dict[str, list[Obj]] = field(default_factory=dict)
    mounts: list[Obj] = field(default_factory=list)
    rules: list[Obj] = field(default_factory=list)
    """linux.resources.devices allow rules."""
    cdi: list[tuple[str, m.RequestedDevice]] = field(default_factory=list)
    """Fully-qualified CDI names, with the block that asked for each."""

    def add_hook(self, stage: str, hook: Obj) -> None:
        hooks = self.hooks.setdefault(stage, [])
        if hook not in hooks:
            hooks.append(hook)

    def add_ids(self, name: str, ids: list[int] | list[str]) -> None:
        previous = self.assigned.get(name)
        text = ",".join(map(str, ids))
        self.assigned[name] = f"{previous},{text}" if previous else text


def lower_devices(scope: TaskScope) -> DeviceEdits:
    """The edits of every device block of the task, devices numbered per vendor and type."""
    edits = DeviceEdits()
    next_index: dict[tuple[str, ...], int] = {}
    terms: list[str] = []
    devices = scope.task.resources.devices if scope.task.resources is not None else None
    for position, device in enumerate(devices or []):
        kind = _kind(scope, device)
        count = 1 if device.count is None else device.count
        if kind is None:
            continue
        if count == 0:
            unsupported(scope.ctx, f'device "{device.name}" asks for zero devices; it is left out', device)
            continue
        mig = kind == ("nvidia", "gpu") and _is_mig(device)
        numbering = (*kind, "mig") if mig else kind
        start = next_index.get(numbering, 0)
        next_index[numbering] = start + count
        ids = list(range(start, start + count))
        terms.extend(_constraints(scope, device, nvidia=kind == ("nvidia", "gpu")))
        for affinity in device.affinities or []:
            unsupported(
                scope.ctx, f"{_describe(affinity, device)}: nothing ranks the host's devices", affinity
            )
        planned = planned_ids(scope.ctx, scope.group, scope.task, position)
        if kind == ("nvidia", "gpu"):
            host_ids = [f"0:{j}" for j in ids] if mig else ids
            _nvidia(
                scope, device, host_ids if planned is None else planned, edits, chosen=planned is not None
            )
        elif kind == ("aws", "neuron"):
            _neuron(scope, device, ids, edits, planned)
        else:
            _amd(scope, device, ids, edits)
    if terms:
        name = "NVIDIA_REQUIRE_DRIVER"
        if name in (scope.task.env or {}):
            name = "NVIDIA_REQUIRE_NOMAD_DRIVER"  # separate NVIDIA_REQUIRE_* variables are ANDed
        edits.env[name] = ",".join(dict.fromkeys(terms))
    return edits


def _is_mig(device: m.RequestedDevice) -> bool:
    """Whether the block names a MIG model (``nvidia/gpu/<parent> MIG <profile>``): its devices
    are MIG instances, which nvidia-ctk names ``<gpu>:<mig>`` (``nvidia.com/gpu=0:0``; its
    pkg/nvcdi/namer.go:77-78 at d34b3046) and the NVIDIA runtime takes the same way in
    NVIDIA_VISIBLE_DEVICES."""
    parts = device.name.split("/", 2)
    return len(parts) == 3 and parse_mig_model(parts[2]) is not None


def _kind(scope: TaskScope, device: m.RequestedDevice) -> tuple[str, str] | None:
    """(vendor, type) of a block Nomad-style (``vendor/type/model``), or None (HG301)."""
    parts = device.name.split("/", 2)
    vendor, type_, model = ("", parts[0], "") if len(parts) == 1 else (*parts, "")[:3]
    if not vendor and type_ in _DEFAULT_VENDORS:
        vendor = _DEFAULT_VENDORS[type_]
        if type_ == "gpu":
            approximated(
                scope.ctx,
                f'device "{device.name}" names no vendor; NVIDIA is assumed',
                device,
                help='write `device "nvidia/gpu"` (or another vendor) to say which',
            )
    if (vendor, type_) not in KNOWN:
        unsupported(
            scope.ctx,
            f'no OCI device mapping is known for device "{device.name}" (vendor `{vendor or "?"}`, type '
            f"`{type_ or '?'}`); the request is left out",
            device,
            help="known: nvidia/gpu, aws/neuron, amd/gpu",
        )
        return None
    if model:
        unsupported(
            scope.ctx,
            f'the model "{model}" of device "{device.name}": a bundle uses the host\'s devices, whatever '
            "their model; nothing checks it",
            device,
        )
    return vendor, type_


def _constraints(scope: TaskScope, device: m.RequestedDevice, nvidia: bool) -> list[str]:
    """The NVIDIA requirement terms of the block's constraints; HG301 for every other one."""
    terms: list[str] = []
    for constraint in device.constraints or []:
        text = _describe(constraint, device)
        if not (nvidia and constraint.l_target == DRIVER_VERSION):
            unsupported(
                scope.ctx,
                f"{text}: a bundle gets devices 0..N-1 of whatever host runs it; nothing checks this",
                constraint,
                help=HINTS["constraint"],
            )
            continue
        if oci_options(scope.ctx).oci_devices == "cdi":
            unsupported(
                scope.ctx,
                f"{text}: with CDI devices no NVIDIA hook checks NVIDIA_REQUIRE_* variables",
                constraint,
                help="use --oci-devices hook or env, which the NVIDIA hook enforces",
            )
            continue
        found = driver_requirement(constraint.operand, constraint.r_target)
        if isinstance(found, str):
            unsupported(scope.ctx, f"{text}: {found}; it is left out", constraint)
            continue
        _note_requirement(scope, constraint, text, found)
        terms.extend(found.terms)
    return terms


def _note_requirement(scope: TaskScope, constraint: m.Constraint, text: str, found: Requirement) -> None:
    if found.lexical:
        approximated(
            scope.ctx,
            f"{text} → NVIDIA requirement {','.join(found.terms)}: Nomad compares driver_version as a "
            "string here, the NVIDIA hook as a version",
            constraint,
            help='write `operator = "version"` to compare versions in Nomad too',
        )


def _describe(node: m.Constraint | m.Affinity, device: m.RequestedDevice) -> str:
    what = "constraint" if isinstance(node, m.Constraint) else "affinity"
    return f'{what} `{node.l_target} {node.operand} {node.r_target}` of device "{device.name}"'


def _note_ids(scope: TaskScope, device: m.RequestedDevice, field_text: str) -> None:
    approximated(
        scope.ctx,
        f'device "{device.name}" of {scope.where} → {field_text}: the first devices of the host stand in '
        "for those Nomad's device plugin would pick (it names them by ID from the node's inventory)",
        device,
        help="edit the indexes (or put UUIDs) in config.json for the host that runs the bundle",
    )


def _nvidia(
    scope: TaskScope,
    device: m.RequestedDevice,
    ids: list[int] | list[str],
    edits: DeviceEdits,
    chosen: bool = False,
) -> None:
    """``ids``: the host's first indexes (HG302), or (``chosen``) the UUIDs the node plan chose."""
    mode = oci_options(scope.ctx).oci_devices
    if mode == "cdi":
        names = [f"nvidia.com/gpu={i}" for i in ids]
        edits.cdi.extend((name, device) for name in names)
        if not chosen:
            _note_ids(scope, device, "CDI devices " + ",".join(names))
        return
    edits.add_ids("NVIDIA_VISIBLE_DEVICES", ids)
    edits.env.setdefault("NVIDIA_DRIVER_CAPABILITIES", "compute,utility")
    if mode == "hook":
        edits.add_hook("prestart", NVIDIA_HOOK)
    if not chosen:
        _note_ids(scope, device, "NVIDIA_VISIBLE_DEVICES=" + ",".join(map(str, ids)))


def _neuron(
    scope: TaskScope,
    device: m.RequestedDevice,
    ids: list[int],
    edits: DeviceEdits,
    planned: list[str] | None = None,
) -> None:
    mode = oci_options(scope.ctx).oci_devices
    edits.add_ids("AWS_NEURON_VISIBLE_DEVICES", ids)
    if planned is None:
        _note_ids(scope, device, "AWS_NEURON_VISIBLE_DEVICES=" + ",".join(map(str, ids)))
    else:
        node = scope.ctx.options.device_node or "the node"
        approximated(
            scope.ctx,
            f'device "{device.name}" of {scope.where} → AWS_NEURON_VISIBLE_DEVICES='
            f"{','.join(map(str, ids))}: the plan chose {', '.join(planned)} on {node}, but Neuron devices "
            "are passed by index; the host's first ones stand in",
            device,
            help="edit the indexes in config.json to those of the chosen devices",
        )
    if mode == "env":
        return
    for i in ids:
        edits.mounts.append(_bind_device(f"/dev/neuron{i}"))
        edits.rules.append({"allow": True, "type": "c", "minor": i, "access": "rwm"})
    if mode == "hook":
        edits.add_hook("prestart", NEURON_HOOK)
    cdi = " (no CDI kind is known for Neuron devices)" if mode == "cdi" else ""
    approximated(
        scope.ctx,
        f'device "{device.name}" of {scope.where}: /dev/neuron<N> are bind-mounted from the host{cdi}; the '
        "Neuron driver picks their major number when it loads, so each cgroup rule allows minor N of any "
        "character major",
        device,
    )


def _amd(scope: TaskScope, device: m.RequestedDevice, ids: list[int], edits: DeviceEdits) -> None:
    mode = oci_options(scope.ctx).oci_devices
    if mode == "cdi":
        names = [f"amd.com/gpu={i}" for i in ids]
        edits.cdi.extend((name, device) for name in names)
        _note_ids(scope, device, "CDI devices " + ",".join(names))
        return
    edits.add_ids("ROCR_VISIBLE_DEVICES", ids)
    _note_ids(scope, device, "ROCR_VISIBLE_DEVICES=" + ",".join(map(str, ids)))
    if mode == "env":
        return
    kfd, dri = (
        _bind_device("/dev/kfd"),
        {**_bind_device("/dev/dri"), "options": ["rbind", "nosuid", "noexec"]},
    )
    for mount, rule in (
        (kfd, {"allow": True, "type": "c", "minor": 0, "access": "rwm"}),
        (dri, {"allow": True, "type": "c", "major": DRM_MAJOR, "access": "rwm"}),
    ):
        if mount not in edits.mounts:
            edits.mounts.append(mount)
            edits.rules.append(rule)
    approximated(
        scope.ctx,
        f'device "{device.name}" of {scope.where}: /dev/kfd and all of /dev/dri are bind-mounted from '
        "the host, so every AMD GPU of the host is visible and ROCR_VISIBLE_DEVICES selects among them; "
        "/dev/kfd's major number is picked when the driver loads, so its cgroup rule allows minor 0 of any "
        "character major",
        device,
        help="run with the AMD container toolkit's CDI devices instead: --oci-devices cdi",
    )


def _bind_device(path: str) -> Obj:
    return {"destination": path, "type": "bind", "source": path, "options": ["bind", "nosuid", "noexec"]}


def cdi_annotation(task_name: str, names: list[str]) -> tuple[str, str]:
    """The ``cdi.k8s.io/<name>`` annotation requesting ``names`` (key name ≤ 63 of ``[A-Za-z0-9_.-]``)."""
    clean = "".join(c if c.isascii() and (c.isalnum() or c in "_.-") else "_" for c in task_name)
    return f"cdi.k8s.io/hclgpu_{clean}"[: len("cdi.k8s.io/") + 63], ",".join(names)
