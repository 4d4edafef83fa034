"""A task's `resources` as engine limits: CPU MHz as a number of CPUs, memory (and
memory_max) in MiB, and device requests as `--gpus` / device nodes.

Docker cannot choose devices by attribute: it takes a count of NVIDIA GPUs, specific
NVIDIA device ids, or device nodes by path. So constraints and affinities of a `device`
block are left out (HG301, at each), and where Nomad would pick *particular* devices
(constraints, a model in the name, several blocks that must not overlap) the request names
the host's first indexes, which stand in until hclgpu has a node inventory (HG302).
"""

from __future__ import annotations

from dataclasses import dataclass

from hclgpu.backends.containers import memory_limit, planned_ids
from hclgpu.backends.docker.container import (
    Container,
    ContainerLowering,
    Gpus,
    approximated,
    field,
    report_leftovers,
    target_name,
    unsupported,
)
from hclgpu.backends.task_env import DEFAULT_CPU_MHZ
from hclgpu.ir import models as m

KINDS: dict[tuple[str, str], str] = {
    ("nvidia", "gpu"): "nvidia",
    ("amd", "gpu"): "amd",
    ("intel", "gpu"): "intel",
    ("aws", "neuron"): "neuron",
}
"""Nomad ``(vendor, type)`` → how the engine hands such devices to a container."""
DEFAULT_VENDORS = {"gpu": "nvidia", "neuron": "aws"}


def lower_resources(c: Container, ctx: ContainerLowering) -> None:
    """cpu → cpus, memory → memory (and its reservation when memory_max is set), devices."""
    res = c.task.resources
    _cpu(c, res, ctx)
    c.memory_mb, c.memory_reservation_mb = memory_limit(ctx, c.task)
    if res is not None:
        _devices(c, res.devices or [], ctx)
        handled = ("cpu", "cores", "memory_mb", "memory_max_mb", "devices")
        report_leftovers(ctx, res, handled, f'the resources of task "{c.task.name}"')


def cpus(mhz: int, factor: int) -> float:
    """MHz as CPUs at ``factor`` MHz per core (three decimals; the engine's minimum is 0.01)."""
    return max(0.01, round(mhz / factor, 3))


def _cpu(c: Container, res: m.Resources | None, ctx: ContainerLowering) -> None:
    """Nomad's `cpu` is a share of MHz (a hard quota with cpu_hard_limit); `cores` whole cores."""
    if res is not None and res.cores:
        c.cpus = float(res.cores)
        approximated(
            ctx,
            f'cores = {res.cores} of task "{c.task.name}" → {field(ctx, "cpus")} {res.cores}: CPU time, '
            "not dedicated cores",
            res,
            help="pin cores with --cpuset-cpus (Compose: cpuset)",
        )
        return
    mhz = res.cpu if res and res.cpu is not None else DEFAULT_CPU_MHZ
    if not (c.task.config or {}).get("cpu_hard_limit"):
        # Nomad's docker driver gives the container CPU shares of its MHz and no quota
        # unless cpu_hard_limit (drivers/docker/driver.go:1051 and 1071-1080 at v1.10.0:
        # CPUShares from the task's LinuxResources, its cpu in MHz); Docker's minimum is 2
        c.cpu_shares = max(2, mhz)
        return
    factor = ctx.options.cpu_mhz_per_core
    c.cpus = cpus(mhz, factor)
    prefix = f"Nomad cpu is in MHz: cpu_hard_limit's quota as {field(ctx, 'cpus')} is converted"
    if ctx.first_time(prefix):
        approximated(
            ctx,
            f"{prefix} at {factor} MHz per core (cpu = {mhz} → {c.cpus:g}); Nomad divides by the node's "
            "total MHz",
            res if res is not None else c.task,
            help="pass --cpu-mhz-per-core with your hosts' clock",
        )


# --------------------------------------------------------------------------- devices


@dataclass(slots=True)
class _Request:
    device: m.RequestedDevice
    kind: str
    count: int
    planned: list[str] | None = None
    """The IDs the node plan chose for this block (`--nodes`/`--node`), if any."""


def _devices(c: Container, devices: list[m.RequestedDevice], ctx: ContainerLowering) -> None:
    """Group the blocks by how the engine passes them, then lower each kind."""
    requests: list[_Request] = []
    for index, device in enumerate(devices):
        request = _request(device, ctx)
        if request is not None:
            request.planned = planned_ids(ctx, c.group, c.task, index)
            requests.append(request)
        for constraint in device.constraints or []:
            unsupported(
                ctx,
                f"device constraint `{_condition(constraint)}` is not checked: {target_name(ctx)} cannot "
                "select devices by attribute; it is left out",
                constraint,
                help="run the container on a host whose devices satisfy it",
            )
        for affinity in device.affinities or []:
            unsupported(
                ctx,
                f"device affinity `{_condition(affinity)}` is left out: {target_name(ctx)} has no device "
                "preferences",
                affinity,
            )
        report_leftovers(ctx, device, ("count", "constraints", "affinities"), f'device "{device.name}"')
    _nvidia(c, [r for r in requests if r.kind == "nvidia"], ctx)
    _neuron(c, [r for r in requests if r.kind == "neuron"], ctx)
    for request in requests:
        if request.kind in ("amd", "intel"):
            _dri(c, request, ctx)


def _condition(c: m.Constraint | m.Affinity) -> str:
    return f"{c.l_target} {c.operand or '='} {c.r_target}".strip()


def _request(device: m.RequestedDevice, ctx: ContainerLowering) -> _Request | None:
    """The kind and count of a block, or None (reported) when the engine has no way to pass it."""
    count = 1 if device.count is None else device.count
    if count == 0:
        unsupported(ctx, f"`{device.name}` asks for zero devices; it is left out", device)
        return None
    parts = device.name.split("/", 2)
    vendor, type_ = ("", parts[0]) if len(parts) == 1 else (parts[0], parts[1])
    if not vendor:
        vendor = DEFAULT_VENDORS.get(type_, "")
        if vendor == "nvidia":
            approximated(
                ctx,
                f"`{device.name}` names no vendor; NVIDIA is assumed ({field(ctx, 'gpus')})",
                device,
                help=f'write `device "nvidia/{type_}"` (or another vendor) to say which',
            )
    kind = KINDS.get((vendor, type_))
    if kind is None:
        known = ", ".join(f"{v}/{t}" for v, t in KINDS)
        unsupported(
            ctx,
            f"{target_name(ctx)} has no way to pass `{device.name}` devices; the request is left out",
            device,
            help=f"known: {known}",
        )
        return None
    return _Request(device, kind, count)


def _needs_ids(requests: list[_Request]) -> bool:
    """Nomad picks particular GPUs when a block filters them (constraints, a model) or when
    several blocks must get different GPUs; a plain count is `--gpus N`."""
    if len(requests) > 1:
        return True
    device = requests[0].device
    return bool(device.constraints) or device.name.count("/") >= 2


def _nvidia(c: Container, requests: list[_Request], ctx: ContainerLowering) -> None:
    """The planned GPUs as `--gpus '"device=0,1"'`; without a plan, `--gpus N` for all blocks
    together (docker then takes the host's first N GPUs, which is what the indexes 0..N-1
    would say), reported where a block filters its GPUs."""
    if not requests:
        return
    if all(r.planned is not None for r in requests):
        c.gpus = Gpus(ids=tuple(i for r in requests for i in r.planned or []))
        return
    c.gpus = Gpus(count=sum(r.count for r in requests))
    if not _needs_ids(requests):
        return
    for request in requests:
        approximated(
            ctx,
            f"`{request.device.name}` → {field(ctx, 'gpus')} count {c.gpus.count}: docker takes the host's "
            "first GPUs, not the ones Nomad would pick; without a node inventory hclgpu cannot choose "
            "the matching ones",
            request.device,
            help="render with --nodes INVENTORY --node NAME to pass the planned GPUs' ids",
        )


def _neuron(c: Container, requests: list[_Request], ctx: ContainerLowering) -> None:
    """Inferentia/Trainium devices are the nodes /dev/neuron0, /dev/neuron1... by index."""
    index = 0
    for request in requests:
        nodes = [f"/dev/neuron{i}" for i in range(index, index + request.count)]
        index += request.count
        c.device_nodes += nodes
        if request.planned is not None:
            node = ctx.options.device_node or "the node"
            approximated(
                ctx,
                f"`{request.device.name}` → {field(ctx, 'device')} {', '.join(nodes)}: the plan chose "
                f"{', '.join(request.planned)} on {node}, but Neuron devices are passed by index; the "
                "host's first ones stand in",
                request.device,
                help="edit the device paths to those of the chosen devices",
            )
            continue
        approximated(
            ctx,
            f"`{request.device.name}` → {field(ctx, 'device')} {', '.join(nodes)}: the host's first Neuron "
            "devices stand in for the ones Nomad would pick",
            request.device,
            help="edit the device paths for the host",
        )


def _dri(c: Container, request: _Request, ctx: ContainerLowering) -> None:
    """AMD (ROCm: /dev/kfd, /dev/dri, group video) and Intel (/dev/dri) GPUs are passed all
    at once; for AMD, ROCR_VISIBLE_DEVICES narrows them to the first `count`."""
    amd = request.kind == "amd"
    nodes = ["/dev/kfd", "/dev/dri"] if amd else ["/dev/dri"]
    c.device_nodes += [n for n in nodes if n not in c.device_nodes]
    selection = ""
    if amd:
        groups = c.options.setdefault("group_add", [])
        if "video" not in groups:
            groups.append("video")
        if "ROCR_VISIBLE_DEVICES" not in c.env:
            c.env["ROCR_VISIBLE_DEVICES"] = ",".join(str(i) for i in range(request.count))
            c.env = dict(sorted(c.env.items()))
            selection = (
                f"; ROCR_VISIBLE_DEVICES={c.env['ROCR_VISIBLE_DEVICES']} selects the first {request.count}"
            )
    approximated(
        ctx,
        f"`{request.device.name}` → {field(ctx, 'device')} {', '.join(nodes)}: every GPU of the host is "
        f"visible, Nomad gives {request.count}{selection}",
        request.device,
    )
