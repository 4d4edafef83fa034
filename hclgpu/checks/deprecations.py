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
from hclgpu.checks.server import Condition, reject
from hclgpu.codes.base import Code, E, W
from hclgpu.diagnostics import Edit
from hclgpu.ir import models as m
from hclgpu.ir.base import Node
from hclgpu.syntax import ast

HG255 = Code(
    "HG255",
    "port-map-unusable",
    W,
    summary="docker `port_map` cannot map the task's ports",
    doc="""What: a docker task sets `config { port_map { ... } }` but has no task-level
`network` block, or its group network ports are listed in `config { ports = [...] }`.

Why: `port_map` (deprecated since Nomad 0.12) only maps the ports of a task-level
network. With group network ports and no `ports` list, the docker driver refuses to
start the task ("'port_map' cannot map group network ports, use 'ports' instead");
with no network at all, too ("Trying to map ports but no network interface is
available"); with a `ports` list, `port_map` is silently ignored.

Example:
    network { port "http" {} }
    task "web" {
      driver = "docker"
      config {
        port_map { http = 8080 }
      }
    }

Fix: set the container port on the group port (`port "http" { to = 8080 }`), list
it in `config { ports = ["http"] }` and remove `port_map`.""",
)


HG256 = Code(
    "HG256",
    "requires-batch-scheduler",
    E,
    summary="`periodic` or `parameterized` in a job that is not `batch` or `sysbatch`",
    doc="""What: a job with a `periodic` block (not disabled) or a `parameterized` block has a
`type` other than "batch" or "sysbatch"; a job without `type` is a "service" job.

Why: Nomad rejects the job at registration with `Periodic can only be used with
"batch" or "sysbatch" scheduler` or `Parameterized job can only be used with ...`
(`Job.Validate`, nomad/structs/structs.go:4858 and :4870). Nomad's parser accepts
such files; its server does not.

Example:
    job "nightly" {
      periodic { crons = ["0 2 * * *"] }
    }

Fix: add `type = "batch"` (or "sysbatch") to the job.""",
)


HG257 = Code(
    "HG257",
    "system-count-above-one",
    E,
    summary="A group of a `system` job has `count` above 1",
    doc="""What: a group of a job with `type = "system"` sets `count` to more than 1.

Why: Nomad rejects the job at registration: "Job task group g has count 3. Count
cannot exceed 1 with system scheduler". The system scheduler runs one allocation of
each group on every eligible node; `count` cannot multiply that.

Example:
    job "agent" {
      type = "system"
      group "collector" {
        count = 3
      }
    }

Fix: remove `count`. To run several copies on each node, add tasks to the group or
use a `service` job.""",
)


HG258 = Code(
    "HG258",
    "deprecated-field",
    W,
    summary="An attribute Nomad reports as deprecated",
    doc="""What: the job sets an attribute Nomad warns about at registration:
`periodic { cron }` (use `crons`), task `resources { iops }` (ignored since Nomad
0.9), group `max_client_disconnect` (use `disconnect { lost_after }`),
`stop_after_client_disconnect` (use `disconnect { stop_on_client_after }`) and
`prevent_reschedule_on_lost` (use `disconnect { replace = false }`).

Why: deprecated attributes are removed in a later release, and some (`iops`) already
do nothing. Nomad prints these warnings on `nomad job run`.

Example:
    periodic {
      cron = "0 2 * * *"
    }

Fix: use the replacement the message names.""",
)

PERIODIC_NEEDS_BATCH = Condition(
    "periodic-needs-batch",
    code=HG256,
    nomad="Job.Validate",
    source="nomad/structs/structs.go:4858",
    condition="an enabled `periodic` block in a job that is not batch or sysbatch",
    message='Periodic can only be used with "batch" or "sysbatch" scheduler',
)

PARAMETERIZED_NEEDS_BATCH = Condition(
    "parameterized-needs-batch",
    code=HG256,
    nomad="Job.Validate",
    source="nomad/structs/structs.go:4870",
    condition="a `parameterized` block in a job that is not batch or sysbatch",
    message='Parameterized job can only be used with "batch" or "sysbatch" scheduler',
)

SYSTEM_COUNT_ABOVE_ONE = Condition(
    "system-group-count-above-one",
    code=HG257,
    nomad="Job.Validate",
    source="nomad/structs/structs.go:4841",
    condition="a system job's group `count` above 1",
    message="Job task group {group} has count {count}. Count cannot exceed 1 with system scheduler",
)

PERIODIC_CRON_DEPRECATED = Condition(
    "periodic-cron-deprecated",
    code=HG258,
    nomad="Job.Warnings",
    source="nomad/structs/structs.go:4987",
    condition="a `periodic` block uses `cron` (a warning, even when the block is disabled)",
    message="cron is deprecated and may be removed in a future release. Use crons instead",
)

# Nomad's other deprecation warnings (TaskGroup.Warnings, nomad/structs/structs.go:7640-7648,
# Task.Warnings for `iops`, at aa026cc99c): one check each, so that `ignore` can take one.
MAX_CLIENT_DISCONNECT_DEPRECATED = Condition(
    "max-client-disconnect-deprecated",
    code=HG258,
    nomad="TaskGroup.Warnings",
    source="nomad/structs/structs.go:7640",
    condition="a group sets `max_client_disconnect` (replaced by `disconnect { lost_after }`)",
    message="MaxClientDisconnect is deprecated and ignored in favor of Disconnect.LostAfter",
    since=(1, 10, 0),
)
STOP_AFTER_CLIENT_DISCONNECT_DEPRECATED = Condition(
    "stop-after-client-disconnect-deprecated",
    code=HG258,
    nomad="TaskGroup.Warnings",
    source="nomad/structs/structs.go:7644",
    condition="a group sets `stop_after_client_disconnect` (replaced by"
    " `disconnect { stop_on_client_after }`)",
    message="StopAfterClientDisconnect is deprecated and ignored favor of Disconnect.StopOnClientAfter",
    since=(1, 10, 0),
)
PREVENT_RESCHEDULE_ON_LOST_DEPRECATED = Condition(
    "prevent-reschedule-on-lost-deprecated",
    code=HG258,
    nomad="TaskGroup.Warnings",
    source="nomad/structs/structs.go:7648",
    condition="a group sets `prevent_reschedule_on_lost = true` (replaced by"
    " `disconnect { replace = false }`)",
    message="PreventRescheduleOnLost is deprecated and ignored in favor of Disconnect.Replace",
    since=(1, 10, 0),
)
MAX_CLIENT_DISCONNECT_TO_BE_DEPRECATED = Condition(
    "max-client-disconnect-to-be-deprecated",
    code=HG258,
    nomad="TaskGroup.Warnings",
    source="nomad/structs/structs.go:7625",
    tag="v1.9.0",
    condition="a group sets `max_client_disconnect` (still honoured, `disconnect { lost_after }` preferred)",
    message="MaxClientDisconnect will be deprecated favor of Disconnect.LostAfter",
    until=(1, 10, 0),
)
STOP_AFTER_CLIENT_DISCONNECT_TO_BE_DEPRECATED = Condition(
    "stop-after-client-disconnect-to-be-deprecated",
    code=HG258,
    nomad="TaskGroup.Warnings",
    source="nomad/structs/structs.go:7629",
    tag="v1.9.0",
    condition="a group sets `stop_after_client_disconnect` (still honoured,"
    " `disconnect { stop_on_client_after }` preferred)",
    message="StopAfterClientDisconnect will be deprecated favor of Disconnect.StopOnClientAfter",
    until=(1, 10, 0),
)
PREVENT_RESCHEDULE_ON_LOST_TO_BE_DEPRECATED = Condition(
    "prevent-reschedule-on-lost-to-be-deprecated",
    code=HG258,
    nomad="TaskGroup.Warnings",
    source="nomad/structs/structs.go:7633",
    tag="v1.9.0",
    condition="a group sets `prevent_reschedule_on_lost = true` (still honoured,"
    " `disconnect { replace = false }` preferred)",
    message="PreventRescheduleOnLost will be deprecated favor of Disconnect.Replace",
    until=(1, 10, 0),
)
IOPS_DEPRECATED = Condition(
    "iops-deprecated",
    code=HG258,
    nomad="Task.Warnings",
    source="nomad/structs/structs.go:8603",
    condition="a task's `resources` sets `iops` above 0 (ignored since Nomad 0.9)",
    message="IOPS has been deprecated as of Nomad 0.9.0. Please remove IOPS from resource block.",
)


BATCH_TYPES = ("batch", "sysbatch")
DEFAULT_TYPE = "service"


@rule(HG255)
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
            HG255,
            f"docker `port_map` of task `{task.name}` {problem}",
            span or ctx.header_span(task),
            help=f"remove `port_map`: set the container port on the group port "
            f'(`port "{label}" {{ to = {to} }}`) and list the port in `config {{ ports = ["{label}"] }}`',
            fix=_port_map_rewrite(ctx, group, task, found) if problem.startswith("cannot map") else (),
            fix_safe=True,  # the rewrite Nomad's upgrade guide gives, port for port
        )


def _port_map_rewrite(
    ctx: Context, group: m.TaskGroup, task: m.Task, found: ast.Attribute | ast.Block | None
) -> tuple[Edit, ...]:
    """`port_map { http = 8080 }` → `ports = ["http"]` in the config and `to = 8080` on the group's
    `port "http"` block; no fix unless every mapped label has such a block without a `to`."""
    mapping = _mappings(task.config or {})
    group_block = ctx.block_of(group)
    if not isinstance(found, ast.Block) or not mapping or group_block is None:
        return ()
    ports = {
        port.labels[0].value: port
        for network in group_block.body.blocks("network")
        for port in network.body.blocks("port")
        if port.labels
    }
    edits = [Edit(found.span, "ports = [" + ", ".join(f'"{label}"' for label in mapping) + "]")]
    for label, to in mapping.items():
        port = ports.get(label)
        if port is None or any(a.name == "to" for a in port.body.attributes()):
            return ()
        edits.append(Edit(port.span, _port_block(ctx, port, to)))
    return tuple(edits)


def _mappings(config: dict[str, object]) -> dict[str, int]:
    blocks = config.get("port_map")
    out: dict[str, int] = {}
    for block in blocks if isinstance(blocks, list) else []:
        for label, port in block.items() if isinstance(block, dict) else ():
            if not isinstance(port, int) or isinstance(port, bool):
                return {}
            out[str(label)] = port
    return out


def _port_block(ctx: Context, port: ast.Block, to: int) -> str:
    """The port block rewritten with `to` added, indented where the block starts."""
    text = ctx.source.text
    indent = " " * (ctx.source.position(port.span.start).column - 1)
    lines = [text[a.span.start : a.span.end] for a in port.body.attributes()] + [f"to = {to}"]
    body = "".join(f"{indent}  {line}\n" for line in lines)
    return f'port "{port.labels[0].value}" {{\n{body}{indent}}}'


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


@rule(HG256)
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
        reject(
            ctx,
            _SCHEDULER_CHECK[name],
            ctx.header_span(node),
            help=f"`{name}` needs a `batch` or `sysbatch` job, but this job is `{kind}`"
            + ("" if job.type else " (the default)")
            + '; set `type = "batch"` (or "sysbatch") on the job',
            related=set_here(ctx, job, "type"),
        )


_SCHEDULER_CHECK = {"periodic": PERIODIC_NEEDS_BATCH, "parameterized": PARAMETERIZED_NEEDS_BATCH}


@rule(HG257)
def system_count_above_one(ctx: Context) -> None:
    """The system scheduler places one allocation per node; Nomad refuses a larger `count`."""
    if ctx.job.type != "system":
        return
    for group in ctx.groups():
        if group.count is not None and group.count > 1:
            reject(
                ctx,
                SYSTEM_COUNT_ABOVE_ONE,
                ctx.value_span(group, "count"),
                group=group.name,
                count=group.count,
                help="a system job runs the group once on every eligible node: remove `count`",
                related=set_here(ctx, ctx.job, "type"),
            )


@rule(HG258)
def deprecated_field(ctx: Context) -> None:
    """Attributes Nomad warns about on `nomad job run`, with their replacements."""
    periodic = ctx.job.periodic
    if periodic is not None and periodic.spec:
        help = "use `crons = [...]`, which takes a list of expressions"
        _deprecated(ctx, PERIODIC_CRON_DEPRECATED, periodic, "cron", "", help, _crons_fix(ctx, periodic))
    for group in ctx.groups():
        for field, replacement, conditions in _GROUP_FIELDS:
            value = getattr(group, field)
            if value is not None and value is not False:  # any duration, 0s included; the flag if true
                fix = _disconnect_fix(ctx, group, field)
                for condition in conditions:  # one holds in any release: reject leaves the other out
                    where = f"group `{group.name}`"
                    _deprecated(ctx, condition, group, field, where, f"use {replacement}", fix)
        for task in group.tasks or []:
            if task.resources is not None and task.resources.iops:
                where = f"task `{task.name}`"
                _deprecated(ctx, IOPS_DEPRECATED, task.resources, "iops", where, "Nomad ignores it since 0.9")


_GROUP_FIELDS = (  # TaskGroup.Warnings: the attribute, its replacement, Nomad's checks (1.10 on, before)
    (
        "max_client_disconnect",
        "`disconnect { lost_after = ... }`",
        (MAX_CLIENT_DISCONNECT_DEPRECATED, MAX_CLIENT_DISCONNECT_TO_BE_DEPRECATED),
    ),
    (
        "stop_after_client_disconnect",
        "`disconnect { stop_on_client_after = ... }`",
        (STOP_AFTER_CLIENT_DISCONNECT_DEPRECATED, STOP_AFTER_CLIENT_DISCONNECT_TO_BE_DEPRECATED),
    ),
    (
        "prevent_reschedule_on_lost",
        "`disconnect { replace = false }`",
        (PREVENT_RESCHEDULE_ON_LOST_DEPRECATED, PREVENT_RESCHEDULE_ON_LOST_TO_BE_DEPRECATED),
    ),
)


def _deprecated(
    ctx: Context,
    condition: Condition,
    node: Node,
    field: str,
    where: str,
    help: str,
    fix: tuple[Edit, ...] = (),
) -> None:
    """Nomad's warning (Job.Warnings, TaskGroup.Warnings, Task.Warnings) at ``field``, with
    the rewrite to its replacement as a safe fix where there is one: the same setting, in the
    form Nomad reads (1.10 ignores the old one)."""
    span = ctx.name_span(node, field)
    reject(ctx, condition, span, where=where, help=f"`{field}` is deprecated: {help}", fix=fix, fix_safe=True)


def _crons_fix(ctx: Context, periodic: m.PeriodicConfig) -> tuple[Edit, ...]:
    """`cron = X` → `crons = [X]`, unless `crons` is written too."""
    cron = ctx.attribute(periodic, "cron")
    if cron is None or ctx.attribute(periodic, "crons") is not None:
        return ()
    value = ctx.source.text[cron.value.span.start : cron.value.span.end]
    return (Edit(cron.span, f"crons = [{value}]"),)


_DISCONNECT = {
    "max_client_disconnect": "lost_after",
    "stop_after_client_disconnect": "stop_on_client_after",
    "prevent_reschedule_on_lost": "replace",
}
"""Each deprecated group attribute's place in the `disconnect` block (api/tasks.go:131-134,
515-522 at v1.10.0); `prevent_reschedule_on_lost = true` is `replace = false`."""


def _disconnect_fix(ctx: Context, group: m.TaskGroup, field: str) -> tuple[Edit, ...]:
    """The attribute's line moved into the group's `disconnect` block as its replacement; the
    first such attribute writes the block where the group has none (the others follow it on
    the next round of `--fix`)."""
    from hclgpu.ir.moves import append_line, replace_lines

    attribute, block = ctx.attribute(group, field), ctx.block_of(group)
    if attribute is None or block is None:
        return ()
    text = ctx.source.text
    key = _DISCONNECT[field]
    written = text[attribute.value.span.start : attribute.value.span.end]
    value = "false" if field == "prevent_reschedule_on_lost" else written
    homes = block.body.blocks("disconnect")
    if len(homes) > 1 or (homes and any(a.name == key for a in homes[0].body.attributes())):
        return ()
    if homes:
        added, removed = (
            append_line(text, homes[0], f"{key} = {value}"),
            ctx.deleted(group, field),
        )
        return added + removed if added and removed else ()
    first = next(a for a in block.body.attributes() if a.name in _DISCONNECT)
    if first is not attribute:
        return ()
    return replace_lines(text, attribute.span, ["disconnect {", f"  {key} = {value}", "}"])
