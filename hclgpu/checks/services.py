"""Services as Nomad's server validates them (HG283, and HG284 for the checks it looks at).

`Service.Validate` (nomad/structs/services.go) for every service, `TaskGroup.validateServices`
and `validateScriptChecksInGroupServices` for a group, and the task's `validateServices`
(nomad/structs/structs.go). The checks `Service.Validate` walks are in
:mod:`hclgpu.checks.service_checks`; service names and port labels are HG265 and HG248.

The job is read as the server holds it: the agent's defaults (provider consul, the check's
`on_update` from its service), then `Service.Canonicalize` (a task service's `task` is its
task; a check's `task` is its service's; the agent drops the own `task` of a task service's
check) and what the connect mutator adds before validation (the task of a Connect native
service, the tasks it injects for sidecars and gateways). `TaskGroup.validateServices`
skips the address-mode and task checks of a group service that `Service.Validate` refused;
so does this module, except for refusals of the `connect` block itself (HG292).
"""

from __future__ import annotations

from collections.abc import Iterator

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.naming import SERVICE_NAME, service_name
from hclgpu.checks.server import Condition, at, reject
from hclgpu.checks.service_checks import (
    ALLOC_IPV6,
    HG284,
    PORT_TYPES,
    UPDATE_MODES,
    Problem,
    address_modes,
    canonical_check_problems,
    problem,
    report,
    server_port_label,
)
from hclgpu.codes.base import Code, E
from hclgpu.ir import models as m
from hclgpu.ir.service_names import job_services, server_check_name, server_service_name
from hclgpu.settings.releases import Release

HG283 = Code(
    "HG283",
    "invalid-service",
    E,
    summary="A `service` block Nomad refuses",
    doc="""What: a service has an unknown `address_mode`, `provider`, `on_update` or Consul
`kind`, an `address` without `address_mode = "auto"`, an `identity` without `aud`, or a
`connect` block with provider nomad; a task service uses an alloc address mode, a `connect`
block or another task's name; a group service uses `address_mode = "driver"`; two services
of a group (or a task) share name and port; or a group mixes providers.

Why: Nomad rejects the job at registration (`Service.Validate`,
`TaskGroup.validateServices`, and the task's `validateServices`).

Example:
    service {
      name     = "web"
      provider = "k8s"
    }

Fix: use provider consul or nomad; address_mode auto, host, driver, alloc or alloc_ipv6
(alloc and alloc_ipv6 in group services, driver in task services).""",
)


S = "nomad/structs/structs.go"
SV = "nomad/structs/services.go"

# ---- Service.Validate ---------------------------------------------------------------------

ADDRESS_NEEDS_AUTO = Condition(
    "service-address-without-auto",
    code=HG283,
    nomad="Service.Validate",
    source=f"{SV}:778",
    condition="`address` is set while `address_mode` is host, driver, alloc or alloc_ipv6",
    message='Service address_mode must be "auto" if address is set',
)
ADDRESS_MODE = Condition(
    "service-address-mode",
    code=HG283,
    nomad="Service.Validate",
    source=f"{SV}:781",
    condition="`address_mode` is not auto, host, driver, alloc or alloc_ipv6 (alloc_ipv6 from 1.10.4)",
    message='Service address_mode must be "auto", "host", or "driver"; not {mode!r}',
)
ON_UPDATE = Condition(
    "service-on-update",
    code=HG283,
    nomad="Service.Validate",
    source=f"{SV}:788",
    condition="a service's `on_update` is not require_healthy, ignore_warnings or ignore",
    message='Service on_update must be "require_healthy", "ignore_warnings", or "ignore"; not {value!r}',
)
PROVIDER = Condition(
    "service-provider",
    code=HG283,
    nomad="Service.Validate",
    source=f"{SV}:800",
    condition="`provider` is not consul or nomad",
    message='Service provider must be "consul", or "nomad"; not {provider!r}',
)
KIND = Condition(
    "service-kind",
    code=HG283,
    nomad="Service.validateConsulService",
    source=f"{SV}:883",
    condition="a Consul service sets a `kind` other than api-gateway, ingress-gateway, mesh-gateway or"
    " terminating-gateway",
    message="Service {name} kind must be one of consul service kind or empty",
    since=(1, 10, 3),
)
NOMAD_CONNECT = Condition(
    "nomad-service-with-connect",
    code=HG283,
    nomad="Service.validateNomadService",
    source=f"{SV}:924",
    condition='a service with `provider = "nomad"` has a `connect` block',
    message="Service with provider nomad cannot include Connect blocks",
)
IDENTITY_AUDIENCE = Condition(
    "service-identity-without-aud",
    code=HG283,
    nomad="Service.validateIdentity",
    source=f"{SV}:936",
    condition="a service's `identity` block has no `aud`",
    message="Service identity must provide at least one target aud value",
)

# ---- TaskGroup.validateServices and validateScriptChecksInGroupServices ---------------------

OWN_TASK = Condition(
    "task-service-other-task",
    code=HG283,
    nomad="TaskGroup.validateServices",
    source=f"{S}:7480",
    condition="a task service's `task` names another task",
    message="Service {name} is invalid: may only specify task the service belongs to, got {task!r}",
)
CHECK_OWN_TASK = Condition(
    "task-service-check-other-task",
    code=HG284,
    nomad="TaskGroup.validateServices",
    source=f"{S}:7488",
    condition="a check of a task service whose `task` names another task (the check takes its service's"
    " `task`)",
    message="Check {name} is invalid: may only specify task the check belongs to, got {task!r}",
)
GROUP_DRIVER_MODE = Condition(
    "group-service-driver-address-mode",
    code=HG283,
    nomad="TaskGroup.validateServices",
    source=f"{S}:7526",
    condition='a group service has `address_mode = "driver"`',
    message='service {name!r} cannot use address_mode="driver", only services defined in a "task" block'
    " can use this mode",
)
GROUP_CHECK_DRIVER_MODE = Condition(
    "group-check-driver-address-mode",
    code=HG284,
    nomad="TaskGroup.validateServices",
    source=f"{S}:7532",
    condition="a check of a group service has a `task` (its own or the service's) and"
    ' `address_mode = "driver"`',
    message='Check {name!r} invalid: cannot use address_mode="driver",'
    ' only checks defined in a "task" service block can use this mode',
)
CHECK_UNKNOWN_TASK = Condition(
    "group-check-unknown-task",
    code=HG284,
    nomad="TaskGroup.validateServices",
    source=f"{S}:7536",
    condition="a check of a group service names (itself or through the service's `task`) no task of the"
    " group",
    message="Check {name} invalid: refers to non-existent task {task}",
)
NOT_UNIQUE = Condition(
    "group-services-not-unique",
    code=HG283,
    nomad="TaskGroup.validateServices",
    source=f"{S}:7547",
    condition="two services of the group have one name, one `port` and one owner (the task, or the group)",
    message="Services are not unique: {services}",
)
MIXED_PROVIDERS = Condition(
    "group-mixes-service-providers",
    code=HG283,
    nomad="TaskGroup.validateServices",
    source=f"{S}:7566",
    condition="the services of one group (its own and its tasks') use both providers",
    message="Multiple service providers used: task group services must use the same provider",
)
SCRIPT_CHECK_TASK = Condition(
    "group-script-check-without-task",
    code=HG284,
    nomad="TaskGroup.validateScriptChecksInGroupServices",
    source=f"{S}:7582",
    condition='a group service without `task` has a `type = "script"` check (lowercase) without `task`',
    message="Service [{group}]->{service} or Check {name} must specify task parameter",
)

# ---- validateServices (the services of a task) ------------------------------------------------

TASK_ALLOC_MODE = Condition(
    "task-service-alloc-address-mode",
    code=HG283,
    nomad="validateServices",
    source=f"{S}:8460",
    condition='a task service has `address_mode = "alloc"`',
    message='service {name!r} cannot use address_mode="alloc", only services defined in a "group" block'
    " can use this mode",
)
TASK_ALLOC_IPV6_MODE = Condition(
    "task-service-alloc-ipv6-address-mode",
    code=HG283,
    nomad="validateServices",
    source=f"{S}:8464",
    condition='a task service has `address_mode = "alloc_ipv6"`',
    message='service {name!r} cannot use address_mode="alloc_ipv6", only services defined in a "group" block'
    " can use this mode",
    since=ALLOC_IPV6,
)
TASK_DUPLICATE = Condition(
    "task-service-duplicate",
    code=HG283,
    nomad="validateServices",
    source=f"{S}:8470",
    condition="two services of a task have one name and one port (compared as name and port run together)",
    message="service {name!r} is duplicate",
)
TASK_CONNECT = Condition(
    "task-service-with-connect",
    code=HG283,
    nomad="validateServices",
    source=f"{S}:8489",
    condition="a task service has a `connect` block",
    message='service {name!r} cannot have "connect" block, only services defined in a "group" block can',
)
TASK_CHECK_DUPLICATE = Condition(
    "task-check-duplicate",
    code=HG284,
    nomad="validateServices",
    source=f"{S}:8496",
    condition='two checks of a task service have one name (unnamed checks are all `service: "<service>"'
    " check`)",
    message="check {name!r} is duplicate",
)
TASK_CHECK_ALLOC_MODE = Condition(
    "task-check-alloc-address-mode",
    code=HG284,
    nomad="validateServices",
    source=f"{S}:8501",
    condition='a check of a task service has `address_mode = "alloc"` (the message names the service)',
    message='check {name!r} cannot use address_mode="alloc", only checks defined in a "group" service block'
    " can use this mode",
)
TASK_CHECK_ALLOC_IPV6_MODE = Condition(
    "task-check-alloc-ipv6-address-mode",
    code=HG284,
    nomad="validateServices",
    source=f"{S}:8505",
    condition='a check of a task service has `address_mode = "alloc_ipv6"` (the message names the service)',
    message='check {name!r} cannot use address_mode="alloc_ipv6", only checks defined in a "group" service'
    " block"
    " can use this mode",
    since=ALLOC_IPV6,
)
TASK_CHECK_PORT = Condition(
    "task-check-missing-port",
    code=HG284,
    nomad="validateServices",
    source=f"{S}:8520",
    condition="a grpc, http or tcp check (lowercase) of a task service has no `port` and its service none"
    " either",
    message="check {name!r} is missing a port",
)
TASK_CHECK_PORT_NUMBER = Condition(
    "task-check-invalid-numeric-port",
    code=HG284,
    nomad="validateServices",
    source=f"{S}:8533",
    condition='a port-needing check of a task service with `address_mode = "driver"` uses a port number of'
    " 0 or less"
    " (its own `port`, else its service's)",
    message="check {name!r} has invalid numeric port {port}",
)
TASK_CHECK_INHERITED_NUMBER = Condition(
    "task-check-inherited-numeric-port",
    code=HG284,
    nomad="validateServices",
    source=f"{S}:8539",
    condition="a port-needing check of a task service without `port` and without"
    ' `address_mode = "driver"` inherits its service\'s numeric `port` (a number the check'
    " writes itself is HG248)",
    message='check {name!r} cannot use a numeric port {port} without setting address_mode="driver"',
)

CONSUL_KINDS = ("", "api-gateway", "ingress-gateway", "mesh-gateway", "terminating-gateway")
"""Consul's service kinds but connect-proxy (`api.ServiceKind`), as `validateConsulService` allows."""


# ---- Service.Validate ---------------------------------------------------------------------


def service_problems(service: m.Service, name: str, release: Release) -> list[Problem]:
    """What `Service.Validate` reports of the service itself (its checks aside)."""
    found: list[Problem] = []
    mode, modes = service.address_mode, address_modes(release)
    if mode in modes and service.address:
        found += problem(ADDRESS_NEEDS_AUTO, service, "address", 'remove `address_mode`, or set it to "auto"')
    elif mode not in ("", "auto", *modes):
        found += problem(ADDRESS_MODE, service, "address_mode", f"use auto, {', '.join(modes)}", mode=mode)
    if service.on_update not in UPDATE_MODES:
        fix = "use require_healthy, ignore_warnings or ignore"
        found += problem(ON_UPDATE, service, "on_update", fix, value=service.on_update)
    if service.provider == "consul" and service.kind not in CONSUL_KINDS:
        fix = "use api-gateway, ingress-gateway, mesh-gateway or terminating-gateway, or remove `kind`"
        found += problem(KIND, service, "kind", fix, name=name)
    elif service.provider == "nomad" and service.connect is not None:
        fix = 'Connect needs Consul: use `provider = "consul"`, or remove `connect`'
        found += problem(NOMAD_CONNECT, service.connect, "", fix)
    elif service.provider not in ("consul", "nomad"):
        fix = 'use `provider = "consul"` or `"nomad"`'
        found += problem(PROVIDER, service, "provider", fix, provider=service.provider)
    identity = service.identity
    if identity is not None and not identity.audience:
        found += problem(IDENTITY_AUDIENCE, identity, "aud", 'add the audience, e.g. `aud = ["consul.io"]`')
    return found


def service_refused(ctx: Context, group: m.TaskGroup, task: m.Task | None, service: m.Service) -> bool:
    """Whether `Service.Validate` fails in the profile's release (its `connect` checks aside),
    for a service of the canonical job."""
    job, release = ctx.canonical, ctx.profile.release
    name = server_service_name(job, group, task, service, mutated=False)
    if not SERVICE_NAME.fullmatch(service_name(job, group, task, service)):
        return True
    found = service_problems(service, name, release)
    problems = ctx.shared(canonical_check_problems)
    for check in service.checks or []:
        found += problems[id(check)].problems
    return any(p.condition.holds_in(release) for p in found)


@rule(HG283)
def invalid_services(ctx: Context) -> None:
    """Every service as `Service.Validate` sees it, then the task's and the group's rules."""
    job, release = ctx.canonical, ctx.profile.release
    for group, task, service in job_services(job):
        name = server_service_name(job, group, task, service, mutated=False)
        found = service_problems(service, name, release)
        if task is not None:
            found += _task_service(service, name)
        for each in found:
            report(ctx, each, f"service `{name}`")
    for group in job.task_groups or []:
        _group_services(ctx, job, group)
        for task in group.tasks or []:
            _task_duplicates(ctx, job, group, task)


# ---- the services of a task (validateServices) ------------------------------------------------


def _task_service(service: m.Service, name: str) -> list[Problem]:
    found: list[Problem] = []
    fix = "move the service to the group, or use another address_mode"
    if service.address_mode == "alloc":
        found += problem(TASK_ALLOC_MODE, service, "address_mode", fix, name=name)
    if service.address_mode == "alloc_ipv6":
        found += problem(TASK_ALLOC_IPV6_MODE, service, "address_mode", fix, name=name)
    if service.connect is not None:
        fix = "move the service with its `connect` block to the group"
        found += problem(TASK_CONNECT, service.connect, "", fix, name=name)
    return found


def _task_duplicates(ctx: Context, job: m.Job, group: m.TaskGroup, task: m.Task) -> None:
    seen: set[str] = set()
    for service in task.services or []:
        name = server_service_name(job, group, task, service, mutated=False)
        key = name + service.port_label
        if key in seen:
            reject(
                ctx,
                TASK_DUPLICATE,
                at(ctx, [service], "name"),
                where=f"task `{task.name}`",
                name=name,
                help="give each service of a task its own name or port",
            )
        seen.add(key)


# ---- the services of a group (TaskGroup.validateServices) -----------------------------------


def _group_services(ctx: Context, job: m.Job, group: m.TaskGroup) -> None:
    where = f"group `{group.name}`"
    for task in group.tasks or []:
        for service in task.services or []:
            if service.task_name and service.task_name != task.name:
                reject(
                    ctx,
                    OWN_TASK,
                    at(ctx, [service], "task"),
                    where=where,
                    name=server_service_name(job, group, task, service, mutated=False),
                    task=service.task_name,
                    help=f"remove `task`: a service of task `{task.name}` belongs to it",
                )
    for service in group.services or []:
        if service.address_mode == "driver" and not service_refused(ctx, group, None, service):
            reject(
                ctx,
                GROUP_DRIVER_MODE,
                at(ctx, [service], "address_mode"),
                where=where,
                name=server_service_name(job, group, None, service, mutated=False),
                help='use auto, host or alloc, or move the service into the task to use "driver"',
            )
    _not_unique(ctx, job, group)
    _providers(ctx, group)


def _not_unique(ctx: Context, job: m.Job, group: m.TaskGroup) -> None:
    """One error for every (owner, name, port) that two services of the group share."""
    seen: set[tuple[str, str, str]] = set()
    twice: dict[tuple[str, str, str], m.Service] = {}
    for task, service in _owned(group):
        name = server_service_name(job, group, task, service, mutated=False)
        port = service.port_label if task is not None else server_port_label(group, service)
        key = (task.name if task is not None else "group", name, port)
        if key in seen:
            twice.setdefault(key, service)
        seen.add(key)
    if not twice:
        return
    listed = sorted(f"{owner}->{name}" + (f":{port}" if port else "") for owner, name, port in twice)
    reject(
        ctx,
        NOT_UNIQUE,
        at(ctx, [next(iter(twice.values()))], "name"),
        where=f"group `{group.name}`",
        services="[" + " ".join(listed) + "]",
        help="give each service its own name or port",
    )


def _owned(group: m.TaskGroup) -> Iterator[tuple[m.Task | None, m.Service]]:
    """The services of the group's tasks, then its own, in the order Nomad walks them."""
    for task in group.tasks or []:
        for service in task.services or []:
            yield task, service
    for service in group.services or []:
        yield None, service


def _providers(ctx: Context, group: m.TaskGroup) -> None:
    found = [service for _, service in _owned(group)]
    if len({s.provider for s in found}) > 1:
        second = next(s for s in found if s.provider != found[0].provider)
        reject(
            ctx,
            MIXED_PROVIDERS,
            at(ctx, [second], "provider"),
            where=f"group `{group.name}`",
            help="register every service of the group with one provider",
        )


# ---- the checks TaskGroup.validateServices looks at ---------------------------------------------


@rule(HG284)
def group_level_checks(ctx: Context) -> None:
    """The checks' `task` and `address_mode`, as the group sees them."""
    job = ctx.canonical
    admitted = ctx.admitted.task_groups or []
    for group, with_envoy in zip(job.task_groups or [], admitted, strict=True):
        for task in group.tasks or []:
            for service in task.services or []:
                _foreign_task(ctx, job, group, task, service)
        tasks = {task.name for task in with_envoy.tasks or []}  # Envoy tasks included
        for service in group.services or []:
            if not service_refused(ctx, group, None, service):
                _group_checks(ctx, job, group, service, tasks)
            _script_checks(ctx, job, group, service)


def _foreign_task(ctx: Context, job: m.Job, group: m.TaskGroup, task: m.Task, service: m.Service) -> None:
    """A check of a task service has its service's `task`: the agent drops its own."""
    if not service.task_name or service.task_name == task.name:
        return
    name = server_service_name(job, group, task, service, mutated=False)
    for check in service.checks or []:
        check_name = server_check_name(name, check)
        reject(
            ctx,
            CHECK_OWN_TASK,
            at(ctx, [service], "task"),
            where=f"service `{name}`, check `{check_name}`",
            name=check_name,
            task=service.task_name,
            help=f"remove the service's `task`: its checks run in task `{task.name}`",
        )


def _group_checks(ctx: Context, job: m.Job, group: m.TaskGroup, service: m.Service, tasks: set[str]) -> None:
    name = server_service_name(job, group, None, service, mutated=False)
    for check in service.checks or []:
        task = check.task_name or service.task_name
        if not task:
            continue
        check_name = server_check_name(name, check)
        where = f"service `{name}`, check `{check_name}`"
        if check.address_mode == "driver":
            reject(
                ctx,
                GROUP_CHECK_DRIVER_MODE,
                at(ctx, [check], "address_mode"),
                where=where,
                name=name,
                help='use host or alloc, or move the service into the task to use "driver"',
            )
        if task not in tasks:
            reject(
                ctx,
                CHECK_UNKNOWN_TASK,
                at(ctx, [check, service], "task"),
                where=where,
                name=check_name,
                task=task,
                help="name a task of the group: " + ", ".join(f"`{t}`" for t in sorted(tasks)),
            )


def _script_checks(ctx: Context, job: m.Job, group: m.TaskGroup, service: m.Service) -> None:
    """`validateScriptChecksInGroupServices`: a script check must know its task."""
    if service.task_name or _native_task(group, service):
        return
    name = server_service_name(job, group, None, service, mutated=False)
    for check in service.checks or []:
        if check.type == "script" and not check.task_name:
            check_name = server_check_name(name, check)
            reject(
                ctx,
                SCRIPT_CHECK_TASK,
                at(ctx, [check], "type"),
                where=f"service `{name}`, check `{check_name}`",
                group=group.name,
                service=name,
                name=check_name,
                help="set `task` in the check or the service to the task the script runs in",
            )


def _native_task(group: m.TaskGroup, service: m.Service) -> bool:
    """The connect mutator gives a Connect native service the group's only task."""
    connect = service.connect
    native = connect is not None and connect.native and connect.sidecar_service is None
    return native and bool(group.networks) and len(group.tasks or []) == 1


# ---- the checks of a task's services (validateServices) -------------------------------------


@rule(HG284)
def task_level_checks(ctx: Context) -> None:
    """Check names, address modes and ports, as `validateServices` sees a task's checks."""
    job = ctx.canonical
    for group, task in ctx.canonical_tasks():
        for service in task.services or []:
            name = server_service_name(job, group, task, service, mutated=False)
            seen: set[str] = set()
            for check in service.checks or []:
                check_name = server_check_name(name, check)
                where = f"service `{name}`, check `{check_name}`"
                for found in _task_check(service, name, check, check_name, seen):
                    report(ctx, found, where)
                seen.add(check_name)


def _task_check(
    service: m.Service, name: str, check: m.ServiceCheck, check_name: str, seen: set[str]
) -> list[Problem]:
    found: list[Problem] = []
    if check_name in seen:
        found += problem(
            TASK_CHECK_DUPLICATE, check, "name", "give each check of a service its own name", name=check_name
        )
    fix = "move the service to the group, or use another address_mode"
    if check.address_mode == "alloc":
        found += problem(TASK_CHECK_ALLOC_MODE, check, "address_mode", fix, name=name)
    if check.address_mode == "alloc_ipv6":
        found += problem(TASK_CHECK_ALLOC_IPV6_MODE, check, "address_mode", fix, name=name)
    if check.type in PORT_TYPES:
        found += _task_check_port(service, check, check_name)
    return found


def _task_check_port(service: m.Service, check: m.ServiceCheck, check_name: str) -> list[Problem]:
    port = check.port_label or service.port_label
    if not port:
        return problem(
            TASK_CHECK_PORT, check, "port", "set the check's or the service's `port`", name=check_name
        )
    number = go_atoi(port)
    if number is None:
        return []  # a label: HG248 looks it up
    if check.address_mode == "driver":
        if number > 0:
            return []
        fix = "use a port number above 0, or a port label"
        node = check if check.port_label else service
        return problem(TASK_CHECK_PORT_NUMBER, node, "port", fix, name=check_name, port=number)
    if check.port_label:
        return []  # the check's own number: HG248
    fix = 'set `address_mode = "driver"` on the check, or give it a port label'
    return problem(TASK_CHECK_INHERITED_NUMBER, service, "port", fix, name=check_name, port=number)


INT64 = 2**63
"""Go's `strconv.Atoi` refuses what does not fit in an int64."""


def go_atoi(text: str) -> int | None:
    """`strconv.Atoi`: an optional sign and ASCII digits, within int64."""
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not digits or not all("0" <= c <= "9" for c in digits):
        return None
    value = int(text)
    return value if -INT64 <= value < INT64 else None
