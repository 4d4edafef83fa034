"""Services and their checks as Nomad's server validates them (HG283, HG284).

`Service.Validate`, `ServiceCheck.validateCommon`/`validateNomad`, `CheckRestart.Validate`
(nomad/structs/services.go), the task-service rules of `validateServices` and the group's
`TaskGroup.validateServices` (nomad/structs/structs.go). Service names and port labels are
HG265 and HG248. The canonical job is read: provider "consul" when unset.
`validateCommon` stops at a check's first problem, and so does this rule.
"""

from __future__ import annotations

from collections.abc import Iterator

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.server import SECOND, Condition, at, go_duration, reject
from hclgpu.ir import models as m

S = "nomad/structs/structs.go"
SV = "nomad/structs/services.go"

ADDRESS_NEEDS_AUTO = Condition(
    "service-address-without-auto",
    "HG283",
    "Service.Validate",
    f"{SV}:778",
    "`address` is set while `address_mode` is host, driver, alloc or alloc_ipv6",
    'Service address_mode must be "auto" if address is set',
)
ADDRESS_MODE = Condition(
    "service-address-mode",
    "HG283",
    "Service.Validate",
    f"{SV}:781",
    "`address_mode` is not auto, host, driver, alloc or alloc_ipv6",
    'Service address_mode must be "auto", "host", or "driver"; not {mode!r}',
)
ON_UPDATE = Condition(
    "service-on-update",
    "HG283",
    "Service.Validate",
    f"{SV}:788",
    "a service's `on_update` is not require_healthy, ignore_warnings or ignore",
    'Service on_update must be "require_healthy", "ignore_warnings", or "ignore"; not {value!r}',
)
PROVIDER = Condition(
    "service-provider",
    "HG283",
    "Service.Validate",
    f"{SV}:800",
    "`provider` is not consul or nomad",
    'Service provider must be "consul", or "nomad"; not {provider!r}',
)
NOMAD_CONNECT = Condition(
    "nomad-service-with-connect",
    "HG283",
    "Service.validateNomadService",
    f"{SV}:924",
    'a service with `provider = "nomad"` has a `connect` block',
    "Service with provider nomad cannot include Connect blocks",
)
MIXED_PROVIDERS = Condition(
    "group-mixes-service-providers",
    "HG283",
    "TaskGroup.validateServices",
    f"{S}:7566",
    "the services of one group (its own and its tasks') use both providers",
    "Multiple service providers used: task group services must use the same provider",
)
TASK_ALLOC_MODE = Condition(
    "task-service-alloc-address-mode",
    "HG283",
    "validateServices",
    f"{S}:8460",
    'a task service has `address_mode = "alloc"`',
    'service {name!r} cannot use address_mode="alloc",'
    ' only services defined in a "group" block can use this mode',
)
TASK_DUPLICATE = Condition(
    "task-service-duplicate",
    "HG283",
    "validateServices",
    f"{S}:8470",
    "two services of a task have one name and one port",
    "service {name!r} is duplicate",
)
TASK_CONNECT = Condition(
    "task-service-with-connect",
    "HG283",
    "validateServices",
    f"{S}:8489",
    "a task service has a `connect` block",
    'service {name!r} cannot have "connect" block, only services defined in a "group" block can',
)
CHECK_TYPE = Condition(
    "check-type",
    "HG284",
    "ServiceCheck.validateCommon",
    f"{SV}:262",
    "a check's `type` is not grpc, http, script or tcp (http or tcp with provider nomad)",
    "invalid check type ({type!r}), must be one of {allowed}",
)
HTTP_PATH = Condition(
    "check-http-without-path",
    "HG284",
    "ServiceCheck.validateCommon",
    f"{SV}:269",
    "an http check has no `path`",
    "http type must have http path",
)
HTTP_RELATIVE = Condition(
    "check-http-absolute-path",
    "HG284",
    "ServiceCheck.validateCommon",
    f"{SV}:276",
    "an http check's `path` is an absolute URL (has a scheme)",
    "http type must have relative http path",
)
SCRIPT_COMMAND = Condition(
    "check-script-without-command",
    "HG284",
    "ServiceCheck.validateCommon",
    f"{SV}:280",
    "a script check has no `command`",
    "script type must have a valid script path",
)
INTERVAL_MISSING = Condition(
    "check-without-interval",
    "HG284",
    "ServiceCheck.validateCommon",
    f"{SV}:286",
    "a check has no `interval`",
    "missing required value interval. Interval cannot be less than 1s",
)
INTERVAL_LOW = Condition(
    "check-interval",
    "HG284",
    "ServiceCheck.validateCommon",
    f"{SV}:288",
    "a check's `interval` < 1s",
    "interval ({value}) cannot be lower than 1s",
)
TIMEOUT_MISSING = Condition(
    "check-without-timeout",
    "HG284",
    "ServiceCheck.validateCommon",
    f"{SV}:293",
    "a check has no `timeout`",
    "missing required value timeout. Timeout cannot be less than 1s",
)
TIMEOUT_LOW = Condition(
    "check-timeout",
    "HG284",
    "ServiceCheck.validateCommon",
    f"{SV}:295",
    "a check's `timeout` < 1s",
    "timeout ({value}) is lower than required minimum timeout 1s",
)
INITIAL_STATUS = Condition(
    "check-initial-status",
    "HG284",
    "ServiceCheck.validateCommon",
    f"{SV}:305",
    "`initial_status` is not passing, warning or critical",
    'invalid initial check state ({value}), must be one of "passing", "warning", "critical" or empty',
)
CHECK_AUTO = Condition(
    "check-address-mode-auto",
    "HG284",
    "ServiceCheck.validateCommon",
    f"{SV}:313",
    '`address_mode = "auto"` on a check',
    'invalid address_mode "auto" - auto only valid for services',
)
CHECK_ADDRESS = Condition(
    "check-address-mode",
    "HG284",
    "ServiceCheck.validateCommon",
    f"{SV}:313",
    "a check's `address_mode` is not host, driver, alloc or alloc_ipv6",
    "invalid address_mode {mode!r}",
)
CHECK_ON_UPDATE = Condition(
    "check-on-update",
    "HG284",
    "ServiceCheck.validateCommon",
    f"{SV}:323",
    "a check's `on_update` is not require_healthy, ignore_warnings or ignore",
    'on_update must be "require_healthy", "ignore_warnings", or "ignore"; got {value!r}',
)
IGNORE_WITH_RESTART = Condition(
    "check-on-update-ignore-with-restart",
    "HG284",
    "ServiceCheck.validateCommon",
    f"{SV}:333",
    '`on_update = "ignore"` on a check with `check_restart`',
    'on_update value "ignore" is not compatible with check_restart',
)
RESTART_LIMIT = Condition(
    "check-restart-negative-limit",
    "HG284",
    "CheckRestart.Validate",
    f"{S}:7800",
    "`check_restart { limit }` < 0",
    "limit must be greater than or equal to 0 but found {value}",
)
RESTART_GRACE = Condition(
    "check-restart-negative-grace",
    "HG284",
    "CheckRestart.Validate",
    f"{S}:7804",
    "`check_restart { grace }` < 0",
    "grace period must be greater than or equal to 0 but found {value}",
)

ADDRESS_MODES = ("host", "driver", "alloc", "alloc_ipv6")
UPDATE_MODES = ("", "require_healthy", "ignore_warnings", "ignore")


def _services(ctx: Context) -> Iterator[tuple[m.TaskGroup, m.Task | None, m.Service]]:
    for group in ctx.canonical.task_groups or []:
        for service in group.services or []:
            yield group, None, service
        for task in group.tasks or []:
            for service in task.services or []:
                yield group, task, service


@rule("HG283")
def services(ctx: Context) -> None:
    for _, task, service in _services(ctx):
        where = f"service `{service.name}`"
        mode = service.address_mode or ""
        if mode in ADDRESS_MODES and service.address:
            reject(
                ctx,
                ADDRESS_NEEDS_AUTO,
                at(ctx, [service], "address"),
                where=where,
                help='remove `address_mode`, or set it to "auto"',
            )
        elif mode not in ("", "auto", *ADDRESS_MODES):
            reject(
                ctx,
                ADDRESS_MODE,
                at(ctx, [service], "address_mode"),
                where=where,
                mode=mode,
                help="use auto, host, driver, alloc or alloc_ipv6",
            )
        if (service.on_update or "") not in UPDATE_MODES:
            reject(
                ctx,
                ON_UPDATE,
                at(ctx, [service], "on_update"),
                where=where,
                value=service.on_update,
                help="use require_healthy, ignore_warnings or ignore",
            )
        if service.provider not in ("consul", "nomad"):
            reject(
                ctx,
                PROVIDER,
                at(ctx, [service], "provider"),
                where=where,
                provider=service.provider,
                help='use `provider = "consul"` or `"nomad"`',
            )
        elif service.provider == "nomad" and service.connect is not None:
            reject(
                ctx,
                NOMAD_CONNECT,
                ctx.header_span(service.connect),
                where=where,
                help='Connect needs Consul: use `provider = "consul"`, or remove `connect`',
            )
        if task is not None:
            _task_service(ctx, service, where)
    _task_duplicates(ctx)
    _providers(ctx)


def _task_service(ctx: Context, service: m.Service, where: str) -> None:
    if service.address_mode == "alloc":
        reject(
            ctx,
            TASK_ALLOC_MODE,
            at(ctx, [service], "address_mode"),
            where=where,
            name=service.name,
            help="move the service to the group, or use another address_mode",
        )
    if service.connect is not None:
        reject(
            ctx,
            TASK_CONNECT,
            ctx.header_span(service.connect),
            where=where,
            name=service.name,
            help="move the service with its `connect` block to the group",
        )


def _task_duplicates(ctx: Context) -> None:
    for _, task in ctx.canonical_tasks():
        seen: set[str] = set()
        for service in task.services or []:
            key = (service.name or "") + (service.port_label or "")
            if key in seen:
                reject(
                    ctx,
                    TASK_DUPLICATE,
                    at(ctx, [service], "name"),
                    where=f"task `{task.name}`",
                    name=service.name,
                    help="give each service of a task its own name or port",
                )
            seen.add(key)


def _providers(ctx: Context) -> None:
    for group in ctx.canonical.task_groups or []:
        found = [s for task in [None, *(group.tasks or [])] for s in _of(group, task)]
        if len({s.provider for s in found}) > 1:
            second = next(s for s in found if s.provider != found[0].provider)
            reject(
                ctx,
                MIXED_PROVIDERS,
                at(ctx, [second], "provider"),
                where=f"group `{group.name}`",
                help="register every service of the group with one provider",
            )


def _of(group: m.TaskGroup, task: m.Task | None) -> list[m.Service]:
    return (group.services if task is None else task.services) or []


@rule("HG284")
def service_checks(ctx: Context) -> None:
    for _, _, service in _services(ctx):
        allowed = ("http", "tcp") if service.provider == "nomad" else ("grpc", "http", "script", "tcp")
        for check in service.checks or []:
            _check(ctx, check, allowed, f"service `{service.name}`, check `{check.name or check.type}`")


def _check(ctx: Context, check: m.ServiceCheck, allowed: tuple[str, ...], where: str) -> None:
    """The first problem `validateCommon` finds, then `CheckRestart.Validate`."""
    problem = _first_problem(check, allowed)
    if problem is not None:
        condition, name, values, fix = problem
        reject(ctx, condition, at(ctx, [check], name), where=where, help=fix, **values)
        return
    restart = check.check_restart
    if restart is not None and restart.limit < 0:
        reject(
            ctx,
            RESTART_LIMIT,
            at(ctx, [restart], "limit"),
            where=where,
            value=restart.limit,
            help="use a limit of 0 or more",
        )
    elif restart is not None and (restart.grace or 0) < 0:
        reject(
            ctx,
            RESTART_GRACE,
            at(ctx, [restart], "grace"),
            where=where,
            value=restart.grace,
            help="use a grace of 0 or more",
        )


Problem = tuple[Condition, str, dict[str, object], str]


def _first_problem(check: m.ServiceCheck, allowed: tuple[str, ...]) -> Problem | None:
    kind = (check.type or "").lower()
    if kind not in allowed:
        return (
            CHECK_TYPE,
            "type",
            {"type": kind, "allowed": ", ".join(allowed)},
            f"use one of {', '.join(allowed)}",
        )
    if kind == "http" and not check.path:
        return HTTP_PATH, "type", {}, 'add `path = "/health"` (or the path to probe)'
    if kind == "http" and _absolute(check.path):
        return HTTP_RELATIVE, "path", {}, 'write the path only, e.g. `path = "/health"`'
    if kind == "script" and not check.command:
        return SCRIPT_COMMAND, "type", {}, "add the `command` to run"
    return _timing(check) or _modes(check)


def _timing(check: m.ServiceCheck) -> Problem | None:
    interval, timeout = check.interval or 0, check.timeout or 0
    if interval == 0:
        return INTERVAL_MISSING, "interval", {}, 'add `interval = "10s"`'
    if interval < SECOND:
        return INTERVAL_LOW, "interval", {"value": go_duration(interval)}, 'use an interval of at least "1s"'
    if timeout == 0:
        return TIMEOUT_MISSING, "timeout", {}, 'add `timeout = "2s"`'
    if timeout < SECOND:
        return TIMEOUT_LOW, "timeout", {"value": go_duration(timeout)}, 'use a timeout of at least "1s"'
    return None


def _modes(check: m.ServiceCheck) -> Problem | None:
    if check.initial_status not in ("", "passing", "warning", "critical"):
        return (
            INITIAL_STATUS,
            "initial_status",
            {"value": check.initial_status},
            "use passing, warning or critical",
        )
    mode = check.address_mode or ""
    if mode == "auto":
        return (
            CHECK_AUTO,
            "address_mode",
            {},
            "remove `address_mode`, or use host, driver, alloc or alloc_ipv6",
        )
    if mode not in ("", *ADDRESS_MODES):
        return CHECK_ADDRESS, "address_mode", {"mode": mode}, "use host, driver, alloc or alloc_ipv6"
    if (check.on_update or "") not in UPDATE_MODES:
        return (
            CHECK_ON_UPDATE,
            "on_update",
            {"value": check.on_update},
            "use require_healthy, ignore_warnings or ignore",
        )
    if check.check_restart is not None and check.on_update == "ignore":
        return IGNORE_WITH_RESTART, "on_update", {}, "remove `check_restart`, or use another on_update"
    return None


def _absolute(path: str) -> bool:
    """Go's ``url.URL.IsAbs``: the path has a scheme (``http://...``)."""
    head, colon, _ = path.partition(":")
    return bool(colon) and bool(head) and head[0].isalpha() and all(c.isalnum() or c in "+-." for c in head)
