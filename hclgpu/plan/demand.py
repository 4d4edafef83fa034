"""What one allocation of a task group asks of a node, computed as Nomad's scheduler does.

Nomad sums a group's tasks by lifecycle before fitting them (`AllocatedResources.Comparable`,
nomad/structs/structs.go:3785-3842 at aa026cc99c): main tasks and poststart tasks run
together, prestart tasks run before them (sidecars both before and with them), poststop
tasks after, so the allocation needs the largest of the three sets, per dimension. The CPU
of a task that reserves cores is not fungible and is always added. A task asks for its
`memory` plus its `secrets` (rank.go:361-369), the group for its `ephemeral_disk` size.

The job is read after `api.Job.Canonicalize` (so a task without `resources` asks for 100 MHz
and 300 MB, a group's disk is 300 MB) and after the server's admission mutations (so a
Connect sidecar's Envoy task asks for its resources too).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hclgpu.ir import models as m

__all__ = ["Ask", "CoreTask", "DeviceRequest", "TaskUse", "affinity_weight", "flatten", "group_ask"]

DEFAULT_AFFINITY_WEIGHT = 50
"""`api.Affinity.Canonicalize`: a missing `weight` is 50."""


@dataclass(frozen=True)
class TaskUse:
    """One task's share of an allocation, with the lifecycle that decides how it adds up."""

    cpu: int
    memory: int
    hook: str = ""
    """`prestart`, `poststart`, `poststop`, or empty for a main task."""
    sidecar: bool = False
    cores: int = 0
    """Whole cores the task reserves; its CPU is then theirs, priced per node."""


def flatten(tasks: list[TaskUse]) -> tuple[int, int]:
    """(CPU MHz, memory MB) of an allocation: the lifecycle maximum of the fungible parts plus
    the CPU of reserved cores (`AllocatedResources.Comparable`)."""
    fixed_cpu = 0
    buckets = {"prestart": [0, 0], "main": [0, 0], "poststop": [0, 0]}
    for task in tasks:
        cpu = task.cpu
        if task.cores:
            fixed_cpu += cpu
            cpu = 0
        if task.hook == "prestart":
            names = ["prestart", "main"] if task.sidecar else ["prestart"]
        elif task.hook == "poststop":
            names = ["poststop"]
        else:  # no lifecycle, or poststart
            names = ["main"]
        for name in names:
            buckets[name][0] += cpu
            buckets[name][1] += task.memory
    cpu = max(bucket[0] for bucket in buckets.values())
    memory = max(bucket[1] for bucket in buckets.values())
    return fixed_cpu + cpu, memory


@dataclass(frozen=True)
class DeviceRequest:
    """A device request with Nomad's defaults applied (count 1, affinity weight 50)."""

    task: str
    name: str
    count: int
    constraints: tuple[m.Constraint, ...]
    affinities: tuple[tuple[m.Affinity, int], ...]

    @property
    def total_weight(self) -> int:
        return sum(abs(weight) for _, weight in self.affinities)

    @property
    def reads_ids(self) -> bool:
        """Does a constraint name `${device.ids}` (a per-node value)?"""
        return any("${device.ids}" in (c.l_target, c.r_target) for c in self.constraints)


@dataclass(frozen=True)
class CoreTask:
    """A task that reserves whole cores, with its `numa` affinity (`none`, `prefer`, `require`)
    and the device names that must share its NUMA node."""

    task: str
    cores: int
    numa: str
    numa_devices: tuple[str, ...]


@dataclass(frozen=True)
class Ask:
    """One allocation's needs. The CPU of tasks that reserve cores depends on the node's MHz per
    core, so it is priced per node by :meth:`usage_on`."""

    tasks: tuple[TaskUse, ...]
    core_tasks: tuple[CoreTask, ...]
    disk: int
    static_ports: tuple[tuple[str, int], ...]
    """(label, host port) of every static port."""
    dynamic_ports: int
    drivers: tuple[str, ...]
    devices: tuple[DeviceRequest, ...]

    @property
    def cores(self) -> int:
        return sum(task.cores for task in self.core_tasks)

    def usage_on(self, mhz_per_core: float) -> tuple[int, int]:
        """(CPU MHz, memory MB) on a node whose cores run at ``mhz_per_core`` each: a task that
        reserves cores gets their bandwidth as its CPU (`coreSelector.Select`)."""
        return flatten(
            [replace(task, cpu=int(mhz_per_core * task.cores)) if task.cores else task for task in self.tasks]
        )


def group_ask(group: m.TaskGroup) -> Ask:
    """The ask of one allocation of a canonical, admitted ``group``."""
    tasks: list[TaskUse] = []
    core_tasks: list[CoreTask] = []
    devices: list[DeviceRequest] = []
    static: list[tuple[str, int]] = []
    dynamic = 0
    for network in group.networks or []:
        static.extend((port.label, port.value) for port in network.reserved_ports or [] if port.value)
        dynamic += len(network.dynamic_ports or [])
    for task in group.tasks or []:
        resources = task.resources or m.Resources.build()
        cores = resources.cores or 0
        lifecycle = task.lifecycle
        tasks.append(
            TaskUse(
                cpu=resources.cpu or 0,
                memory=(resources.memory_mb or 0) + (resources.secrets_mb or 0),
                hook=lifecycle.hook if lifecycle is not None and lifecycle.hook else "",
                sidecar=bool(lifecycle is not None and lifecycle.sidecar),
                cores=cores,
            )
        )
        if cores > 0:
            numa = resources.numa
            core_tasks.append(
                CoreTask(task.name or "", cores, (numa.affinity if numa else "") or "none",
                         tuple(numa.devices or []) if numa else ())
            )  # fmt: skip
        for network in resources.networks or []:
            static.extend((port.label, port.value) for port in network.reserved_ports or [] if port.value)
            dynamic += len(network.dynamic_ports or [])
        devices.extend(_requests(task))
    disk = group.ephemeral_disk.size_mb if group.ephemeral_disk and group.ephemeral_disk.size_mb else 0
    drivers = tuple(dict.fromkeys(task.driver for task in group.tasks or [] if task.driver))
    return Ask(tuple(tasks), tuple(core_tasks), disk, tuple(static), dynamic, drivers, tuple(devices))


def _requests(task: m.Task) -> list[DeviceRequest]:
    """The task's device requests in order, with Nomad's defaults."""
    devices = task.resources.devices if task.resources else None
    return [
        DeviceRequest(
            task=task.name or "",
            name=device.name,
            count=1 if device.count is None else device.count,
            constraints=tuple(device.constraints or []),
            affinities=tuple((a, affinity_weight(a)) for a in device.affinities or []),
        )
        for device in devices or []
    ]


def affinity_weight(affinity: m.Affinity) -> int:
    return DEFAULT_AFFINITY_WEIGHT if affinity.weight is None else affinity.weight
