"""Docker driver options that reach into the host, as the pod fields that do the same.

``network_mode = "host"`` is ``hostNetwork`` (with ``dnsPolicy: ClusterFirstWithHostNet``,
so the pod still resolves cluster names), ``ipc_mode``/``pid_mode = "host"`` are
``hostIPC``/``hostPID``, ``runtime`` is ``runtimeClassName`` (a RuntimeClass of that name
must exist: HG302), the driver's ``devices`` CharDevice hostPaths (HG302: opening one needs
privileges or a device plugin), and its ``volumes`` and ``mount`` blocks are volumes:
a host path is a ``hostPath`` volume, a named docker volume an ``emptyDir`` (it does not
outlive the pod: HG302), a tmpfs an in-memory ``emptyDir``. Nomad's docker driver takes a
host path only where the client's docker plugin sets ``volumes.enabled``; Pod Security
admission refuses hostPath, hostNetwork, hostIPC and hostPID outside `privileged`
namespaces. Both are said once per task.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hclgpu.backends.containers import as_strings
from hclgpu.backends.kubernetes.names import dns_label
from hclgpu.backends.kubernetes.objects import Obj
from hclgpu.backends.kubernetes.reporting import approximated, unsupported
from hclgpu.backends.target import Lowering
from hclgpu.backends.task_env import node_references
from hclgpu.ir import models as m

__all__ = ["HOST_KEYS", "PodHost", "lower_host"]

HOST_KEYS = (
    "network_mode", "ipc_mode", "pid_mode", "runtime", "volumes", "mount", "mounts",
    "dns_servers", "dns_search_domains", "dns_options", "devices",
)  # fmt: skip
"""The driver-config keys this module translates."""

_NAMESPACES = {"network_mode": "hostNetwork", "ipc_mode": "hostIPC", "pid_mode": "hostPID"}


@dataclass(slots=True)
class PodHost:
    """What the tasks of one group ask of the pod: its host namespaces and runtime class."""

    fields: dict[str, Any] = field(default_factory=dict)

    def apply(self, spec: Obj) -> None:
        spec.update(self.fields)
        if self.fields.get("dnsConfig"):
            spec["dnsPolicy"] = "None"  # the container's resolv.conf is these, as docker's --dns
        elif self.fields.get("hostNetwork"):
            spec["dnsPolicy"] = "ClusterFirstWithHostNet"


def lower_host(
    task: m.Task, config: Mapping[str, Any], container: Obj, volumes: list[Obj], host: PodHost, ctx: Lowering
) -> None:
    """The host options of one task's driver config: pod fields, volumes and mounts."""
    where = f'task "{task.name}"'
    for key, pod_field in _NAMESPACES.items():
        value = config.get(key)
        if value in (None, ""):
            continue
        if value == "host":
            host.fields[pod_field] = True
            approximated(ctx, f'{key} = "host" of {where} → {pod_field}: true', task, help=_PRIVILEGED)
        else:
            message = f'{key} = "{value}" of {where} has no Kubernetes equivalent; it is left out'
            unsupported(ctx, message, task)
    runtime = config.get("runtime")
    if isinstance(runtime, str) and runtime:
        host.fields["runtimeClassName"] = dns_label(runtime)
        approximated(
            ctx,
            f'runtime = "{runtime}" of {where} → runtimeClassName: {dns_label(runtime)}; a RuntimeClass of '
            "that name must exist in the cluster",
            task,
        )
    dns = _dns(task, config, ctx)
    if dns:
        host.fields["dnsConfig"] = dns
    named = bool(config.get("volume_driver"))
    mounts = [_volume_mount(text, task, named, ctx) for text in as_strings(config.get("volumes"))]
    mounts += [_block_mount(block, task, ctx) for block in _blocks(config)]
    mounts += [_device(device, task, ctx) for device in _blocks(config, ("devices",))]
    for index, found in enumerate(mount for mount in mounts if mount is not None):
        source, target, read_only = found
        name = dns_label(f"{container['name']}-v{index}")
        volumes.append({"name": name, **source})
        mount: Obj = {"name": name, "mountPath": target}
        if read_only:
            mount["readOnly"] = True
        container.setdefault("volumeMounts", []).append(mount)


_PRIVILEGED = "Pod Security admission allows it only in namespaces labelled `privileged`"


MAX_NAMESERVERS = 3
"""What a pod's dnsConfig may list (and what glibc reads of resolv.conf)."""


def _dns(task: m.Task, config: Mapping[str, Any], ctx: Lowering) -> Obj:
    """The driver's `dns_servers`, `dns_search_domains` and `dns_options` (docker's --dns,
    --dns-search, --dns-option: the container's resolv.conf) as the pod's dnsConfig with
    dnsPolicy None. A server naming the node is left out (only that node knows it)."""
    servers: list[str] = []
    for server in as_strings(config.get("dns_servers")):
        if node_references(server):
            unsupported(
                ctx, f'dns server "{server}" of task "{task.name}" names the node; it is left out', task
            )
        elif len(servers) == MAX_NAMESERVERS:
            unsupported(
                ctx, f'dns server "{server}" of task "{task.name}": a pod lists at most 3; left out', task
            )
        else:
            servers.append(server)
    out: Obj = {}
    if servers:
        out["nameservers"] = servers
    searches = as_strings(config.get("dns_search_domains"))
    if searches:
        out["searches"] = searches
    options = [
        dict(zip(("name", "value"), o.split(":", 1), strict=False))
        for o in as_strings(config.get("dns_options"))
    ]
    if options:
        out["options"] = options
    return out


def _volume_mount(text: str, task: m.Task, named: bool, ctx: Lowering) -> tuple[Obj, str, bool] | None:
    """A docker `volumes` string, ``source:target[:options]``. Without a `volume_driver`
    (``named``), Nomad's docker driver reads a relative source as a path in the task
    directory, a bare name included (drivers/docker/driver.go:786-793 at v1.10.0)."""
    parts = text.split(":")
    if len(parts) < 2 or not parts[1].startswith("/"):
        unsupported(ctx, f'volume "{text}" of task "{task.name}" is not source:target; it is left out', task)
        return None
    source, target, options = parts[0], parts[1], parts[2:]
    if not source.startswith("/") and not named:
        _in_task_dir(f'volume "{text}"', source, task, ctx)
        return None
    if "/" in source and not source.startswith("/"):
        unsupported(
            ctx, f'volume "{text}" of task "{task.name}": `{source}` is no volume name; it is left out', task
        )
        return None
    read_only = "ro" in ",".join(options).split(",")
    return _source(source, text, task, ctx), target, read_only


def _block_mount(block: Mapping[str, Any], task: m.Task, ctx: Lowering) -> tuple[Obj, str, bool] | None:
    """A `mount { type, source, target, readonly }` block."""
    kind, source, target = block.get("type", "volume"), str(block.get("source") or ""), block.get("target")
    if not isinstance(target, str) or not target.startswith("/"):
        unsupported(ctx, f'a mount of task "{task.name}" has no absolute target; it is left out', task)
        return None
    read_only = bool(block.get("readonly"))
    if kind == "tmpfs":
        return {"emptyDir": _tmpfs(block)}, target, read_only
    if kind == "bind" and not source.startswith("/"):
        _in_task_dir(f'bind mount "{source}:{target}"', source, task, ctx)  # driver.go:1472 at v1.10.0
        return None
    if kind == "bind" or (kind == "volume" and source):
        return _source(source, f"{source}:{target}", task, ctx), target, read_only
    unsupported(ctx, f'a `{kind}` mount of task "{task.name}" has no Kubernetes form; it is left out', task)
    return None


def _in_task_dir(what: str, source: str, task: m.Task, ctx: Lowering) -> None:
    unsupported(
        ctx,
        f'{what} of task "{task.name}": `{source}` is a path in the Nomad task directory, which has '
        "no Kubernetes form; it is left out",
        task,
        help="use an absolute host path, a template or artifact for the file, or `volume_driver` "
        "for a named volume",
    )


def _tmpfs(block: Mapping[str, Any]) -> Obj:
    """An in-memory emptyDir, limited to the mount's `tmpfs_options.size` (bytes) when set."""
    options = block.get("tmpfs_options")
    options = options[0] if isinstance(options, list) and options else options
    size = options.get("size") if isinstance(options, Mapping) else None
    return {"medium": "Memory", **({"sizeLimit": str(size)} if isinstance(size, int) and size > 0 else {})}


def _source(source: str, text: str, task: m.Task, ctx: Lowering) -> Obj:
    """A host path as a hostPath volume, a docker volume name as an emptyDir."""
    if source.startswith("/"):
        approximated(
            ctx,
            f'volume "{text}" of task "{task.name}" → a hostPath volume; Nomad mounts it only where the '
            "client allows host volumes in its docker plugin",
            task,
            help=_PRIVILEGED,
        )
        return {"hostPath": {"path": source}}
    approximated(
        ctx,
        f'volume "{text}" of task "{task.name}": the docker volume `{source}` is an emptyDir, which is '
        "emptied when the pod goes",
        task,
        help="use a PersistentVolumeClaim where the data must outlive the pod",
    )
    return {"emptyDir": {}}


def _device(device: Mapping[str, Any], task: m.Task, ctx: Lowering) -> tuple[Obj, str, bool] | None:
    """A docker `devices` entry (an InfiniBand or FPGA node, say) as a CharDevice hostPath at
    its container path: the pod sees the node, and may open it where it is privileged or a
    device plugin grants the device (docker's --device also allows it in the cgroup)."""
    host = str(device.get("host_path") or "")
    if not host.startswith("/"):
        unsupported(ctx, f'a device of task "{task.name}" has no absolute host_path; it is left out', task)
        return None
    target = str(device.get("container_path") or host)
    approximated(
        ctx,
        f'device "{host}" of task "{task.name}" → a CharDevice hostPath at {target}; the container may '
        "open it only where it is privileged or a device plugin grants it (docker's --device also "
        "allows it in the device cgroup)",
        task,
        help="for InfiniBand, a device plugin such as the RDMA shared device plugin",
    )
    return {"hostPath": {"path": host, "type": "CharDevice"}}, target, False


def _blocks(
    config: Mapping[str, Any], keys: tuple[str, ...] = ("mount", "mounts")
) -> list[Mapping[str, Any]]:
    """`mount` blocks (a list of maps from HCL), and the older `mounts` list (or ``keys``)."""
    found: list[Mapping[str, Any]] = []
    for key in keys:
        value = config.get(key)
        items = value if isinstance(value, list) else [value] if isinstance(value, dict) else []
        found += [item for item in items if isinstance(item, dict)]
    return found
