"""How a group's allocations are replaced, as Nomad's server validates it (HG272, HG273, HG276).

`UpdateStrategy.Validate` and `MigrateStrategy.Validate` (nomad/structs/structs.go) and
`DisconnectStrategy.Validate` (nomad/structs/group.go), which `TaskGroup.Validate` calls:
how a new version rolls out (`update`: parallelism, canaries, health deadlines), how
allocations leave a draining node (`migrate`), and what becomes of those of a client that
loses contact (`disconnect`). Nomad 1.8-1.9 also checked the group attributes `disconnect`
replaced (`max_client_disconnect`, `stop_after_client_disconnect`); 1.10 drops them. Which
job types may have `update` and `migrate` blocks at all is HG269
(:mod:`hclgpu.checks.groups`).

The strategies are read from the canonical job: the job's blocks merged under the group's,
then the defaults of the job type, as the agent sends them. A finding points at the
attribute that set the value, in the group's block or else the job's; a value nobody wrote
is blamed on the block (or the group) that left it to the default.
"""

from __future__ import annotations

from typing import Any

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.server import Condition, at, go_duration, reject
from hclgpu.codes.base import Code, E
from hclgpu.ir import models as m
from hclgpu.ir.base import Node
from hclgpu.ir.schema import schema_of

HG272 = Code(
    "HG272",
    "invalid-update-strategy",
    E,
    summary="An `update` block Nomad refuses",
    doc="""What: a group's update strategy, merged over the job's and the defaults, breaks
`UpdateStrategy.Validate`: unknown `health_check`, negative `max_parallel` or `canary`,
`auto_promote` without canaries, `min_healthy_time` not below `healthy_deadline`,
`healthy_deadline` not below `progress_deadline`, a non-positive `stagger`.

Why: Nomad rejects the job at registration.

Example:
    update {
      min_healthy_time = "10m"
      healthy_deadline = "5m"
    }

Fix: keep min_healthy_time < healthy_deadline < progress_deadline (or progress_deadline
0).""",
)


HG273 = Code(
    "HG273",
    "invalid-migrate-strategy",
    E,
    summary="A `migrate` block Nomad refuses",
    doc="""What: a service group's migrate strategy has a negative `max_parallel`, an empty or
unknown `health_check`, a negative `min_healthy_time` or `healthy_deadline`, or a
`min_healthy_time` above its `healthy_deadline`.

Why: Nomad rejects the job at registration (`MigrateStrategy.Validate`).

Example:
    migrate {
      health_check = "tasks"
    }

Fix: use `health_check = "checks"` or `"task_states"`, and durations that fit.""",
)


HG276 = Code(
    "HG276",
    "invalid-disconnect",
    E,
    summary="A `disconnect` block Nomad refuses",
    doc="""What: a group's `disconnect` block has a negative `lost_after` or
`stop_on_client_after`, sets both, uses `stop_on_client_after` outside service and batch
jobs, or names an unknown `reconcile`. Nomad 1.8 and 1.9 also refuse the group attributes
it replaced when misused: a negative `max_client_disconnect` or
`stop_after_client_disconnect`, both at once, either next to a `disconnect` block, and
`prevent_reschedule_on_lost` with a `disconnect` block or with reschedule attempts (1.10
and later ignore those attributes: HG258).

Why: Nomad rejects the job at registration (`DisconnectStrategy.Validate`,
`TaskGroup.Validate`, `Job.Validate`).

Example:
    disconnect {
      lost_after           = "1h"
      stop_on_client_after = "30m"
    }

Fix: keep one of the two durations; `reconcile` is best_score, longest_running,
keep_original or keep_replacement.""",
)


S = "nomad/structs/structs.go"

UPDATE_HEALTH = Condition(
    "update-health-check",
    code=HG272,
    nomad="UpdateStrategy.Validate",
    source=f"{S}:5473",
    condition="`update { health_check }` is not checks, task_states or manual",
    message="Invalid health check given: {value!r}",
)
UPDATE_PARALLEL = Condition(
    "update-max-parallel",
    code=HG272,
    nomad="UpdateStrategy.Validate",
    source=f"{S}:5477",
    condition="`update { max_parallel }` < 0",
    message="Max parallel can not be less than zero: {value} < 0",
)
UPDATE_CANARY = Condition(
    "update-canary",
    code=HG272,
    nomad="UpdateStrategy.Validate",
    source=f"{S}:5480",
    condition="`update { canary }` < 0",
    message="Canary count can not be less than zero: {value} < 0",
)
UPDATE_PROMOTE = Condition(
    "update-auto-promote-without-canary",
    code=HG272,
    nomad="UpdateStrategy.Validate",
    source=f"{S}:5483",
    condition="`auto_promote = true` with `canary = 0`",
    message="Auto Promote requires a Canary count greater than zero",
)
UPDATE_MIN_HEALTHY = Condition(
    "update-min-healthy-time",
    code=HG272,
    nomad="UpdateStrategy.Validate",
    source=f"{S}:5486",
    condition="`min_healthy_time` < 0",
    message="Minimum healthy time may not be less than zero: {value}",
)
UPDATE_DEADLINE = Condition(
    "update-healthy-deadline",
    code=HG272,
    nomad="UpdateStrategy.Validate",
    source=f"{S}:5489",
    condition="`healthy_deadline` <= 0",
    message="Healthy deadline must be greater than zero: {value}",
)
UPDATE_PROGRESS = Condition(
    "update-progress-deadline",
    code=HG272,
    nomad="UpdateStrategy.Validate",
    source=f"{S}:5492",
    condition="`progress_deadline` < 0",
    message="Progress deadline must be zero or greater: {value}",
)
UPDATE_MIN_VS_DEADLINE = Condition(
    "update-min-healthy-not-below-deadline",
    code=HG272,
    nomad="UpdateStrategy.Validate",
    source=f"{S}:5495",
    condition="`min_healthy_time` >= `healthy_deadline` (10s and 5m by default)",
    message="Minimum healthy time must be less than healthy deadline: {min} > {deadline}",
)
UPDATE_DEADLINE_VS_PROGRESS = Condition(
    "update-deadline-not-below-progress",
    code=HG272,
    nomad="UpdateStrategy.Validate",
    source=f"{S}:5498",
    condition="`progress_deadline` is not 0 and `healthy_deadline` >= it (5m and 10m by default)",
    message="Healthy deadline must be less than progress deadline: {deadline} > {progress}",
)
UPDATE_STAGGER = Condition(
    "update-stagger",
    code=HG272,
    nomad="UpdateStrategy.Validate",
    source=f"{S}:5501",
    condition="`stagger` <= 0",
    message="Stagger must be greater than zero: {value}",
)
MIGRATE_PARALLEL = Condition(
    "migrate-max-parallel",
    code=HG273,
    nomad="MigrateStrategy.Validate",
    source=f"{S}:6840",
    condition="`migrate { max_parallel }` < 0",
    message="MaxParallel must be >= 0 but found {value}",
)
MIGRATE_HEALTH = Condition(
    "migrate-health-check",
    code=HG273,
    nomad="MigrateStrategy.Validate",
    source=f"{S}:6851",
    condition="`migrate { health_check }` is not checks or task_states",
    message="Invalid HealthCheck: {value!r}",
)
MIGRATE_NEGATIVE = Condition(
    "migrate-negative-duration",
    code=HG273,
    nomad="MigrateStrategy.Validate",
    source=f"{S}:6855",
    condition="`migrate { min_healthy_time }` < 0",
    message="MinHealthyTime is {value} and must be >= 0",
)
MIGRATE_DEADLINE_NEGATIVE = Condition(
    "migrate-healthy-deadline-negative",
    code=HG273,
    nomad="MigrateStrategy.Validate",
    source=f"{S}:6859",
    condition="`migrate { healthy_deadline }` < 0",
    message="HealthyDeadline is {value} and must be >= 0",
)
MIGRATE_MISSING_HEALTH = Condition(
    "migrate-missing-health-check",
    code=HG273,
    nomad="MigrateStrategy.Validate",
    source=f"{S}:6848",
    condition='`migrate { health_check = "" }` with `max_parallel` above 0 (1 by default)',
    message="Missing HealthCheck",
)
MIGRATE_ORDER = Condition(
    "migrate-min-healthy-above-deadline",
    code=HG273,
    nomad="MigrateStrategy.Validate",
    source=f"{S}:6863",
    condition="`min_healthy_time` > `healthy_deadline` (10s and 5m by default)",
    message="MinHealthyTime must be less than HealthyDeadline",
)
STOP_NEGATIVE = Condition(
    "disconnect-stop-negative",
    code=HG276,
    nomad="DisconnectStrategy.Validate",
    source="nomad/structs/group.go:75",
    condition="`stop_on_client_after` < 0",
    message="stop_after cannot be a negative duration",
)
STOP_TYPE = Condition(
    "disconnect-stop-job-type",
    code=HG276,
    nomad="DisconnectStrategy.Validate",
    source="nomad/structs/group.go:79",
    condition="`stop_on_client_after` in a job that is not service or batch",
    message="stop_after can only be used with service or batch job types",
)
LOST_NEGATIVE = Condition(
    "disconnect-lost-negative",
    code=HG276,
    nomad="DisconnectStrategy.Validate",
    source="nomad/structs/group.go:84",
    condition="`lost_after` < 0",
    message="lost_after cannot be a negative duration",
)
STOP_AND_LOST = Condition(
    "disconnect-stop-and-lost",
    code=HG276,
    nomad="DisconnectStrategy.Validate",
    source="nomad/structs/group.go:88",
    condition="both `stop_on_client_after` and a non-zero `lost_after`",
    message="Disconnect cannot be configured with both lost_after and stop_after",
)
RECONCILE = Condition(
    "disconnect-reconcile",
    code=HG276,
    nomad="DisconnectStrategy.Validate",
    source="nomad/structs/group.go:95",
    condition="`reconcile` is not best_score, longest_running, keep_original or keep_replacement",
    message="reconcile option is invalid: {value}",
)
STOP_AFTER_TYPE = Condition(
    "stop-after-client-disconnect-job-type",
    code=HG276,
    nomad="Job.Validate",
    source=f"{S}:4892",
    condition="a group's `stop_after_client_disconnect` > 0 in a job that is not service or batch",
    message="stop_after_client_disconnect can only be set in batch and service jobs",
    until=(1, 10, 0),
    tag="v1.9.0",
)
STOP_AFTER_NEGATIVE = Condition(
    "stop-after-client-disconnect-negative",
    code=HG276,
    nomad="Job.Validate",
    source=f"{S}:4894",
    condition="a group's `stop_after_client_disconnect` < 0",
    message="stop_after_client_disconnect must be a positive value",
    until=(1, 10, 0),
    tag="v1.9.0",
)
LOST_WITHOUT_RESCHEDULE = Condition(
    "max-client-disconnect-prevent-reschedule",
    code=HG276,
    nomad="Job.Validate",
    source=f"{S}:4907",
    condition="a group sets `max_client_disconnect` and `prevent_reschedule_on_lost = true` while its"
    " reschedule attempts are above 0 (a batch job's default is 1)",
    message="max_client_disconnect and prevent_reschedule_on_lost cannot be enabled when rechedule.attempts"
    " > 0",
    until=(1, 10, 0),
    tag="v1.9.0",
)
BOTH_LEGACY = Condition(
    "max-and-stop-after-client-disconnect",
    code=HG276,
    nomad="TaskGroup.Validate",
    source=f"{S}:7118",
    condition="a group sets both `max_client_disconnect` and `stop_after_client_disconnect`",
    message="Task group cannot be configured with both max_client_disconnect and"
    " stop_after_client_disconnect",
    until=(1, 10, 0),
    tag="v1.9.0",
)
MAX_DISCONNECT_NEGATIVE = Condition(
    "max-client-disconnect-negative",
    code=HG276,
    nomad="TaskGroup.Validate",
    source=f"{S}:7122",
    condition="a group's `max_client_disconnect` < 0",
    message="max_client_disconnect cannot be negative",
    until=(1, 10, 0),
    tag="v1.9.0",
)
LOST_AND_MAX = Condition(
    "disconnect-with-max-client-disconnect",
    code=HG276,
    nomad="TaskGroup.Validate",
    source=f"{S}:7127",
    condition="a group with a `disconnect` block sets `max_client_disconnect`, and `lost_after` (which the"
    " server sets to it when 0) is above 0; Nomad stops validating the group there",
    message="using both lost_after and max_client_disconnect is not allowed",
    until=(1, 10, 0),
    tag="v1.9.0",
)
STOP_AND_STOP_AFTER = Condition(
    "disconnect-with-stop-after-client-disconnect",
    code=HG276,
    nomad="TaskGroup.Validate",
    source=f"{S}:7131",
    condition="a group with a `disconnect` block sets `stop_after_client_disconnect`; Nomad stops"
    " validating the group there",
    message="using both stop_after_client_disconnect and stop_on_client_after is not allowed",
    until=(1, 10, 0),
    tag="v1.9.0",
)
PREVENT_AND_REPLACE = Condition(
    "disconnect-with-prevent-reschedule-on-lost",
    code=HG276,
    nomad="TaskGroup.Validate",
    source=f"{S}:7135",
    condition="a group with a `disconnect` block (whose `replace` the agent always sets) sets"
    " `prevent_reschedule_on_lost = true`; Nomad stops validating the group there",
    message="using both prevent_reschedule_on_lost and replace is not allowed",
    until=(1, 10, 0),
    tag="v1.9.0",
)


@rule(HG272)
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
                    value=go_duration(value) if _is_duration(name) else value,
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


def _update_limits(update: m.UpdateStrategy) -> list[tuple[Condition, str, bool, Any]]:
    """The single-value checks of ``UpdateStrategy.Validate``, in its order (durations in
    nanoseconds: only a failed one is written out, as Go prints it)."""
    health = update.health_check or ""
    return [
        (UPDATE_HEALTH, "health_check", health not in ("checks", "task_states", "manual"), health),
        (UPDATE_PARALLEL, "max_parallel", (update.max_parallel or 0) < 0, update.max_parallel),
        (UPDATE_CANARY, "canary", (update.canary or 0) < 0, update.canary),
        (
            UPDATE_MIN_HEALTHY,
            "min_healthy_time",
            (update.min_healthy_time or 0) < 0,
            update.min_healthy_time or 0,
        ),
        (
            UPDATE_DEADLINE,
            "healthy_deadline",
            (update.healthy_deadline or 0) <= 0,
            update.healthy_deadline or 0,
        ),
        (
            UPDATE_PROGRESS,
            "progress_deadline",
            (update.progress_deadline or 0) < 0,
            update.progress_deadline or 0,
        ),
        (UPDATE_STAGGER, "stagger", (update.stagger or 0) <= 0, update.stagger or 0),
    ]


def _is_duration(name: str) -> bool:
    """Whether the strategy's field ``name`` is a Go ``time.Duration`` (its model says so)."""
    return schema_of(m.UpdateStrategy).attributes[name].hcl.go == "duration"


@rule(HG273)
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
        if migrate.health_check == "" and (migrate.max_parallel or 0) > 0:
            reject(
                ctx,
                MIGRATE_MISSING_HEALTH,
                at(ctx, nodes, "health_check"),
                where=where,
                help='use `health_check = "checks"` or `"task_states"`, or remove it',
            )
        elif migrate.health_check not in (None, "", "checks", "task_states"):
            reject(
                ctx,
                MIGRATE_HEALTH,
                at(ctx, nodes, "health_check"),
                where=where,
                value=migrate.health_check,
                help='use `health_check = "checks"` or `"task_states"`',
            )
        minimum, deadline = migrate.min_healthy_time or 0, migrate.healthy_deadline or 0
        for condition, name, value in (
            (MIGRATE_NEGATIVE, "min_healthy_time", minimum),
            (MIGRATE_DEADLINE_NEGATIVE, "healthy_deadline", deadline),
        ):
            if value < 0:
                reject(
                    ctx,
                    condition,
                    at(ctx, nodes, name),
                    where=where,
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


@rule(HG276)
def disconnect_strategies(ctx: Context) -> None:
    job_type = ctx.canonical.type or "service"
    legacy = LOST_AND_MAX.holds_in(ctx.profile.release)
    for group in ctx.canonical.task_groups or []:
        where = f"group `{group.name}`"
        if legacy:
            _legacy_disconnect_fields(ctx, group, job_type, where)
        disconnect = group.disconnect
        if disconnect is None or (legacy and _legacy_conflict(ctx, group, disconnect, where)):
            continue
        lost = disconnect.lost_after or 0
        if legacy and lost == 0 and group.max_client_disconnect is not None:
            lost = group.max_client_disconnect  # 1.8-1.9 TaskGroup.Canonicalize copied it over
        _disconnect(ctx, disconnect, lost, job_type, where)


def _disconnect(ctx: Context, disconnect: m.DisconnectStrategy, lost: int, job_type: str, where: str) -> None:
    stop = disconnect.stop_on_client_after
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
            help="keep one: `lost_after` (wait, then replace) or `stop_on_client_after` (stop on the client)",
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


def _legacy_disconnect_fields(ctx: Context, group: m.TaskGroup, job_type: str, where: str) -> None:
    """The group attributes `disconnect` replaced, as Nomad 1.8-1.9 checked them (1.10 and
    later drop them unread: HG258)."""
    stop, most = group.stop_after_client_disconnect, group.max_client_disconnect
    stop_span = at(ctx, [group], "stop_after_client_disconnect")
    if stop and stop > 0 and job_type not in ("batch", "service"):
        reject(
            ctx,
            STOP_AFTER_TYPE,
            stop_span,
            where=where,
            help="remove it: only service and batch allocations are stopped on disconnect",
        )
    elif stop and stop < 0:
        reject(ctx, STOP_AFTER_NEGATIVE, stop_span, where=where, help="use a duration of 0 or more")
    attempts = (group.reschedule_policy.attempts or 0) if group.reschedule_policy is not None else 0
    if most is not None and attempts > 0 and group.prevent_reschedule_on_lost:
        reject(
            ctx,
            LOST_WITHOUT_RESCHEDULE,
            at(ctx, [group], "prevent_reschedule_on_lost"),
            where=where,
            help="set `reschedule { attempts = 0 }`, or remove `prevent_reschedule_on_lost`",
        )
    if most is not None and stop is not None:
        reject(
            ctx,
            BOTH_LEGACY,
            at(ctx, [group], "max_client_disconnect"),
            where=where,
            help="keep one: `max_client_disconnect` (wait, then replace) or `stop_after_client_disconnect`",
        )
    if most is not None and most < 0:
        reject(
            ctx,
            MAX_DISCONNECT_NEGATIVE,
            at(ctx, [group], "max_client_disconnect"),
            where=where,
            help="use a duration of 0 or more",
        )


def _legacy_conflict(ctx: Context, group: m.TaskGroup, disconnect: m.DisconnectStrategy, where: str) -> bool:
    """A `disconnect` block next to the attributes it replaced: Nomad 1.8-1.9 reported the
    first clash and stopped validating the group (its own checks included)."""
    most = group.max_client_disconnect
    lost = (disconnect.lost_after or 0) or (most or 0)
    if most is not None and lost > 0:
        condition, name = LOST_AND_MAX, "max_client_disconnect"
    elif group.stop_after_client_disconnect is not None:
        condition, name = STOP_AND_STOP_AFTER, "stop_after_client_disconnect"
    elif group.prevent_reschedule_on_lost:
        condition, name = PREVENT_AND_REPLACE, "prevent_reschedule_on_lost"
    else:
        return False
    reject(
        ctx,
        condition,
        at(ctx, [group], name),
        where=where,
        help=f"remove `{name}`: the `disconnect` block replaces it",
    )
    return True
