"""The pod a Nomad task group becomes: its containers, volumes, probes and placement.

One container per docker/podman task; prestart tasks become init containers (native
sidecars when `sidecar = true`); group network ports become container ports; service checks
become probes; node constraints, affinities and spreads become node affinity and topology
spread constraints. Whatever a field cannot say in Kubernetes is reported where it is
written: HG301 when it is left out, HG302 when it is translated only approximately.
Nothing is dropped silently: every block ends with a walk over the fields not translated.

Devices are lowered by :mod:`hclgpu.backends.kubernetes.devices`; the pod only places its
result (resources, node affinity, tolerations, DRA claims).
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from hclgpu.backends.kubernetes.names import dns_label, port_name
from hclgpu.backends.target import Lowering
from hclgpu.ir import models as m
from hclgpu.ir.base import Hcl, Node

if TYPE_CHECKING:
    from hclgpu.backends.kubernetes.devices import DeviceLowering

Obj = dict[str, Any]
Kind = Literal["Deployment", "Job", "CronJob", "DaemonSet"]

MANAGED_BY = "hclgpu"
ANNOTATION_PREFIX = "hclgpu.io/"
RENDERED_DRIVERS = frozenset({"docker", "podman"})
DEFAULT_CPU_MHZ = 100
"""Nomad reserves 100 MHz when a task sets no `cpu` (api.Resources.Canonicalize)."""
DEFAULT_MEMORY_MB = 300
"""Nomad reserves, and enforces, 300 MiB when a task sets no `memory`."""
TEMPLATES_VOLUME = "templates"
_SECOND = 1_000_000_000


# --------------------------------------------------------------------------- reporting


def _said(ctx: Lowering, code: str, message: str, node: Node | None) -> bool:
    """Whether this exact diagnostic is already in the sink: a job-level construct is read
    once per group, and is reported once."""
    span = node.span if node is not None else None
    return any(
        d.code == code and d.message == message and d.span == span and d.source is ctx.source
        for d in ctx.sink.items
    )


def unsupported(ctx: Lowering, message: str, node: Node | None, help: str | None = None) -> None:
    """HG301 at ``node``, once."""
    if not _said(ctx, "HG301", message, node):
        ctx.unsupported(message, node, help=help)


def approximated(ctx: Lowering, message: str, node: Node | None, help: str | None = None) -> None:
    """HG302 at ``node``, once."""
    if not _said(ctx, "HG302", message, node):
        ctx.approximated(message, node, help=help)


_HINTS = {
    "artifact": "download it in an init container, or bake it into the image",
    "vault": "use a Kubernetes Secret, or the Vault agent injector",
    "volume": "use a PersistentVolumeClaim (CSI) or a hostPath volume",
    "volume_mount": "mount a PersistentVolumeClaim or hostPath volume in the container",
    "consul": "Kubernetes Services replace Consul registration",
    "connect": "use a service mesh on Kubernetes",
    "scaling": "use a HorizontalPodAutoscaler",
    "logs": "the kubelet rotates container logs itself",
    "identity": "use a ServiceAccount token",
    "reschedule": "controllers replace failed pods on their own",
    "tags": "Kubernetes Services have no tags; use labels or annotations",
    "ulimit": "set limits in the image's entrypoint, or the container runtime's defaults",
}


def is_set(value: object) -> bool:
    """A field written in the job: not Go's zero value, not an empty list or map."""
    return value not in (None, "", 0, False) and value != [] and value != {}


@cache
def _hcl_fields(model: type[Node]) -> tuple[tuple[str, str], ...]:
    """(python name, HCL name) of each field HCL can set, labels excluded."""
    out = []
    for name, info in model.model_fields.items():
        marker = next((x for x in info.metadata if isinstance(x, Hcl)), None)
        if marker is not None and marker.kind != "label":
            out.append((name, marker.name))
        elif name == "identity" and marker is None:
            out.append((name, "identity"))  # a task's default `identity` block, stored untagged
    return tuple(out)


def report_leftovers(ctx: Lowering, node: Node, handled: Iterable[str], where: str) -> None:
    """HG301 for every field of ``node`` that is set but not in ``handled``.

    A nested block is reported at its own span (each one of a repeated block), a plain
    attribute at ``node``'s block: the user sees exactly what the output lacks.
    """
    done = set(handled)
    for name, hcl in _hcl_fields(type(node)):
        value = getattr(node, name)
        if name in done or not is_set(value):
            continue
        for at in _nodes(value) or [node]:
            message = f"`{hcl}` in {where} has no Kubernetes equivalent; it is left out"
            unsupported(ctx, message, at, help=_HINTS.get(hcl))


def _nodes(value: object) -> list[Node]:
    if isinstance(value, Node):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, Node)]
    if isinstance(value, dict):
        return [v for v in value.values() if isinstance(v, Node)]
    return []


# --------------------------------------------------------------------------- names


def job_name(job: m.Job) -> str:
    return job.name or job.id or "job"


def workload_kind(job: m.Job) -> Kind:
    """Deployment for services, Job for batch (CronJob when periodic), DaemonSet per node."""
    kind = job.type or "service"
    if job.parameterized_job is not None:
        return "Job"
    if job.periodic is not None and kind in ("batch", "sysbatch"):
        return "CronJob"
    if kind in ("system", "sysbatch"):
        return "DaemonSet"
    return "Job" if kind == "batch" else "Deployment"


def object_name(job: m.Job, group: m.TaskGroup) -> str:
    """``<job>-<group>`` as a DNS label; 52 characters for a CronJob, whose Jobs add a suffix."""
    limit = 52 if workload_kind(job) == "CronJob" else 63
    return dns_label(f"{job_name(job)}-{group.name or ''}", limit)


_LABEL_VALUE_BAD = re.compile(r"[^A-Za-z0-9._-]+")
_LABEL_NAME = re.compile(r"([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)")


def label_value(text: str) -> str:
    """The closest valid label value (at most 63 of ``[A-Za-z0-9._-]``, alphanumeric ends)."""
    value = _LABEL_VALUE_BAD.sub("-", text)[:63]
    return re.sub(r"^[^A-Za-z0-9]+|[^A-Za-z0-9]+$", "", value)


def is_label_value(text: str) -> bool:
    return text == "" or (len(text) <= 63 and bool(_LABEL_NAME.fullmatch(text)))


def is_label_key(key: str) -> bool:
    """``[prefix/]name``: a DNS subdomain prefix and a name of at most 63 characters."""
    prefix, _, name = key.rpartition("/")
    if prefix and not re.fullmatch(r"[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?", prefix):
        return False
    return 0 < len(name) <= 63 and bool(_LABEL_NAME.fullmatch(name))


def selector_labels(job: m.Job, group: m.TaskGroup) -> dict[str, str]:
    """The labels a controller selects its pods by (a subset of :func:`pod_labels`)."""
    return {
        "app.kubernetes.io/name": label_value(job_name(job)) or "job",
        "app.kubernetes.io/instance": object_name(job, group),
    }


def pod_labels(job: m.Job, group: m.TaskGroup) -> dict[str, str]:
    return {**selector_labels(job, group), "app.kubernetes.io/managed-by": MANAGED_BY}


def container_name(task: m.Task) -> str:
    return dns_label(task.name)


def container_port_name(label: str) -> str:
    """An IANA service name: at most 15 characters, with at least one letter."""
    name = port_name(label)
    return name if re.search("[a-z]", name) else port_name(f"p-{name}")


def config_map_name(job: m.Job, group: m.TaskGroup) -> str:
    return f"{object_name(job, group)}-templates"


def seconds(ns: int) -> int:
    """Nanoseconds as whole seconds, rounded up."""
    return math.ceil(ns / _SECOND)


# --------------------------------------------------------------------------- tasks


def translatable(task: m.Task) -> bool:
    """A task that becomes a container: a container driver and a hook Kubernetes has."""
    hook = task.lifecycle.hook if task.lifecycle else ""
    return task.driver in RENDERED_DRIVERS and hook in ("", "prestart")


def _report_skipped(task: m.Task, ctx: Lowering) -> None:
    """HG301 for a task that does not become a container, at the reason (driver or hook)."""
    if task.driver not in RENDERED_DRIVERS:
        unsupported(
            ctx,
            f'task "{task.name}" uses the `{task.driver}` driver; only docker and podman tasks '
            "become containers, so it is left out",
            task,
            help="run the program from a container image",
        )
    elif task.lifecycle is not None:
        unsupported(
            ctx,
            f'`{task.lifecycle.hook}` lifecycle hook of task "{task.name}": Kubernetes has no '
            "container that starts after the others or runs after they stop; the task is left out",
            task.lifecycle,
            help="run it as a regular container, or as a separate Job",
        )


def network_ports(group: m.TaskGroup) -> dict[str, m.Port]:
    """Every port label of the group's networks (dynamic and reserved)."""
    ports: dict[str, m.Port] = {}
    for network in group.networks or []:
        for port in [*(network.reserved_ports or []), *(network.dynamic_ports or [])]:
            ports.setdefault(port.label, port)
    return ports


def port_number(port: m.Port) -> int | None:
    """The port the container listens on: ``to``, else the static port, else unknown."""
    if port.to > 0:
        return port.to
    return port.value if port.value > 0 else None


def note_static_port(ctx: Lowering, port: m.Port) -> None:
    approximated(
        ctx,
        f'port "{port.label}": `static = {port.value}` is not reserved on the node (no hostPort); it is '
        f"containerPort {port_number(port)}, and port {port.value} of the group's ClusterIP Service when a "
        "service uses it",
        port,
        help="use a NodePort or LoadBalancer Service for traffic from outside the cluster",
    )


def _strings(value: object) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value]
    return [] if value is None else [str(value)]


_RUNTIME = re.compile(r"\$\{[^}]*\}")


def _runtime_references(ctx: Lowering, task: m.Task, field: str, values: Iterable[str]) -> None:
    """Nomad interpolates ``${NOMAD_*}``, ``${attr.*}``... when it starts a task; Kubernetes won't."""
    found = sorted({ref for value in values for ref in _RUNTIME.findall(value)})
    if found:
        approximated(
            ctx,
            f'{", ".join(found)} in `{field}` of task "{task.name}" stays as text: Kubernetes does not '
            "interpolate Nomad runtime variables",
            task,
            help="replace it with a literal value, or a $(VAR) reference to a container env var",
        )


# --------------------------------------------------------------------------- pod


@dataclass(slots=True)
class _Pod:
    """What the containers of one group add up to, besides the containers themselves."""

    volumes: list[Obj]
    grace: int | None = None


def pod_template(
    job: m.Job, group: m.TaskGroup, ctx: Lowering, devices: Mapping[str, DeviceLowering] | None = None
) -> Obj:
    """The PodTemplateSpec of ``group``; ``devices`` is the device lowering of each task, by name.

    Diagnostics about the group's own fields (count, update, meta...) belong to the
    workload and are not reported here; everything about tasks, ports, checks, templates
    and placement is.
    """
    devices = devices or {}
    pod = _Pod(volumes=[])
    inits, containers = _containers(job, group, ctx, devices, pod)
    if template_files(job, group):
        pod.volumes.append({"name": TEMPLATES_VOLUME, "configMap": {"name": config_map_name(job, group)}})
    if containers:
        _ephemeral_disk(containers[0], group, ctx)
    spec: Obj = {"restartPolicy": restart_policy(workload_kind(job), group, ctx)}
    if inits:
        spec["initContainers"] = inits
    spec["containers"] = containers
    if pod.volumes:
        spec["volumes"] = pod.volumes
    if pod.grace is not None:
        spec["terminationGracePeriodSeconds"] = pod.grace
    spec.update(_placement(job, group, ctx, list(devices.values())))
    return {"metadata": {"labels": pod_labels(job, group)}, "spec": spec}


def _containers(
    job: m.Job, group: m.TaskGroup, ctx: Lowering, devices: Mapping[str, DeviceLowering], pod: _Pod
) -> tuple[list[Obj], list[Obj]]:
    """(init containers, containers). Native sidecars come first among the init containers:
    in Nomad they run beside the other prestart tasks, so those may rely on them."""
    sidecars: list[Obj] = []
    inits: list[Obj] = []
    containers: list[Obj] = []
    checks = _checks_by_task(group, ctx)
    files = template_files(job, group)
    taken: set[str] = set()
    for task in group.tasks or []:
        if not translatable(task):
            _report_skipped(task, ctx)
            continue
        init = task.lifecycle is not None
        name = _unique_name(container_name(task), taken)
        container = _container(task, name, group, ctx, devices.get(task.name), pod)
        _add_probes(container, task, checks.get(task.name, []), group, ctx, probes=not init)
        _mount_templates(container, [f for f in files if f.task is task])
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


# --------------------------------------------------------------------------- container


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


def _container(
    task: m.Task, name: str, group: m.TaskGroup, ctx: Lowering, devices: DeviceLowering | None, pod: _Pod
) -> Obj:
    """The container ``name`` of one docker/podman task."""
    config = task.config or {}
    if name != task.name:
        approximated(ctx, f'task "{task.name}" is the container `{name}` (a DNS-1123 label)', task)
    container: Obj = {"name": name, "image": str(config.get("image", ""))}
    if "entrypoint" in config:
        container["command"] = _strings(config["entrypoint"])
    args = _strings(config.get("command")) + _strings(config.get("args"))
    if args:
        container["args"] = args
    for field, values in (("entrypoint", container.get("command", [])), ("command/args", args)):
        _runtime_references(ctx, task, field, values)
    workdir = config.get("work_dir") or config.get("working_dir")
    if workdir:
        container["workingDir"] = str(workdir)
    if config.get("force_pull"):
        container["imagePullPolicy"] = "Always"
    if task.env:
        container["env"] = [{"name": k, "value": str(v)} for k, v in sorted(task.env.items())]
        _runtime_references(ctx, task, "env", [str(v) for v in task.env.values()])
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
                help=_HINTS.get(key),
            )


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
    caps = {
        verb: [re.sub("^CAP_", "", c.upper()) for c in _strings(config.get(f"cap_{verb}"))]
        for verb in ("add", "drop")
    }
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


def _shm(container: Obj, task: m.Task, ctx: Lowering, pod: _Pod) -> None:
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
    for label in _strings((task.config or {}).get("ports")):
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
    memory = res.memory_mb if res and res.memory_mb is not None else DEFAULT_MEMORY_MB
    requests["memory"] = f"{memory}Mi"
    limits["memory"] = f"{res.memory_max_mb if res and res.memory_max_mb else memory}Mi"
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
    if not any(
        d.code == "HG302" and d.message.startswith(prefix) and d.source is ctx.source for d in ctx.sink.items
    ):
        approximated(
            ctx,
            f"{prefix} at {factor} MHz per core (cpu = {mhz} → {max(1, round(mhz * 1000 / factor))}m)",
            at,
            help="pass --cpu-mhz-per-core with your nodes' clock",
        )
    return f"{max(1, round(mhz * 1000 / factor))}m"


# --------------------------------------------------------------------------- probes


Check = tuple[m.Service, m.ServiceCheck]
_PROBE_TYPES = ("http", "tcp", "grpc", "script")


def _checks_by_task(group: m.TaskGroup, ctx: Lowering) -> dict[str, list[Check]]:
    """Each check with the task whose container it probes.

    A task's own services probe that task; a group service's check probes the task it
    names, else the task that publishes its port, else the group's first main task.
    """
    out: dict[str, list[Check]] = {}
    tasks = [t for t in group.tasks or [] if translatable(t)]
    for task in tasks:
        for service in task.services or []:
            out.setdefault(task.name, []).extend((service, check) for check in service.checks or [])
    main = next((t for t in tasks if t.lifecycle is None), None)
    for service in group.services or []:
        for check in service.checks or []:
            label = check.port_label or service.port_label
            named = check.task_name or service.task_name
            owner = next((t for t in tasks if t.name == named), None) if named else None
            owner = owner or next(
                (t for t in tasks if label in _strings((t.config or {}).get("ports"))), main
            )
            if owner is None:
                unsupported(ctx, f'no container runs the check of service "{service.name}"', check)
            else:
                out.setdefault(owner.name, []).append((service, check))
    return out


def _add_probes(
    container: Obj, task: m.Task, checks: list[Check], group: m.TaskGroup, ctx: Lowering, probes: bool
) -> None:
    """The first check becomes the readinessProbe; a check with check_restart, the livenessProbe."""
    handlers: list[tuple[Check, Obj]] = []
    for check in checks:
        handler = _handler(check, group, ctx) if _usable(check, task, ctx, probes) else None
        if handler is not None:
            handlers.append((check, handler))
    if not handlers:
        return
    (_, first), handler = handlers[0]
    container["readinessProbe"] = _timing(handler, first, ctx, readiness=True)
    live = next(((c, h) for c, h in handlers if _restart_of(c) is not None), None)
    if live is not None:
        restart = _restart_of(live[0])
        assert restart is not None
        probe = _timing(live[1], live[0][1], ctx, readiness=False)
        probe["failureThreshold"] = restart.limit
        if restart.grace:
            probe["initialDelaySeconds"] = seconds(restart.grace)
        container["livenessProbe"] = probe
        report_leftovers(
            ctx, restart, ("limit", "grace"), f'the check_restart of service "{live[0][0].name}"'
        )
    for (extra_service, extra), _ in handlers[1:]:
        if live is None or extra is not live[0][1]:
            unsupported(
                ctx,
                f'a container has one readinessProbe: this check of service "{extra_service.name}" '
                "is left out",
                extra,
            )


def _usable(check: Check, task: m.Task, ctx: Lowering, probes: bool) -> bool:
    """Whether a check can be a probe of this container (reported when not)."""
    service, c = check
    if not probes:
        unsupported(
            ctx,
            f'the check of service "{service.name}": task "{task.name}" is an init container, which '
            "cannot have probes; it is left out",
            c,
        )
        return False
    if c.type not in _PROBE_TYPES:
        unsupported(ctx, f"`{c.type}` checks have no Kubernetes probe; it is left out", c)
        return False
    return True


def _restart_of(check: Check) -> m.CheckRestart | None:
    """The check's own check_restart, else its service's; `limit = 0` disables it in Nomad."""
    restart = check[1].check_restart or check[0].check_restart
    return restart if restart is not None and restart.limit > 0 else None


def _handler(check: Check, group: m.TaskGroup, ctx: Lowering) -> Obj | None:
    """The probe action: httpGet, tcpSocket, grpc or exec; ports as numbers, which also work
    when the container does not name the port (bridge networking needs no `ports`)."""
    service, c = check
    if c.type == "script":
        return {"exec": {"command": [c.command, *(c.args or [])]}}
    label = c.port_label or service.port_label
    port = network_ports(group).get(label)
    number = int(label) if label.isdigit() else port_number(port) if port is not None else None
    if number is None:
        unsupported(ctx, f'the check\'s port "{label}" has no fixed number; the check is left out', c)
        return None
    if c.type == "tcp":
        return {"tcpSocket": {"port": number}}
    if c.type == "grpc":
        return {"grpc": {"port": number, **({"service": c.grpc_service} if c.grpc_service else {})}}
    get: Obj = {"path": c.path or "/", "port": number}
    if c.protocol == "https":
        get["scheme"] = "HTTPS"
    if c.header:
        get["httpHeaders"] = [{"name": k, "value": v} for k, vs in sorted(c.header.items()) for v in vs]
    if c.method and c.method.upper() != "GET":
        unsupported(ctx, f"method {c.method}: httpGet probes only send GET", c)
    return {"httpGet": get}


_CHECK_FIELDS = (
    "name",
    "type",
    "command",
    "args",
    "path",
    "protocol",
    "port_label",
    "interval",
    "timeout",
    "header",
    "method",
    "check_restart",
    "grpc_service",
    "task_name",
    "success_before_passing",
    "failures_before_critical",
    "tls_skip_verify",
)


def _timing(handler: Obj, check: m.ServiceCheck, ctx: Lowering, readiness: bool) -> Obj:
    """interval → periodSeconds, timeout → timeoutSeconds (whole seconds, at least 1)."""
    probe: Obj = copy.deepcopy(handler)
    for field, key in (("interval", "periodSeconds"), ("timeout", "timeoutSeconds")):
        ns = getattr(check, field)
        if ns:
            probe[key] = max(1, seconds(ns))
            if ns % _SECOND:
                approximated(ctx, f"check `{field}` rounded up to {probe[key]}s ({key})", check)
    if readiness and check.success_before_passing > 0:
        probe["successThreshold"] = check.success_before_passing
    if check.failures_before_critical > 0:
        probe["failureThreshold"] = check.failures_before_critical
    report_leftovers(ctx, check, _CHECK_FIELDS, "a service check")
    return probe


# --------------------------------------------------------------------------- templates


@dataclass(frozen=True, slots=True)
class TemplateFile:
    """One embedded template: its ConfigMap key and where the container sees it."""

    task: m.Task
    template: m.Template
    key: str
    path: str


_TASK_DIRS = {"${NOMAD_TASK_DIR}": "local", "${NOMAD_SECRETS_DIR}": "secrets", "${NOMAD_ALLOC_DIR}": "alloc"}


def template_files(job: m.Job, group: m.TaskGroup) -> list[TemplateFile]:
    """The group's embedded templates, keyed by their sanitised destination (unique)."""
    files: list[TemplateFile] = []
    keys: set[str] = set()
    for task in group.tasks or []:
        if not translatable(task):
            continue
        for template in task.templates or []:
            if template.embedded_tmpl is None or not template.dest_path:
                continue
            dest = template.dest_path
            for variable, directory in _TASK_DIRS.items():
                dest = dest.replace(variable, directory)
            dest = dest.lstrip("/")
            key = re.sub(r"[^-._a-zA-Z0-9]+", "_", dest)[:240].lstrip(".") or "template"
            unique, n = key, 2
            while unique in keys:
                unique, n = f"{key}-{n}", n + 1
            keys.add(unique)
            files.append(TemplateFile(task, template, unique, "/" + dest))
    return files


def _mount_templates(container: Obj, files: Sequence[TemplateFile]) -> None:
    """Each file at its destination, via subPath, so the rest of the directory stays."""
    for f in files:
        mount = {"name": TEMPLATES_VOLUME, "mountPath": f.path, "subPath": f.key, "readOnly": True}
        container.setdefault("volumeMounts", []).append(mount)


def config_map(job: m.Job, group: m.TaskGroup, ctx: Lowering) -> Obj | None:
    """The group's templates, copied verbatim into one ConfigMap (None when it has none)."""
    files = template_files(job, group)
    for task in group.tasks or []:
        if translatable(task):
            for template in task.templates or []:
                _report_template(task, template, ctx)
    if not files:
        return None
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": config_map_name(job, group), "labels": pod_labels(job, group)},
        "data": {f.key: f.template.embedded_tmpl or "" for f in files},
    }


_TEMPLATE_DEFAULTS: dict[str, object] = {"change_mode": "restart", "perms": "0644", "splay": 5 * _SECOND}
"""What jobspec2 fills in: the ConfigMap's default mode is 0644 too, and nothing re-renders."""


def _report_template(task: m.Task, template: m.Template, ctx: Lowering) -> None:
    """What a copied, unrendered template loses."""
    where = f'a template of task "{task.name}"'
    if template.embedded_tmpl is None or not template.dest_path:
        unsupported(
            ctx,
            f"{where} reads `source` on the Nomad client (or has no destination); it is left out",
            template,
            help="inline it with `data`",
        )
        return
    if (template.left_delim or "{{") in template.embedded_tmpl:
        approximated(
            ctx,
            f"{where} is copied verbatim into a ConfigMap: Go templates are not rendered in Kubernetes",
            template,
            help="render it before deploying, or run a templating init container",
        )
    if template.envvars:
        unsupported(
            ctx,
            f"`env = true` in {where}: the file is mounted, but its variables are not set in the "
            "environment (envFrom cannot read an unrendered template)",
            template,
        )
    handled = ["source_path", "dest_path", "embedded_tmpl", "envvars", "left_delim", "right_delim"]
    handled += [f for f, default in _TEMPLATE_DEFAULTS.items() if getattr(template, f) == default]
    report_leftovers(ctx, template, handled, where)


# --------------------------------------------------------------------------- placement


_NODE_LABELS: dict[str, tuple[str, bool]] = {
    "${attr.kernel.name}": ("kubernetes.io/os", False),
    "${attr.cpu.arch}": ("kubernetes.io/arch", False),
    "${node.datacenter}": ("topology.kubernetes.io/zone", True),
    "${node.class}": ("node.kubernetes.io/instance-type", True),
    "${node.unique.name}": ("kubernetes.io/hostname", True),
    "${attr.unique.hostname}": ("kubernetes.io/hostname", True),
}


def node_label(attribute: str, node: Node, ctx: Lowering) -> str | None:
    """The node label a Nomad node attribute maps to (HG302 when the mapping is a convention)."""
    key, approximate = _NODE_LABELS.get(attribute, ("", False))
    if not key and attribute.startswith("${meta.") and attribute.endswith("}"):
        key, approximate = attribute[len("${meta.") : -1], True
    if not key or not is_label_key(key):
        unsupported(ctx, f"`{attribute}` has no Kubernetes node label; it is left out", node)
        return None
    if approximate:
        approximated(ctx, f"`{attribute}` is read from the node label `{key}`", node)
    return key


_IN = {"=": "In", "==": "In", "is": "In", "!=": "NotIn", "not": "NotIn"}
_ORDER = {">": ("Gt", 0), ">=": ("Gt", -1), "<": ("Lt", 0), "<=": ("Lt", 1)}
_NEGATED = {"In": "NotIn", "NotIn": "In", "Exists": "DoesNotExist", "DoesNotExist": "Exists"}


def node_expression(c: m.Constraint | m.Affinity, ctx: Lowering) -> Obj | None:
    """A NodeSelectorRequirement for a node constraint or affinity, or None (reported)."""
    op, value = c.operand or "=", c.r_target
    if "${" in value:
        unsupported(ctx, f"`{value}`: Kubernetes node affinity compares labels to literal values", c)
        return None
    if op in ("is_set", "is_not_set"):
        key = node_label(c.l_target, c, ctx)
        return (
            None if key is None else {"key": key, "operator": "Exists" if op == "is_set" else "DoesNotExist"}
        )
    values = _values(op, value)
    if values is None or not all(is_label_value(v) for v in values):
        unsupported(ctx, f"`{c.l_target} {op} {value}` cannot be written as node affinity; it is left out", c)
        return None
    key = node_label(c.l_target, c, ctx)
    if key is None:
        return None
    operator = _IN.get(op) or ("In" if op.startswith("set_contains") else _ORDER[op][0])
    return {"key": key, "operator": operator, "values": values}


def _values(op: str, value: str) -> list[str] | None:
    """The label values of an operator, None when labels cannot express it."""
    if op in _IN:
        return [value]
    if op.startswith("set_contains"):
        items = [v.strip() for v in value.split(",") if v.strip()]
        return items if items and (op == "set_contains_any" or len(items) == 1) else None
    if op in _ORDER and re.fullmatch(r"-?\d+", value.strip()):
        return [str(int(value) + _ORDER[op][1])]
    return None


def _placement(job: m.Job, group: m.TaskGroup, ctx: Lowering, devices: Sequence[DeviceLowering]) -> Obj:
    """Affinity, topology spread, tolerations and DRA claims of the pod."""
    out: Obj = {}
    affinity = _affinity(job, group, ctx, devices)
    if affinity:
        out["affinity"] = affinity
    spread = _spread(job, group, ctx)
    if spread:
        out["topologySpreadConstraints"] = spread
    tolerations = _unique([t for d in devices for t in d.tolerations])
    if tolerations:
        out["tolerations"] = tolerations
    claims = _unique([c for d in devices for c in d.pod_claims])
    if claims:
        out["resourceClaims"] = claims
    return out


def _affinity(job: m.Job, group: m.TaskGroup, ctx: Lowering, devices: Sequence[DeviceLowering]) -> Obj:
    """Job, group and task constraints and the devices' terms as ONE required nodeSelectorTerm
    (its expressions are ANDed, as Nomad's constraints are); affinities as preferred terms;
    distinct_* as pod anti-affinity. A pod is placed whole, so task-level ones apply to it."""
    tasks = [t for t in group.tasks or [] if translatable(t)]
    constraints = [*(job.constraints or []), *(group.constraints or [])]
    constraints += [c for t in tasks for c in t.constraints or []]
    affinities = [*(job.affinities or []), *(group.affinities or [])]
    affinities += [a for t in tasks for a in t.affinities or []]
    node_constraints = [c for c in constraints if not c.operand.startswith("distinct_")]
    required = [e for c in node_constraints if (e := node_expression(c, ctx))]
    required = _unique(required + [r for d in devices for r in d.required])
    preferred = [p for a in affinities if (p := _preference(a, ctx))]
    preferred = _unique(preferred + [p for d in devices for p in d.preferred])
    node: Obj = {}
    if required:
        node["requiredDuringSchedulingIgnoredDuringExecution"] = {
            "nodeSelectorTerms": [{"matchExpressions": required}]
        }
    if preferred:
        node["preferredDuringSchedulingIgnoredDuringExecution"] = preferred
    distinct = [c for c in constraints if c.operand.startswith("distinct_")]
    anti = [t for c in distinct if (t := _distinct(c, job, group, ctx))]
    affinity: Obj = {"nodeAffinity": node} if node else {}
    if anti:
        affinity["podAntiAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": anti}
    return affinity


def _unique(items: list[Obj]) -> list[Obj]:
    out: list[Obj] = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


def _preference(a: m.Affinity, ctx: Lowering) -> Obj | None:
    """A preferred term; a negative Nomad weight prefers the opposite."""
    expression = node_expression(a, ctx)
    if expression is None:
        return None
    weight = 50 if a.weight is None else a.weight
    if weight < 0:
        operator = _NEGATED.get(expression["operator"])
        if operator is None:
            unsupported(ctx, "a negative weight cannot invert a Gt/Lt node affinity; it is left out", a)
            return None
        expression = {**expression, "operator": operator}
    return {"weight": max(1, min(100, abs(weight))), "preference": {"matchExpressions": [expression]}}


def _distinct(c: m.Constraint, job: m.Job, group: m.TaskGroup, ctx: Lowering) -> Obj | None:
    """distinct_hosts / distinct_property (limit 1) as required pod anti-affinity."""
    job_level = any(c is x for x in job.constraints or [])
    selector = {"app.kubernetes.io/name": selector_labels(job, group)["app.kubernetes.io/name"]}
    selector = selector if job_level else selector_labels(job, group)
    if c.operand == "distinct_hosts":
        if c.r_target == "false":
            return None
        return {"labelSelector": {"matchLabels": selector}, "topologyKey": "kubernetes.io/hostname"}
    if c.r_target not in ("", "1"):
        unsupported(ctx, f"distinct_property with a limit of {c.r_target}: pod anti-affinity allows one", c)
        return None
    key = node_label(c.l_target, c, ctx)
    return None if key is None else {"labelSelector": {"matchLabels": selector}, "topologyKey": key}


def _spread(job: m.Job, group: m.TaskGroup, ctx: Lowering) -> list[Obj]:
    """Spreads as topologySpreadConstraints: an even spread, not Nomad's target percentages."""
    out: list[Obj] = []
    for spread in [*(job.spreads or []), *(group.spreads or [])]:
        key = node_label(spread.attribute, spread, ctx)
        if key is None:
            continue
        approximated(
            ctx,
            f"spread over `{spread.attribute}` → topologySpreadConstraints (maxSkew 1, ScheduleAnyway): "
            "an even spread; weight and target percentages are not kept",
            spread,
        )
        if all(t["topologyKey"] != key for t in out):
            out.append(
                {
                    "maxSkew": 1,
                    "topologyKey": key,
                    "whenUnsatisfiable": "ScheduleAnyway",
                    "labelSelector": {"matchLabels": selector_labels(job, group)},
                }
            )
    return out
