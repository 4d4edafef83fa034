"""The container one docker/podman task becomes: image, command and args, env, ports,
resources (Nomad's MHz and MiB as Kubernetes quantities, device counts and claims) and
security context, plus what the task adds to its pod (a /dev/shm volume, a grace period).

Probes come from :mod:`hclgpu.backends.kubernetes.probes` and template mounts from
:mod:`hclgpu.backends.kubernetes.configmaps`; every task field and driver option that the
container does not carry is reported here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hclgpu.backends.containers import (
    as_strings,
    capability,
    memory_limit,
    network_ports,
    nomad_cap_drop,
    port_number,
    process_environment,
    runtime_references,
)
from hclgpu.backends.kubernetes.host import HOST_KEYS, PodHost, lower_host
from hclgpu.backends.kubernetes.names import dns_label
from hclgpu.backends.kubernetes.objects import Obj, container_port_name
from hclgpu.backends.kubernetes.reporting import HINTS, approximated, is_set, report_leftovers, unsupported
from hclgpu.backends.kubernetes.task_env import ContainerEnv
from hclgpu.backends.kubernetes.tasks import note_static_port, seconds
from hclgpu.backends.target import Lowering
from hclgpu.backends.task_env import DEFAULT_CPU_MHZ, named_dirs, node_references
from hclgpu.ir import models as m
from hclgpu.ir.base import Node

if TYPE_CHECKING:
    from hclgpu.backends.kubernetes.devices import DeviceLowering


@dataclass(slots=True)
class PodParts:
    """What the containers of one group add up to, besides the containers themselves."""

    volumes: list[Obj]
    grace: int | None = None
    host: PodHost = field(default_factory=PodHost)
    """Host namespaces and the runtime class the tasks ask for."""


_CONFIG_KEYS = frozenset(
    {
        "image",
        "command",
        "args",
        "entrypoint",
        "ports",
        "shm_size",
        "privileged",
        "cap_add",
        "cap_drop",
        "work_dir",
        "working_dir",
        "force_pull",
        "cpu_hard_limit",
        "readonly_rootfs",
        *HOST_KEYS,
    }
)

_TASK_FIELDS = (
    "driver",
    "restart_policy",
    "user",
    "lifecycle",
    "config",
    "constraints",
    "affinities",
    "env",
    "services",
    "resources",
    "kill_timeout",
    "templates",
)


def task_container(
    job: m.Job,
    task: m.Task,
    name: str,
    group: m.TaskGroup,
    ctx: Lowering,
    devices: DeviceLowering | None,
    pod: PodParts,
) -> Obj:
    """The container ``name`` of one docker/podman task."""
    config = task.config or {}
    if name != task.name:
        approximated(ctx, f'task "{task.name}" is the container `{name}` (a DNS-1123 label)', task)
    container: Obj = {"name": name, "image": str(config.get("image", ""))}
    nomad = ContainerEnv.of(job, group, task, ctx)
    command = as_strings(config["entrypoint"]) if "entrypoint" in config else []
    args = as_strings(config.get("command")) + as_strings(config.get("args"))
    for where, key, values in (("entrypoint", "command", command), ("command/args", "args", args)):
        unknown: set[str] = set()
        if values or (key == "command" and "entrypoint" in config):
            words = [nomad.expanded(kubernetes_literal(word), unknown) for word in values]
            container[key] = nomad.kept(words, f"`{where}`", task, ctx)
        _runtime_references(ctx, task, where, {u for u in unknown if not node_references(u)})
    workdir = config.get("work_dir") or config.get("working_dir")
    if workdir:
        unknown = set()
        container["workingDir"] = nomad.literal(str(workdir), unknown)
        _runtime_references(ctx, task, "work_dir", unknown)
    if config.get("force_pull"):
        container["imagePullPolicy"] = "Always"
    env = process_environment(ctx, task, f'task "{task.name}"')
    unknown = set()
    own = [
        {"name": k, "value": value}
        for k, v in env.items()
        for value in nomad.kept([nomad.expanded(kubernetes_literal(v), unknown)], f"env {k}", task, ctx)
    ]
    _runtime_references(ctx, task, "env", {u for u in unknown if not node_references(u)})
    container["env"] = [e for e in nomad.entries() if e["name"] not in env] + own
    written = [*container.get("command", []), *container.get("args", []), container.get("workingDir", "")]
    nomad.used_dirs |= named_dirs([*written, *(e["value"] for e in own)])
    mounts = nomad.mounts(name, pod.volumes)
    if mounts:
        container.setdefault("volumeMounts", []).extend(mounts)
    lower_host(task, config, container, pod.volumes, pod.host, ctx)
    ports = _container_ports(task, group, ctx)
    if ports:
        container["ports"] = ports
    container["resources"] = _resources(task, ctx, devices)
    security = _security_context(task, ctx)
    if security:
        container["securityContext"] = security
    _shm(container, task, ctx, pod)
    if task.kill_timeout is not None:
        pod.grace = max(pod.grace or 0, seconds(task.kill_timeout))
    _report_task(task, config, ctx)
    return container


_EXPANDED = re.compile(r"\$(?=[$(])")


def kubernetes_literal(text: str) -> str:
    """``text`` as Kubernetes passes it on: the kubelet expands ``$(VAR)`` in a container's
    command, args and env values and reduces ``$$`` to ``$``, which Nomad never does, so a
    ``$`` before ``(`` or ``$`` is doubled (``$(date)`` stays ``$(date)`` in the process)."""
    return _EXPANDED.sub("$$", text)


def _report_task(task: m.Task, config: Mapping[str, Any], ctx: Lowering) -> None:
    """The task's own fields and driver options that the container does not carry."""
    where = f'task "{task.name}"'
    report_leftovers(ctx, task, _TASK_FIELDS, where)
    if task.restart_policy is not None:
        unsupported(
            ctx,
            f"the restart block of {where}: Kubernetes restart policies are per pod, the group's applies",
            task.restart_policy,
        )
    for key in sorted(config):
        if key not in _CONFIG_KEYS and is_set(config[key]):
            unsupported(
                ctx,
                f"`{key}` in the {task.driver} config of {where} has no Kubernetes equivalent; "
                "it is left out",
                task,
                help=HINTS.get(key),
            )


def _runtime_references(ctx: Lowering, task: m.Task, field: str, values: Iterable[str]) -> None:
    """HG302 for Nomad runtime variables in ``values``: Kubernetes does not interpolate them."""
    help = "replace it with a literal value, or a $(VAR) reference to a container env var"
    runtime_references(ctx, task, field, values, "Kubernetes", help)


def _security_context(task: m.Task, ctx: Lowering) -> Obj:
    """privileged, capabilities, read-only root and a numeric `user` (names need the image's
    /etc/passwd, which Kubernetes does not read)."""
    config = task.config or {}
    security: Obj = {}
    if config.get("privileged"):
        security["privileged"] = True
        approximated(
            ctx,
            f'privileged = true in task "{task.name}" → securityContext.privileged: true; Pod Security '
            "admission rejects it in namespaces that are not `privileged`",
            task,
        )
    caps = {verb: [capability(c) for c in as_strings(config.get(f"cap_{verb}"))] for verb in ("add", "drop")}
    if task.driver == "docker":  # what Nomad's docker driver does not grant (its allow_caps)
        caps["drop"] += nomad_cap_drop(dict(config))
    caps = {verb: names for verb, names in caps.items() if names}
    if caps:
        security["capabilities"] = caps
    if config.get("readonly_rootfs"):
        security["readOnlyRootFilesystem"] = True
    if task.user:
        uid, _, gid = task.user.partition(":")
        if uid.isdigit() and (gid == "" or gid.isdigit()):
            security["runAsUser"] = int(uid)
            if gid:
                security["runAsGroup"] = int(gid)
        else:
            unsupported(
                ctx,
                f'user "{task.user}" of task "{task.name}": Kubernetes runs containers as numeric IDs '
                "(securityContext.runAsUser); it is left out",
                task,
            )
    return security


_SIZE = re.compile(r"(\d+)\s*([bkmg]?)b?", re.IGNORECASE)


def _shm(container: Obj, task: m.Task, ctx: Lowering, pod: PodParts) -> None:
    """Docker's `shm_size` (bytes; podman: "64m") as a memory-backed emptyDir on /dev/shm."""
    size = (task.config or {}).get("shm_size")
    if not is_set(size):
        return
    match = _SIZE.fullmatch(str(size).strip())
    if match is None:
        unsupported(ctx, f'shm_size "{size}" of task "{task.name}" is not a size; it is left out', task)
        return
    scale = 1024 ** "bkmg".index(match.group(2).lower() or "b")
    volume = dns_label(f"shm-{container['name']}")
    pod.volumes.append(
        {"name": volume, "emptyDir": {"medium": "Memory", "sizeLimit": str(int(match[1]) * scale)}}
    )
    container.setdefault("volumeMounts", []).append({"name": volume, "mountPath": "/dev/shm"})


def _container_ports(task: m.Task, group: m.TaskGroup, ctx: Lowering) -> list[Obj]:
    """The group network ports the task's driver config publishes."""
    ports = network_ports(group)
    out: list[Obj] = []
    for label in as_strings((task.config or {}).get("ports")):
        port = ports.get(label)
        number = port_number(port) if port is not None else None
        if port is None:
            unsupported(ctx, f'port "{label}" of task "{task.name}" is not in the group network', task)
            continue
        if number is None:
            unsupported(
                ctx,
                f'port "{label}" has neither `to` nor `static`: Nomad chooses its number when the task '
                f"starts (NOMAD_PORT_{label}); a containerPort must be fixed, so it is left out",
                port,
                help="set `to` to the port the program listens on",
            )
            continue
        name = container_port_name(label)
        if name != label:
            approximated(ctx, f'port "{label}" is named `{name}` (ports.name, an IANA service name)', port)
        if port.value > 0:
            note_static_port(ctx, port)
        out.append({"name": name, "containerPort": number})
    return out


# --------------------------------------------------------------------------- resources


def _resources(task: m.Task, ctx: Lowering, devices: DeviceLowering | None) -> Obj:
    """CPU MHz as millicores, memory in MiB, devices in both requests and limits."""
    res = task.resources
    at: Node = res if res is not None else task
    requests: Obj = {}
    limits: Obj = {}
    if res is not None and res.cores:
        requests["cpu"] = limits["cpu"] = str(res.cores)
        approximated(
            ctx,
            f'cores = {res.cores} of task "{task.name}" → resources.limits.cpu "{res.cores}": CPU time, '
            "not dedicated cores unless the kubelet's static CPU manager policy is on",
            res,
        )
    else:
        requests["cpu"] = _millicores(res.cpu if res and res.cpu is not None else DEFAULT_CPU_MHZ, at, ctx)
        if (task.config or {}).get("cpu_hard_limit"):
            limits["cpu"] = requests["cpu"]
    limit, reservation = memory_limit(ctx, task)
    requests["memory"] = f"{reservation or limit}Mi"
    limits["memory"] = f"{limit}Mi"
    if devices is not None:
        for name, count in devices.limits.items():
            requests[name] = limits[name] = count
    out: Obj = {"requests": requests, "limits": limits}
    if devices is not None and devices.container_claims:
        out["claims"] = list(devices.container_claims)
    if res is not None:
        handled = ("cpu", "cores", "memory_mb", "memory_max_mb", "devices")
        report_leftovers(ctx, res, handled, f'the resources of task "{task.name}"')
    return out


def _millicores(mhz: int, at: Node, ctx: Lowering) -> str:
    """Nomad's MHz at the configured MHz per core; the factor is reported once per job."""
    factor = ctx.options.cpu_mhz_per_core
    prefix = "Nomad cpu is in MHz: resources.requests.cpu is converted"
    if ctx.first_time(prefix):
        approximated(
            ctx,
            f"{prefix} at {factor} MHz per core (cpu = {mhz} → {max(1, round(mhz * 1000 / factor))}m)",
            at,
            help="pass --cpu-mhz-per-core with your nodes' clock",
        )
    return f"{max(1, round(mhz * 1000 / factor))}m"
