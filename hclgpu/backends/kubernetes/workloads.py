"""Kubernetes objects for a Nomad job, as plain dicts: per group its ConfigMap (templates),
ResourceClaimTemplates (DRA devices), workload and Service, in that order.

The workload kind follows the job type: a service is a Deployment, a batch job a Job (a
CronJob when periodic), a system or sysbatch job a DaemonSet; a parameterized job, which
Kubernetes cannot dispatch, is a suspended Job to copy per dispatch. The pod itself comes
from :mod:`hclgpu.backends.kubernetes.pod`. Every job and group field is either used or
reported where it is written (HG301 left out, HG302 approximated).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hclgpu.backends.containers import as_strings, network_ports, port_number
from hclgpu.backends.kubernetes.configmaps import config_map
from hclgpu.backends.kubernetes.cron import kubernetes_schedule
from hclgpu.backends.kubernetes.names import dns_label
from hclgpu.backends.kubernetes.objects import (
    ANNOTATION_PREFIX,
    Kind,
    Obj,
    container_port_name,
    group_name,
    job_name,
    label_value,
    naming,
    object_name,
    pod_labels,
    selector_labels,
    workload_kind,
)
from hclgpu.backends.kubernetes.options import kubernetes_options
from hclgpu.backends.kubernetes.pod import pod_template
from hclgpu.backends.kubernetes.reporting import approximated, is_set, report_leftovers, unsupported
from hclgpu.backends.kubernetes.tasks import note_static_port, seconds, translatable
from hclgpu.backends.target import Lowering
from hclgpu.ir import models as m

if TYPE_CHECKING:
    from hclgpu.backends.kubernetes.devices import DeviceLowering

API_VERSIONS: dict[Kind, str] = {
    "Deployment": "apps/v1",
    "DaemonSet": "apps/v1",
    "Job": "batch/v1",
    "CronJob": "batch/v1",
}

_JOB_FIELDS = (
    "namespace",
    "id",
    "name",
    "type",
    "datacenters",
    "node_pool",
    "constraints",
    "affinities",
    "task_groups",
    "update",
    "spreads",
    "periodic",
    "parameterized_job",
    "meta",
)
_GROUP_FIELDS = (
    "count",
    "constraints",
    "affinities",
    "tasks",
    "spreads",
    "restart_policy",
    "update",
    "networks",
    "meta",
    "services",
    "ephemeral_disk",
)
_SERVICE_FIELDS = ("name", "port_label", "checks", "check_restart", "provider", "task_name")


def lower_job(job: m.Job, ctx: Lowering) -> list[dict[str, Any]]:
    """Every Kubernetes object of ``job``, group by group, in a stable order."""
    kind = workload_kind(job)
    _report_job(job, kind, ctx)
    objects: list[Obj] = []
    with naming(job):
        for group in job.task_groups or []:
            objects += _lower_group(job, group, kind, ctx)
    if not objects:
        unsupported(ctx, f'no group of job "{job_name(job)}" becomes a workload; the job is left out', job)
    namespace = _namespace(job, ctx)
    if namespace:
        for obj in objects:
            meta = obj["metadata"]
            obj["metadata"] = {"name": meta["name"], "namespace": namespace, **meta}
    return objects


def _namespace(job: m.Job, ctx: Lowering) -> str | None:
    """The render option, else the job's Nomad namespace as a DNS label."""
    namespace = kubernetes_options(ctx).namespace
    if namespace:
        return namespace
    if not job.namespace:
        return None
    namespace = dns_label(job.namespace)
    if namespace != job.namespace:
        approximated(ctx, f'namespace "{job.namespace}" is the Kubernetes namespace `{namespace}`', job)
    return namespace


# --------------------------------------------------------------------------- job


def _report_job(job: m.Job, kind: Kind, ctx: Lowering) -> None:
    """What the job's own fields become, or why they cannot."""
    name = job_name(job)
    if label_value(name) != name:
        value = label_value(name) or "job"
        approximated(ctx, f'job "{name}" is labelled app.kubernetes.io/name={value} (a label value)', job)
    _report_kind(job, kind, ctx)
    if job.datacenters and job.datacenters != ["*"]:
        unsupported(
            ctx,
            f"datacenters {', '.join(job.datacenters)}: the workload runs anywhere in its cluster",
            job,
            help="add a constraint on ${node.datacenter} to pin zones (topology.kubernetes.io/zone)",
        )
    if job.node_pool not in (None, "", "default", "all"):
        unsupported(ctx, f'node_pool "{job.node_pool}" has no Kubernetes equivalent; it is left out', job)
    report_leftovers(ctx, job, _JOB_FIELDS, f'job "{name}"')


def _report_kind(job: m.Job, kind: Kind, ctx: Lowering) -> None:
    """Where the job type and the chosen workload kind part ways."""
    if job.type not in (None, "service", "batch", "system", "sysbatch"):
        unsupported(ctx, f'job type "{job.type}" is unknown; it is rendered as a {kind}', job)
    if job.type == "sysbatch" and kind == "DaemonSet":
        message = "a sysbatch job runs once per node; DaemonSet pods restart after they exit"
        approximated(ctx, f"{message} (restartPolicy: Always)", job)
    elif job.type == "sysbatch":
        approximated(ctx, f"a sysbatch job runs once per node; a {kind} runs `count` pods", job)
    if job.parameterized_job is not None:
        unsupported(
            ctx,
            "Kubernetes has no dispatch: the parameterized job is a suspended Job (spec.suspend: true); "
            "payload and dispatch meta are not passed",
            job.parameterized_job,
            help="copy the Job per dispatch, set its env and unsuspend it",
        )
    if job.periodic is not None and kind != "CronJob":
        where = "a parameterized" if job.parameterized_job is not None else f"a {job.type or 'service'}"
        unsupported(ctx, f"`periodic` in {where} job: a {kind} has no schedule", job.periodic)


# --------------------------------------------------------------------------- group


def _lower_group(job: m.Job, group: m.TaskGroup, kind: Kind, ctx: Lowering) -> list[Obj]:
    """ConfigMap, claim templates, workload, Service; nothing when no task is a container."""
    _report_name(job, group, ctx)
    devices = _devices(job, group, ctx)
    pod = pod_template(job, group, ctx, devices)
    if not pod["spec"]["containers"]:
        unsupported(ctx, f'no task of group "{group.name}" becomes a container; the group is left out', group)
        return []
    _report_group(job, group, kind, ctx)
    if kind == "CronJob" and not _schedulable(job, ctx):
        unsupported(
            ctx, f'group "{group.name}" gets no CronJob (its cron is refused); the group is left out', group
        )
        return []
    objects: list[Obj] = []
    templates = config_map(job, group, ctx)
    if templates is not None:
        objects.append(templates)
    for lowered in devices.values():
        objects += lowered.claim_templates
    objects.append(_workload(kind, job, group, pod, ctx))
    service = group_service(job, group, ctx)
    if service is not None:
        objects.append(service)
    return objects


def _report_name(job: m.Job, group: m.TaskGroup, ctx: Lowering) -> None:
    """HG302 when the group's objects are not named ``<job>-<group>``, saying why."""
    named = group_name(job, group)
    where = f'group "{group.name}" is named `{named.name}`'
    if named.owner is not None:
        message = f'{where} (metadata.name, unique in the job: `{named.base}` is group "{named.owner}")'
        approximated(ctx, message, group)
    elif named.name != f"{job_name(job)}-{group.name}":
        approximated(ctx, f"{where} (metadata.name, a DNS-1123 label)", group)


def _devices(job: m.Job, group: m.TaskGroup, ctx: Lowering) -> dict[str, DeviceLowering]:
    """The device lowering of each container task that asks for devices, by task name; the
    claim templates of a renamed group carry its suffix too."""
    tasks = [t for t in group.tasks or [] if translatable(t) and t.resources and t.resources.devices]
    if not tasks:
        return {}
    from hclgpu.backends.kubernetes.devices import lower_devices

    named = f"{group.name or ''}{group_name(job, group).suffix}"
    return {t.name: lower_devices(job_name(job), named, t, ctx) for t in tasks}


def _report_group(job: m.Job, group: m.TaskGroup, kind: Kind, ctx: Lowering) -> None:
    where = f'group "{group.name}"'
    if kind == "DaemonSet" and group.count not in (None, 1):
        unsupported(ctx, f"count = {group.count} in {where}: a DaemonSet runs one pod per node", group)
    for network in group.networks or []:
        if network.mode not in ("", "host", "bridge"):
            unsupported(ctx, f'network mode "{network.mode}": pods use the cluster network', network)
        report_leftovers(ctx, network, ("mode", "reserved_ports", "dynamic_ports"), f"the network of {where}")
        for port in [*(network.reserved_ports or []), *(network.dynamic_ports or [])]:
            report_leftovers(ctx, port, ("value", "to"), f'port "{port.label}"')
    _report_unpublished(group, ctx)
    report_leftovers(ctx, group, _GROUP_FIELDS, where)


def _report_unpublished(group: m.TaskGroup, ctx: Lowering) -> None:
    """HG302 for a group port no container task lists in its `ports`: the pod's network has
    it, but no containerPort names it (and a static one is not reserved on the node)."""
    listed = {
        label
        for task in group.tasks or []
        if translatable(task)
        for label in as_strings((task.config or {}).get("ports"))
    }
    for label, port in network_ports(group).items():
        if label not in listed:
            numbers = ", ".join(f"`{k} = {v}`" for k, v in (("static", port.value), ("to", port.to)) if v)
            approximated(
                ctx,
                f'port "{label}"{f" ({numbers})" if numbers else ""} is in no task\'s `ports`: no '
                "containerPort names it (the pod's network still has the port)",
                port,
            )


def meta_annotations(job: m.Job, group: m.TaskGroup, ctx: Lowering) -> dict[str, str]:
    """Job and group meta (the group's wins, as in Nomad) as ``hclgpu.io/meta.<key>``."""
    out: dict[str, str] = {}
    origin: dict[str, str] = {}
    for owner, meta in ((job, job.meta), (group, group.meta)):
        for key, value in sorted((meta or {}).items()):
            name = re.sub(r"[^A-Za-z0-9._-]+", "-", f"meta.{key}")[:63].rstrip("-_.")
            annotation = ANNOTATION_PREFIX + name
            if origin.get(annotation, key) != key:
                unsupported(
                    ctx, f'meta "{key}" collides with meta "{origin[annotation]}" as `{annotation}`', owner
                )
                continue
            if name != f"meta.{key}":
                approximated(ctx, f'meta "{key}" is the annotation `{annotation}`', owner)
            out[annotation] = str(value)
            origin[annotation] = key
    return out


# --------------------------------------------------------------------------- workloads


def _workload(kind: Kind, job: m.Job, group: m.TaskGroup, pod: Obj, ctx: Lowering) -> Obj:
    """The controller object; meta annotations go on it and on its pods (for the downward API)."""
    metadata: Obj = {"name": object_name(job, group), "labels": pod_labels(job, group)}
    notes = meta_annotations(job, group, ctx)
    if notes:
        metadata["annotations"] = notes
        pod["metadata"]["annotations"] = dict(notes)
    if kind == "Deployment":
        spec = _deployment(job, group, pod, ctx)
    elif kind == "DaemonSet":
        spec = _daemon_set(job, group, pod, ctx)
    elif kind == "CronJob":
        spec = _cron_job(job, group, pod, ctx)
    else:
        spec = _job(job, group, pod, ctx)
    return {"apiVersion": API_VERSIONS[kind], "kind": kind, "metadata": metadata, "spec": spec}


def _update(job: m.Job, group: m.TaskGroup) -> dict[str, tuple[Any, m.UpdateStrategy]]:
    """The update fields in effect (the group's over the job's) with the block each is from."""
    out: dict[str, tuple[Any, m.UpdateStrategy]] = {}
    for block in (job.update, group.update):
        for name in m.UpdateStrategy.model_fields:
            value = getattr(block, name, None)
            if block is not None and name != "span" and value is not None:
                out[name] = (value, block)
    return out


def _report_update(
    fields: Mapping[str, tuple[Any, m.UpdateStrategy]], used: tuple[str, ...], target: str, ctx: Lowering
) -> None:
    """HG302 for the update fields the controller's update strategy cannot say."""
    for name, (value, block) in fields.items():
        if name in used or not is_set(value) or (name == "health_check" and value == "checks"):
            continue
        approximated(
            ctx, f"`{name}` of the update block has no equivalent in the {target}; it is ignored", block
        )


SERVICE_UPDATE = {
    "max_parallel": 1,
    "min_healthy_time": 10 * 1_000_000_000,
    "progress_deadline": 600 * 1_000_000_000,
}
"""What Nomad's API gives a service job's update strategy that the job does not set: the
whole `DefaultUpdateStrategy` without an update block, its fields one by one with one
(nomad api/jobs.go:612-624, 715-755 and 1205-1209 at v1.10.0): one allocation at a time,
each healthy for 10 s, within 10 minutes. Without it a Deployment would surge 25%, and each
rollout of a GPU service would need a spare GPU."""


def _deployment(job: m.Job, group: m.TaskGroup, pod: Obj, ctx: Lowering) -> Obj:
    """Nomad replaces max_parallel allocations at a time, stopping before starting (maxSurge 0)."""
    spec: Obj = {"replicas": 1 if group.count is None else group.count}
    spec["selector"] = {"matchLabels": selector_labels(job, group)}
    defaults: dict[str, tuple[Any, Any]] = {name: (value, None) for name, value in SERVICE_UPDATE.items()}
    fields = {**defaults, **_update(job, group)}
    parallel = fields.get("max_parallel", (None, None))[0]
    if parallel is not None and parallel > 0:
        spec["strategy"] = {
            "type": "RollingUpdate",
            "rollingUpdate": {"maxUnavailable": parallel, "maxSurge": 0},
        }
    elif parallel == 0:
        spec["strategy"] = {"type": "Recreate"}
        approximated(ctx, "max_parallel = 0 → spec.strategy.type: Recreate", fields["max_parallel"][1])
    ready = seconds(fields["min_healthy_time"][0]) if "min_healthy_time" in fields else 0
    if ready:
        spec["minReadySeconds"] = ready
    if "progress_deadline" in fields and fields["progress_deadline"][0] > 0:
        deadline = seconds(fields["progress_deadline"][0])
        if deadline > ready:
            spec["progressDeadlineSeconds"] = deadline
        else:
            unsupported(ctx, "progress_deadline must exceed min_healthy_time", fields["progress_deadline"][1])
    used = ("max_parallel", "min_healthy_time", "progress_deadline")
    _report_update(fields, used, "Deployment's rolling update (spec.strategy)", ctx)
    spec["template"] = pod
    return spec


def _daemon_set(job: m.Job, group: m.TaskGroup, pod: Obj, ctx: Lowering) -> Obj:
    """One pod per node; max_parallel nodes are updated at a time."""
    spec: Obj = {"selector": {"matchLabels": selector_labels(job, group)}}
    fields = _update(job, group)
    parallel = fields.get("max_parallel", (None, None))[0]
    if parallel:
        spec["updateStrategy"] = {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": parallel}}
    elif parallel == 0:
        message = "max_parallel = 0: the DaemonSet keeps its default rolling update (maxUnavailable 1)"
        approximated(ctx, message, fields["max_parallel"][1])
    if fields.get("min_healthy_time", (0, None))[0]:
        spec["minReadySeconds"] = seconds(fields["min_healthy_time"][0])
    used = ("max_parallel", "min_healthy_time")
    _report_update(fields, used, "DaemonSet's rolling update (spec.updateStrategy)", ctx)
    spec["template"] = pod
    return spec


BATCH_RESTART_ATTEMPTS = 3
"""Nomad's restart attempts for a batch group (defaultBatchJobRestartPolicy)."""


def _job_spec(job: m.Job, group: m.TaskGroup, pod: Obj, ctx: Lowering) -> Obj:
    """count → parallelism and completions; restart attempts → backoffLimit, Nomad's 3 for a
    batch group that sets none (api/tasks.go:612-623 and 660-668 at v1.10.0), where a Job
    would retry 6 times."""
    count = 1 if group.count is None else group.count
    spec: Obj = {"parallelism": count, "completions": count}
    policy = group.restart_policy
    attempts = policy.attempts if policy is not None and policy.attempts is not None else None
    spec["backoffLimit"] = BATCH_RESTART_ATTEMPTS if attempts is None else attempts
    for block in (job.update, group.update):
        if block is not None:
            unsupported(ctx, "a batch/v1 Job has no rolling update; the update block is left out", block)
    spec["template"] = pod
    return spec


def _job(job: m.Job, group: m.TaskGroup, pod: Obj, ctx: Lowering) -> Obj:
    spec = _job_spec(job, group, pod, ctx)
    return {"suspend": True, **spec} if job.parameterized_job is not None else spec


def _schedulable(job: m.Job, ctx: Lowering) -> bool:
    """Whether the job's first cron is a CronJob schedule; an error at the cron if not."""
    periodic = job.periodic
    crons = [
        *([periodic.spec] if periodic and periodic.spec else []),
        *(periodic.specs or [] if periodic else []),
    ]
    if not crons or periodic is None:
        return True
    schedule, why = kubernetes_schedule(crons[0])
    if schedule is None:
        ctx.refused(
            f'cron "{crons[0]}" cannot be a CronJob schedule: {why}; the group gets no CronJob',
            periodic,
            help="write the times as a five-field cron (see hclgpu/backends/kubernetes/cron.py)",
        )
    return schedule is not None


def _cron_job(job: m.Job, group: m.TaskGroup, pod: Obj, ctx: Lowering) -> Obj:
    """The first cron is the schedule; Kubernetes has one per CronJob."""
    periodic = job.periodic
    assert periodic is not None
    crons = [*([periodic.spec] if periodic.spec else []), *(periodic.specs or [])]
    for extra in crons[1:]:
        unsupported(ctx, f'a CronJob has one schedule: cron "{extra}" is left out', periodic)
    schedule = kubernetes_schedule(crons[0])[0] if crons else None
    spec: Obj = {"schedule": schedule or "@yearly"}
    if not crons:
        unsupported(ctx, "periodic has no cron: the CronJob is suspended", periodic)
    elif schedule != crons[0].strip():
        approximated(ctx, f'cron "{crons[0]}" → schedule "{schedule}": the same times', periodic)
    if periodic.time_zone:
        spec["timeZone"] = periodic.time_zone
    if periodic.prohibit_overlap:
        spec["concurrencyPolicy"] = "Forbid"
    if periodic.enabled is False or not crons:
        spec["suspend"] = True
    labels = {"labels": pod_labels(job, group)}
    spec["jobTemplate"] = {"metadata": labels, "spec": _job_spec(job, group, pod, ctx)}
    return spec


# --------------------------------------------------------------------------- service


def _services(group: m.TaskGroup) -> list[m.Service]:
    tasks = [t for t in group.tasks or [] if translatable(t)]
    return [*(group.services or []), *(s for t in tasks for s in t.services or [])]


def group_service(job: m.Job, group: m.TaskGroup, ctx: Lowering) -> Obj | None:
    """One ClusterIP Service with the ports of the group's services (None when none has a port)."""
    named = group_name(job, group)
    name = named.name
    if not name[0].isalpha():  # the suffix stays whole: it is what tells the Services apart
        renamed = dns_label(f"svc-{named.base}", 63 - len(named.suffix)) + named.suffix
        approximated(ctx, f'the Service of group "{group.name}" is `{renamed}` (a DNS-1035 label)', group)
        name = renamed
    ports: list[Obj] = []
    for service in _services(group):
        report_leftovers(ctx, service, _SERVICE_FIELDS, f'service "{service.name}"')
        entry = _service_port(service, group, ctx)
        if entry is None:
            if service.name:
                unsupported(
                    ctx,
                    f'service "{service.name}" has no port a Service can target; no Service is named for it',
                    service,
                )
            continue
        if all(p["name"] != entry["name"] for p in ports):
            ports.append(entry)
        if service.name and service.name != name:
            approximated(
                ctx,
                f'service "{service.name}" is the Kubernetes Service `{name}`: clients must look that '
                "name up",
                service,
            )
    if not ports:
        return None
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": name, "labels": pod_labels(job, group)},
        "spec": {"type": "ClusterIP", "selector": selector_labels(job, group), "ports": ports},
    }


def _service_port(service: m.Service, group: m.TaskGroup, ctx: Lowering) -> Obj | None:
    """Service port: the static port when there is one, else the container's; target: the container's."""
    label = service.port_label
    if not label:
        return None
    if label.isdigit():
        return {"name": container_port_name(f"port-{label}"), "port": int(label), "targetPort": int(label)}
    port = network_ports(group).get(label)
    if port is None:
        unsupported(ctx, f'port "{label}" of service "{service.name}" is not in the group network', service)
        return None
    target = port_number(port)
    if target is None:
        unsupported(ctx, f'port "{label}" has no fixed number: the Service cannot target it', port)
        return None
    if port.value > 0:
        note_static_port(ctx, port)
    return {"name": container_port_name(label), "port": port.value or target, "targetPort": target}
