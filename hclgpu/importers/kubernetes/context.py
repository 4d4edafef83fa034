"""What reading one pod needs to know besides the container at hand: the workload it is in,
the objects it refers to by name, the group network being collected, and the options."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hclgpu.importers.kubernetes.source import Findings, Manifest, Path


@dataclass(slots=True)
class PodContext:
    """One pod spec (at ``spec`` inside ``workload``) being read into one task group."""

    workload: Manifest
    spec: Path
    findings: Findings
    config_maps: dict[str, Manifest]
    claim_templates: dict[str, Manifest]
    claims: dict[str, Manifest]
    cpu_mhz_per_core: int = 1000
    ports: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The group network's ports by label, as API JSON ``Port`` objects."""
    disk_mb: int | None = None
    """The first container's ephemeral-storage request: the group's ``ephemeral_disk``."""
    sharing: dict[str, str] = field(default_factory=dict)
    """How the pod's GPUs are shared (time-slicing, MPS), kept in the group's ``meta``: Nomad
    gives a task whole GPUs."""

    def take(self, *path: str | int) -> Any:
        return self.workload.take(*self.spec, *path)

    def peek(self, *path: str | int) -> Any:
        return self.workload.peek(*self.spec, *path)

    def items(self, *path: str | int) -> list[Any]:
        return self.workload.items(*self.spec, *path)

    def mapping(self, *path: str | int) -> dict[str, Any]:
        return self.workload.mapping(*self.spec, *path)

    def left_out(self, path: Path, message: str) -> None:
        self.findings.left_out(self.workload, (*self.spec, *path), message)

    def approximated(self, path: Path, message: str) -> None:
        self.findings.approximated(self.workload, (*self.spec, *path), message)

    def port_for(self, number: int, name: str | None = None) -> str:
        """The label of the network port the container listens on as ``number`` (added when new)."""
        for label, port in self.ports.items():
            if port.get("To") == number or (not port.get("To") and port.get("Value") == number):
                return label
        label = name or f"port_{number}"
        self.ports[label] = {"Label": label, "To": number}
        return label
