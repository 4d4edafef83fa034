"""A group's blocks as Nomad's server validates them (HG269-HG273, HG276, HG280, HG285, HG287).

`TaskGroup.Validate` (nomad/structs/structs.go) and what it calls: `RestartPolicy`,
`ReschedulePolicy`, `UpdateStrategy`, `MigrateStrategy`, `EphemeralDisk`,
`DisconnectStrategy` (nomad/structs/group.go), `VolumeRequest` (nomad/structs/volumes.go)
and the scaling bounds. The policies are read from the canonical job: the job's blocks
merged under the group's, then the defaults of the job type, as the agent sends them. A
finding points at the attribute that set the value, in the group's block or else the job's;
a value nobody wrote is blamed on the block (or the group) that left it to the default.
"""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.server import SECOND, Condition, at, go_duration, reject
from hclgpu.ir import models as m
from hclgpu.ir.base import Node

S = "nomad/structs/structs.go"

NEGATIVE_COUNT = Condition(
    "negative-group-count",
    "HG269",
    "TaskGroup.Validate",
    f"{S}:7121",
    "a group's `count` < 0",
    "Task group count can't be negative",
)
RUN_DURATION = Condition(
    "max-run-duration-not-positive",
    "HG269",
    "TaskGroup.Validate",
    f"{S}:7137",
    "`max_run_duration` is 0 or negative",
    "MaxRunDuration must be greater than zero",
    since=(2, 0, 3),
)
RUN_DURATION_TYPE = Condition(
    "max-run-duration-job-type",
    "HG269",
    "TaskGroup.Validate",
    f"{S}:7143",
    "`max_run_duration` in a job that is not batch or sysbatch",
    "Job type {type!r} does not allow max_run_duration",
    since=(2, 0, 3),
)
SYSTEM_AFFINITY = Condition(
    "system-group-affinity",
    "HG269",
    "TaskGroup.Validate",
    f"{S}:7155",
    "a group of a system job has an `affinity`",
    "System jobs may not have an affinity block",
)
SYSTEM_SPREAD = Condition(
    "system-group-spread",
    "HG269",
    "TaskGroup.Validate",
    f"{S}:7176",
    "a group of a system job has a `spread`",
    "System jobs may not have a spread block",
)
SYSTEM_RESCHEDULE = Condition(
    "system-reschedule",
    "HG269",
    "TaskGroup.Validate",
    f"{S}:7189",
    "a system or sysbatch job's group has a `reschedule` block (its own or the job's)",
    "System or sysbatch jobs should not have a reschedule policy",
    since=(1, 11, 0),
)
UPDATE_TYPE = Condition(
    "update-job-type",
    "HG269",
    "TaskGroup.Validate",
    f"{S}:7214",
    "an `update` block (the group's or the job's) in a job that is not service or system",
    "Job type {type!r} does not allow update block",
)
MIGRATE_TYPE = Condition(
    "migrate-job-type",
    "HG269",
    "TaskGroup.Validate",
    f"{S}:7231",
    "a `migrate` block (the group's or the job's) in a job that is not service",
    "Job type {type!r} does not allow migrate block",
)
TASK_NAMELESS = Condition(
    "task-without-name",
    "HG269",
    "TaskGroup.Validate",
    f"{S}:7241",
    'a task is labelled with the empty string (`task "" {}`)',
    "Task {index} missing name",
)
TASK_TWICE = Condition(
    "task-defined-twice",
    "HG269",
    "TaskGroup.Validate",
    f"{S}:7243",
    "two tasks of a group have one name",
    "Task {index} redefines '{name}' from task {first}",
)
LEADERS = Condition(
    "several-leaders",
    "HG269",
    "TaskGroup.Validate",
    f"{S}:7258",
    "more than one task of a group sets `leader = true`",
    "Only one task may be marked as leader",
)
GROUP_SHUTDOWN_DELAY = Condition(
    "group-shutdown-delay-negative",
    "HG269",
    "Job.Validate",
    f"{S}:4836",
    "a group's `shutdown_delay` < 0",
    "ShutdownDelay must be a positive value",
)
RESTART_MODE = Condition(
    "restart-mode",
    "HG270",
    "RestartPolicy.Validate",
    f"{S}:6570",
    "`restart { mode }` is not delay or fail",
    "Unsupported restart mode: {mode!r}",
)
RESTART_AMBIGUOUS = Condition(
    "restart-zero-attempts",
    "HG270",
    "RestartPolicy.Validate",
    f"{S}:6575",
    '`attempts = 0` with a mode other than "fail"',
    "Restart policy {mode!r} with {attempts} attempts is ambiguous",
)
RESTART_INTERVAL = Condition(
    "restart-interval",
    "HG270",
    "RestartPolicy.Validate",
    f"{S}:6579",
    "`restart { interval }` < 5s",
    "Interval can not be less than 5s (got {interval})",
)
RESTART_FIT = Condition(
    "restart-attempts-do-not-fit",
    "HG270",
    "RestartPolicy.Validate",
    f"{S}:6583",
    "`attempts` x `delay` > `interval`",
    "Nomad can't restart the TaskGroup {attempts} times in an interval of {interval} with a delay of {delay}",
)
RESCHEDULE_INTERVAL_ZERO = Condition(
    "reschedule-attempts-without-interval",
    "HG271",
    "ReschedulePolicy.Validate",
    f"{S}:6655",
    "`attempts` > 0 with `interval` 0",
    "Interval must be a non zero value if Attempts > 0",
)
RESCHEDULE_AMBIGUOUS = Condition(
    "reschedule-attempts-and-unlimited",
    "HG271",
    "ReschedulePolicy.Validate",
    f"{S}:6659",
    "`attempts` > 0 while `unlimited = true` (a service job's default)",
    "Reschedule Policy with Attempts = {attempts}, Interval = {interval}, and Unlimited = true is ambiguous",
)
RESCHEDULE_DELAY = Condition(
    "reschedule-delay",
    "HG271",
    "ReschedulePolicy.Validate",
    f"{S}:6667",
    "`delay` < 5s",
    "Delay cannot be less than 5s (got {delay})",
)
RESCHEDULE_FUNCTION = Condition(
    "reschedule-delay-function",
    "HG271",
    "ReschedulePolicy.Validate",
    f"{S}:6673",
    "`delay_function` is not constant, exponential or fibonacci",
    'Invalid delay function {function!r}, must be one of ["constant" "exponential" "fibonacci"]',
)
RESCHEDULE_MAX_DELAY = Condition(
    "reschedule-max-delay",
    "HG271",
    "ReschedulePolicy.Validate",
    f"{S}:6680",
    "`max_delay` < 5s with a delay function other than constant (Nomad prints the delay)",
    "Max Delay cannot be less than 5s (got {delay})",
)
RESCHEDULE_MAX_BELOW = Condition(
    "reschedule-max-delay-below-delay",
    "HG271",
    "ReschedulePolicy.Validate",
    f"{S}:6684",
    "`max_delay` < `delay` with a delay function other than constant",
    "Max Delay cannot be less than Delay {delay} (got {max_delay})",
)
RESCHEDULE_INTERVAL = Condition(
    "reschedule-interval",
    "HG271",
    "ReschedulePolicy.Validate",
    f"{S}:6693",
    "`interval` < 15s when attempts are limited",
    "Interval cannot be less than 15s (got {interval})",
)
RESCHEDULE_FIT = Condition(
    "reschedule-attempts-do-not-fit",
    "HG271",
    "ReschedulePolicy.validateDelayParams",
    f"{S}:6729",
    "the delays of the limited attempts do not fit in `interval`",
    "Set the interval to at least {interval} to accommodate {attempts} attempts",
)
DISK_SIZE = Condition(
    "ephemeral-disk-size",
    "HG280",
    "EphemeralDisk.Validate",
    f"{S}:10401",
    "`ephemeral_disk { size }` < 10",
    "minimum DiskMB value is 10; got {size}",
)
UPDATE_HEALTH = Condition(
    "update-health-check",
    "HG272",
    "UpdateStrategy.Validate",
    f"{S}:5473",
    "`update { health_check }` is not checks, task_states or manual",
    "Invalid health check given: {value!r}",
)
UPDATE_PARALLEL = Condition(
    "update-max-parallel",
    "HG272",
    "UpdateStrategy.Validate",
    f"{S}:5477",
    "`update { max_parallel }` < 0",
    "Max parallel can not be less than zero: {value} < 0",
)
UPDATE_CANARY = Condition(
    "update-canary",
    "HG272",
    "UpdateStrategy.Validate",
    f"{S}:5480",
    "`update { canary }` < 0",
    "Canary count can not be less than zero: {value} < 0",
)
UPDATE_PROMOTE = Condition(
    "update-auto-promote-without-canary",
    "HG272",
    "UpdateStrategy.Validate",
    f"{S}:5483",
    "`auto_promote = true` with `canary = 0`",
    "Auto Promote requires a Canary count greater than zero",
)
UPDATE_MIN_HEALTHY = Condition(
    "update-min-healthy-time",
    "HG272",
    "UpdateStrategy.Validate",
    f"{S}:5486",
    "`min_healthy_time` < 0",
    "Minimum healthy time may not be less than zero: {value}",
)
UPDATE_DEADLINE = Condition(
    "update-healthy-deadline",
    "HG272",
    "UpdateStrategy.Validate",
    f"{S}:5489",
    "`healthy_deadline` <= 0",
    "Healthy deadline must be greater than zero: {value}",
)
UPDATE_PROGRESS = Condition(
    "update-progress-deadline",
    "HG272",
    "UpdateStrategy.Validate",
    f"{S}:5492",
    "`progress_deadline` < 0",
    "Progress deadline must be zero or greater: {value}",
)
UPDATE_MIN_VS_DEADLINE = Condition(
    "update-min-healthy-not-below-deadline",
    "HG272",
    "UpdateStrategy.Validate",
    f"{S}:5495",
    "`min_healthy_time` >= `healthy_deadline` (10s and 5m by default)",
    "Minimum healthy time must be less than healthy deadline: {min} > {deadline}",
)
UPDATE_DEADLINE_VS_PROGRESS = Condition(
    "update-deadline-not-below-progress",
    "HG272",
    "UpdateStrategy.Validate",
    f"{S}:5498",
    "`progress_deadline` is not 0 and `healthy_deadline` >= it (5m and 10m by default)",
    "Healthy deadline must be less than progress deadline: {deadline} > {progress}",
)
UPDATE_STAGGER = Condition(
    "update-stagger",
    "HG272",
    "UpdateStrategy.Validate",
    f"{S}:5501",
    "`stagger` <= 0",
    "Stagger must be greater than zero: {value}",
)
MIGRATE_PARALLEL = Condition(
    "migrate-max-parallel",
    "HG273",
    "MigrateStrategy.Validate",
    f"{S}:6840",
    "`migrate { max_parallel }` < 0",
    "MaxParallel must be >= 0 but found {value}",
)
MIGRATE_HEALTH = Condition(
    "migrate-health-check",
    "HG273",
    "MigrateStrategy.Validate",
    f"{S}:6851",
    "`migrate { health_check }` is not checks or task_states",
    "Invalid HealthCheck: {value!r}",
)
MIGRATE_NEGATIVE = Condition(
    "migrate-negative-duration",
    "HG273",
    "MigrateStrategy.Validate",
    f"{S}:6855",
    "`min_healthy_time` or `healthy_deadline` < 0",
    "{name} is {value} and must be >= 0",
)
MIGRATE_ORDER = Condition(
    "migrate-min-healthy-above-deadline",
    "HG273",
    "MigrateStrategy.Validate",
    f"{S}:6863",
    "`min_healthy_time` > `healthy_deadline` (10s and 5m by default)",
    "MinHealthyTime must be less than HealthyDeadline",
)
STOP_NEGATIVE = Condition(
    "disconnect-stop-negative",
    "HG276",
    "DisconnectStrategy.Validate",
    "nomad/structs/group.go:75",
    "`stop_on_client_after` < 0",
    "stop_after cannot be a negative duration",
)
STOP_TYPE = Condition(
    "disconnect-stop-job-type",
    "HG276",
    "DisconnectStrategy.Validate",
    "nomad/structs/group.go:79",
    "`stop_on_client_after` in a job that is not service or batch",
    "stop_after can only be used with service or batch job types",
)
LOST_NEGATIVE = Condition(
    "disconnect-lost-negative",
    "HG276",
    "DisconnectStrategy.Validate",
    "nomad/structs/group.go:84",
    "`lost_after` < 0",
    "lost_after cannot be a negative duration",
)
STOP_AND_LOST = Condition(
    "disconnect-stop-and-lost",
    "HG276",
    "DisconnectStrategy.Validate",
    "nomad/structs/group.go:88",
    "both `stop_on_client_after` and a non-zero `lost_after`",
    "Disconnect cannot be configured with both lost_after and stop_after",
)
RECONCILE = Condition(
    "disconnect-reconcile",
    "HG276",
    "DisconnectStrategy.Validate",
    "nomad/structs/group.go:95",
    "`reconcile` is not best_score, longest_running, keep_original or keep_replacement",
    "reconcile option is invalid: {value}",
)
VOLUME_SOURCE = Condition(
    "volume-without-source",
    "HG285",
    "VolumeRequest.Validate",
    "nomad/structs/volumes.go:159",
    "a host or csi `volume` has an empty `source`",
    "volume has an empty source",
)
PER_ALLOC_SYSTEM = Condition(
    "volume-per-alloc-in-system-job",
    "HG285",
    "VolumeRequest.Validate",
    "nomad/structs/volumes.go:163",
    "`per_alloc = true` in a system or sysbatch job",
    "volume cannot be per_alloc for system or sysbatch jobs",
)
PER_ALLOC_CANARY = Condition(
    "volume-per-alloc-with-canaries",
    "HG285",
    "VolumeRequest.Validate",
    "nomad/structs/volumes.go:166",
    "`per_alloc = true` while the group's update strategy has canaries",
    "volume cannot be per_alloc when canaries are in use",
)
CSI_ATTACHMENT = Condition(
    "csi-volume-without-attachment-mode",
    "HG285",
    "VolumeRequest.Validate",
    "nomad/structs/volumes.go:200",
    "a csi `volume` has no `attachment_mode`",
    "CSI volumes must have an attachment mode",
)
CSI_ACCESS = Condition(
    "csi-volume-without-access-mode",
    "HG285",
    "VolumeRequest.Validate",
    "nomad/structs/volumes.go:209",
    "a csi `volume` has no `access_mode`",
    "CSI volumes must have an access mode",
)
SCALING_MAX = Condition(
    "count-above-scaling-max",
    "HG287",
    "TaskGroup.validateScalingPolicy",
    f"{S}:7613",
    "a group's `count` > its `scaling { max }`",
    "Scaling policy invalid: task group count must not be greater than maximum count in scaling policy",
)
SCALING_MIN = Condition(
    "count-below-scaling-min",
    "HG287",
    "TaskGroup.validateScalingPolicy",
    f"{S}:7618",
    "a group's `count` < its `scaling { min }`",
    "Scaling policy invalid: task group count must not be less than minimum count in scaling policy",
)
SCALING_CROSSED = Condition(
    "scaling-max-below-min",
    "HG287",
    "ScalingPolicy.Validate",
    f"{S}:6447",
    "`scaling { max }` < `scaling { min }`",
    "Scaling policy invalid: maximum count must not be less than minimum count",
)
SCALING_NEGATIVE = Condition(
    "scaling-negative-bound",
    "HG287",
    "ScalingPolicy.Validate",
    f"{S}:6444",
    "`scaling { min }` or `scaling { max }` < 0",
    "Scaling policy invalid: {bound} count must be specified and non-negative",
)

RESCHEDULE_MIN_DELAY = 5 * SECOND
RESCHEDULE_MIN_INTERVAL = 15 * SECOND


def _blocks(group: m.TaskGroup, job: m.Job, name: str) -> list[Node | None]:
    """The group's block called ``name`` (as written), then the job's: where a value came from."""
    return [getattr(group, name, None), getattr(job, name, None), group]


@rule("HG269")
def group_settings(ctx: Context) -> None:
    job = ctx.canonical
    job_type = job.type or "service"
    for group, written in zip(job.task_groups or [], ctx.job.task_groups or [], strict=False):
        where = f"group `{group.name}`"
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


@rule("HG270")
def restart_policies(ctx: Context) -> None:
    for group, written in zip(ctx.canonical.task_groups or [], ctx.job.task_groups or [], strict=False):
        policy = group.restart_policy
        if policy is None:
            continue
        where = f"group `{group.name}`"
        nodes: list[Node | None] = [written.restart_policy, written]
        mode, attempts = policy.mode or "", policy.attempts or 0
        interval, delay = policy.interval or 0, policy.delay or 0
        if mode not in ("delay", "fail"):
            reject(
                ctx,
                RESTART_MODE,
                at(ctx, nodes, "mode"),
                where=where,
                mode=mode,
                help='use `mode = "fail"` or `"delay"`',
            )
        if attempts == 0 and mode != "fail":
            reject(
                ctx,
                RESTART_AMBIGUOUS,
                at(ctx, nodes, "attempts"),
                where=where,
                mode=mode,
                attempts=attempts,
                help='with no restarts, say `mode = "fail"`',
            )
        if interval < 5 * SECOND:
            reject(
                ctx,
                RESTART_INTERVAL,
                at(ctx, nodes, "interval"),
                where=where,
                interval=go_duration(interval),
                help='use an interval of at least "5s"',
            )
        if attempts * delay > interval:
            reject(
                ctx,
                RESTART_FIT,
                at(ctx, nodes, "attempts", "delay", "interval"),
                where=where,
                attempts=attempts,
                interval=go_duration(interval),
                delay=go_duration(delay),
                help=f"lengthen `interval` to at least {go_duration(attempts * delay)},"
                " or lower `attempts` or `delay`",
            )


@rule("HG271")
def reschedule_policies(ctx: Context) -> None:
    job_type = ctx.canonical.type or "service"
    if job_type in ("system", "sysbatch"):
        return  # refused outright (HG269)
    for group, written in zip(ctx.canonical.task_groups or [], ctx.job.task_groups or [], strict=False):
        policy = group.reschedule_policy
        if policy is None or not ((policy.attempts or 0) > 0 or policy.unlimited):
            continue  # ReschedulePolicy.Enabled
        _reschedule(
            ctx, policy, [written.reschedule_policy, ctx.job.reschedule, written], f"group `{group.name}`"
        )


def _reschedule(ctx: Context, policy: m.ReschedulePolicy, nodes: list[Node | None], where: str) -> None:
    attempts, interval = policy.attempts or 0, policy.interval or 0
    delay, max_delay = policy.delay or 0, policy.max_delay or 0
    function = policy.delay_function or ""
    if attempts > 0 and interval <= 0:
        reject(
            ctx,
            RESCHEDULE_INTERVAL_ZERO,
            at(ctx, nodes, "interval", "attempts"),
            where=where,
            help='set `interval`, e.g. "1h", the window the attempts count in',
        )
    if attempts > 0 and policy.unlimited:
        reject(
            ctx,
            RESCHEDULE_AMBIGUOUS,
            at(ctx, nodes, "attempts", "unlimited"),
            where=where,
            attempts=attempts,
            interval=go_duration(interval),
            help="set `unlimited = false` to limit the attempts"
            " (a service job reschedules without limit by default)",
        )
    viable = delay >= RESCHEDULE_MIN_DELAY and function in ("constant", "exponential", "fibonacci")
    if delay < RESCHEDULE_MIN_DELAY:
        reject(
            ctx,
            RESCHEDULE_DELAY,
            at(ctx, nodes, "delay"),
            where=where,
            delay=go_duration(delay),
            help='use a delay of at least "5s"',
        )
    if function not in ("constant", "exponential", "fibonacci"):
        reject(
            ctx,
            RESCHEDULE_FUNCTION,
            at(ctx, nodes, "delay_function"),
            where=where,
            function=function,
            help="use constant, exponential or fibonacci",
        )
    if function != "constant":
        if max_delay < RESCHEDULE_MIN_DELAY:
            reject(
                ctx,
                RESCHEDULE_MAX_DELAY,
                at(ctx, nodes, "max_delay"),
                where=where,
                delay=go_duration(delay),
                help='use a max_delay of at least "5s"',
            )
            viable = False
        if max_delay < delay:
            reject(
                ctx,
                RESCHEDULE_MAX_BELOW,
                at(ctx, nodes, "max_delay"),
                where=where,
                delay=go_duration(delay),
                max_delay=go_duration(max_delay),
                help="raise `max_delay` to at least `delay`",
            )
            viable = False
    if policy.unlimited:
        return
    if interval < RESCHEDULE_MIN_INTERVAL:
        reject(
            ctx,
            RESCHEDULE_INTERVAL,
            at(ctx, nodes, "interval"),
            where=where,
            interval=go_duration(interval),
            help='use an interval of at least "15s"',
        )
    if viable:
        needed = needed_interval(policy)
        if needed is not None:
            rounded = go_duration(round(needed / SECOND) * SECOND)
            reject(
                ctx,
                RESCHEDULE_FIT,
                at(ctx, nodes, "interval", "attempts"),
                where=where,
                interval=rounded,
                attempts=attempts,
                help=f"lengthen `interval` to {rounded}, or lower `attempts`",
            )


def needed_interval(policy: m.ReschedulePolicy) -> int | None:
    """``viableAttempts``: the interval Nomad recommends when the attempts do not fit, else None."""
    attempts, interval = policy.attempts or 0, policy.interval or 0
    delay, max_delay = policy.delay or 0, policy.max_delay or 0
    function = policy.delay_function
    if function == "constant":
        needed = attempts * delay
        return needed if interval < needed else None
    if function == "exponential":
        needed, possible = 0, 0
        for index in range(attempts):
            step = 2**index * delay
            if step > max_delay:
                needed += max_delay
            else:
                needed = step
            possible += needed < interval
        return needed if possible < attempts else None
    slots = [delay, delay]
    ceiling = False
    for index in range(2, attempts):
        if ceiling:
            step = slots[index - 1] + max_delay
        else:
            step = slots[index - 1] + slots[index - 2]
            if step > max_delay:
                step, ceiling = max_delay, True
        slots.append(step)
    return slots[-1] if interval < slots[-1] else None


@rule("HG272")
def update_strategies(ctx: Context) -> None:
    for group, written in zip(ctx.canonical.task_groups or [], ctx.job.task_groups or [], strict=False):
        update = group.update
        if update is None:
            continue
        nodes: list[Node | None] = [written.update, ctx.job.update, written]
        where = f"group `{group.name}`"
        for condition, name, failed, value in _update_limits(update):
            if failed:
                reject(
                    ctx,
                    condition,
                    at(ctx, nodes, name),
                    where=where,
                    value=value,
                    help=f"correct `{name}` in the `update` block",
                )
        if update.auto_promote and not update.canary:
            reject(
                ctx,
                UPDATE_PROMOTE,
                at(ctx, nodes, "auto_promote"),
                where=where,
                help="set `canary` to 1 or more, or remove `auto_promote`",
            )
        minimum, deadline = update.min_healthy_time or 0, update.healthy_deadline or 0
        progress = update.progress_deadline or 0
        if minimum >= deadline:
            reject(
                ctx,
                UPDATE_MIN_VS_DEADLINE,
                at(ctx, nodes, "min_healthy_time", "healthy_deadline"),
                where=where,
                min=go_duration(minimum),
                deadline=go_duration(deadline),
                help="keep `min_healthy_time` below `healthy_deadline`",
            )
        if progress != 0 and deadline >= progress:
            reject(
                ctx,
                UPDATE_DEADLINE_VS_PROGRESS,
                at(ctx, nodes, "healthy_deadline", "progress_deadline"),
                where=where,
                deadline=go_duration(deadline),
                progress=go_duration(progress),
                help="keep `healthy_deadline` below `progress_deadline` (or set that to 0)",
            )


def _update_limits(update: m.UpdateStrategy) -> list[tuple[Condition, str, bool, object]]:
    """The single-value checks of ``UpdateStrategy.Validate``, in its order."""
    health = update.health_check or ""
    return [
        (UPDATE_HEALTH, "health_check", health not in ("checks", "task_states", "manual"), health),
        (UPDATE_PARALLEL, "max_parallel", (update.max_parallel or 0) < 0, update.max_parallel),
        (UPDATE_CANARY, "canary", (update.canary or 0) < 0, update.canary),
        (
            UPDATE_MIN_HEALTHY,
            "min_healthy_time",
            (update.min_healthy_time or 0) < 0,
            go_duration(update.min_healthy_time or 0),
        ),
        (
            UPDATE_DEADLINE,
            "healthy_deadline",
            (update.healthy_deadline or 0) <= 0,
            go_duration(update.healthy_deadline or 0),
        ),
        (
            UPDATE_PROGRESS,
            "progress_deadline",
            (update.progress_deadline or 0) < 0,
            go_duration(update.progress_deadline or 0),
        ),
        (UPDATE_STAGGER, "stagger", (update.stagger or 0) <= 0, go_duration(update.stagger or 0)),
    ]


@rule("HG273")
def migrate_strategies(ctx: Context) -> None:
    if (ctx.canonical.type or "service") != "service":
        return  # refused outright (HG269)
    for group, written in zip(ctx.canonical.task_groups or [], ctx.job.task_groups or [], strict=False):
        migrate = group.migrate
        if migrate is None:
            continue
        nodes: list[Node | None] = [written.migrate, ctx.job.migrate, written]
        where = f"group `{group.name}`"
        if (migrate.max_parallel or 0) < 0:
            reject(
                ctx,
                MIGRATE_PARALLEL,
                at(ctx, nodes, "max_parallel"),
                where=where,
                value=migrate.max_parallel,
                help="use 0 or more",
            )
        if migrate.health_check not in (None, "", "checks", "task_states"):
            reject(
                ctx,
                MIGRATE_HEALTH,
                at(ctx, nodes, "health_check"),
                where=where,
                value=migrate.health_check,
                help='use `health_check = "checks"` or `"task_states"`',
            )
        minimum, deadline = migrate.min_healthy_time or 0, migrate.healthy_deadline or 0
        for name, label, value in (
            ("min_healthy_time", "MinHealthyTime", minimum),
            ("healthy_deadline", "HealthyDeadline", deadline),
        ):
            if value < 0:
                reject(
                    ctx,
                    MIGRATE_NEGATIVE,
                    at(ctx, nodes, name),
                    where=where,
                    name=label,
                    value=go_duration(value),
                    help="use a duration of 0 or more",
                )
        if minimum > deadline:
            reject(
                ctx,
                MIGRATE_ORDER,
                at(ctx, nodes, "min_healthy_time", "healthy_deadline"),
                where=where,
                help="keep `min_healthy_time` at or below `healthy_deadline`",
            )


@rule("HG276")
def disconnect_strategies(ctx: Context) -> None:
    job_type = ctx.canonical.type or "service"
    for group in ctx.canonical.task_groups or []:
        disconnect = group.disconnect
        if disconnect is None:
            continue
        where = f"group `{group.name}`"
        stop, lost = disconnect.stop_on_client_after, disconnect.lost_after or 0
        if stop is not None and stop < 0:
            reject(
                ctx,
                STOP_NEGATIVE,
                at(ctx, [disconnect], "stop_on_client_after"),
                where=where,
                help="use a duration of 0 or more",
            )
        if stop is not None and job_type not in ("service", "batch"):
            reject(
                ctx,
                STOP_TYPE,
                at(ctx, [disconnect], "stop_on_client_after"),
                where=where,
                help="remove `stop_on_client_after`: it applies to service and batch jobs",
            )
        if lost < 0:
            reject(
                ctx,
                LOST_NEGATIVE,
                at(ctx, [disconnect], "lost_after"),
                where=where,
                help="use a duration of 0 or more",
            )
        if stop is not None and lost != 0:
            reject(
                ctx,
                STOP_AND_LOST,
                at(ctx, [disconnect], "lost_after"),
                where=where,
                help="keep one: `lost_after` (wait, then replace)"
                " or `stop_on_client_after` (stop on the client)",
            )
        if disconnect.reconcile not in (
            None,
            "",
            "best_score",
            "longest_running",
            "keep_original",
            "keep_replacement",
        ):
            reject(
                ctx,
                RECONCILE,
                at(ctx, [disconnect], "reconcile"),
                where=where,
                value=disconnect.reconcile,
                help="use best_score, longest_running, keep_original or keep_replacement",
            )


@rule("HG280")
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


@rule("HG285")
def volume_requests(ctx: Context) -> None:
    """`VolumeRequest.Validate` for the host and csi volumes (the agent drops every other type)."""
    job_type = ctx.canonical.type or "service"
    for group in ctx.canonical.task_groups or []:
        canaries = (group.update.canary or 0) if group.update is not None else 0
        for name, volume in (group.volumes or {}).items():
            if volume.type not in ("host", "csi"):
                continue
            where = f"group `{group.name}`, volume `{name}`"
            if not volume.source:
                reject(
                    ctx,
                    VOLUME_SOURCE,
                    at(ctx, [volume], "source"),
                    where=where,
                    help="set `source`: the host volume or CSI volume ID to claim",
                )
            if volume.per_alloc and job_type in ("system", "sysbatch"):
                reject(
                    ctx,
                    PER_ALLOC_SYSTEM,
                    at(ctx, [volume], "per_alloc"),
                    where=where,
                    help="remove `per_alloc`: system allocations have no index to name volumes by",
                )
            if volume.per_alloc and canaries > 0:
                reject(
                    ctx,
                    PER_ALLOC_CANARY,
                    at(ctx, [volume], "per_alloc"),
                    where=where,
                    help="remove `per_alloc`, or the group's canaries",
                )
            if volume.type == "csi":
                if not volume.attachment_mode:
                    reject(
                        ctx,
                        CSI_ATTACHMENT,
                        ctx.header_span(volume),
                        where=where,
                        help='set `attachment_mode = "file-system"` (or "block-device")',
                    )
                if not volume.access_mode:
                    reject(
                        ctx,
                        CSI_ACCESS,
                        ctx.header_span(volume),
                        where=where,
                        help='set `access_mode`, e.g. "single-node-writer"',
                    )


@rule("HG287")
def scaling_bounds(ctx: Context) -> None:
    for group in ctx.canonical.task_groups or []:
        scaling = group.scaling
        if scaling is None:
            continue
        where = f"group `{group.name}`"
        low, high, count = scaling.min, scaling.max, group.count or 0
        for bound, value in (("minimum", low), ("maximum", high)):
            if value is not None and value < 0:
                reject(
                    ctx,
                    SCALING_NEGATIVE,
                    at(ctx, [scaling], bound[:3]),
                    where=where,
                    bound=bound,
                    help="use a bound of 0 or more",
                )
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
