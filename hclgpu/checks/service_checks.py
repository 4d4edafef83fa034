"""Service checks as Nomad's server validates them in `Service.Validate` (HG284).

For each check of a service, `Service.validateConsulService` / `validateNomadService`
(nomad/structs/services.go) report the first problem of: the port rule
(`validateCheckPort`), for Consul the tcp-check-with-sidecar rule, then
`ServiceCheck.validateConsul` or `validateNomad`. Both start with `validateCommon`, which
ends with `CheckRestart.Validate` (nomad/structs/structs.go). Every one of these returns at
its first problem, so a check gets at most one finding here (two only for a `check_restart`
whose limit and grace are both negative: one error that names both). A service whose
provider is neither consul nor nomad has its checks left alone, as Nomad does.

The job is read as the server holds it: the agent's defaults (:mod:`hclgpu.ir.canonical`:
provider consul, the check's `on_update` from the service, the service's `check_restart`
merged into each check), then `Service.Canonicalize`'s names (see
:func:`~hclgpu.ir.service_names.server_service_name` and
:func:`~hclgpu.ir.service_names.server_check_name`). The checks that
`TaskGroup.validateServices` and the task's `validateServices` make on the same checks are
in :mod:`hclgpu.checks.services`.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any, NamedTuple
from urllib.parse import unquote

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.server import SECOND, Condition, at, go_duration, reject
from hclgpu.codes.base import Code, E
from hclgpu.diagnostics import Edit
from hclgpu.eval.expr import did_you_mean, suggested
from hclgpu.eval.functions.base import go_quote
from hclgpu.ir import models as m
from hclgpu.ir.base import Node
from hclgpu.ir.service_names import job_services, server_check_name, server_service_name
from hclgpu.settings.releases import Release

HG284 = Code(
    "HG284",
    "invalid-service-check",
    E,
    summary="A service `check` Nomad refuses",
    doc="""What: a check has an unknown `type`; needs a port and has none; is an http check
without a relative `path` that parses, or a script check without `command`; has an interval
or timeout under 1s; an unknown `initial_status`, `address_mode` or `on_update`, or one that
conflicts with `check_restart`; a negative `check_restart` limit or grace; a Consul-only
setting (`expose`, thresholds, TLS, `ignore_warnings`, driver mode) with provider nomad;
`expose` or a threshold on a type that has none; `notes` over 255 bytes; a `task` that is
not a task of the group (or, in a task service, not its own); or a name used twice in one
task service. Also a tcp check on a Connect sidecar service, and a script check in a group
service without `task`.

Why: Nomad rejects the job at registration (`Service.Validate` and the `ServiceCheck`
validators, `TaskGroup.validateServices`, the task's `validateServices`).

Example:
    check {
      type     = "http"
      path     = "/health"
      interval = "500ms"
      timeout  = "2s"
    }

Fix: use an interval of at least 1s, and give the check (or its service) a `port`.""",
)


S = "nomad/structs/structs.go"
SV = "nomad/structs/services.go"

# ---- Service.validateCheckPort and validateConsulService ------------------------------

CHECK_PORT = Condition(
    "check-without-port",
    code=HG284,
    nomad="Service.validateCheckPort",
    source=f"{SV}:845",
    condition="a grpc, http or tcp check (`type` as written, lowercase) has no `port` and its service none"
    " either",
    message="Check {name} invalid: check requires a port but neither check nor service {service!r} have a"
    " port",
)
TCP_WITH_SIDECAR = Condition(
    "check-tcp-with-sidecar",
    code=HG284,
    nomad="Service.validateConsulService",
    source=f"{SV}:865",
    condition='`type = "tcp"` on a check of a Consul service with `connect { sidecar_service }`',
    message="Check {name} invalid: tcp checks are not valid for Connect enabled services",
)

# ---- ServiceCheck.validateCommon --------------------------------------------------------

CHECK_TYPE = Condition(
    "check-type",
    code=HG284,
    nomad="ServiceCheck.validateCommon",
    source=f"{SV}:262",
    condition="a check's `type` (any case) is not grpc, tcp, http or script (tcp or http with provider"
    " nomad)",
    message="invalid check type ({type!r}), must be one of {allowed}",
)
HTTP_PATH = Condition(
    "check-http-without-path",
    code=HG284,
    nomad="ServiceCheck.validateCommon",
    source=f"{SV}:269",
    condition="an http check has no `path`",
    message="http type must have http path",
)
HTTP_PATH_PARSES = Condition(
    "check-http-path-parses",
    code=HG284,
    nomad="ServiceCheck.validateCommon",
    source=f"{SV}:273",
    condition="an http check's `path` is not a URL Go's `net/url` parses: a control character, a `%` not"
    " followed by two hex digits, a colon in the first segment of a relative path, or a bad"
    " user, host or port after `//`",
    message="http type must have valid http path",
)
HTTP_RELATIVE = Condition(
    "check-http-absolute-path",
    code=HG284,
    nomad="ServiceCheck.validateCommon",
    source=f"{SV}:276",
    condition="an http check's `path` is an absolute URL (has a scheme)",
    message="http type must have relative http path",
)
SCRIPT_COMMAND = Condition(
    "check-script-without-command",
    code=HG284,
    nomad="ServiceCheck.validateCommon",
    source=f"{SV}:280",
    condition="a script check has no `command`",
    message="script type must have a valid script path",
)
INTERVAL_MISSING = Condition(
    "check-without-interval",
    code=HG284,
    nomad="ServiceCheck.validateCommon",
    source=f"{SV}:286",
    condition="a check has no `interval`",
    message="missing required value interval. Interval cannot be less than 1s",
)
INTERVAL_LOW = Condition(
    "check-interval",
    code=HG284,
    nomad="ServiceCheck.validateCommon",
    source=f"{SV}:288",
    condition="a check's `interval` < 1s",
    message="interval ({value}) cannot be lower than 1s",
)
TIMEOUT_MISSING = Condition(
    "check-without-timeout",
    code=HG284,
    nomad="ServiceCheck.validateCommon",
    source=f"{SV}:293",
    condition="a check has no `timeout`",
    message="missing required value timeout. Timeout cannot be less than 1s",
)
TIMEOUT_LOW = Condition(
    "check-timeout",
    code=HG284,
    nomad="ServiceCheck.validateCommon",
    source=f"{SV}:295",
    condition="a check's `timeout` < 1s",
    message="timeout ({value}) is lower than required minimum timeout 1s",
)
INITIAL_STATUS = Condition(
    "check-initial-status",
    code=HG284,
    nomad="ServiceCheck.validateCommon",
    source=f"{SV}:305",
    condition="`initial_status` is not passing, warning or critical",
    message='invalid initial check state ({value}), must be one of "passing", "warning", "critical" or empty',
)
CHECK_AUTO = Condition(
    "check-address-mode-auto",
    code=HG284,
    nomad="ServiceCheck.validateCommon",
    source=f"{SV}:313",
    condition='`address_mode = "auto"` on a check',
    message='invalid address_mode "auto" - auto only valid for services',
)
CHECK_ADDRESS = Condition(
    "check-address-mode",
    code=HG284,
    nomad="ServiceCheck.validateCommon",
    source=f"{SV}:315",
    condition="a check's `address_mode` is not host, driver, alloc or alloc_ipv6 (alloc_ipv6 from 1.10.4)",
    message="invalid address_mode {mode!r}",
)
CHECK_ON_UPDATE = Condition(
    "check-on-update",
    code=HG284,
    nomad="ServiceCheck.validateCommon",
    source=f"{SV}:323",
    condition="a check's `on_update` (else its service's) is not require_healthy, ignore_warnings or ignore",
    message='on_update must be "require_healthy", "ignore_warnings", or "ignore"; got {value!r}',
)
IGNORE_WITH_RESTART = Condition(
    "check-on-update-ignore-with-restart",
    code=HG284,
    nomad="ServiceCheck.validateCommon",
    source=f"{SV}:333",
    condition='`on_update = "ignore"` on a check with `check_restart` (its own or its service\'s)',
    message='on_update value "ignore" is not compatible with check_restart',
)
IGNORE_WARNINGS_WITH_RESTART = Condition(
    "check-on-update-ignore-warnings-with-restart",
    code=HG284,
    nomad="ServiceCheck.validateCommon",
    source=f"{SV}:338",
    condition='`on_update = "ignore_warnings"` on a check whose `check_restart` lacks `ignore_warnings ='
    " true`",
    message='on_update value "ignore_warnings" not supported with check_restart ignore_warnings value'
    ' "false"',
)
RESTART_LIMIT = Condition(
    "check-restart-negative-limit",
    code=HG284,
    nomad="CheckRestart.Validate",
    source=f"{S}:7800",
    condition="`check_restart { limit }` < 0",
    message="limit must be greater than or equal to 0 but found {value}",
)
RESTART_GRACE = Condition(
    "check-restart-negative-grace",
    code=HG284,
    nomad="CheckRestart.Validate",
    source=f"{S}:7804",
    condition="`check_restart { grace }` < 0",
    message="grace period must be greater than or equal to 0 but found {value}",
)

# ---- ServiceCheck.validateNomad -----------------------------------------------------------


def _nomad_only(
    ident: str, line: int, condition: str, message: str, *, tag: str = "", until: Release | None = None
) -> Condition:
    """A check `validateNomad` refuses because only Consul has the feature."""
    nomad = "ServiceCheck.validateNomad"
    return Condition(
        ident,
        code=HG284,
        nomad=nomad,
        source=f"{SV}:{line}",
        condition=condition,
        message=message,
        until=until,
        tag=tag,
    )


NOMAD_EXPOSE = _nomad_only(
    "nomad-check-expose",
    359,
    '`expose = true` on a check of a `provider = "nomad"` service',
    "expose may only be set for Consul service checks",
)
NOMAD_IGNORE_WARNINGS = _nomad_only(
    "nomad-check-on-update-ignore-warnings",
    364,
    '`on_update = "ignore_warnings"` (the check\'s or its service\'s) on a `provider = "nomad"` check',
    "on_update may only be set to ignore_warnings for Consul service checks",
)
NOMAD_RESTART_IGNORE_WARNINGS = _nomad_only(
    "nomad-check-restart-ignore-warnings",
    373,
    '`check_restart { ignore_warnings = true }` on a `provider = "nomad"` check',
    "ignore_warnings on check_restart only supported for Consul service checks",
)
NOMAD_DRIVER_MODE = _nomad_only(
    "nomad-check-driver-address-mode",
    379,
    '`address_mode = "driver"` on a check of a `provider = "nomad"` service',
    "address_mode = driver may only be set for Consul service checks",
)
NOMAD_METHOD = _nomad_only(
    "nomad-check-http-method",
    384,
    'a `provider = "nomad"` check with `type = "http"` (lowercase) has a `method` that is not an'
    " HTTP method (GET, HEAD, POST, PUT, PATCH, DELETE, CONNECT, OPTIONS, TRACE; any case)",
    "method type {method!r} not supported in Nomad http check",
)
NOMAD_SUCCESS_BEFORE_PASSING = _nomad_only(
    "nomad-check-success-before-passing",
    390,
    '`success_before_passing` > 0 on a `provider = "nomad"` check',
    "success_before_passing may only be set for Consul service checks",
)
NOMAD_FAILURES_BEFORE_CRITICAL = _nomad_only(
    "nomad-check-failures-before-critical",
    395,
    '`failures_before_critical` > 0 on a `provider = "nomad"` check',
    "failures_before_critical may only be set for Consul service checks",
)
NOMAD_FAILURES_BEFORE_WARNING = _nomad_only(
    "nomad-check-failures-before-warning",
    400,
    '`failures_before_warning` > 0 on a `provider = "nomad"` check',
    "failures_before_warning may only be set for Consul service checks",
)
NOMAD_TLS_SERVER_NAME = _nomad_only(
    "nomad-check-tls-server-name",
    405,
    '`tls_server_name` on a check of a `provider = "nomad"` service',
    "tls_server_name may only be set for Consul service checks",
)
NOMAD_TLS_SKIP_VERIFY = _nomad_only(
    "nomad-check-tls-skip-verify",
    403,
    '`tls_skip_verify = true` on a check of a `provider = "nomad"` service',
    "tls_skip_verify may only be set for Consul service checks",
    tag="v1.8.0",
    until=(1, 9, 6),
)

# ---- ServiceCheck.validateConsul ------------------------------------------------------------

CONSUL_EXPOSE = Condition(
    "check-expose-type",
    code=HG284,
    nomad="ServiceCheck.validateConsul",
    source=f"{SV}:431",
    condition="`expose = true` on a Consul check whose `type` (any case) is not http or grpc",
    message="expose may only be set on HTTP or gRPC checks",
)


def _threshold(ident: str, line: int, attribute: str) -> Condition:
    return Condition(
        ident,
        code=HG284,
        nomad="ServiceCheck.validateConsul",
        source=f"{SV}:{line}",
        condition=f"`{attribute}` > 0 on a Consul check whose `type` (as written) is not tcp, http or grpc",
        message=f"{attribute} not supported for check of type {{type!r}}",
    )


SUCCESS_BEFORE_PASSING = _threshold("check-success-before-passing-type", 444, "success_before_passing")
FAILURES_BEFORE_CRITICAL = _threshold("check-failures-before-critical-type", 450, "failures_before_critical")
FAILURES_BEFORE_WARNING = _threshold("check-failures-before-warning-type", 456, "failures_before_warning")
NOTES_LENGTH = Condition(
    "check-notes-length",
    code=HG284,
    nomad="ServiceCheck.validateConsul",
    source=f"{SV}:461",
    condition="a Consul check's `notes` are longer than 255 bytes",
    message="notes must not be longer than 255 characters",
    since=(1, 8, 1),
)

CONSUL_TYPES = ("grpc", "tcp", "http", "script")
NOMAD_TYPES = ("tcp", "http")
PORT_TYPES = ("grpc", "http", "tcp")
"""`ServiceCheck.RequiresPort`: compared with `type` as written, so `"HTTP"` needs none."""
PASS_FAIL_TYPES = ("tcp", "http", "grpc")
HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "CONNECT", "OPTIONS", "TRACE")
UPDATE_MODES = ("", "require_healthy", "ignore_warnings", "ignore")
ALLOC_IPV6 = (1, 10, 4)
"""The first release that knows `address_mode = "alloc_ipv6"`."""
MAX_NOTES = 255


def address_modes(release: Release) -> tuple[str, ...]:
    """The address modes of a service or check other than auto, in ``release``."""
    return ("host", "driver", "alloc", "alloc_ipv6") if release >= ALLOC_IPV6 else ("host", "driver", "alloc")


class Problem(NamedTuple):
    """A condition a block trips, the attribute to blame and the values of its message."""

    condition: Condition
    node: Node
    attribute: str
    fix: str
    values: Mapping[str, Any] = MappingProxyType({})
    line: str = ""
    """The argument line the (unsafe) fix writes into the block, where one is missing."""


def problem(condition: Condition, node: Node, attribute: str, fix: str, **values: object) -> list[Problem]:
    """The one problem a check (or service) has, as the list the validators return."""
    return [Problem(condition, node, attribute, fix, values)]


def missing(condition: Condition, node: Node, attribute: str, line: str, more: str = "") -> list[Problem]:
    """A required argument the block lacks: its help and its fix write ``line``."""
    return [Problem(condition, node, attribute, f"add `{line}`{more}", line=line)]


def report(ctx: Context, found: Problem, where: str) -> None:
    """Report ``found``; a did-you-mean is also the (unsafe) fix that writes the name, and a
    missing argument the one that writes its line into the block."""
    reject(
        ctx,
        found.condition,
        at(ctx, [found.node], found.attribute),
        where=where,
        help=found.fix,
        fix=_fix(ctx, found),
        **found.values,
    )


def _fix(ctx: Context, found: Problem) -> tuple[Edit, ...]:
    from hclgpu.ir.moves import append_line

    close = suggested(found.fix)
    if close:
        return ctx.written(found.node, found.attribute, go_quote(close))
    block = ctx.block_of(found.node)
    if not found.line or block is None or ctx.attribute(found.node, found.line.split(" ")[0]):
        return ()
    return append_line(ctx.source.text, block, found.line)


def _one_of(value: str, allowed: Iterable[str], otherwise: str) -> str:
    """ "did you mean `http`?" when ``value`` nearly spells one of ``allowed``, else ``otherwise``."""
    return did_you_mean(value.lower(), [choice for choice in allowed if choice]) or otherwise


# ---- names and ports as the server holds them -------------------------------------------------


def server_port_label(group: m.TaskGroup, service: m.Service) -> str:
    """The service's port after the connect mutator, which gives a terminating gateway
    without `port` one of its own (in a group with a network)."""
    connect = service.connect
    gateway = connect.gateway if connect is not None else None
    if not service.port_label and group.networks and gateway is not None and gateway.terminating is not None:
        return f"connect-terminating-{service.name}"
    return service.port_label or ""


# ---- Service.Validate's loop over the checks ---------------------------------------------------


def check_problems(
    group: m.TaskGroup, service: m.Service, service_name: str, check: m.ServiceCheck, release: Release
) -> list[Problem]:
    """What `validateConsulService` / `validateNomadService` report for one check."""
    if service.provider not in ("consul", "nomad"):
        return []
    name = server_check_name(service_name, check)
    if not server_port_label(group, service) and not check.port_label and check.type in PORT_TYPES:
        return problem(
            CHECK_PORT,
            check,
            "port",
            "set the check's or the service's `port`",
            name=name,
            service=service_name,
        )
    if service.provider == "nomad":
        return _common(check, NOMAD_TYPES, release) or _nomad(check)
    sidecar = service.connect is not None and service.connect.sidecar_service is not None
    if sidecar and check.type == "tcp":
        return problem(
            TCP_WITH_SIDECAR, check, "type", "use an http or grpc check (with `expose = true`)", name=name
        )
    return _common(check, CONSUL_TYPES, release) or _consul(check)


def _common(check: m.ServiceCheck, allowed: tuple[str, ...], release: Release) -> list[Problem]:
    """`validateCommon`: the first problem, in Nomad's order."""
    kind = check.type.lower()
    if kind not in allowed:
        fix = _one_of(kind, allowed, f"use one of {', '.join(allowed)}")
        return problem(CHECK_TYPE, check, "type", fix, type=kind, allowed=", ".join(allowed))
    if kind == "http":
        if not check.path:
            return missing(HTTP_PATH, check, "type", 'path = "/health"', " (or the path to probe)")
        scheme = url_scheme(check.path)
        if scheme is None:
            return problem(HTTP_PATH_PARSES, check, "path", "escape `%` as `%25` and control characters")
        if scheme:
            return problem(HTTP_RELATIVE, check, "path", 'write the path only, e.g. `path = "/health"`')
    if kind == "script" and not check.command:
        return problem(SCRIPT_COMMAND, check, "type", "add the `command` to run")
    return _timing(check) or _modes(check, release) or _restart_conflicts(check) or _restart(check)


def _timing(check: m.ServiceCheck) -> list[Problem]:
    interval, timeout = check.interval, check.timeout
    if interval == 0:
        return missing(INTERVAL_MISSING, check, "interval", 'interval = "10s"')
    if interval < SECOND:
        return problem(
            INTERVAL_LOW, check, "interval", 'use an interval of at least "1s"', value=go_duration(interval)
        )
    if timeout == 0:
        return missing(TIMEOUT_MISSING, check, "timeout", 'timeout = "2s"')
    if timeout < SECOND:
        return problem(
            TIMEOUT_LOW, check, "timeout", 'use a timeout of at least "1s"', value=go_duration(timeout)
        )
    return []


def _modes(check: m.ServiceCheck, release: Release) -> list[Problem]:
    if check.initial_status not in ("", "passing", "warning", "critical"):
        statuses = ("passing", "warning", "critical")
        fix = _one_of(check.initial_status, statuses, "use passing, warning or critical")
        return problem(INITIAL_STATUS, check, "initial_status", fix, value=check.initial_status)
    modes = address_modes(release)
    if check.address_mode == "auto":
        return problem(CHECK_AUTO, check, "address_mode", f"remove `address_mode`, or use {', '.join(modes)}")
    if check.address_mode not in ("", *modes):
        fix = _one_of(check.address_mode, modes, f"use {', '.join(modes)}")
        return problem(CHECK_ADDRESS, check, "address_mode", fix, mode=check.address_mode)
    if check.on_update not in UPDATE_MODES:
        fix = _one_of(check.on_update, UPDATE_MODES, "use require_healthy, ignore_warnings or ignore")
        return problem(CHECK_ON_UPDATE, check, "on_update", fix, value=check.on_update)
    return []


def _restart_conflicts(check: m.ServiceCheck) -> list[Problem]:
    restart = check.check_restart
    if restart is None:
        return []
    if check.on_update == "ignore":
        return problem(
            IGNORE_WITH_RESTART, check, "on_update", "remove `check_restart`, or use another on_update"
        )
    if check.on_update == "ignore_warnings" and not restart.ignore_warnings:
        fix = "set `ignore_warnings = true` in `check_restart`"
        return problem(IGNORE_WARNINGS_WITH_RESTART, check, "on_update", fix)
    return []


def _restart(check: m.ServiceCheck) -> list[Problem]:
    """`CheckRestart.Validate`: one error naming every negative value."""
    restart = check.check_restart
    if restart is None:
        return []
    found = []
    if restart.limit < 0:
        found += problem(RESTART_LIMIT, restart, "limit", "use a limit of 0 or more", value=restart.limit)
    if (restart.grace or 0) < 0:
        found += problem(RESTART_GRACE, restart, "grace", "use a grace of 0 or more", value=restart.grace)
    return found


def _nomad(check: m.ServiceCheck) -> list[Problem]:
    """`validateNomad` after `validateCommon`: what only Consul checks may set."""
    consul = 'or register the service with `provider = "consul"`'
    restart = check.check_restart
    if check.expose:
        return problem(NOMAD_EXPOSE, check, "expose", f"remove `expose`, {consul}")
    if check.on_update == "ignore_warnings":
        return problem(NOMAD_IGNORE_WARNINGS, check, "on_update", f"use require_healthy or ignore, {consul}")
    if restart is not None and restart.ignore_warnings:
        return problem(
            NOMAD_RESTART_IGNORE_WARNINGS, restart, "ignore_warnings", f"remove `ignore_warnings`, {consul}"
        )
    if check.address_mode == "driver":
        return problem(NOMAD_DRIVER_MODE, check, "address_mode", f"use host or alloc, {consul}")
    if check.type == "http" and check.method and check.method.upper() not in HTTP_METHODS:
        return problem(NOMAD_METHOD, check, "method", "use an HTTP method such as GET", method=check.method)
    for attribute, condition in (
        ("success_before_passing", NOMAD_SUCCESS_BEFORE_PASSING),
        ("failures_before_critical", NOMAD_FAILURES_BEFORE_CRITICAL),
        ("failures_before_warning", NOMAD_FAILURES_BEFORE_WARNING),
    ):
        if getattr(check, attribute) != 0:
            return problem(condition, check, attribute, f"remove `{attribute}`, {consul}")
    if check.tls_server_name:
        return problem(NOMAD_TLS_SERVER_NAME, check, "tls_server_name", f"remove `tls_server_name`, {consul}")
    if check.tls_skip_verify:
        return problem(NOMAD_TLS_SKIP_VERIFY, check, "tls_skip_verify", f"remove `tls_skip_verify`, {consul}")
    return []


def _consul(check: m.ServiceCheck) -> list[Problem]:
    """`validateConsul` after `validateCommon`."""
    if check.expose and check.type.lower() not in ("grpc", "http"):
        return problem(
            CONSUL_EXPOSE, check, "expose", "remove `expose`: only http and grpc checks can be exposed"
        )
    for attribute, condition in (
        ("success_before_passing", SUCCESS_BEFORE_PASSING),
        ("failures_before_critical", FAILURES_BEFORE_CRITICAL),
        ("failures_before_warning", FAILURES_BEFORE_WARNING),
    ):
        if getattr(check, attribute) > 0 and check.type not in PASS_FAIL_TYPES:
            fix = f"remove `{attribute}`: only tcp, http and grpc checks (written lowercase) count"
            return problem(condition, check, attribute, fix, type=check.type)
    if len(check.notes.encode()) > MAX_NOTES:
        return problem(NOTES_LENGTH, check, "notes", f"shorten `notes` to {MAX_NOTES} bytes")
    return []


@rule(HG284)
def invalid_service_checks(ctx: Context) -> None:
    """Each check of every service, as `Service.Validate` sees it."""
    for checked in ctx.shared(canonical_check_problems).values():
        if checked.problems:
            name = checked.service_name
            where = f"service `{name}`, check `{server_check_name(name, checked.check)}`"
            for each in checked.problems:
                report(ctx, each, where)


class CheckedCheck(NamedTuple):
    """A check of the canonical job, the name of its service, and what its service's
    `Validate` reports of it."""

    service_name: str
    check: m.ServiceCheck
    problems: list[Problem]


def canonical_check_problems(ctx: Context) -> dict[int, CheckedCheck]:
    """:func:`check_problems` of every check of the canonical job, in the job's order, by the
    id of the check."""
    job, release = ctx.canonical, ctx.profile.release
    checked: dict[int, CheckedCheck] = {}
    for group, task, service in job_services(job):
        name = server_service_name(job, group, task, service, mutated=False)
        for check in service.checks or []:
            checked[id(check)] = CheckedCheck(
                name, check, check_problems(group, service, name, check, release)
            )
    return checked


# ---- Go's net/url.Parse, as far as a check path needs it ---------------------------------------

_HOST_SAFE = frozenset("!$&'()*+,;=:[]<>\"-_.~")
_USERINFO_SAFE = frozenset("-._:~!$&'()*+,;=%@")
_HEX = frozenset("0123456789abcdefABCDEF")
_CONTROL = re.compile("[\x00-\x1f\x7f]")


@lru_cache(maxsize=1024)
def url_scheme(raw: str) -> str | None:
    """The scheme Go's ``url.Parse`` finds in ``raw`` (``""`` for a relative URL), or None
    when it refuses it (Go 1.26: strict host colons, bracketed hosts must be IPv6). Kept
    for the next check: a job's checks probe a few paths many times."""
    head, _, fragment = raw.partition("#")
    scheme = _parse(head)
    if scheme is None or not _unescapes(fragment, "fragment"):
        return None
    return scheme


def _parse(raw: str) -> str | None:
    if _CONTROL.search(raw):
        return None
    if raw == "*":
        return ""
    scheme, rest = _split_scheme(raw)
    if scheme is None:
        return None
    rest = rest[:-1] if rest.endswith("?") and rest.count("?") == 1 else rest.partition("?")[0]
    if not rest.startswith("/"):
        if scheme:
            return scheme  # an opaque URL: `mailto:x`
        if ":" in rest.partition("/")[0]:
            return None
    if rest.startswith("//") and (scheme or not rest.startswith("///")):
        authority, slash, path = rest[2:].partition("/")
        if not _authority(authority):
            return None
        rest = slash + path
    return scheme if _unescapes(rest, "path") else None


def _split_scheme(raw: str) -> tuple[str | None, str]:
    """`getScheme`: (scheme, rest); None for a leading colon ("missing protocol scheme")."""
    for index, char in enumerate(raw):
        if char.isascii() and char.isalpha():
            continue
        if char.isascii() and (char.isdigit() or char in "+-."):
            if index == 0:
                return "", raw
            continue
        if char == ":":
            return (None, "") if index == 0 else (raw[:index].lower(), raw[index + 1 :])
        return "", raw
    return "", raw


def _authority(authority: str) -> bool:
    userinfo, at_sign, host = authority.rpartition("@")
    if not _host(host):
        return False
    if not at_sign:
        return True
    if not all((c.isascii() and c.isalnum()) or c in _USERINFO_SAFE for c in userinfo):
        return False
    return all(_unescapes(part, "userinfo") for part in userinfo.split(":", 1))


def _host(host: str) -> bool:
    bracket = host.rfind("[")
    if bracket > 0:
        return False
    if bracket == 0:
        close = host.rfind("]")
        if close < 0 or not _port(host[close + 1 :]):
            return False
        literal = host[1:close]
        address, percent, zone = literal.partition("%25")
        if not (_unescapes(address, "host") and _unescapes(percent + zone, "zone")):
            return False
        try:
            ipaddress.IPv6Address(unquote(address) + ("%" + unquote(zone) if percent else ""))
        except ValueError:
            return False
        return True
    colon = host.find(":")
    return (colon < 0 or _port(host[colon:])) and _unescapes(host, "host")


def _port(text: str) -> bool:
    """`validOptionalPort`: empty, or a colon and digits."""
    return not text or (text[0] == ":" and all("0" <= c <= "9" for c in text[1:]))


def _unescapes(text: str, mode: str) -> bool:
    """`unescape` succeeds: every ``%`` starts an escape; hosts escape only non-ASCII bytes."""
    if "%" not in text and mode not in ("host", "zone"):
        return True  # nothing to unescape, and paths, fragments and user names take any byte
    index = 0
    while index < len(text):
        char = text[index]
        if char == "%":
            escape = text[index : index + 3]
            if len(escape) < 3 or escape[1] not in _HEX or escape[2] not in _HEX:
                return False
            if mode == "host" and int(escape[1], 16) < 8 and escape != "%25":
                return False
            if mode == "zone" and escape != "%25" and not _zone_byte(int(escape[1:], 16)):
                return False
            index += 3
            continue
        if mode in ("host", "zone") and char.isascii() and not (char.isalnum() or char in _HOST_SAFE):
            return False
        index += 1
    return True


def _zone_byte(value: int) -> bool:
    """An escaped zone byte must be one a host may hold unescaped (or a space)."""
    char = chr(value)
    return value == 0x20 or (value < 0x80 and (char.isalnum() or char in _HOST_SAFE))
