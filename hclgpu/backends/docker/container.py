"""What the docker and compose back ends share: the Docker Engine settings one Nomad task
becomes (:class:`Container`), the :class:`Flavour` that says how each target writes them,
and how both report what they leave out.

A Compose service is a declarative `docker run`: both ask the same engine for the same
container. So a task is lowered once, by :mod:`hclgpu.backends.docker.lowering`, into a
:class:`Container` of plain values, and each target only writes it out: an argv for
`docker run` (:mod:`hclgpu.backends.docker.argv`), a service mapping for Compose
(:mod:`hclgpu.backends.compose.service`). Each target lowers with its own flavour in the
context (:class:`ContainerLowering`), so the lowering's diagnostics name that target's
field (:func:`field`) and it never asks which target it is working for.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from hclgpu.backends import reporting
from hclgpu.backends.containers import SECOND
from hclgpu.backends.reporting import approximated as approximated
from hclgpu.backends.reporting import is_set as is_set
from hclgpu.backends.reporting import unsupported as unsupported
from hclgpu.backends.target import Lowering
from hclgpu.ir import models as m
from hclgpu.ir.base import Node

# --------------------------------------------------------------------------- the model


@dataclass(frozen=True, slots=True)
class PortMap:
    """One published port: ``host`` is None when Docker picks the host port."""

    container: int
    host: int | None


@dataclass(frozen=True, slots=True)
class Gpus:
    """An NVIDIA request: a count (``--gpus 2``) or device ids (``--gpus '"device=0,1"'``)."""

    count: int | None = None
    ids: tuple[str, ...] = ()


@dataclass(slots=True)
class Health:
    """A Docker healthcheck: ``test`` is ``["CMD", argv...]`` or ``["CMD-SHELL", line]``;
    durations are nanoseconds."""

    test: list[str]
    interval: int = 0
    timeout: int = 0
    retries: int = 0


@dataclass(slots=True)
class Container:
    """Everything `docker run` / a Compose service says about one task, as plain values,
    with the group and task it comes from (writers report at them).

    ``options`` holds the simple pass-through settings by driver-config key, in the
    order of :data:`OPTIONS`; each target writes them from that table.
    """

    group: m.TaskGroup
    task: m.Task
    name: str
    """The container name (``--name``): ``<job>-<group>-<task>``."""
    service: str
    """The Compose service name: ``<group>-<task>``."""
    image: str
    hook: str = ""
    sidecar: bool = False
    replicas: int = 1
    entrypoint: list[str] | None = None
    command: list[str] = dataclass_field(default_factory=list)
    env: dict[str, str] = dataclass_field(default_factory=dict)
    labels: dict[str, str] = dataclass_field(default_factory=dict)
    ports: list[PortMap] = dataclass_field(default_factory=list)
    cpus: float | None = None
    """A hard CPU quota, in CPUs (``cpu_hard_limit``, or ``cores``)."""
    cpu_shares: int | None = None
    """CPU shares, Nomad's MHz: the docker driver's default, a weight and no limit."""
    memory_mb: int | None = None
    memory_reservation_mb: int | None = None
    gpus: Gpus | None = None
    device_nodes: list[str] = dataclass_field(default_factory=list)
    """Host device paths passed through unchanged (``--device /dev/neuron0``)."""
    devices: list[str] = dataclass_field(default_factory=list)
    """Driver-config device mappings, ``host:container[:permissions]``."""
    shm_size: int | str | None = None
    ulimits: dict[str, tuple[int, int]] = dataclass_field(default_factory=dict)
    volumes: list[str] = dataclass_field(default_factory=list)
    tmpfs: list[str] = dataclass_field(default_factory=list)
    """In-memory mounts (``--tmpfs``): Nomad's secrets directory."""
    options: dict[str, Any] = dataclass_field(default_factory=dict)
    network_mode: str = ""
    restart: str = ""
    health: Health | None = None
    stop_signal: str = ""
    stop_grace: int | None = None
    log_options: dict[str, str] = dataclass_field(default_factory=dict)
    log_driver: str = ""
    pull_always: bool = False

    @property
    def one_shot(self) -> bool:
        """A lifecycle task that runs to completion before the next step (not a sidecar)."""
        return self.hook != "" and not self.sidecar


@dataclass(frozen=True, slots=True)
class Option:
    """A driver-config key that maps one-to-one onto a `docker run` flag and a Compose key.

    ``kind``: ``str``/``int`` (one value), ``bool`` (a flag present when true), ``list``
    (the flag repeated per item), ``map`` (``key=value`` items; a Compose mapping).
    """

    key: str
    flag: str
    compose: str
    kind: str


OPTIONS: tuple[Option, ...] = (
    Option("work_dir", "--workdir", "working_dir", "str"),
    Option("user", "--user", "user", "str"),
    Option("hostname", "--hostname", "hostname", "str"),
    Option("runtime", "--runtime", "runtime", "str"),
    Option("ipc_mode", "--ipc", "ipc", "str"),
    Option("pid_mode", "--pid", "pid", "str"),
    Option("uts_mode", "--uts", "uts", "str"),
    Option("userns_mode", "--userns", "userns_mode", "str"),
    Option("privileged", "--privileged", "privileged", "bool"),
    Option("readonly_rootfs", "--read-only", "read_only", "bool"),
    Option("init", "--init", "init", "bool"),
    Option("tty", "--tty", "tty", "bool"),
    Option("interactive", "--interactive", "stdin_open", "bool"),
    Option("pids_limit", "--pids-limit", "pids_limit", "int"),
    Option("oom_score_adj", "--oom-score-adj", "oom_score_adj", "int"),
    Option("cap_add", "--cap-add", "cap_add", "list"),
    Option("cap_drop", "--cap-drop", "cap_drop", "list"),
    Option("security_opt", "--security-opt", "security_opt", "list"),
    Option("group_add", "--group-add", "group_add", "list"),
    Option("dns_servers", "--dns", "dns", "list"),
    Option("dns_search_domains", "--dns-search", "dns_search", "list"),
    Option("dns_options", "--dns-option", "dns_opt", "list"),
    Option("extra_hosts", "--add-host", "extra_hosts", "list"),
    Option("sysctl", "--sysctl", "sysctls", "map"),
    Option("storage_opt", "--storage-opt", "storage_opt", "map"),
)
"""Driver options written the same way by both targets (the task's `user` joins them)."""


# --------------------------------------------------------------------------- target names


@dataclass(frozen=True, slots=True)
class Flavour:
    """How one container target writes the engine's settings: the only differences between
    `docker run` and Compose that the shared lowering knows of."""

    title: str
    """How messages name the target."""
    column: int
    """Which name of each setting in :data:`_FIELDS` the target writes (0 flag, 1 key)."""
    by_service: bool
    """Whether a container is known by its service name (Compose) or its container name."""
    whole_second_stop: bool
    """Whether the stop timeout takes whole seconds only (``--stop-timeout``)."""
    replicas: bool
    """Whether a group's `count` is expressible (Compose's ``deploy.replicas``)."""


DOCKER = Flavour("docker run", 0, by_service=False, whole_second_stop=True, replicas=False)
COMPOSE = Flavour("Compose", 1, by_service=True, whole_second_stop=False, replicas=True)


@dataclass(slots=True)
class ContainerLowering(Lowering):
    """The lowering context of a container target: the common one, with its flavour."""

    flavour: Flavour = DOCKER

    @classmethod
    def of(cls, ctx: Lowering, flavour: Flavour) -> ContainerLowering:
        """``ctx`` (what the user asked for, where to report) lowering with ``flavour``."""
        return cls(ctx.target, ctx.source, ctx.sink, ctx.options, flavour)


_FIELDS: dict[str, tuple[str, str]] = {
    "name": ("--name", "services.<name>"),
    "cpus": ("--cpus", "deploy.resources.limits.cpus"),
    "memory": ("--memory", "deploy.resources.limits.memory"),
    "gpus": ("--gpus", "deploy.resources.reservations.devices"),
    "device": ("--device", "devices"),
    "env": ("-e", "environment"),
    "ports": ("-p", "ports"),
    "healthcheck": ("--health-cmd", "healthcheck.test"),
    "health-timing": ("--health-interval/--health-timeout", "healthcheck.interval/timeout"),
    "restart": ("--restart", "restart"),
    "stop": ("--stop-timeout", "stop_grace_period"),
    "volume": ("-v", "volumes"),
    "labels": ("--label", "labels"),
    "network": ("the default bridge network", "networks"),
}


def target_name(ctx: ContainerLowering) -> str:
    """How messages name the target: `docker run` or Compose."""
    return ctx.flavour.title


def field(ctx: ContainerLowering, key: str) -> str:
    """The target field a setting is written to, for HG302 messages."""
    return _FIELDS[key][ctx.flavour.column]


# --------------------------------------------------------------------------- reporting


HINTS = {
    "artifact": "bake it into the image, or download it first and bind-mount it (--volume / volumes)",
    "template": "render the file before starting and bind-mount it; pass env = true values as environment",
    "vault": "pass secrets as files (bind mounts, Compose secrets) or environment",
    "consul": "containers find each other by name on a user-defined network",
    "constraint": "run the container on a host that satisfies it",
    "affinity": "run the container on a host that satisfies it",
    "spread": "docker runs on one host",
    "volume": "bind-mount a host path or a named volume (--volume / volumes)",
    "volume_mount": "bind-mount a host path or a named volume (--volume / volumes)",
    "scaling": "scale by hand (docker compose up --scale)",
    "reschedule": "docker has no scheduler: a restart policy only restarts in place",
    "update": "docker has no rolling update; recreate the container",
    "migrate": "docker has no scheduler",
    "periodic": "run it from cron or a systemd timer",
    "identity": "pass credentials as files or environment",
    "ephemeral_disk": "use a volume for scratch space",
    "connect": "use a user-defined network, or a service mesh outside docker",
}
"""What to use instead of a field (by HCL name) that docker has no equivalent for."""


def report_leftovers(ctx: ContainerLowering, node: Node, handled: Iterable[str], where: str) -> None:
    """HG301 for every field of ``node`` that is set but not in ``handled`` (see
    :func:`hclgpu.backends.reporting.report_leftovers`). Nothing is dropped silently."""
    reporting.report_leftovers(ctx, node, handled, where, f"no {target_name(ctx)} equivalent", HINTS)


# --------------------------------------------------------------------------- values


def as_mapping(value: object) -> dict[str, str] | None:
    """A driver-config block (``ulimit { }`` decodes as a list of maps) or map as one mapping;
    None when it is neither."""
    items = value if isinstance(value, list) else [value]
    out: dict[str, str] = {}
    for item in items:
        if not isinstance(item, dict):
            return None
        out.update({str(k): str(v) for k, v in item.items()})
    return out


def duration(ns: int) -> str:
    """Nanoseconds as a Go/Compose duration: ``5s``, ``3m``, ``1m30s``, ``1500ms``; below a
    millisecond, whole microseconds rounded up (Compose has no ``ns`` unit)."""
    if ns % SECOND == 0:
        hours, rest = divmod(ns // SECOND, 3600)
        minutes, secs = divmod(rest, 60)
        text = (f"{hours}h" if hours else "") + (f"{minutes}m" if minutes else "")
        return text + (f"{secs}s" if secs or not text else "")
    if ns % 1_000_000 == 0:
        return f"{ns // 1_000_000}ms"
    return f"{math.ceil(ns / 1000)}us"


_NAME_BAD = re.compile(r"[^a-z0-9_.-]+")


def engine_name(text: str) -> str:
    """A container, service or network name both Docker (``[a-zA-Z0-9][a-zA-Z0-9_.-]*``) and
    Compose (lower case) accept: lower-cased, anything else as ``-``."""
    name = _NAME_BAD.sub("-", text.lower())
    name = re.sub(r"^[^a-z0-9]+", "", name)
    return name or "x"
