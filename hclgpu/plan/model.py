"""hclgpu's node inventory: the nodes a job could be placed on, as Nomad fingerprints them.

A node has the attributes and meta Nomad's node constraints see (`${attr.kernel.name}`,
`${meta.rack}`), and device groups as a device plugin reports them: vendor, type and
model, healthy and unhealthy instances, and typed attributes written as Nomad writes
them (`"16130 MiB"`, `"1530 MHz"`, `"418.39"`), parsed with :mod:`hclgpu.units` when
compared. Inventories in Nomad's node JSON or `kubectl get nodes -o json` are converted to
this model by :mod:`hclgpu.plan.inventory`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

MAX_DEVICE_INSTANCES = 1024
"""The most device instances one node may have, all its device groups together: the largest
machines have a few dozen accelerators (or MIG and core partitions of them), and a count in a
Kubernetes node is expanded into one instance each."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Instance(_Model):
    """One device (one GPU): its ID (an NVIDIA UUID like `GPU-…`) and whether it is healthy."""

    id: str
    healthy: bool = True


class DeviceGroup(_Model):
    """Devices of one (vendor, type, model) on a node, as one Nomad device group."""

    vendor: str
    type: str
    model: str
    instances: list[Instance] = Field(default_factory=list)
    attributes: dict[str, str] = Field(default_factory=dict)
    """Nomad's attribute strings, units included (`memory: "16130 MiB"`)."""


class Node(_Model):
    name: str
    datacenter: str = "dc1"
    node_pool: str = "default"
    node_class: str = Field("", alias="class")
    attributes: dict[str, str] = Field(default_factory=dict)
    """`${attr.<name>}` values, e.g. `kernel.name: linux`, `cpu.arch: amd64`."""
    meta: dict[str, str] = Field(default_factory=dict)
    devices: list[DeviceGroup] = Field(default_factory=list)


class Inventory(_Model):
    """A set of nodes (hclgpu's YAML/JSON inventory format, version 1)."""

    version: int = 1
    nodes: list[Node] = Field(default_factory=list)
