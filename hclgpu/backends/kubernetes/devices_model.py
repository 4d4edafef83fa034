"""The vocabulary the device modules share: the extended resource each known vendor and type
is advertised as, what a task's device requests add to its pod (:class:`DeviceLowering`), and
a device block as both modes read it (:class:`Identity`, :class:`Request`).

It sits below the entry point (:mod:`hclgpu.backends.kubernetes.devices`) and the two modes,
so that each of them can import it without importing the others.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hclgpu.ir import models as m

EXTENDED_RESOURCES: dict[tuple[str, str], str] = {
    ("nvidia", "gpu"): "nvidia.com/gpu",
    ("amd", "gpu"): "amd.com/gpu",
    ("intel", "gpu"): "gpu.intel.com/i915",
    ("aws", "neuron"): "aws.amazon.com/neuron",
    ("aws", "neuroncore"): "aws.amazon.com/neuroncore",
}
"""Nomad ``(vendor, type)`` → the extended resource its Kubernetes device plugin advertises."""

DEFAULT_VENDORS: dict[str, str] = {"gpu": "nvidia", "neuron": "aws", "neuroncore": "aws"}
"""The vendor assumed for a name without one (``device "gpu"``)."""

NVIDIA = "nvidia"
DRA_DEVICE_CLASS = "gpu.nvidia.com"
"""The NVIDIA DRA driver's DeviceClass for whole GPUs (also its attribute domain)."""
DRA_MIG_DEVICE_CLASS = "mig.nvidia.com"
"""The NVIDIA DRA driver's DeviceClass for MIG instances (attributes in the same domain)."""
MIG_RESOURCE_PREFIX = "nvidia.com/mig-"
"""The device plugin's resource for one MIG profile under its ``mixed`` strategy."""


@dataclass(frozen=True, slots=True)
class Mig:
    """A MIG instance a request names, ``<parent> MIG <profile>``: the name NVML gives the
    device, which nomad-device-nvidia reports as its model (nvml/driver_linux.go:141 at
    05e83c3)."""

    parent: str
    profile: str

    @property
    def plugin_profile(self) -> str:
        """The profile as NVIDIA's device plugin writes it in resource names and labels, `+`
        as `.` (k8s-device-plugin internal/rm/rm.go:145 at 1b826ac)."""
        return self.profile.replace("+", ".")


def split_mig(model: str) -> Mig | None:
    """The parent and profile of a MIG model name, or ``None`` for a whole GPU's."""
    from hclgpu.units.mig import parse_mig_model

    parts = parse_mig_model(model)
    return Mig(*parts) if parts is not None else None


@dataclass(slots=True)
class DeviceLowering:
    """What a task's device requests add to its pod: one field per place in the manifests.

    ``limits`` go into both ``requests`` and ``limits`` (extended resources must be equal
    integers there); ``required`` is ANDed into one ``nodeSelectorTerm``.
    """

    limits: dict[str, int] = field(default_factory=dict)
    required: list[dict[str, Any]] = field(default_factory=list)
    preferred: list[dict[str, Any]] = field(default_factory=list)
    tolerations: list[dict[str, Any]] = field(default_factory=list)
    claim_templates: list[dict[str, Any]] = field(default_factory=list)
    pod_claims: list[dict[str, Any]] = field(default_factory=list)
    container_claims: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Identity:
    """Vendor, type and model of a request, as Nomad's ``RequestedDevice.ID()`` splits the
    name (vendor and type possibly filled in from constraints or defaults)."""

    vendor: str
    type: str
    model: str
    resource: str | None

    @property
    def nvidia(self) -> bool:
        """Only NVIDIA GPUs have GFD labels and a DRA class that hclgpu maps constraints to."""
        return self.resource == EXTENDED_RESOURCES[(NVIDIA, "gpu")]


@dataclass(frozen=True, slots=True)
class Request:
    """One device block that survived the count and name checks."""

    device: m.RequestedDevice
    identity: Identity
    count: int


def add_unique(items: list[dict[str, Any]], item: dict[str, Any]) -> None:
    """Append unless an equal entry is there: two requests may ask the same of the node."""
    if item not in items:
        items.append(item)
