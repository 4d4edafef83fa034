"""The job's own settings as Nomad's server validates them (HG268, HG274, HG275, HG277, HG288, HG289).

`Job.Validate` and the server's `jobValidate` admission hook (nomad/structs/structs.go,
nomad/job_endpoint_hooks.go), `PeriodicConfig.Validate`, `ParameterizedJobConfig.Validate`,
`DispatchPayloadConfig.Validate`, `Spread.Validate` (job and group spreads) and the
constraint-attribute check `validateConstraintAttribute` (nomad/structs/constraint.go,
Nomad 1.11.2 and later), and `Multiregion.Validate`, which a Community Edition server fails
outright (nomad/structs/structs_ce.go). The job read is the canonical one: type "service"
and priority 50 when unset, the job ID as its name.
"""

from __future__ import annotations

import re

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.server import Condition, at, escapes_allocation, parse_uint_error, reject
from hclgpu.codes.base import Code, E
from hclgpu.eval.expr import closest
from hclgpu.ir import models as m
from hclgpu.ir.base import Node

HG268 = Code(
    "HG268",
    "invalid-job",
    E,
    summary="A job-level setting Nomad refuses",
    doc="""What: the job itself breaks a rule of `Job.Validate` or of the server's `jobValidate`
hook: an empty job ID or name, an empty or unknown `type`, no group at all, a priority
outside 1-100, an empty datacenter name, two groups with one name, an affinity or spread in
a system job, a `ui` description of 1000 characters or more.

Why: Nomad rejects the job at registration with the message shown; nothing of it is
scheduled.

Example:
    job "web" {
      type     = "services"
      priority = 120
    }

Fix: write what the message asks for: `type` one of service, batch, system, sysbatch;
`priority` from 1 to 100.""",
)


HG274 = Code(
    "HG274",
    "invalid-periodic",
    E,
    summary="A `periodic` block Nomad refuses",
    doc="""What: an enabled `periodic` block sets both `cron` and `crons`, sets neither, names an
unknown `time_zone`, or has a cron expression (in `cron` or any of `crons`) Nomad cannot
parse.

Why: Nomad rejects the job at registration (`PeriodicConfig.Validate`).

Example:
    periodic {
      crons     = ["0 * * * *"]
      time_zone = "Mars/Olympus"
    }

Fix: write one of `cron`/`crons`, a five-field (or six/seven-field) expression, and an
IANA time zone.""",
)


HG275 = Code(
    "HG275",
    "invalid-parameterized",
    E,
    summary="A `parameterized` or `dispatch_payload` block Nomad refuses",
    doc="""What: `payload` is not optional, required or forbidden; a meta key is both required and
optional; or a task's `dispatch_payload { file }` points outside the allocation
directory.

Why: Nomad rejects the job at registration (`ParameterizedJobConfig.Validate`,
`DispatchPayloadConfig.Validate`).

Example:
    parameterized {
      payload       = "needed"
      meta_required = ["x"]
      meta_optional = ["x"]
    }

Fix: use one of the three payload values and keep the two meta lists apart.""",
)


HG277 = Code(
    "HG277",
    "invalid-spread",
    E,
    summary="A `spread` block Nomad refuses",
    doc="""What: a spread has no `attribute`, a weight outside 1-100 (0 included), a target value
twice, a target percent over 100, or target percents summing over 100.

Why: Nomad rejects the job at registration (`Spread.Validate`).

Example:
    spread {
      attribute = "${node.datacenter}"
      target "dc1" { percent = 70 }
      target "dc2" { percent = 50 }
    }

Fix: make the target percents add up to at most 100.""",
)


HG288 = Code(
    "HG288",
    "invalid-constraint-attribute",
    E,
    summary="A constraint `attribute` Nomad's server refuses",
    doc="""What: since Nomad 1.11.2 a constraint's `attribute` must be a literal or one
interpolation of `${node.unique.id}`, `${node.datacenter}`, `${node.unique.name}`,
`${node.class}`, `${node.pool}`, `${attr.*}`, `${meta.*}` or `${device.*}`, with both
braces; a `distinct_property` limit must be a number of 1 or more.

Why: Nomad rejects the job at registration (`validateConstraintAttribute`,
`Constraint.Validate`).

Example:
    constraint {
      attribute = "${node.region}"
      value     = "eu"
    }

Fix: use one of the targets Nomad knows.""",
)


HG289 = Code(
    "HG289",
    "requires-enterprise",
    E,
    summary="A feature the Community Edition server refuses",
    doc="""What: the job uses what only Nomad Enterprise accepts: `numa` with affinity prefer or
require, a task `schedule`, a `multiregion` block with regions, a Vault `namespace`, a
Vault or Consul `cluster` other than "default".

Why: A Community Edition server rejects the job at registration: "numa scheduling
requires Nomad Enterprise", "non-default Vault cluster requires Nomad Enterprise" (the
admission hooks of nomad/job_endpoint_hook_*_ce.go). On Enterprise it is accepted. Which
one a cluster runs is a fact of the cluster: HG289 is reported only when the profile says
`enterprise = false` (in hclgpu.toml, or `--no-enterprise`).

Example:
    resources {
      numa { affinity = "require" }
    }

Fix: run it on Nomad Enterprise (and say so: `enterprise = true`), or remove the block.""",
)


S = "nomad/structs/structs.go"
HOOKS = "nomad/job_endpoint_hooks.go"

MISSING_ID = Condition(
    "missing-job-id",
    code=HG268,
    nomad="Job.Validate",
    source=f"{S}:4744",
    condition='the job ID is empty (`job "" {}`, or `id = ""`)',
    message="Missing job ID",
)
MISSING_NAME = Condition(
    "missing-job-name",
    code=HG268,
    nomad="Job.Validate",
    source=f"{S}:4751",
    condition='`name = ""`',
    message="Missing job name",
)
MISSING_TYPE = Condition(
    "missing-job-type",
    code=HG268,
    nomad="Job.Validate",
    source=f"{S}:4762",
    condition='`type = ""` (the agent defaults only an unset type to service)',
    message="Missing job type",
)
INVALID_TYPE = Condition(
    "invalid-job-type",
    code=HG268,
    nomad="Job.Validate",
    source=f"{S}:4764",
    condition="`type` is not service, batch, system or sysbatch (nor empty)",
    message="Invalid job type: {type!r}",
)
CORE_TYPE = Condition(
    "core-job-type",
    code=HG268,
    nomad="jobValidate.Validate",
    source=f"{HOOKS}:511",
    condition='`type = "_core"`',
    message="job type cannot be core",
)
EMPTY_DATACENTER = Condition(
    "empty-datacenter",
    code=HG268,
    nomad="Job.Validate",
    source=f"{S}:4771",
    condition="`datacenters` holds an empty string",
    message="Job datacenter must be non-empty string",
)
NO_GROUPS = Condition(
    "job-without-groups",
    code=HG268,
    nomad="Job.Validate",
    source=f"{S}:4777",
    condition="the job has no `group` block and no job-level `task` (which becomes a group of its own)",
    message="Missing job task groups",
)
SYSTEM_AFFINITY = Condition(
    "system-job-affinity",
    code=HG268,
    nomad="Job.Validate",
    source=f"{S}:4787",
    condition="a system job has a job-level `affinity`",
    message="System jobs may not have an affinity block",
)
SYSTEM_SPREAD = Condition(
    "system-job-spread",
    code=HG268,
    nomad="Job.Validate",
    source=f"{S}:4800",
    condition="a system job has a job-level `spread`",
    message="System jobs may not have a spread block",
)
UI_DESCRIPTION = Condition(
    "ui-description-too-long",
    code=HG268,
    nomad="Job.Validate",
    source=f"{S}:4814",
    condition="`ui { description }` is over 1000 bytes",
    message="UI description must be under 1000 characters, currently {length}",
)
GROUP_NAMELESS = Condition(
    "group-without-name",
    code=HG268,
    nomad="Job.Validate",
    source=f"{S}:4828",
    condition='a group is labelled with the empty string (`group "" {}`)',
    message="Job task group {index} missing name",
)
GROUP_TWICE = Condition(
    "group-defined-twice",
    code=HG268,
    nomad="Job.Validate",
    source=f"{S}:4830",
    condition="two groups have one name",
    message="Job task group {index} redefines '{name}' from group {first}",
)
PRIORITY = Condition(
    "job-priority-range",
    code=HG268,
    nomad="jobValidate.Validate",
    source=f"{HOOKS}:519",
    condition="`priority` is below 1 (0 takes the server's default) or above the server's job_max_priority"
    " (100 by default)",
    message="job priority must be between [1, 100]",
)
CRON_AND_CRONS = Condition(
    "periodic-cron-and-crons",
    code=HG274,
    nomad="PeriodicConfig.Validate",
    source=f"{S}:5918",
    condition="an enabled `periodic` block sets both `cron` and `crons`",
    message="Only cron or crons may be used",
)
NO_CRON = Condition(
    "periodic-without-spec",
    code=HG274,
    nomad="PeriodicConfig.Validate",
    source=f"{S}:5921",
    condition="an enabled `periodic` block sets neither `cron` nor `crons`",
    message="Must specify a spec",
)
TIME_ZONE = Condition(
    "periodic-time-zone",
    code=HG274,
    nomad="PeriodicConfig.Validate",
    source=f"{S}:5927",
    condition="`time_zone` is not a zone Go's time.LoadLocation knows",
    message="Invalid time zone {zone!r}: {problem}",
)
CRON_ATTRIBUTE_SPEC = Condition(
    "periodic-cron-attribute-spec",
    code=HG274,
    nomad="PeriodicConfig.Validate",
    source=f"{S}:5936",
    condition="the deprecated `cron` expression has fewer than 5 fields (an unknown @-shortcut is one),"
    " or characters cronexpr never accepts",
    message="Invalid cron spec {spec!r}: {problem}",
)
CRON_SPEC = Condition(
    "periodic-cron-spec",
    code=HG274,
    nomad="PeriodicConfig.Validate",
    source=f"{S}:5942",
    condition="an expression of `crons` has fewer than 5 fields (an unknown @-shortcut is one), or"
    " characters cronexpr never accepts (one error each)",
    message="Invalid cron spec {spec!r}: {problem}",
)
PAYLOAD = Condition(
    "parameterized-payload",
    code=HG275,
    nomad="ParameterizedJobConfig.Validate",
    source=f"{S}:6089",
    condition="`payload` is not optional, required or forbidden",
    message="Unknown payload requirement: {payload!r}",
)
META_OVERLAP = Condition(
    "parameterized-meta-overlap",
    code=HG275,
    nomad="ParameterizedJobConfig.Validate",
    source=f"{S}:6095",
    condition="a key is in both `meta_required` and `meta_optional`",
    message="Required and optional meta keys should be disjoint. Following keys exist in both: {keys}",
)
DISPATCH_ESCAPES = Condition(
    "dispatch-payload-escapes",
    code=HG275,
    nomad="DispatchPayloadConfig.Validate",
    source=f"{S}:6151",
    condition="`dispatch_payload { file }`, which is under the task's `local/`, leads out of the allocation"
    " directory (`../../../x` does; `../../x` lands in the allocation directory itself)",
    message="destination escapes allocation directory",
)
SPREAD_ATTRIBUTE = Condition(
    "spread-without-attribute",
    code=HG277,
    nomad="Spread.Validate",
    source=f"{S}:10293",
    condition="a spread has no `attribute`",
    message="Missing spread attribute",
)
SPREAD_WEIGHT = Condition(
    "spread-weight",
    code=HG277,
    nomad="Spread.Validate",
    source=f"{S}:10296",
    condition="a spread's `weight` is 0 or below, or above 100 (50 when unset)",
    message="Spread block must have a positive weight from 0 to 100",
)
SPREAD_TWICE = Condition(
    "spread-target-twice",
    code=HG277,
    nomad="Spread.Validate",
    source=f"{S}:10307",
    condition="two targets of a spread have one value",
    message="Spread target value {value!r} already defined",
)
SPREAD_PERCENT = Condition(
    "spread-target-percent",
    code=HG277,
    nomad="Spread.Validate",
    source=f"{S}:10310",
    condition="a spread target's `percent` is over 100",
    message="Spread target percentage for value {value!r} must be between 0 and 100",
)
SPREAD_SUM = Condition(
    "spread-percent-sum",
    code=HG277,
    nomad="Spread.Validate",
    source=f"{S}:10315",
    condition="a spread's target percents add up to more than 100",
    message="Sum of spread target percentages must not be greater than 100%; got {total}%",
)
ATTRIBUTE_OPEN = Condition(
    "constraint-attribute-opening-brace",
    code=HG288,
    nomad="validateConstraintAttribute",
    source="nomad/structs/constraint.go:44",
    condition="a constraint `attribute` starts with `$` but not `${`",
    message="attribute {attribute!r} is missing an opening brace",
    since=(1, 11, 2),
)
ATTRIBUTE_CLOSE = Condition(
    "constraint-attribute-closing-brace",
    code=HG288,
    nomad="validateConstraintAttribute",
    source="nomad/structs/constraint.go:47",
    condition="a constraint `attribute` starts with `${` but does not end with `}`",
    message="attribute {attribute!r} is missing a closing brace",
    since=(1, 11, 2),
)
ATTRIBUTE_UNKNOWN = Condition(
    "constraint-attribute-unsupported",
    code=HG288,
    nomad="validateConstraintAttribute",
    source="nomad/structs/constraint.go:67",
    condition="a constraint `attribute` is an interpolation other than `${node.unique.id}`,"
    " `${node.datacenter}`,"
    " `${node.unique.name}`, `${node.class}`, `${node.pool}`"
    " or one starting `${attr.`, `${device.`, `${meta.`",
    message="unsupported attribute {attribute!r}",
    since=(1, 11, 2),
)
DISTINCT_COUNT_NUMBER = Condition(
    "distinct-property-count-number",
    code=HG288,
    nomad="Constraint.Validate",
    source=f"{S}:10056",
    condition="a `distinct_property` constraint's `value` is not a whole number",
    message="Failed to convert RTarget {value!r} to uint64: {error}",
)
MULTIREGION = Condition(
    "multiregion-unlicensed",
    code=HG289,
    nomad="Multiregion.Validate",
    source="nomad/structs/structs_ce.go:46",
    condition="a `multiregion` block with a `region` block (Community Edition; an empty `multiregion {}` is"
    " ignored)",
    message="Multiregion jobs are unlicensed.",
    fact="enterprise",
)
DISTINCT_COUNT_ZERO = Condition(
    "distinct-property-count-zero",
    code=HG288,
    nomad="Constraint.Validate",
    source=f"{S}:10058",
    condition="a `distinct_property` constraint's `value` is 0",
    message="Distinct Property must have an allowed count of 1 or greater: 0 < 1",
)

JOB_TYPES = ("service", "batch", "system", "sysbatch")
EXACT_TARGETS = (
    "${node.unique.id}",
    "${node.datacenter}",
    "${node.unique.name}",
    "${node.class}",
    "${node.pool}",
)
PREFIX_TARGETS = ("${attr.", "${device.", "${meta.")


@rule(HG268)
def job_settings(ctx: Context) -> None:
    job = ctx.canonical
    if not job.id:
        reject(ctx, MISSING_ID, ctx.label_span(job), help='give the job a name: `job "web" { ... }`')
    if job.name == "" and job.id:
        reject(ctx, MISSING_NAME, at(ctx, [job], "name"), help="remove `name`, or give it a value")
    _job_type(ctx, job)
    datacenters = ctx.attribute(job, "datacenters")
    if "" in (job.datacenters or []):
        span = datacenters.value.span if datacenters is not None else ctx.header_span(job)
        reject(ctx, EMPTY_DATACENTER, span, help='remove the empty name, or use `"*"` for every datacenter')
    if job.type == "system":
        for condition, blocks in ((SYSTEM_AFFINITY, job.affinities), (SYSTEM_SPREAD, job.spreads)):
            if blocks:
                reject(
                    ctx,
                    condition,
                    ctx.header_span(blocks[0]),
                    help="remove it: a system job runs on every eligible node",
                )
    if job.ui is not None and len((job.ui.description or "").encode()) > 1000:
        length = len((job.ui.description or "").encode())
        reject(
            ctx,
            UI_DESCRIPTION,
            at(ctx, [job.ui], "description"),
            length=length,
            help="shorten the description to under 1000 bytes",
        )
    if job.priority is not None and job.priority != 0 and not 1 <= job.priority <= 100:
        reject(
            ctx, PRIORITY, at(ctx, [job], "priority"), help="use a priority from 1 to 100 (50 is the default)"
        )
    if not job.task_groups:
        reject(
            ctx,
            NO_GROUPS,
            ctx.header_span(job),
            help='add a `group "<name>" { task "<name>" { ... } }` block',
        )
    _group_names(ctx, job)


def _job_type(ctx: Context, job: m.Job) -> None:
    if job.type == "":
        reject(ctx, MISSING_TYPE, at(ctx, [job], "type"), help="remove `type` (service), or name the type")
    elif job.type == "_core":
        reject(
            ctx,
            CORE_TYPE,
            at(ctx, [job], "type"),
            help="`_core` is Nomad's own; use service, batch, system or sysbatch",
        )
    elif job.type not in JOB_TYPES:
        close = closest((job.type or "").lower(), sorted(JOB_TYPES))
        reject(
            ctx,
            INVALID_TYPE,
            at(ctx, [job], "type"),
            type=job.type,
            help=f"did you mean `{close}`?" if close else "use service, batch, system or sysbatch",
            fix=ctx.written(job, "type", f'"{close}"') if close else (),
        )


def _group_names(ctx: Context, job: m.Job) -> None:
    first: dict[str, int] = {}
    for index, group in enumerate(job.task_groups or [], 1):
        name = group.name or ""
        if not name:
            reject(ctx, GROUP_NAMELESS, ctx.label_span(group), index=index, help="give the group a name")
        elif name in first:
            reject(
                ctx,
                GROUP_TWICE,
                ctx.label_span(group),
                index=index,
                name=name,
                first=first[name],
                help="give each group its own name",
            )
        else:
            first[name] = index


@rule(HG274)
def periodic(ctx: Context) -> None:
    periodic = ctx.canonical.periodic
    if periodic is None or periodic.enabled is False:
        return
    specs = periodic.specs or []
    if periodic.spec and specs:
        reject(
            ctx,
            CRON_AND_CRONS,
            at(ctx, [periodic], "crons", "cron"),
            help="keep `crons` and remove `cron`",
            fix=ctx.deleted(periodic, "cron"),
        )
    if not periodic.spec and not specs:
        reject(ctx, NO_CRON, ctx.header_span(periodic), help='add `crons = ["0 * * * *"]` (or the schedule)')
    if periodic.time_zone and not _known_zone(periodic.time_zone):
        zone = _close_zone(periodic.time_zone)
        reject(
            ctx,
            TIME_ZONE,
            at(ctx, [periodic], "time_zone"),
            zone=periodic.time_zone,
            problem=f"unknown time zone {periodic.time_zone}",
            help=f"did you mean `{zone}`?" if zone else ZONE_HELP,
            fix=ctx.written(periodic, "time_zone", f'"{zone}"') if zone else (),
        )
    fix = 'write five fields (minute hour day month weekday), e.g. "*/15 * * * *"'
    problem = cron_problem(periodic.spec) if periodic.spec else None
    if problem:
        where = at(ctx, [periodic], "cron")
        reject(ctx, CRON_ATTRIBUTE_SPEC, where, spec=periodic.spec, problem=problem, help=fix)
    for spec in specs:
        problem = cron_problem(spec)
        if problem:
            reject(ctx, CRON_SPEC, at(ctx, [periodic], "crons"), spec=spec, problem=problem, help=fix)


def _known_zone(name: str) -> bool:
    """Go's ``time.LoadLocation``: "UTC", "Local" or a zone of the IANA database."""
    if name in ("UTC", "Local"):
        return True
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


ZONE_HELP = 'use an IANA time zone such as "Europe/Berlin" or "UTC"'


def _close_zone(name: str) -> str | None:
    """The zone of the IANA database ``name`` nearly spells ("europe/berlin", "America/New York")."""
    from difflib import get_close_matches
    from zoneinfo import available_timezones

    zones = {zone.lower(): zone for zone in available_timezones() | {"UTC"}}
    wanted = name.strip().replace(" ", "_").lower()
    close = get_close_matches(wanted, list(zones), n=1, cutoff=0.85)
    return zones[close[0]] if close else None


CRON_FIELD = re.compile(r"[0-9A-Za-z*?/,\-#]+")


_CRON_NORMALIZER = {
    "@yearly": "0 0 0 1 1 * *",
    "@annually": "0 0 0 1 1 * *",
    "@monthly": "0 0 0 1 * * *",
    "@weekly": "0 0 0 * * 0 *",
    "@daily": "0 0 0 * * * *",
    "@hourly": "0 0 * * * * *",
}
_CRON_SHORTCUT = re.compile("|".join(map(re.escape, _CRON_NORMALIZER)))
_CRON_FIELDS = ("minute", "hour", "day-of-month", "month", "day-of-week", "year")


def cron_problem(spec: str) -> str | None:
    """hashicorp/cronexpr's error for ``spec`` (cronexpr.go:71-90, cronexpr_parse.go:280 at
    b51b750), where it can be told without its field grammar: fewer than 5 fields, or a
    field of characters it never accepts. It reads the @-shortcuts first, wherever they
    are, and ignores fields past the 7th. Deliberately lenient beyond that: a false alarm
    costs more than a miss."""
    fields = _CRON_SHORTCUT.sub(lambda m: _CRON_NORMALIZER[m.group()], spec).split()
    if len(fields) < 5:
        return "missing field(s)"
    fields = fields[:7]
    names = ("second", *_CRON_FIELDS) if len(fields) == 7 else _CRON_FIELDS
    for name, field in zip(names, fields, strict=False):
        for directive in field.split(","):
            if directive and not CRON_FIELD.fullmatch(directive):
                return f"syntax error in {name} field: '{directive}'"
    return None


@rule(HG275)
def parameterized(ctx: Context) -> None:
    config = ctx.canonical.parameterized_job
    if config is not None:
        if config.payload not in ("", "optional", "required", "forbidden"):  # "" is optional (Canonicalize)
            reject(
                ctx,
                PAYLOAD,
                at(ctx, [config], "payload"),
                payload=config.payload,
                help='use `payload = "optional"`, `"required"` or `"forbidden"`',
            )
        both = [key for key in config.meta_required or [] if key in (config.meta_optional or [])]
        if both:
            reject(
                ctx,
                META_OVERLAP,
                at(ctx, [config], "meta_optional"),
                keys=f"[{' '.join(both)}]",
                help="a key is either required or optional: remove it from one list",
            )
    for _, task in ctx.canonical_tasks():
        payload = task.dispatch_payload
        if payload is not None and payload.file and escapes_allocation("task/local", payload.file):
            reject(
                ctx,
                DISPATCH_ESCAPES,
                at(ctx, [payload], "file"),
                where=f"task `{task.name}`",
                help="keep the payload file inside the task directory",
            )


@rule(HG277)
def spreads(ctx: Context) -> None:
    job = ctx.canonical
    for spread in job.spreads or []:
        _spread(ctx, spread, "job")
    if job.type == "system":
        return  # a system job's group spreads are HG269 (refused outright)
    for group in job.task_groups or []:
        for spread in group.spreads or []:
            _spread(ctx, spread, f"group `{group.name}`")


def _spread(ctx: Context, spread: m.Spread, where: str) -> None:
    if not spread.attribute:
        reject(
            ctx,
            SPREAD_ATTRIBUTE,
            ctx.header_span(spread),
            where=where,
            help="set `attribute`, e.g. `${node.datacenter}`",
        )
    if not 0 < (spread.weight or 0) <= 100:
        reject(
            ctx, SPREAD_WEIGHT, at(ctx, [spread], "weight"), where=where, help="use a weight from 1 to 100"
        )
    seen: set[str] = set()
    total = 0
    for target in spread.spread_target or []:
        if target.value in seen:
            reject(
                ctx,
                SPREAD_TWICE,
                ctx.label_span(target),
                where=where,
                value=target.value,
                help="merge the two targets",
            )
        seen.add(target.value)
        if target.percent > 100:
            reject(
                ctx,
                SPREAD_PERCENT,
                at(ctx, [target], "percent"),
                where=where,
                value=target.value,
                help="use a percent from 0 to 100",
            )
        total += target.percent
    if total > 100:
        reject(
            ctx,
            SPREAD_SUM,
            ctx.header_span(spread),
            where=where,
            total=total,
            help="lower the targets' percents to a sum of at most 100",
        )


@rule(HG289)
def multiregion_unlicensed(ctx: Context) -> None:
    """A Community Edition server refuses any job that lists regions (`Job.IsMultiregion`)."""
    multiregion = ctx.canonical.multiregion
    if multiregion is not None and multiregion.regions:
        reject(
            ctx,
            MULTIREGION,
            ctx.header_span(multiregion),
            help="remove the `multiregion` block, or run the job on Nomad Enterprise",
        )


@rule(HG288)
def constraint_attributes(ctx: Context) -> None:
    for placed in ctx.placed("constraints"):
        constraint = placed.node
        _attribute(ctx, constraint, constraint.l_target)
        if constraint.operand == "distinct_property" and constraint.r_target:
            value = constraint.r_target
            error = parse_uint_error(value)
            if error:
                reject(
                    ctx,
                    DISTINCT_COUNT_NUMBER,
                    at(ctx, [constraint], "value"),
                    value=value,
                    error=error,
                    help="the value of distinct_property is how many allocations may share a value: a number",
                )
            elif int(value) == 0:
                reject(ctx, DISTINCT_COUNT_ZERO, at(ctx, [constraint], "value"), help="allow at least 1")


def _attribute(ctx: Context, node: Node, target: str) -> None:
    if not target.startswith("$"):
        return
    span = at(ctx, [node], "attribute")
    fix = "write the target whole, e.g. `${attr.kernel.name}`"
    if not target.startswith("${"):
        reject(ctx, ATTRIBUTE_OPEN, span, attribute=target, help=fix)
    elif not target.endswith("}"):
        reject(ctx, ATTRIBUTE_CLOSE, span, attribute=target, help=fix)
    elif target not in EXACT_TARGETS and not target.startswith(PREFIX_TARGETS):
        reject(
            ctx,
            ATTRIBUTE_UNKNOWN,
            span,
            attribute=target,
            help="constraints may target ${node.unique.id}, ${node.datacenter}, ${node.unique.name},"
            " ${node.class}, ${node.pool}, ${attr.*}, ${meta.*} and ${device.*}",
        )
