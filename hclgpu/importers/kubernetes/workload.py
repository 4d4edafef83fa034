"""A workload read back as a task group: the controller's fields (replicas, update strategy,
backoff, schedule) and its pod (containers as tasks, placement, services, templates).

The inverse of :mod:`hclgpu.backends.kubernetes.workloads`: a Deployment is a service job's
group, a Job a batch group (suspended: parameterized), a CronJob a periodic batch group, a
DaemonSet a system group; a bare Pod is a group of a service or batch job by its restart
policy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hclgpu.importers.common import whole_number
from hclgpu.importers.kubernetes.containers import read_container
from hclgpu.importers.kubernetes.context import PodContext
from hclgpu.importers.kubernetes.placement import PodReader, read_placement
from hclgpu.importers.kubernetes.probes import SECOND
from hclgpu.importers.kubernetes.services import attach_checks, read_service, selects
from hclgpu.importers.kubernetes.source import Findings, Manifest, Path, as_dict

POD_PATHS: dict[str, Path] = {
    "Deployment": ("spec", "template"),
    "StatefulSet": ("spec", "template"),
    "ReplicaSet": ("spec", "template"),
    "DaemonSet": ("spec", "template"),
    "Job": ("spec", "template"),
    "CronJob": ("spec", "jobTemplate", "spec", "template"),
    "Pod": (),
}
"""Where each workload kind keeps its pod (metadata and spec)."""
MANAGED_LABELS = ("app.kubernetes.io/name", "app.kubernetes.io/instance", "app.kubernetes.io/managed-by")
META_PREFIX = "hclgpu.io/meta."


@dataclass(slots=True)
class Objects:
    """The input's objects that workloads refer to, by name (Services by selector)."""

    services: list[Manifest] = field(default_factory=list)
    config_maps: dict[str, Manifest] = field(default_factory=dict)
    claim_templates: dict[str, Manifest] = field(default_factory=dict)
    claims: dict[str, Manifest] = field(default_factory=dict)


@dataclass(slots=True)
class GroupRead:
    """A group in API JSON, and what belongs to the job rather than to it."""

    group: dict[str, Any]
    job_type: str
    periodic: dict[str, Any] | None = None
    parameterized: bool = False
    job_constraints: list[dict[str, Any]] = field(default_factory=list)


def pod_templates(manifest: Manifest) -> list[Path]:
    """Where a workload keeps its pod (one place per kind, :data:`POD_PATHS`), or where an
    operator's kind (RayCluster, RayJob, PyTorchJob, LeaderWorkerSet, ...) keeps its pod
    templates: every mapping under ``spec`` whose own ``spec`` lists ``containers``. None for
    an object that runs nothing.

    An operator's kind is not a workload Kubernetes itself runs, but its pods are what the
    operator starts, so each template is read as a group; what the operator adds is not."""
    if manifest.kind in POD_PATHS:
        return [POD_PATHS[manifest.kind]]
    found: list[Path] = []
    _find_templates(manifest.peek("spec"), ("spec",), found)
    return found


def _find_templates(value: Any, path: Path, found: list[Path]) -> None:
    if len(path) > _TEMPLATE_DEPTH:
        return
    if isinstance(value, dict):
        if isinstance(as_dict(value.get("spec")).get("containers"), list):
            found.append(path)
            return
        for key, child in value.items():
            _find_templates(child, (*path, str(key)), found)
    elif isinstance(value, list):
        for index, child in enumerate(value):
            _find_templates(child, (*path, index), found)


_TEMPLATE_DEPTH = 8
"""How deep below ``spec`` a pod template is looked for (RayService's worker pods are 5 down)."""


def group_name(workload: Manifest, pod: Path, job: str) -> str:
    """The workload's name less the job name prefix the back end adds; for an operator's
    kind, ``<name>-<where>``: the template's own ``groupName`` (Ray) or its path's last keys."""
    name = workload.name or workload.kind.lower()
    if workload.kind not in POD_PATHS:
        name = _operator_group_name(workload, pod)
    return name.removeprefix(f"{job}-") or name


def _operator_group_name(workload: Manifest, pod: Path) -> str:
    given = workload.take(*pod[:-1], "groupName") if pod[-1] == "template" else None
    parts = [str(p) for p in pod if p not in ("spec", "template")][-2:]
    where = str(given) if isinstance(given, str) and given else "-".join(parts)
    name = "-".join(filter(None, [workload.name, where.lower()]))
    return "".join(c if c.isalnum() or c == "-" else "-" for c in name) or "group"


def job_type(workload: Manifest, pod: Path) -> str:
    kind = workload.kind
    if kind not in POD_PATHS:  # an operator's pods: batch when they run to completion
        policy = workload.peek(*pod, "spec", "restartPolicy")
        return "batch" if policy in ("Never", "OnFailure") else "service"
    if kind == "DaemonSet":
        return "system"
    if kind in ("Job", "CronJob"):
        return "batch"
    if kind == "Pod":
        return "service" if workload.peek("spec", "restartPolicy") in (None, "Always") else "batch"
    return "service"


def read_group(
    workload: Manifest,
    group_name: str,
    objects: Objects,
    findings: Findings,
    mhz: int,
    pod: Path,
) -> GroupRead:
    """The group of the pod at ``pod`` in ``workload`` (one of :func:`pod_templates`)."""
    for key in ("apiVersion", "kind", ("metadata", "name"), ("metadata", "namespace")):
        workload.take(*((key,) if isinstance(key, str) else key))
    read = GroupRead({"Name": group_name}, job_type(workload, pod))
    ctx = PodContext(
        workload, (*pod, "spec"), findings, objects.config_maps, objects.claim_templates, objects.claims, mhz
    )
    _controller(workload, pod, read, findings)
    labels = _labels(workload, pod, findings)
    _pod(ctx, read, labels, objects, findings)
    meta = {**_annotations(workload, pod, findings), **ctx.sharing}
    if meta:
        read.group["Meta"] = meta
    if read.group.get("Count") == 1:
        del read.group["Count"]  # Nomad's default
    return read


_HOST_FIELDS = {"hostNetwork": "network_mode", "hostIPC": "ipc_mode", "hostPID": "pid_mode"}
"""Pod fields that are docker driver options of every task (the back end's host.py)."""


def _host(ctx: PodContext, tasks: list[dict[str, Any]]) -> None:
    """Host namespaces and the runtime class, which the docker driver sets per task."""
    options: dict[str, Any] = {}
    for pod_field, option in _HOST_FIELDS.items():
        if ctx.peek(pod_field) is True:
            ctx.take(pod_field)
            options[option] = "host"
    if options.get("network_mode") and ctx.peek("dnsPolicy") == "ClusterFirstWithHostNet":
        ctx.take("dnsPolicy")  # what a host-network pod needs to resolve cluster names
    dns = ctx.peek("dnsConfig")
    if ctx.peek("dnsPolicy") == "None" and isinstance(dns, dict):
        ctx.take("dnsPolicy")
        ctx.take("dnsConfig")
        for key, option in (("nameservers", "dns_servers"), ("searches", "dns_search_domains")):
            if dns.get(key):
                options[option] = [str(v) for v in dns[key]]
        if dns.get("options"):
            written = [
                f"{o.get('name')}:{o['value']}" if "value" in o else str(o.get("name"))
                for o in dns["options"]
            ]
            options["dns_options"] = written
    runtime = ctx.peek("runtimeClassName")
    if isinstance(runtime, str) and runtime:
        ctx.take("runtimeClassName")
        options["runtime"] = runtime
    for task in tasks:
        task["Config"].update(options)


def _pod(
    ctx: PodContext, read: GroupRead, labels: dict[str, str], objects: Objects, findings: Findings
) -> None:
    group = read.group
    tasks = [
        read_container(ctx, ("initContainers", i), ctx.peek("initContainers", i, "restartPolicy") == "Always")
        for i, _ in enumerate(ctx.items("initContainers"))
    ]
    for index, _ in enumerate(ctx.items("initContainers")):
        ctx.take("initContainers", index, "restartPolicy")
    tasks += [read_container(ctx, ("containers", i), None) for i, _ in enumerate(ctx.items("containers"))]
    if ctx.peek("automountServiceAccountToken") is False:
        ctx.take("automountServiceAccountToken")  # a Nomad task gets no API token either
    if ctx.peek("securityContext", "seccompProfile") == {"type": "RuntimeDefault"}:
        ctx.take("securityContext", "seccompProfile")  # docker's default profile, as in Nomad
        if ctx.peek("securityContext") == {}:
            ctx.take("securityContext")
    _host(ctx, tasks)
    grace = whole_number(ctx.take("terminationGracePeriodSeconds"), 0, 10**9)
    if grace is not None:
        for task in tasks:
            task["KillTimeout"] = grace * SECOND
    _restart(ctx, read)
    devices = [d for t in tasks for d in t["Resources"].get("Devices", [])]
    placement = read_placement(PodReader(ctx.workload, ctx.spec, findings, devices, labels))
    services = [
        s for svc in objects.services if selects(svc, labels) for s in read_service(svc, ctx, findings)
    ]
    attach_checks(tasks, services)
    if ctx.ports:
        ports = list(ctx.ports.values())
        network: dict[str, Any] = {"Mode": "bridge"}
        reserved = [p for p in ports if p.get("Value")]
        dynamic = [p for p in ports if not p.get("Value")]
        if reserved:
            network["ReservedPorts"] = reserved
        if dynamic:
            network["DynamicPorts"] = dynamic
        group["Networks"] = [network]
    if services:
        group["Services"] = services
    for key, value in (
        ("Constraints", placement.constraints),
        ("Affinities", placement.affinities),
        ("Spreads", placement.spreads),
    ):
        if value:
            group[key] = value
    read.job_constraints += placement.job_constraints
    ctx.sharing.update(placement.sharing)
    if ctx.disk_mb is not None:
        group["EphemeralDisk"] = {"SizeMB": ctx.disk_mb}
    group["Tasks"] = tasks


def _restart(ctx: PodContext, read: GroupRead) -> None:
    """The pod restart policy says what the controller cannot: Never is `attempts = 0`."""
    policy = ctx.take("restartPolicy")
    if policy != "Never" or read.job_type != "batch":
        return
    restart = read.group.setdefault("RestartPolicy", {})
    if restart.get("Attempts", 0) != 0:
        ctx.approximated(
            ("restartPolicy",), "restartPolicy Never with a backoffLimit: Nomad restarts in place"
        )
    elif "Attempts" not in restart:
        restart["Attempts"] = 0


def _labels(workload: Manifest, pod: Path, findings: Findings) -> dict[str, str]:
    """The pod's labels (what Services select); labels Nomad has no place for are reported."""
    labels = workload.take(*pod, "metadata", "labels")
    labels = {str(k): str(v) for k, v in labels.items()} if isinstance(labels, dict) else {}
    for path in (("metadata", "labels"), ("spec", "selector"), ("spec", "jobTemplate", "metadata", "labels")):
        workload.take(*path)
    own = workload.peek("metadata", "labels")
    own_keys = own if isinstance(own, dict) else {}
    only_own = sorted(str(k) for k in own_keys if k not in labels and k not in MANAGED_LABELS)
    if only_own:
        message = f"labels {', '.join(only_own)} are not kept: a Nomad job has none"
        findings.approximated(workload, ("metadata", "labels"), message)
    extra = sorted(k for k in labels if k not in MANAGED_LABELS)
    if extra:
        findings.approximated(
            workload,
            (*pod, "metadata", "labels"),
            f"labels {', '.join(extra)} are not kept: Nomad groups are found by job and group name",
        )
    return labels


def _annotations(workload: Manifest, pod: Path, findings: Findings) -> dict[str, str]:
    """`hclgpu.io/meta.<key>` annotations (on the workload and its pods) as meta; other
    annotations kept as meta under their own key."""
    meta: dict[str, str] = {}
    for path in (("metadata", "annotations"), (*pod, "metadata", "annotations")):
        notes = workload.take(*path)
        for key, value in (notes or {}).items() if isinstance(notes, dict) else ():
            name = key.removeprefix(META_PREFIX)
            if name == key and key not in meta:
                findings.approximated(workload, (*path, key), f"annotation `{key}` is kept as meta")
            meta.setdefault(name, str(value))
    return meta


# --------------------------------------------------------------------------- controllers


def _controller(workload: Manifest, pod: Path, read: GroupRead, findings: Findings) -> None:
    kind = workload.kind
    if kind in ("Deployment", "StatefulSet", "ReplicaSet"):
        read.group["Count"] = _int(workload.take("spec", "replicas"), 1)
        _deployment_update(workload, read, findings)
    elif kind == "DaemonSet":
        _daemon_update(workload, read, findings)
    elif kind == "Job":
        _job(workload, ("spec",), read, findings)
    elif kind == "CronJob":
        _cron(workload, read, findings)
    elif pod and pod[-1] == "template":  # an operator's template: its `replicas` stand beside it
        read.group["Count"] = _int(workload.take(*pod[:-1], "replicas"), 1)
    else:
        read.group["Count"] = 1


def _int(value: Any, default: int) -> int:
    found = whole_number(value)
    return default if found is None else found


def _deployment_update(workload: Manifest, read: GroupRead, findings: Findings) -> None:
    """RollingUpdate (maxSurge 0) is max_parallel; Recreate is max_parallel 0."""
    update: dict[str, Any] = {}
    strategy = as_dict(workload.take("spec", "strategy"))
    if strategy.get("type") == "Recreate":
        update["MaxParallel"] = 0
    elif isinstance(strategy.get("rollingUpdate"), dict):
        rolling = strategy["rollingUpdate"]
        update["MaxParallel"] = _parallel(workload, rolling.get("maxUnavailable"), read, findings)
        if rolling.get("maxSurge") not in (0, "0", "0%", None):
            findings.approximated(
                workload,
                ("spec", "strategy", "rollingUpdate", "maxSurge"),
                "Nomad stops an allocation before it starts its replacement: maxSurge is not kept",
            )
    _timing(workload, update, ("spec", "minReadySeconds"), "MinHealthyTime")
    _timing(workload, update, ("spec", "progressDeadlineSeconds"), "ProgressDeadline")
    if update:
        read.group["Update"] = update


def _parallel(workload: Manifest, value: Any, read: GroupRead, findings: Findings) -> int:
    if whole_number(value) is not None:
        return int(value)
    count = _int(read.group.get("Count"), 1)
    if isinstance(value, str) and value.endswith("%") and value[:-1].isdigit() and len(value) <= 4:
        parallel = max(1, int(value[:-1]) * count // 100)
    else:
        parallel = max(1, count // 4)
    findings.approximated(
        workload,
        ("spec", "strategy", "rollingUpdate", "maxUnavailable"),
        f"maxUnavailable {value or '25%'} is max_parallel = {parallel} at {count} replicas",
    )
    return parallel


def _timing(workload: Manifest, update: dict[str, Any], path: Path, name: str) -> None:
    seconds = whole_number(workload.take(*path), 1, 10**9)
    if seconds is not None:
        update[name] = seconds * SECOND


def _daemon_update(workload: Manifest, read: GroupRead, findings: Findings) -> None:
    update: dict[str, Any] = {}
    strategy = as_dict(workload.take("spec", "updateStrategy"))
    if strategy.get("type") == "OnDelete":
        findings.left_out(
            workload, ("spec", "updateStrategy"), "Nomad has no on-delete update: it is not kept"
        )
    parallel = whole_number(as_dict(strategy.get("rollingUpdate")).get("maxUnavailable"))
    if parallel is not None:
        update["MaxParallel"] = parallel
    _timing(workload, update, ("spec", "minReadySeconds"), "MinHealthyTime")
    if update:
        read.group["Update"] = update


def _job(workload: Manifest, spec: Path, read: GroupRead, findings: Findings) -> None:
    """parallelism and completions are the count; backoffLimit the restart attempts."""
    parallelism = workload.take(*spec, "parallelism")
    completions = workload.take(*spec, "completions")
    count = _int(parallelism, _int(completions, 1))
    if isinstance(completions, int) and completions != count:
        findings.approximated(
            workload,
            (*spec, "completions"),
            f"Nomad runs `count` = {count} allocations once: {completions} completions are not kept",
        )
    read.group["Count"] = count
    backoff = whole_number(workload.take(*spec, "backoffLimit"))
    if backoff is not None:
        read.group["RestartPolicy"] = {"Attempts": backoff}
    if workload.take(*spec, "suspend"):
        read.parameterized = True
        findings.approximated(
            workload, (*spec, "suspend"), "a suspended Job is a parameterized job, started by dispatch"
        )


def _cron(workload: Manifest, read: GroupRead, findings: Findings) -> None:
    periodic: dict[str, Any] = {}
    schedule = workload.take("spec", "schedule")
    if isinstance(schedule, str) and schedule:
        periodic["Specs"] = [schedule]
    zone = workload.take("spec", "timeZone")
    if zone:
        periodic["TimeZone"] = str(zone)
    policy = workload.take("spec", "concurrencyPolicy")
    if policy == "Forbid":
        periodic["ProhibitOverlap"] = True
    elif policy == "Replace":
        findings.approximated(
            workload, ("spec", "concurrencyPolicy"), "Nomad never replaces a running launch"
        )
    if workload.take("spec", "suspend"):
        periodic["Enabled"] = False
    read.periodic = periodic
    _job(workload, ("spec", "jobTemplate", "spec"), read, findings)
