"""One OCI bundle (config.json) per docker/podman task, and the report of everything in the
job that a bundle cannot carry.

A bundle is the unit a runtime such as runc or crun starts: a config.json next to a root
filesystem. It has no scheduler, supervisor, network setup or service registration, so
the job-, group- and task-level fields that ask for those are reported (HG301, at their
blocks); each task's own program, environment, limits and devices go into its
config.json. The root filesystem is not written (it is the image, unpacked): ``root.path``
is ``rootfs`` inside the bundle, whose ``io.hclgpu.rootfs`` annotation says how to fill
it, or the absolute path given with ``--rootfs``.
"""

from __future__ import annotations

import re
from typing import Any

from hclgpu.backends.containers import CONTAINER_DRIVERS
from hclgpu.backends.oci import linux
from hclgpu.backends.oci.cdi import apply_spec
from hclgpu.backends.oci.devices import cdi_annotation, lower_devices
from hclgpu.backends.oci.options import oci_options
from hclgpu.backends.oci.process import lower_process, privileged
from hclgpu.backends.oci.reporting import HINTS, approximated, is_set, report_leftovers, unsupported
from hclgpu.backends.oci.scope import TaskScope
from hclgpu.backends.target import Lowering, unique_name
from hclgpu.ir import models as m

Obj = dict[str, Any]

OCI_VERSION = "1.0.2"
"""The runtime-spec version of the fields used (createRuntime etc. hooks appeared in 1.0.2)."""

_JOB_FIELDS = ("region", "namespace", "id", "name", "type", "task_groups", "meta")
_GROUP_FIELDS = ("count", "tasks", "networks", "meta")
_TASK_FIELDS = ("driver", "user", "config", "env", "resources", "meta")
_RESOURCE_FIELDS = ("cpu", "cores", "memory_mb", "memory_max_mb", "devices")
_CONFIG_KEYS = frozenset(
    {
        "image", "command", "args", "entrypoint", "work_dir", "working_dir", "shm_size", "ulimit",
        "cap_add", "cap_drop", "readonly_rootfs", "pids_limit", "sysctl", "network_mode",
        "cpu_hard_limit", "cpu_cfs_period", "runtime", "hostname", "privileged",
    }
)  # fmt: skip
_INVALID = re.compile(r"[^a-z0-9-]+")


def dns_label(name: str) -> str:
    """The closest DNS-1123 label: a safe directory name on every file system."""
    label = re.sub(r"-{2,}", "-", _INVALID.sub("-", name.lower()).strip("-"))[:63].rstrip("-")
    return label or "x"


def lower_job(job: m.Job, ctx: Lowering) -> list[tuple[str, Obj]]:
    """``(artifact name, config.json data)`` for every docker/podman task, in job order."""
    name = job.name or job.id or "job"
    report_leftovers(ctx, job, _JOB_FIELDS, f'job "{name}"')
    out: list[tuple[str, Obj]] = []
    taken: set[str] = set()
    _report_type(job, ctx)
    for group in job.task_groups or []:
        _report_group(group, ctx)
        bundles = len(out)
        for task in group.tasks or []:
            if task.driver not in CONTAINER_DRIVERS:
                unsupported(
                    ctx,
                    f'task "{task.name}" uses the `{task.driver}` driver; only docker and podman tasks '
                    "become OCI bundles, so it is left out",
                    task,
                    help="run the program from a container image",
                )
                continue
            path = unique_name(f"{dns_label(group.name or 'group')}/{dns_label(task.name)}", taken)
            out.append((f"{path}/config.json", lower_task(TaskScope(job, group, task, ctx))))
        if len(out) == bundles:
            unsupported(
                ctx, f'no task of group "{group.name}" becomes an OCI bundle; the group is left out', group
            )
    if not out:
        unsupported(ctx, f'no task of job "{name}" becomes an OCI bundle; the job is left out', job)
    return out


def _report_type(job: m.Job, ctx: Lowering) -> None:
    """A service or system job's tasks are restarted by Nomad whenever they exit (and placed
    again when their node goes); ``runc run`` runs the process once."""
    kind = job.type or "service"
    if kind in ("service", "system"):
        approximated(
            ctx,
            f'job `type = "{kind}"`: Nomad restarts its tasks whenever they exit; `runc run` runs '
            "the process once",
            job,
            help="run the bundle under a supervisor (a systemd unit with Restart=always)",
        )


def _report_group(group: m.TaskGroup, ctx: Lowering) -> None:
    where = f'group "{group.name}"'
    report_leftovers(ctx, group, _GROUP_FIELDS, where)
    if (group.count or 1) > 1:
        approximated(
            ctx,
            f"count = {group.count} of {where}: one bundle per task is written, with NOMAD_ALLOC_INDEX=0; "
            "run copies under other container ids (and change the index) for more",
            group,
        )
    for network in group.networks or []:
        labels = [p.label for p in [*(network.reserved_ports or []), *(network.dynamic_ports or [])]]
        ports = f" (ports {', '.join(labels)})" if labels else ""
        unsupported(
            ctx,
            f"the network of {where}{ports}: a bundle has its own empty network namespace; nothing is "
            "published or connected",
            network,
            help="configure the namespace with a CNI tool or a createRuntime hook",
        )


def lower_task(scope: TaskScope) -> Obj:
    """config.json of one task: process, root, mounts, hooks, annotations and linux."""
    ctx = scope.ctx
    edits = lower_devices(scope)
    config: Obj = {
        "ociVersion": OCI_VERSION,
        "process": lower_process(scope, edits.assigned, edits.env),
        "root": linux.root(scope),
        "hostname": str(scope.config.get("hostname") or dns_label(scope.task.name)),
        "mounts": linux.mounts(scope) + edits.mounts,
    }
    config["hooks"] = edits.hooks
    config["annotations"] = {}
    config["linux"] = _linux(scope, edits.rules)
    applied: set[str] = set()
    cdi_spec = oci_options(ctx).cdi_spec
    if edits.cdi and cdi_spec:
        applied = apply_spec(config, edits.cdi, cdi_spec, scope)
    config["annotations"] = _annotations(scope, [name for name, _ in edits.cdi if name not in applied])
    if applied:
        config["annotations"]["io.hclgpu.cdi-spec"] = str(cdi_spec)
    if not config["hooks"]:
        del config["hooks"]
    _report_task(scope)
    return config


def _linux(scope: TaskScope, rules: list[Obj]) -> Obj:
    out: Obj = {"resources": linux.resources(scope, rules), "namespaces": linux.namespaces(scope)}
    sysctl = linux.sysctl(scope)
    if sysctl:
        out["sysctl"] = sysctl
    if privileged(scope):  # Docker's privileged mode: every device, nothing masked
        out["resources"]["devices"] = [{"allow": True, "access": "rwm"}]
        approximated(
            scope.ctx,
            f"privileged = true of {scope.where} → every capability and device, no masked paths, as "
            "docker run --privileged; the host's devices are not listed in linux.devices",
            scope.task,
        )
        return out
    out["maskedPaths"] = list(linux.MASKED_PATHS)
    out["readonlyPaths"] = list(linux.READONLY_PATHS)
    return out


def _annotations(scope: TaskScope, cdi_names: list[str]) -> dict[str, str]:
    image = str(scope.config.get("image") or "")
    out = {
        "io.hclgpu.source": scope.ctx.source_name,
        "io.hclgpu.job": scope.job.id or scope.job.name or "",
        "io.hclgpu.group": scope.group.name or "",
        "io.hclgpu.task": scope.task.name,
    }
    if image:
        out["io.hclgpu.image"] = image
    if not oci_options(scope.ctx).rootfs:
        out["io.hclgpu.rootfs"] = (
            "fill rootfs/ beside this file with the image's file system, e.g. "
            f"mkdir rootfs && docker export $(docker create {image or 'IMAGE'}) | tar -C rootfs -x"
        )
    if cdi_names:  # those not applied from --cdi-spec: a CDI-aware runtime injects them
        key, value = cdi_annotation(scope.task.name, cdi_names)
        out[key] = value
    return out


def _report_task(scope: TaskScope) -> None:
    """The task's fields, resources and driver options that the bundle does not carry."""
    task, ctx = scope.task, scope.ctx
    report_leftovers(ctx, task, _TASK_FIELDS, scope.where)
    if task.resources is not None:
        report_leftovers(ctx, task.resources, _RESOURCE_FIELDS, f"the resources of {scope.where}")
    runtime = scope.config.get("runtime")
    if is_set(runtime):
        approximated(
            ctx,
            f'runtime = "{runtime}" of {scope.where}: a bundle does not name its runtime; start it with that '
            "runtime's binary (or runc, with the hooks config.json already has)",
            task,
        )
    for key in sorted(scope.config):
        if key not in _CONFIG_KEYS and is_set(scope.config[key]):
            unsupported(
                ctx,
                f"`{key}` in the {task.driver} config of {scope.where} has no equivalent in an OCI bundle; "
                "it is left out",
                task,
                help=HINTS.get(key),
            )
