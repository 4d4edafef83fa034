"""Existing allocations (`--allocs FILE`): what other jobs already hold on the nodes.

Nomad fits a new allocation against everything already on the node (`AllocsFit` over the
proposed allocations, nomad/structs/funcs.go:142-231 at aa026cc99c) and never offers a
device instance another allocation holds (`DeviceAccounter.AddAllocs`). The input is
`/v1/allocations?resources=true` (or `nomad operator api /v1/allocations?resources=true`),
a list of allocation stubs, or full allocations from `/v1/allocation/<id>`; both carry
`AllocatedResources`.

Terminal allocations (desired `stop`/`evict`, or client status `complete`, `failed`,
`lost`) hold nothing (`Allocation.TerminalStatus`). Allocations of the job being planned
are left out, as if its new version replaced them, and so are those on nodes the inventory
does not have; each is said in a note.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hclgpu.plan.demand import TaskUse, flatten
from hclgpu.plan.inventory import (
    InventoryError,
    number_field,
    object_field,
    parse_inventory_text,
    read_inventory_text,
    text_field,
)

__all__ = ["Existing", "convert_allocations", "load_allocations"]

TERMINAL_DESIRED = ("stop", "evict")
TERMINAL_CLIENT = ("complete", "failed", "lost")


@dataclass(frozen=True)
class Existing:
    """One running allocation's hold on its node."""

    id: str
    node: str
    """The node's ID (`NodeID`), or its name where the stub has no ID."""
    job: str
    namespace: str
    group: str
    cpu: int
    memory: int
    disk: int
    cores: int
    ports: tuple[int, ...]
    device_ids: tuple[tuple[str, str, str, str], ...]
    """(vendor, type, model, instance ID) of every device instance it holds."""


def load_allocations(path: Path) -> list[Existing]:
    """Read an allocations file; errors are :class:`InventoryError` with a one-line message."""
    data = parse_inventory_text(read_inventory_text(path), path)
    try:
        return convert_allocations(data)
    except InventoryError as error:
        raise InventoryError(f"{path}: {error}") from None


def convert_allocations(data: Any) -> list[Existing]:
    """Allocations from parsed API JSON: a list, or one allocation object."""
    items = data if isinstance(data, list) else [data]
    out = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise InventoryError(f"allocation {index}: expected an object, got {type(item).__name__}")
        if _terminal(item):
            continue
        out.append(_allocation(item, index))
    return out


def _terminal(item: dict[str, Any]) -> bool:
    return item.get("DesiredStatus") in TERMINAL_DESIRED or item.get("ClientStatus") in TERMINAL_CLIENT


def _allocation(item: dict[str, Any], index: int) -> Existing:
    name = text_field(item.get("ID"), f"allocation {index}: ID") or f"#{index}"
    where = f"allocation {name}"
    node = text_field(item.get("NodeID"), f"{where}: NodeID") or text_field(
        item.get("NodeName"), f"{where}: NodeName"
    )
    if not node:
        raise InventoryError(f"{where}: has neither NodeID nor NodeName")
    resources = item.get("AllocatedResources")
    if not isinstance(resources, dict):
        raise InventoryError(
            f"{where}: no AllocatedResources (list allocations with `/v1/allocations?resources=true`)"
        )
    tasks = object_field(resources.get("Tasks"), f"{where}: AllocatedResources.Tasks")
    lifecycles = object_field(resources.get("TaskLifecycles"), f"{where}: AllocatedResources.TaskLifecycles")
    shared = object_field(resources.get("Shared"), f"{where}: AllocatedResources.Shared")
    uses: list[TaskUse] = []
    devices: list[tuple[str, str, str, str]] = []
    cores, ports = 0, list(_network_ports(shared, where))
    for task_name, task in tasks.items():
        task = object_field(task, f"{where}: task {task_name}")
        cpu = object_field(task.get("Cpu"), f"{where}: task {task_name}: Cpu")
        memory = object_field(task.get("Memory"), f"{where}: task {task_name}: Memory")
        reserved = cpu.get("ReservedCores") or []
        if not isinstance(reserved, list):
            raise InventoryError(f"{where}: task {task_name}: Cpu.ReservedCores is not a list")
        cores += len(reserved)
        lifecycle = object_field(lifecycles.get(task_name), f"{where}: lifecycle of {task_name}")
        uses.append(
            TaskUse(
                cpu=number_field(cpu.get("CpuShares"), f"{where}: task {task_name}: CpuShares"),
                memory=number_field(memory.get("MemoryMB"), f"{where}: task {task_name}: MemoryMB"),
                hook=text_field(lifecycle.get("Hook"), f"{where}: lifecycle Hook"),
                sidecar=lifecycle.get("Sidecar") is True,
                cores=len(reserved),
            )
        )
        ports.extend(_network_ports(task, where))
        devices.extend(_devices(task.get("Devices"), f"{where}: task {task_name}"))
    used_cpu, used_memory = flatten(uses)
    return Existing(
        id=name,
        node=node,
        job=text_field(item.get("JobID"), f"{where}: JobID"),
        namespace=text_field(item.get("Namespace"), f"{where}: Namespace") or "default",
        group=text_field(item.get("TaskGroup"), f"{where}: TaskGroup"),
        cpu=used_cpu,
        memory=used_memory,
        disk=number_field(shared.get("DiskMB"), f"{where}: Shared.DiskMB"),
        cores=cores,
        ports=tuple(ports),
        device_ids=tuple(devices),
    )


def _network_ports(resources: dict[str, Any], where: str) -> list[int]:
    """Host ports held: `Ports` (group networks since 1.0) and every network's reserved and
    dynamic ports (task networks, and the group network as older servers write it)."""
    values = [port.get("Value") for port in _list(resources.get("Ports"), f"{where}: Ports")]
    for network in _list(resources.get("Networks"), f"{where}: Networks"):
        for key in ("ReservedPorts", "DynamicPorts"):
            values.extend(port.get("Value") for port in _list(network.get(key), f"{where}: {key}"))
    return [value for value in values if isinstance(value, int) and not isinstance(value, bool) and value > 0]


def _devices(value: Any, where: str) -> list[tuple[str, str, str, str]]:
    out: list[tuple[str, str, str, str]] = []
    for device in _list(value, f"{where}: Devices"):
        ids = device.get("DeviceIDs") or []
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise InventoryError(f"{where}: Devices.DeviceIDs is not a list of strings")
        key = tuple(text_field(device.get(k), f"{where}: device {k}") for k in ("Vendor", "Type", "Name"))
        out.extend((key[0], key[1], key[2], instance) for instance in ids)
    return out


def _list(value: Any, where: str) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise InventoryError(f"{where}: expected a list of objects")
    return value
