"""Settings whose meaning depends on the scheduler type or a removed feature (HG255-HG258).

Sources: `Job.Validate` and `Job.Warnings`, `TaskGroup.Warnings`, `Task.Warnings` in
nomad/structs/structs.go; the docker driver's port set-up in `createContainerConfig`
(drivers/docker/driver.go); the API client's defaults (`api.Job.Canonicalize`: type
"service", a `periodic` block enabled, group `count` 1).
"""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.networks import config_attribute
from hclgpu.checks.resources import set_here
from hclgpu.ir import models as m
from hclgpu.ir.base import Node
from hclgpu.syntax import ast

BATCH_TYPES = ("batch", "sysbatch")
DEFAULT_TYPE = "service"


@rule("HG255")
def port_map_unusable(ctx: Context) -> None:
    """docker `port_map` only maps a task-level network; otherwise it fails or does nothing."""
    for group, task in ctx.tasks():
        problem = _port_map_problem(group, task)
        if problem is None:
            continue
        found = config_attribute(ctx, task, "port_map")
        span = found.type_span if isinstance(found, ast.Block) else found.name_span if found else None
        label, to = _first_mapping(task.config or {})
        ctx.report(
            "HG255",
            f"docker `port_map` of task `{task.name}` {problem}",
            span or ctx.header_span(task),
            help=f"remove `port_map`: set the container port on the group port "
            f'(`port "{label}" {{ to = {to} }}`) and list the port in `config {{ ports = ["{label}"] }}`',
        )


def _first_mapping(config: dict[str, object]) -> tuple[str, object]:
    """The first `label = port` of `port_map` (a list of maps once decoded), for the help."""
    blocks = config.get("port_map")
    for block in blocks if isinstance(blocks, list) else []:
        if isinstance(block, dict):
            for label, port in block.items():
                return str(label), port
    return "http", 8080


def _port_map_problem(group: m.TaskGroup, task: m.Task) -> str | None:
    """What the docker driver does with `port_map`, following `createContainerConfig`'s cases."""
    config = task.config or {}
    if task.driver != "docker" or "port_map" not in config:
        return None
    group_ports = any(n.reserved_ports or n.dynamic_ports for n in group.networks or [])
    if group_ports and config.get("ports"):
        return "is ignored: the driver publishes the group ports listed in `ports`"
    if task.resources is not None and task.resources.networks:
        return None  # the deprecated set-up it was made for (HG249 reports the network)
    if group_ports:
        return "cannot map group network ports; the docker driver refuses to start the task"
    return "has no network to map; the docker driver refuses to start the task"


@rule("HG256")
def requires_batch_scheduler(ctx: Context) -> None:
    """Only the batch schedulers launch periodic and dispatched jobs; Nomad refuses the rest."""
    job = ctx.job
    kind = job.type or DEFAULT_TYPE
    if kind in BATCH_TYPES:
        return
    blocks: list[tuple[str, Node]] = []
    if job.periodic is not None and job.periodic.enabled is not False:
        blocks.append(("periodic", job.periodic))
    if job.parameterized_job is not None:
        blocks.append(("parameterized", job.parameterized_job))
    for name, node in blocks:
        ctx.report(
            "HG256",
            f"`{name}` needs a `batch` or `sysbatch` job, but this job is `{kind}`"
            + ("" if job.type else " (the default)"),
            ctx.header_span(node),
            help='set `type = "batch"` (or "sysbatch") on the job',
            related=set_here(ctx, job, "type"),
        )


@rule("HG257")
def system_count_above_one(ctx: Context) -> None:
    """The system scheduler places one allocation per node; Nomad refuses a larger `count`."""
    if ctx.job.type != "system":
        return
    for group in ctx.groups():
        if group.count is not None and group.count > 1:
            ctx.report(
                "HG257",
                f"group `{group.name}` of a `system` job has `count = {group.count}`; the limit is 1",
                ctx.value_span(group, "count"),
                help="remove `count`: a system job runs the group once on every eligible node",
                related=set_here(ctx, ctx.job, "type"),
            )


@rule("HG258")
def deprecated_field(ctx: Context) -> None:
    """Attributes Nomad warns about on `nomad job run`, with their replacements."""
    periodic = ctx.job.periodic
    if periodic is not None and periodic.spec:
        _deprecated(ctx, periodic, "cron", "use `crons = [...]`, which takes a list of expressions")
    for group in ctx.groups():
        for field, replacement in _GROUP_FIELDS:
            value = getattr(group, field)
            if value is not None and value is not False:  # any duration, 0s included; the flag if true
                _deprecated(ctx, group, field, f"use {replacement}")
        for task in group.tasks or []:
            if task.resources is not None and task.resources.iops:
                _deprecated(ctx, task.resources, "iops", "remove it: Nomad ignores it since 0.9")


_GROUP_FIELDS = (
    ("max_client_disconnect", "`disconnect { lost_after = ... }`"),
    ("stop_after_client_disconnect", "`disconnect { stop_on_client_after = ... }`"),
    ("prevent_reschedule_on_lost", "`disconnect { replace = false }`"),
)


def _deprecated(ctx: Context, node: Node, field: str, help: str) -> None:
    ctx.report("HG258", f"`{field}` is deprecated", ctx.name_span(node, field), help=help)
