"""The pod a Nomad task group becomes: the PodTemplateSpec holding its containers, volumes,
restart policy and placement.

This module assembles the pod; each part comes from the module that owns it. One container
per docker/podman task (:mod:`~hclgpu.backends.kubernetes.containers`); prestart tasks become
init containers (native sidecars when `sidecar = true`); service checks become probes
(:mod:`~hclgpu.backends.kubernetes.probes`); templates are mounted from a ConfigMap
(:mod:`~hclgpu.backends.kubernetes.configmaps`); node constraints, affinities and spreads
become node affinity and topology spread constraints
(:mod:`~hclgpu.backends.kubernetes.placement`). Whatever a field cannot say in Kubernetes is
reported where it is written: HG301 when it is left out, HG302 when it is translated only
approximately (:mod:`~hclgpu.backends.kubernetes.reporting`).

Devices are lowered by :mod:`hclgpu.backends.kubernetes.devices`; the pod only places its
result (resources, node affinity, tolerations, DRA claims).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from hclgpu.backends.containers import checks_by_task
from hclgpu.backends.kubernetes.configmaps import TEMPLATES_VOLUME, mount_templates, template_files
from hclgpu.backends.kubernetes.containers import PodParts, task_container
from hclgpu.backends.kubernetes.names import dns_label
from hclgpu.backends.kubernetes.objects import (
    Kind,
    Obj,
    config_map_name,
    container_name,
    pod_labels,
    workload_kind,
)
from hclgpu.backends.kubernetes.placement import pod_placement
from hclgpu.backends.kubernetes.probes import add_probes
from hclgpu.backends.kubernetes.reporting import approximated, is_set, report_leftovers
from hclgpu.backends.kubernetes.tasks import report_skipped, translatable
from hclgpu.backends.target import Lowering
from hclgpu.ir import models as m

if TYPE_CHECKING:
    from hclgpu.backends.kubernetes.devices import DeviceLowering


def pod_template(
    job: m.Job, group: m.TaskGroup, ctx: Lowering, devices: Mapping[str, DeviceLowering] | None = None
) -> Obj:
    """The PodTemplateSpec of ``group``; ``devices`` is the device lowering of each task, by name.

    Diagnostics about the group's own fields (count, update, meta...) belong to the
    workload and are not reported here; everything about tasks, ports, checks, templates
    and placement is.
    """
    devices = devices or {}
    pod = PodParts(volumes=[])
    inits, containers = _containers(job, group, ctx, devices, pod)
    if template_files(job, group):
        pod.volumes.append({"name": TEMPLATES_VOLUME, "configMap": {"name": config_map_name(job, group)}})
    if containers:
        _ephemeral_disk(containers[0], group, ctx)
    spec: Obj = {"restartPolicy": restart_policy(workload_kind(job), group, ctx)}
    # a Nomad task gets no credentials for the cluster's API; a pod would get a token mounted
    spec["automountServiceAccountToken"] = False
    # Docker confines every container with its default seccomp profile, and Nomad's docker
    # driver leaves it on; a pod is unconfined unless it asks for the runtime's default
    spec["securityContext"] = {"seccompProfile": {"type": "RuntimeDefault"}}
    if inits:
        spec["initContainers"] = inits
    spec["containers"] = containers
    if pod.volumes:
        spec["volumes"] = pod.volumes
    if pod.grace is not None:
        spec["terminationGracePeriodSeconds"] = pod.grace
    pod.host.apply(spec)
    spec.update(pod_placement(job, group, ctx, list(devices.values())))
    return {"metadata": {"labels": pod_labels(job, group)}, "spec": spec}


def _containers(
    job: m.Job, group: m.TaskGroup, ctx: Lowering, devices: Mapping[str, DeviceLowering], pod: PodParts
) -> tuple[list[Obj], list[Obj]]:
    """(init containers, containers). Native sidecars come first among the init containers:
    in Nomad they run beside the other prestart tasks, so those may rely on them."""
    sidecars: list[Obj] = []
    inits: list[Obj] = []
    containers: list[Obj] = []
    checks = checks_by_task(group, [t for t in group.tasks or [] if translatable(t)], ctx)
    files = template_files(job, group)
    taken: set[str] = set()
    for task in group.tasks or []:
        if not translatable(task):
            report_skipped(task, ctx)
            continue
        init = task.lifecycle is not None
        name = _unique_name(container_name(task), taken)
        container = task_container(job, task, name, group, ctx, devices.get(task.name), pod)
        add_probes(container, task, checks.get(task.name, []), group, ctx, probes=not init)
        mount_templates(container, [f for f in files if f.task is task])
        if task.lifecycle is None:
            containers.append(container)
        elif task.lifecycle.sidecar:
            sidecars.append({**container, "restartPolicy": "Always"})
        else:
            inits.append(container)
    _note_sequential(inits, group, ctx)
    return sidecars + inits, containers


def _unique_name(name: str, taken: set[str]) -> str:
    """``name``, or ``name-2``, ``name-3``...: `a_b` and `a-b` are both the label `a-b`."""
    unique, n = name, 2
    while unique in taken:
        suffix = f"-{n}"
        unique, n = dns_label(name, 63 - len(suffix)) + suffix, n + 1
    taken.add(unique)
    return unique


def _note_sequential(inits: Sequence[Obj], group: m.TaskGroup, ctx: Lowering) -> None:
    """Init containers run one at a time; Nomad starts all prestart tasks together."""
    if len(inits) > 1:
        approximated(
            ctx,
            f'the prestart tasks of group "{group.name}" run one after another as initContainers '
            f"({', '.join(c['name'] for c in inits)}), not in parallel as in Nomad",
            group,
        )


def restart_policy(kind: Kind, group: m.TaskGroup, ctx: Lowering) -> str:
    """Always for long-running controllers; OnFailure for Jobs (Never when attempts = 0)."""
    policy = group.restart_policy
    if kind in ("Deployment", "DaemonSet"):
        value = "Always"
    else:
        value = "Never" if policy is not None and policy.attempts == 0 else "OnFailure"
    if policy is None:
        return value
    details = [f for f in ("attempts", "interval", "delay", "mode") if is_set(getattr(policy, f))]
    if kind in ("Job", "CronJob") and details == ["attempts"]:
        details = []  # attempts is the Job's backoffLimit
    if details:
        approximated(
            ctx,
            f'restart {", ".join(f"`{d}`" for d in details)} of group "{group.name}": Kubernetes '
            f"restarts containers with its own exponential back-off (spec.restartPolicy: {value}"
            f"{', spec.backoffLimit' if kind in ('Job', 'CronJob') else ''})",
            policy,
        )
    report_leftovers(
        ctx, policy, ("attempts", "interval", "delay", "mode"), f'the restart of group "{group.name}"'
    )
    return value


def _ephemeral_disk(container: Obj, group: m.TaskGroup, ctx: Lowering) -> None:
    """Nomad reserves the disk per allocation; Kubernetes requests it per container."""
    disk = group.ephemeral_disk
    if disk is None:
        return
    if disk.size_mb:
        container["resources"].setdefault("requests", {})["ephemeral-storage"] = f"{disk.size_mb}Mi"
        approximated(
            ctx,
            f"ephemeral_disk size {disk.size_mb} MB → resources.requests.ephemeral-storage of container "
            f"`{container['name']}`; it is the container's writable layer and logs, not a shared alloc dir",
            disk,
        )
    report_leftovers(ctx, disk, ("size_mb",), f'the ephemeral_disk of group "{group.name}"')
