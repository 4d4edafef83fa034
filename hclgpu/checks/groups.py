"""A group's own settings as Nomad's server validates them (HG269, HG280, HG287).

`TaskGroup.Validate` (nomad/structs/structs.go), less the policy blocks it hands on: the
group's name and `count`, its tasks (at least one, a main one among them, each name once,
one leader), `max_run_duration` and `shutdown_delay`, the blocks its job type forbids
(affinity and spread in a system job, `reschedule`, `update` and `migrate` where Nomad does
not use them), the group networks' own checks (ports are HG245-HG247), the
`ephemeral_disk` size and the scaling bounds. The restart and reschedule policies are
:mod:`hclgpu.checks.policies`; the update, migrate and disconnect strategies are
:mod:`hclgpu.checks.strategies`; the group's `volume` requests are
:mod:`hclgpu.checks.volumes`.

The rules read the canonical job: the job's blocks merged under the group's, then the
defaults of the job type, as the agent sends them. A block a job type forbids is blamed on
the group's block, else the job's; the tasks are judged as the server stores them, with the
Envoy tasks its admission hooks inject.
"""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.server import Check, Condition, at, reject
from hclgpu.checks.tasks import HG280
from hclgpu.codes.base import Code, E
from hclgpu.codes.evaluation import HG122
from hclgpu.ir import models as m

HG269 = Code(
    "HG269",
    "invalid-group",
    E,
    summary="A group setting Nomad refuses",
    doc="""What: a group breaks a rule of `TaskGroup.Validate`: an empty label, no task (or,
since 2.0.6, only lifecycle tasks), a negative `count`, two tasks with one name, more than
one `leader` task, an `update` block outside service and system jobs, a `migrate` block
outside service jobs, a `reschedule` block in a system or sysbatch job, an affinity or
spread in a system job, a negative `shutdown_delay`, a `max_run_duration` that is not
positive or not in a batch job; or a group network ignores port collisions off host
networking, repeats a `cni { args }` key or puts `;` in one, or has a `hostname` that is
not a DNS name.

Why: Nomad rejects the job at registration ("Task group web validation failed: ...").

Example:
    job "ops" {
      type = "batch"
      group "run" {
        update { max_parallel = 1 }
      }
    }

Fix: remove the block the job type does not allow, or change what the message names.""",
)


HG287 = Code(
    "HG287",
    "count-outside-scaling",
    E,
    summary="A group count outside its `scaling` bounds",
    doc="""What: a group's `count` is below its `scaling { min }` or above its `scaling { max }`,
or a bound is negative, or `max` is below `min`.

Why: Nomad rejects the job at registration: "Scaling policy invalid: task group count
must not be greater than maximum count in scaling policy".

Example:
    count = 10
    scaling {
      min = 1
      max = 5
    }

Fix: keep `count` between `min` and `max`.""",
)

SCALING_POLICY_TYPE = Condition(
    "scaling-policy-type",
    code=HG122,
    nomad="ScalingPolicy.validateType",
    source="nomad/structs/structs_ce.go:61",
    condition='a group `scaling` block\'s `type` is not "horizontal" (the file is refused when parsed)',
    message='Scaling policy invalid: scaling policy type "{type}" is not valid',
)
TASK_SCALING_NAME = Check(
    "task-scaling-policy-name",
    code=HG122,
    condition='a task `scaling` block is named other than "cpu" or "mem" (reported by the decoder,'
    " hclgpu.ir.custom, as Nomad's parser refuses the file)",
)
TASK_SCALING_TYPE = Check(
    "task-scaling-policy-type",
    code=HG122,
    condition='a task `scaling "cpu"` (or "mem") block\'s `type` is not vertical_cpu (vertical_mem)'
    " (reported by the decoder, hclgpu.ir.custom)",
)


S = "nomad/structs/structs.go"

NEGATIVE_COUNT = Condition(
    "negative-group-count",
    code=HG269,
    nomad="TaskGroup.Validate",
    source=f"{S}:7121",
    condition="a group's `count` < 0",
    message="Task group count can't be negative",
)
RUN_DURATION = Condition(
    "max-run-duration-not-positive",
    code=HG269,
    nomad="TaskGroup.Validate",
    source=f"{S}:7137",
    condition="`max_run_duration` is 0 or negative",
    message="MaxRunDuration must be greater than zero",
    since=(2, 0, 3),
)
RUN_DURATION_TYPE = Condition(
    "max-run-duration-job-type",
    code=HG269,
    nomad="TaskGroup.Validate",
    source=f"{S}:7143",
    condition="`max_run_duration` in a job that is not batch or sysbatch",
    message="Job type {type!r} does not allow max_run_duration",
    since=(2, 0, 3),
)
SYSTEM_AFFINITY = Condition(
    "system-group-affinity",
    code=HG269,
    nomad="TaskGroup.Validate",
    source=f"{S}:7155",
    condition="a group of a system job has an `affinity`",
    message="System jobs may not have an affinity block",
)
SYSTEM_SPREAD = Condition(
    "system-group-spread",
    code=HG269,
    nomad="TaskGroup.Validate",
    source=f"{S}:7176",
    condition="a group of a system job has a `spread`",
    message="System jobs may not have a spread block",
)
SYSTEM_RESCHEDULE = Condition(
    "system-reschedule",
    code=HG269,
    nomad="TaskGroup.Validate",
    source=f"{S}:7189",
    condition="a system or sysbatch job's group has a `reschedule` block (its own or the job's)",
    message="System or sysbatch jobs should not have a reschedule policy",
    since=(1, 11, 0),
)
UPDATE_TYPE = Condition(
    "update-job-type",
    code=HG269,
    nomad="TaskGroup.Validate",
    source=f"{S}:7214",
    condition="an `update` block (the group's or the job's) in a job that is not service or system",
    message="Job type {type!r} does not allow update block",
)
MIGRATE_TYPE = Condition(
    "migrate-job-type",
    code=HG269,
    nomad="TaskGroup.Validate",
    source=f"{S}:7231",
    condition="a `migrate` block (the group's or the job's) in a job that is not service",
    message="Job type {type!r} does not allow migrate block",
)
TASK_NAMELESS = Condition(
    "task-without-name",
    code=HG269,
    nomad="TaskGroup.Validate",
    source=f"{S}:7241",
    condition='a task is labelled with the empty string (`task "" {}`)',
    message="Task {index} missing name",
)
TASK_TWICE = Condition(
    "task-defined-twice",
    code=HG269,
    nomad="TaskGroup.Validate",
    source=f"{S}:7243",
    condition="two tasks of a group have one name",
    message="Task {index} redefines '{name}' from task {first}",
)
LEADERS = Condition(
    "several-leaders",
    code=HG269,
    nomad="TaskGroup.Validate",
    source=f"{S}:7258",
    condition="more than one task of a group sets `leader = true`",
    message="Only one task may be marked as leader",
)
GROUP_SHUTDOWN_DELAY = Condition(
    "group-shutdown-delay-negative",
    code=HG269,
    nomad="Job.Validate",
    source=f"{S}:4836",
    condition="a group's `shutdown_delay` < 0",
    message="ShutdownDelay must be a positive value",
)
GROUP_MISSING_NAME = Condition(
    "task-group-missing-name",
    code=HG269,
    nomad="TaskGroup.Validate",
    source=f"{S}:7115",
    condition='a group is labelled with the empty string (`group "" {}`; Job.Validate says so too)',
    message="Missing task group name",
)
NO_TASKS = Condition(
    "group-without-tasks",
    code=HG269,
    nomad="TaskGroup.Validate",
    source=f"{S}:7126",
    condition="a group has no `task` block, and gets no Envoy task from the server (a Connect sidecar or"
    " gateway service in a group with a network)",
    message="Missing tasks for task group",
)
NO_MAIN_TASK = Condition(
    "group-without-main-task",
    code=HG269,
    nomad="TaskGroup.Validate",
    source=f"{S}:7264",
    condition="every task of a group (injected Envoy sidecars included) has a `lifecycle` hook",
    message="Task group {group} must have at least one main task",
    since=(2, 0, 6),
)
IGNORED_COLLISION = Condition(
    "port-collision-ignored-off-host",
    code=HG269,
    nomad="TaskGroup.validateNetworks",
    source=f"{S}:7362",
    condition="a port sets `ignore_collision = true` in a network whose `mode` is not host",
    message="Port {label!r} collision may not be ignored on non-host network mode {mode!r}",
    since=(1, 9, 0),
)
CNI_ARG_TWICE = Condition(
    "cni-arg-twice",
    code=HG269,
    nomad="TaskGroup.validateNetworks",
    source=f"{S}:7371",
    condition="two `network` blocks of a group set one `cni { args }` key",
    message="duplicate CNI arg {key!r}",
    since=(1, 8, 2),
)
CNI_KEY_SEMICOLON = Condition(
    "cni-arg-key-semicolon",
    code=HG269,
    nomad="TaskGroup.validateNetworks",
    source=f"{S}:7382",
    condition="a `cni { args }` key contains `;`",
    message="invalid ';' character in CNI arg key {key!r}",
    since=(1, 8, 2),
)
CNI_VALUE_SEMICOLON = Condition(
    "cni-arg-value-semicolon",
    code=HG269,
    nomad="TaskGroup.validateNetworks",
    source=f"{S}:7386",
    condition="a `cni { args }` value contains `;`",
    message="invalid ';' character in CNI arg value {value!r}",
    since=(1, 8, 2),
)
HOSTNAME = Condition(
    "network-hostname",
    code=HG269,
    nomad="TaskGroup.validateNetworks",
    source=f"{S}:7398",
    condition="a network's `hostname` (without `${`) is not a DNS name to miekg/dns: a leading dot, an empty"
    " label, a label over 63 bytes or a name over 255 bytes",
    message="Hostname is not a valid DNS name",
)
DISK_SIZE = Condition(
    "ephemeral-disk-size",
    code=HG280,
    nomad="EphemeralDisk.Validate",
    source=f"{S}:10401",
    condition="`ephemeral_disk { size }` < 10",
    message="minimum DiskMB value is 10; got {size}",
)
SCALING_MAX = Condition(
    "count-above-scaling-max",
    code=HG287,
    nomad="TaskGroup.validateScalingPolicy",
    source=f"{S}:7613",
    condition="a group's `count` > its `scaling { max }`",
    message="Scaling policy invalid: task group count must not be greater than maximum count in scaling"
    " policy",
)
SCALING_MIN = Condition(
    "count-below-scaling-min",
    code=HG287,
    nomad="TaskGroup.validateScalingPolicy",
    source=f"{S}:7618",
    condition="a group's `count` < its `scaling { min }`",
    message="Scaling policy invalid: task group count must not be less than minimum count in scaling policy",
)
SCALING_CROSSED = Condition(
    "scaling-max-below-min",
    code=HG287,
    nomad="ScalingPolicy.Validate",
    source=f"{S}:6447",
    condition="`scaling { max }` < `scaling { min }`",
    message="Scaling policy invalid: maximum count must not be less than minimum count",
)
SCALING_NEGATIVE = Condition(
    "scaling-negative-bound",
    code=HG287,
    nomad="ScalingPolicy.Validate",
    source=f"{S}:6452",
    condition="`scaling { min }` < 0",
    message="Scaling policy invalid: minimum count must be specified and non-negative",
)
SCALING_MAX_NEGATIVE = Condition(
    "scaling-max-negative",
    code=HG287,
    nomad="ScalingPolicy.Validate",
    source=f"{S}:6444",
    condition="`scaling { max }` < 0",
    message="Scaling policy invalid: maximum count must be specified and non-negative",
)


@rule(HG269)
def group_settings(ctx: Context) -> None:
    job = ctx.canonical
    job_type = job.type or "service"
    stored = ctx.admitted.task_groups or []  # the tasks Nomad validates include its Envoy tasks
    for group, written, admitted in zip(
        job.task_groups or [], ctx.job.task_groups or [], stored, strict=False
    ):
        where = f"group `{group.name}`" if group.name else "unnamed group"
        if not group.name:
            reject(ctx, GROUP_MISSING_NAME, ctx.label_span(group), where=where, help="give the group a name")
        _has_main_task(ctx, group, admitted, where)
        if (group.count or 0) < 0:
            reject(
                ctx, NEGATIVE_COUNT, at(ctx, [group], "count"), where=where, help="use a count of 0 or more"
            )
        _run_duration(ctx, group, job_type, where)
        if job_type == "system":
            for condition, blocks in ((SYSTEM_AFFINITY, group.affinities), (SYSTEM_SPREAD, group.spreads)):
                if blocks:
                    reject(
                        ctx,
                        condition,
                        ctx.header_span(blocks[0]),
                        where=where,
                        help="remove it: a system job runs on every eligible node",
                    )
        _allowed_blocks(ctx, group, written, job_type, where)
        if (group.shutdown_delay or 0) < 0:
            reject(
                ctx,
                GROUP_SHUTDOWN_DELAY,
                at(ctx, [group], "shutdown_delay"),
                where=where,
                help="use a delay of 0 or more",
            )
        _task_names(ctx, group, where)
        _networks(ctx, group, where)


def _has_main_task(ctx: Context, group: m.TaskGroup, admitted: m.TaskGroup, where: str) -> None:
    """A group needs a task, and since 2.0.6 one without a lifecycle hook: the main task whose
    end ends the allocation (an injected Envoy sidecar is a prestart task, a gateway is main)."""
    tasks = admitted.tasks or []
    if not tasks:
        reject(ctx, NO_TASKS, ctx.label_span(group), where=where, help="add a `task` block to the group")
    elif all(task.lifecycle is not None and task.lifecycle.hook for task in tasks):
        reject(
            ctx,
            NO_MAIN_TASK,
            ctx.label_span(group),
            where=where,
            group=group.name,
            help="remove the `lifecycle` block of the task that does the group's work",
        )


def _networks(ctx: Context, group: m.TaskGroup, where: str) -> None:
    """The group-network checks of `TaskGroup.validateNetworks` that the port rules (HG245-HG247)
    leave: ignored collisions off host networking, CNI arguments and the hostname."""
    cni_keys: set[str] = set()
    for network in group.networks or []:
        mode = network.mode or ""
        for port in [*(network.reserved_ports or []), *(network.dynamic_ports or [])]:
            if port.ignore_collision and mode not in ("", "host"):
                reject(
                    ctx,
                    IGNORED_COLLISION,
                    at(ctx, [port], "ignore_collision"),
                    where=where,
                    label=port.label,
                    mode=mode,
                    help="remove `ignore_collision`: only host networking shares the host's ports",
                )
        if network.cni is not None:
            _cni_args(ctx, network.cni, cni_keys, where)
        hostname = network.hostname or ""
        if hostname and "${" not in hostname and not is_domain_name(hostname):
            reject(
                ctx,
                HOSTNAME,
                at(ctx, [network], "hostname"),
                where=where,
                help="use labels of 1 to 63 characters separated by single dots",
            )


def _cni_args(ctx: Context, cni: m.CNIConfig, seen: set[str], where: str) -> None:
    """``CNI_ARGS`` is one "key=value;key=value" string: a ";" or a key twice would break it."""
    span = at(ctx, [cni], "args")
    for key, value in (cni.args or {}).items():
        if key in seen:
            reject(ctx, CNI_ARG_TWICE, span, where=where, key=key, help="set each CNI argument once")
        seen.add(key)
        fix = "remove the `;`: CNI_ARGS separates its pairs with it"
        if ";" in key:
            reject(ctx, CNI_KEY_SEMICOLON, span, where=where, key=key, help=fix)
        if ";" in str(value):
            reject(ctx, CNI_VALUE_SEMICOLON, span, where=where, value=str(value), help=fix)


DNS_NAME_LIMIT = 256
"""miekg/dns ``lenmsg``: what a name's labels, a length byte each, may add up to."""


def is_domain_name(name: str) -> bool:
    """miekg/dns ``IsDomainName`` (v1.1.72): only the shape is checked (no leading dot, no
    empty label, labels under 64 bytes, 256 bytes in all, no dangling backslash); any
    character is allowed."""
    text = name.encode()
    if not text:
        return False
    if not _is_fqdn(text):
        text += b"."
    offset = begin = index = 0
    was_dot = escape = False
    while index < len(text):
        byte = text[index : index + 1]
        if byte == b"\\":
            escape = not escape
            step = 3 if len(text[index + 1 : index + 4]) == 3 and text[index + 1 : index + 4].isdigit() else 1
            index, begin, was_dot = index + step, begin + step, False
        elif byte == b".":
            escape = False
            if (index == 0 and len(text) > 1) or was_dot or index - begin >= 64:
                return False
            offset += 1 + index - begin
            if offset > DNS_NAME_LIMIT:
                return False
            begin, was_dot = index + 1, True
        else:
            escape = was_dot = False
        index += 1
    return not escape


def _is_fqdn(text: bytes) -> bool:
    """miekg/dns ``IsFqdn``: a final dot that an odd run of backslashes does not escape."""
    if not text.endswith(b"."):
        return False
    body = text[:-1]
    backslashes = len(body) - len(body.rstrip(b"\\"))
    return backslashes % 2 == 0


def _run_duration(ctx: Context, group: m.TaskGroup, job_type: str, where: str) -> None:
    if group.max_run_duration is None:
        return
    span = at(ctx, [group], "max_run_duration")
    if group.max_run_duration <= 0:
        reject(ctx, RUN_DURATION, span, where=where, help="use a positive duration, or remove it")
    if job_type not in ("batch", "sysbatch"):
        reject(
            ctx,
            RUN_DURATION_TYPE,
            span,
            where=where,
            type=job_type,
            help="only batch and sysbatch jobs stop after a run time",
        )


def _allowed_blocks(
    ctx: Context, group: m.TaskGroup, written: m.TaskGroup, job_type: str, where: str
) -> None:
    job = ctx.job
    if job_type in ("system", "sysbatch") and group.reschedule_policy is not None:
        span = at(ctx, [written.reschedule_policy, job.reschedule])
        reject(
            ctx,
            SYSTEM_RESCHEDULE,
            span,
            where=where,
            help="remove the `reschedule` block: Nomad does not reschedule system jobs",
        )
    if group.update is not None and job_type not in ("service", "system"):
        reject(
            ctx,
            UPDATE_TYPE,
            at(ctx, [written.update, job.update]),
            where=where,
            type=job_type,
            help="remove the `update` block: only service and system jobs roll out updates",
            fix=ctx.deleted(written.update or job.update),  # unsafe: what it said is gone too
        )
    if group.migrate is not None and job_type != "service":
        reject(
            ctx,
            MIGRATE_TYPE,
            at(ctx, [written.migrate, job.migrate]),
            where=where,
            type=job_type,
            help="remove the `migrate` block: only service jobs migrate on drain",
        )


def _task_names(ctx: Context, group: m.TaskGroup, where: str) -> None:
    first: dict[str, int] = {}
    leaders = 0
    for index, task in enumerate(group.tasks or [], 1):
        if not task.name:
            reject(
                ctx,
                TASK_NAMELESS,
                ctx.label_span(task),
                where=where,
                index=index,
                help="give the task a name",
            )
        elif task.name in first:
            reject(
                ctx,
                TASK_TWICE,
                ctx.label_span(task),
                where=where,
                index=index,
                name=task.name,
                first=first[task.name],
                help="give each task its own name",
            )
        else:
            first[task.name] = index
        leaders += bool(task.leader)
    if leaders > 1:
        second = [task for task in group.tasks or [] if task.leader][1]
        reject(
            ctx, LEADERS, at(ctx, [second], "leader"), where=where, help="keep `leader = true` on one task"
        )


@rule(HG280)
def ephemeral_disks(ctx: Context) -> None:
    """`EphemeralDisk.Validate`; the log files that must fit on the disk are checked with tasks."""
    for group in ctx.canonical.task_groups or []:
        disk = group.ephemeral_disk
        if disk is not None and (disk.size_mb or 0) < 10:
            reject(
                ctx,
                DISK_SIZE,
                at(ctx, [disk, group], "size"),
                where=f"group `{group.name}`",
                size=disk.size_mb or 0,
                help="use a size of at least 10 (MB)",
            )


@rule(HG287)
def scaling_bounds(ctx: Context) -> None:
    for group in ctx.canonical.task_groups or []:
        scaling = group.scaling
        if scaling is None:
            continue
        where = f"group `{group.name}`"
        low, high, count = scaling.min, scaling.max, group.count or 0
        for condition, name, value in ((SCALING_NEGATIVE, "min", low), (SCALING_MAX_NEGATIVE, "max", high)):
            if value is not None and value < 0:
                reject(ctx, condition, at(ctx, [scaling], name), where=where, help="use a bound of 0 or more")
        if low is not None and high is not None and 0 <= high < low:
            reject(
                ctx,
                SCALING_CROSSED,
                at(ctx, [scaling], "max"),
                where=where,
                help="keep `max` at or above `min`",
            )
        if high is not None and count > high:
            reject(
                ctx,
                SCALING_MAX,
                at(ctx, [group, scaling], "count", "max"),
                where=where,
                help=f"lower `count` to at most {high}, or raise `max`",
            )
        if low is not None and count < low:
            reject(
                ctx,
                SCALING_MIN,
                at(ctx, [group, scaling], "count", "min"),
                where=where,
                help=f"raise `count` to at least {low}, or lower `min`",
            )
