"""hclgpu's node inventory: the nodes a job could be placed on, as Nomad fingerprints them.

A node has the attributes and meta Nomad's node constraints see (`${attr.kernel.name}`,
`${meta.rack}`), and device groups as a device plugin reports them: vendor, type and
model, healthy and unhealthy instances, and typed attributes written as Nomad writes
them (`"16130 MiB"`, `"1530 MHz"`, `"418.39"`), parsed with :mod:`hclgpu.units` when
compared. Inventories in Nomad's node JSON or `kubectl get nodes -o json` are converted to
this model by :mod:`hclgpu.plan.inventory`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_DEVICE_INSTANCES = 1024
"""The most device instances one node may have, all its device groups together: the largest
machines have a few dozen accelerators (or MIG and core partitions of them), and a count in a
Kubernetes node is expanded into one instance each."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Instance(_Model):
    """One device (one GPU): its ID (an NVIDIA UUID like `GPU-…`), whether it is healthy, and
    the NUMA node its PCI bus is attached to, where the inventory knows it."""

    id: str
    healthy: bool = True
    numa_node: int | None = None


class DeviceGroup(_Model):
    """Devices of one (vendor, type, model) on a node, as one Nomad device group."""

    vendor: str
    type: str
    model: str
    instances: list[Instance] = Field(default_factory=list)
    attributes: dict[str, str] = Field(default_factory=dict)
    """Nomad's attribute strings, units included (`memory: "16130 MiB"`)."""


class Resources(_Model):
    """What a node offers (Nomad's `NodeResources`): CPU in MHz (`Cpu.CpuShares`), memory and
    disk in MB, the cores that can be reserved with `resources { cores = N }`, and the range
    dynamic ports are drawn from."""

    cpu: int = Field(ge=0)
    memory: int = Field(ge=0)
    disk: int | None = Field(None, ge=0)
    """None: not known, so not checked (a Kubernetes node without `ephemeral-storage`)."""
    cores: int = Field(0, ge=0)
    """Reservable cores (`Cpu.TotalCpuCores`, or the `ReservableCpuCores` list's length)."""
    min_dynamic_port: int = Field(20000, ge=0, le=65535)
    max_dynamic_port: int = Field(32000, ge=0, le=65535)


class Reserved(_Model):
    """What the node keeps for itself (Nomad's `ReservedResources`): subtracted before fitting."""

    cpu: int = Field(0, ge=0)
    memory: int = Field(0, ge=0)
    disk: int = Field(0, ge=0)
    cores: int = Field(0, ge=0)
    ports: list[int] = Field(default_factory=list)
    """Host ports no allocation may use (`Networks.ReservedHostPorts`)."""


class NumaNode(_Model):
    """One NUMA node of the host's CPU topology: its ID and how many usable cores it has."""

    id: int
    cores: int = Field(ge=0)


class Node(_Model):
    name: str
    id: str = ""
    """Nomad's node ID, which allocations name (`NodeID`); empty means the name is the ID."""
    datacenter: str = "dc1"
    node_pool: str = "default"
    node_class: str = Field("", alias="class")
    attributes: dict[str, str] = Field(default_factory=dict)
    """`${attr.<name>}` values, e.g. `kernel.name: linux`, `cpu.arch: amd64`."""
    meta: dict[str, str] = Field(default_factory=dict)
    devices: list[DeviceGroup] = Field(default_factory=list)
    resources: Resources | None = None
    """None: capacity unknown, so not checked, and the node gets no `binpack` score."""
    reserved: Reserved = Field(default_factory=lambda: Reserved.model_validate({}))
    drivers: list[str] | None = None
    """The task drivers detected and healthy on the node; None: unknown, not checked."""
    numa: list[NumaNode] = Field(default_factory=list)

    @property
    def key(self) -> str:
        """The node's ID as allocations name it."""
        return self.id or self.name


class SchedulerConfig(_Model):
    """The cluster's scheduler configuration (`nomad operator scheduler get-config`) as far as
    placement depends on it."""

    algorithm: Literal["binpack", "spread"] = "binpack"
    memory_oversubscription: bool = False


class Inventory(_Model):
    """A set of nodes (hclgpu's YAML/JSON inventory format, version 1)."""

    version: int = 1
    scheduler: SchedulerConfig = Field(default_factory=lambda: SchedulerConfig.model_validate({}))
    nodes: list[Node] = Field(default_factory=list)
