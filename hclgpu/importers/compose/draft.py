"""One compose service on its way to a Nomad task: what was read from it, before the
services are put into groups (which decides lifecycle hooks, port labels and restarts)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hclgpu.importers.compose.findings import Path

LABEL_PREFIX = "io.hclgpu."
"""The labels the compose back end writes: job, group and task names, and meta as ``meta.KEY``."""


@dataclass(frozen=True, slots=True)
class PortSpec:
    """A published port: the container port, the host port (None: Docker picks one)."""

    container: int
    host: int | None
    name: str
    """The long syntax's `name`, used as the Nomad port label when it is a valid one."""


@dataclass(slots=True)
class CheckSpec:
    """A healthcheck as a Nomad check (API JSON); ``port`` is the container port an http or
    tcp check probes, whose group port label is filled in once the labels are chosen."""

    check: dict[str, Any]
    port: int | None = None
    fallback: dict[str, Any] | None = None
    """The same test as a script check, for when ``port`` is not published (no label to probe)."""
    note: str = ""
    """An HG302 message for when the check (not the fallback) is used."""


@dataclass(slots=True)
class Draft:
    """Everything read from one compose service."""

    name: str
    path: Path
    config: dict[str, Any]
    task_name: str = ""
    """The Nomad task name, set when the services are grouped."""
    """The docker driver's `config`, starting with `image`."""
    task: dict[str, Any] = field(default_factory=dict)
    """Task fields besides Name, Driver, Config and Resources (API JSON names)."""
    env: dict[str, str] = field(default_factory=dict)
    resources: dict[str, Any] = field(default_factory=dict)
    """The task's `resources` (API JSON); memory is set from the two fields below at the end."""
    memory_limit_mb: int | None = None
    memory_reservation_mb: int | None = None
    identity: dict[str, str] = field(default_factory=dict)
    """``job``, ``group`` and ``task`` from the back end's labels, when it wrote them."""
    meta: dict[str, str] = field(default_factory=dict)
    ports: list[PortSpec] = field(default_factory=list)
    check: CheckSpec | None = None
    replicas: int | None = None
    restart: str | None = None
    depends_on: dict[str, str] = field(default_factory=dict)
    """Other service → the condition it must reach first."""
    networks: list[str] | None = None
    """The networks the service joins (its `networks` key), when it has one."""
    hook: str = ""
    sidecar: bool = False
    first_gpus: list[Path] = field(default_factory=list)
    """Where `device_ids` named the first GPU indexes 0..N-1 (the same as a count)."""

    def at(self, *parts: str | int) -> Path:
        """The pointer path of a key of this service."""
        return (*self.path, *parts)

    @property
    def keeps_running(self) -> bool:
        """Whether Compose restarts it: the back end writes a restart policy only for tasks
        that are not one-shot lifecycle tasks (service jobs, or batch with attempts left)."""
        return self.restart not in (None, "no")

    @property
    def one_shot(self) -> bool:
        """A lifecycle task that runs to completion (not a sidecar)."""
        return self.hook != "" and not self.sidecar
