"""A Nomad job as the containers the engine runs, in the order they must start, with every
job and group field either used or reported (HG301 left out, HG302 approximated).

Both targets start from here: `docker run` writes one command per container, Compose one
service per container. The order is Nomad's lifecycle: prestart sidecars, prestart tasks
(which run to completion), main tasks, poststart, poststop.
"""

from __future__ import annotations

from hclgpu.backends.containers import CONTAINER_DRIVERS, as_strings, network_ports
from hclgpu.backends.docker.checks import checks_by_task
from hclgpu.backends.docker.container import (
    Container,
    ContainerLowering,
    approximated,
    field,
    report_leftovers,
    target_name,
    unsupported,
)
from hclgpu.backends.docker.lowering import add_port, container_names, lower_task, publish
from hclgpu.ir import models as m

_JOB_FIELDS = ("id", "name", "type", "datacenters", "node_pool", "task_groups", "meta")
_GROUP_FIELDS = ("name", "count", "tasks", "restart_policy", "networks", "meta", "services")


def lower_job(job: m.Job, ctx: ContainerLowering) -> list[Container]:
    """Every container of the job, group by group, each group in lifecycle order."""
    _report_job(job, ctx)
    taken: set[str] = set()
    containers: list[Container] = []
    for group in job.task_groups or []:
        containers += _lower_group(job, group, ctx, taken)
    if not containers:
        name = job.name or job.id or "job"
        unsupported(ctx, f'no task of job "{name}" becomes a container; the job is left out', job)
    return containers


def start_rank(c: Container) -> int:
    """Where a container starts among its group's: sidecars first, so that prestart tasks may
    use them, then the prestart tasks, which must finish before the main tasks start."""
    if c.hook == "prestart":
        return 0 if c.sidecar else 1
    return {"": 2, "poststart": 3, "poststop": 4}.get(c.hook, 2)


def _lower_group(job: m.Job, group: m.TaskGroup, ctx: ContainerLowering, taken: set[str]) -> list[Container]:
    tasks = [t for t in group.tasks or [] if _runnable(t, ctx)]
    checks = checks_by_task(group, tasks, ctx)
    containers: list[Container] = []
    for task in tasks:
        names = container_names(job, group, task, ctx, taken)
        container = lower_task(job, group, task, checks.get(task.name, []), ctx, names)
        if container is not None:
            containers.append(container)
    if not containers:
        unsupported(ctx, f'no task of group "{group.name}" becomes a container; the group is left out', group)
        return []
    bridged = _bridge_ports(group, containers, ctx)
    _report_group(group, containers, bridged, ctx)
    return sorted(containers, key=start_rank)


def _bridge_ports(group: m.TaskGroup, containers: list[Container], ctx: ContainerLowering) -> set[str]:
    """Nomad's bridge mode forwards every group port into the namespace all its tasks share,
    listed in a task's `ports` or not. Here a port belongs to one container: the task whose
    service uses it, else the first main task (HG302). Returns the labels it handled."""
    running = [c for c in containers if not c.one_shot and not c.network_mode]
    if not running or not any(n.mode == "bridge" for n in group.networks or []):
        return set()
    listed = {label for c in containers for label in _labels(c)}
    handled: set[str] = set()
    for label, port in network_ports(group).items():
        if label in listed:
            continue
        handled.add(label)
        owner = _port_owner(label, group, running)
        mapped = publish(port, ctx)
        if mapped is None:
            continue
        add_port(owner.ports, mapped, port, ctx)
        shown = owner.service if ctx.flavour.by_service else owner.name
        approximated(
            ctx,
            f'port "{label}" is published by `{shown}` ({field(ctx, "ports")}): in Nomad\'s bridge mode it '
            "reaches every task of the group",
            port,
        )
    return handled


def _port_owner(label: str, group: m.TaskGroup, running: list[Container]) -> Container:
    """The container of the task whose service uses ``label``, else the first main task."""
    for c in running:
        if any(s.port_label == label for s in c.task.services or []):
            return c
    for service in group.services or []:
        if service.port_label == label and service.task_name:
            named = next((c for c in running if c.task.name == service.task_name), None)
            if named is not None:
                return named
    return next((c for c in running if c.hook == ""), running[0])


def _runnable(task: m.Task, ctx: ContainerLowering) -> bool:
    """A docker or podman task with a lifecycle hook the engine can order."""
    if task.driver not in CONTAINER_DRIVERS:
        unsupported(
            ctx,
            f'task "{task.name}" uses the `{task.driver}` driver; only docker and podman tasks become '
            "containers, so it is left out",
            task,
            help="run the program from a container image",
        )
        return False
    hook = task.lifecycle.hook if task.lifecycle else ""
    if hook not in ("", "prestart", "poststart", "poststop"):
        unsupported(
            ctx, f'lifecycle hook "{hook}" of task "{task.name}" is unknown; the task is left out', task
        )
        return False
    return True


# --------------------------------------------------------------------------- reporting


def _report_job(job: m.Job, ctx: ContainerLowering) -> None:
    """What the job's own fields become, or why they cannot."""
    name = job.name or job.id or "job"
    if job.type in ("system", "sysbatch"):
        approximated(ctx, f"a {job.type} job runs on every node; here it runs on this one host", job)
    elif job.type not in (None, "service", "batch"):
        unsupported(ctx, f'job type "{job.type}" is unknown; it is rendered as a service', job)
    if job.datacenters and job.datacenters != ["*"]:
        unsupported(
            ctx,
            f"datacenters {', '.join(job.datacenters)}: the containers run on the host you run them on",
            job,
        )
    if job.node_pool not in (None, "", "default", "all"):
        unsupported(
            ctx, f'node_pool "{job.node_pool}" has no {target_name(ctx)} equivalent; it is left out', job
        )
    report_leftovers(ctx, job, _JOB_FIELDS, f'job "{name}"')


def _report_group(
    group: m.TaskGroup, containers: list[Container], bridged: set[str], ctx: ContainerLowering
) -> None:
    where = f'group "{group.name}"'
    if group.count not in (None, 1) and not ctx.flavour.replicas:
        approximated(
            ctx,
            f"count = {group.count} in {where}: each command starts one container; run it {group.count} "
            "times with distinct --name (and host ports)",
            group,
        )
    _report_networks(group, containers, bridged, ctx)
    report_leftovers(ctx, group, _GROUP_FIELDS, where)


def _report_networks(
    group: m.TaskGroup, containers: list[Container], bridged: set[str], ctx: ContainerLowering
) -> None:
    """Nomad's bridge mode gives the group one network namespace; here each container has its own."""
    published = bridged | {label for c in containers for label in _labels(c)}
    for network in group.networks or []:
        if network.mode not in ("", "host", "bridge", "none"):
            unsupported(ctx, f'network mode "{network.mode}" has no {target_name(ctx)} equivalent', network)
        if network.mode == "bridge" and len(containers) > 1:
            approximated(
                ctx,
                f'the tasks of group "{group.name}" share one network namespace in Nomad; each container has '
                f"its own ({field(ctx, 'network')}), so they reach each other by name, not localhost",
                network,
            )
        report_leftovers(ctx, network, ("mode", "reserved_ports", "dynamic_ports"), "a network block")
        for port in [*(network.reserved_ports or []), *(network.dynamic_ports or [])]:
            report_leftovers(ctx, port, ("value", "to"), f'port "{port.label}"')
            if port.label not in published:
                unsupported(
                    ctx, f'port "{port.label}" is published by no task\'s `ports`; it is left out', port
                )


def _labels(c: Container) -> list[str]:
    return as_strings((c.task.config or {}).get("ports"))
