"""The `connect` block as Nomad's server validates it (HG292).

`ConsulConnect.Validate` (nomad/structs/services.go) runs inside `Job.Validate` on the
`connect` block of every Consul service: the block is exactly one of a sidecar, native or a
gateway, and a sidecar proxy's `transparent_proxy` must parse (nomad/structs/connect.go).
A gateway's own blocks are :mod:`hclgpu.checks.gateways`. With it come the connect-native
rows of `Service.validateConsulService` and the rows of `Task.Validate` for a task that
declares itself the Envoy proxy of a sidecar (`kind = "connect-proxy:<service>"`). What the
server's admission hooks check of the group around a `connect` block, before all of this,
is :mod:`hclgpu.checks.connect_admission`.

The rules judge the job as the connect mutator leaves it: service names as the server has
them (:func:`server_service_name`), a gateway's generated bind addresses, a native
service's inferred task. Each `connect` block stops at its first error, as Nomad's does.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterator

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.findings import Finding, report_finding
from hclgpu.checks.gateways import HG292, gateway_problem
from hclgpu.checks.server import Condition, at, parse_uint_reason, reject
from hclgpu.ir import models as m
from hclgpu.ir.service_names import job_services, server_service_name

S = "nomad/structs/structs.go"
SV = "nomad/structs/services.go"
CONNECT = "nomad/structs/connect.go"

# ---- ConsulConnect.Validate, its transparent proxy, connect-native services -------------

NOT_EXCLUSIVE = Condition(
    "connect-not-exclusive",
    code=HG292,
    nomad="ConsulConnect.Validate",
    source=f"{SV}:1361",
    condition="a `connect` block is not exactly one of `sidecar_service`, `native = true` and `gateway`"
    " (an empty `connect {}`, or one with only `sidecar_task`)",
    message="Consul Connect must be exclusively native, make use of a sidecar, or represent a Gateway",
)
TPROXY_CIDR = Condition(
    "transparent-proxy-outbound-cidr",
    code=HG292,
    nomad="ConsulTransparentProxy.Validate",
    source=f"{CONNECT}:125",
    condition="a `transparent_proxy { exclude_outbound_cidrs }` entry is not an address/bits prefix"
    " (Go's `netip.ParsePrefix`)",
    message="could not parse transparent proxy excluded outbound CIDR as network prefix: {error}",
)
TPROXY_UID = Condition(
    "transparent-proxy-uid",
    code=HG292,
    nomad="ConsulTransparentProxy.Validate",
    source=f"{CONNECT}:144",
    condition="`transparent_proxy { uid }` is set and is not a decimal number from 0 to 65535",
    message="transparent proxy block has invalid UID field: invalid user ID {uid!r}: {error}",
)
TPROXY_EXCLUDE_UID = Condition(
    "transparent-proxy-exclude-uid",
    code=HG292,
    nomad="ConsulTransparentProxy.Validate",
    source=f"{CONNECT}:150",
    condition="a `transparent_proxy { exclude_uids }` entry is not a decimal number from 0 to 65535",
    message="transparent proxy block has invalid ExcludeUIDs field: invalid user ID {uid!r}: {error}",
)
NATIVE_TASK = Condition(
    "connect-native-without-task",
    code=HG292,
    nomad="Service.validateConsulService",
    source=f"{SV}:895",
    condition="a group service with `connect { native = true }` has no `task`, in a group without a"
    " `network` (with one, the server takes the group's only task, or refuses an ambiguous one)",
    message="Service {name} is Connect Native and requires setting the task",
)
NATIVE_PORT = Condition(
    "connect-native-without-port",
    code=HG292,
    nomad="Service.validateConsulService",
    source=f"{SV}:900",
    condition="a service with `connect { native = true }` has no `port`",
    message="Service {name} is Connect Native and requires setting the port",
    since=(1, 9, 2),
)

# ---- Task.Validate on connect-proxy tasks ----------------------------------------------

PROXY_SERVICE = Condition(
    "connect-proxy-task-service",
    code=HG292,
    nomad="Task.Validate",
    source=f"{S}:8356",
    condition='a task with `kind = "connect-proxy:<service>"` has `service` blocks',
    message="Connect proxy task must not have a service block",
)
PROXY_LEADER = Condition(
    "connect-proxy-task-leader",
    code=HG292,
    nomad="Task.Validate",
    source=f"{S}:8359",
    condition='a task with `kind = "connect-proxy:<service>"` sets `leader = true`',
    message="Connect proxy task must not have leader set",
)
PROXY_NO_SIDECAR = Condition(
    "connect-proxy-without-connect-service",
    code=HG292,
    nomad="ValidateConnectProxyService",
    source=f"{S}:8760",
    condition='a task has `kind = "connect-proxy:<service>"` and no group service has a `sidecar_service`',
    message="No Connect services in task group with Connect proxy ({service!r})",
)
PROXY_UNKNOWN = Condition(
    "connect-proxy-service-not-found",
    code=HG292,
    nomad="ValidateConnectProxyService",
    source=f"{S}:8762",
    condition='a task has `kind = "connect-proxy:<service>"` and no group service with a'
    " `sidecar_service` has that name (as the server interpolates it)",
    message="Connect proxy service name ({service!r}) not found in Connect services from task group: {names}",
)

CONNECT_PROXY = "connect-proxy:"


# ---- the job as the server has it after the connect mutator -----------------------------


def has_sidecar(service: m.Service) -> bool:
    return service.connect is not None and service.connect.sidecar_service is not None


def _consul_services(job: m.Job) -> Iterator[tuple[m.TaskGroup, m.Task | None, m.Service]]:
    """Every service `validateConsulService` checks, group services first."""
    return ((g, t, s) for g, t, s in job_services(job) if s.provider == "consul")


# ---- ConsulConnect.Validate ---------------------------------------------------------------


@rule(HG292)
def connect_blocks(ctx: Context) -> None:
    """`ConsulConnect.Validate` of every Consul service, and the native-service rows of
    `validateConsulService`: each `connect` block stops at its first error, as Nomad's does."""
    job = ctx.canonical
    for group, task, service in _consul_services(job):
        connect = service.connect
        if connect is None:
            continue
        name = server_service_name(job, group, task, service)
        where = f"service `{name}`"
        tproxy = _transparent_proxy(connect)
        if tproxy is not None:
            problems = list(_tproxy_problems(ctx, tproxy))
            for problem in problems:
                report_finding(ctx, problem, where)
            if problems:
                continue  # ConsulConnect.Validate returns the transparent proxy's errors alone
        # the connect mutator rewrites the gateway proxy of group services in groups with a network
        mode = group.networks[0].mode if task is None and group.networks else None
        report_finding(ctx, _connect_problem(ctx, connect, mode), where)
        if connect.native:
            _native_service(ctx, group, task, service, name, where)


def _transparent_proxy(connect: m.ConsulConnect) -> m.ConsulTransparentProxy | None:
    sidecar = connect.sidecar_service
    proxy = sidecar.proxy if sidecar is not None else None
    return proxy.transparent_proxy if proxy is not None else None


def _connect_problem(ctx: Context, connect: m.ConsulConnect, mode: str | None) -> Finding | None:
    kinds = [connect.sidecar_service is not None, connect.native, connect.gateway is not None]
    if kinds.count(True) != 1:
        return Finding(
            NOT_EXCLUSIVE,
            ctx.header_span(connect),
            "keep one of `sidecar_service`, `native = true` and `gateway`",
        )
    if connect.gateway is not None:
        return gateway_problem(ctx, connect.gateway, mode)
    return None


def _native_service(
    ctx: Context, group: m.TaskGroup, task: m.Task | None, service: m.Service, name: str, where: str
) -> None:
    # With a network, the connect mutator names the task or fails (the hook rule reports it);
    # a task service's task is its own, and a service with a sidecar is not treated as native.
    mutated = bool(group.networks) and not has_sidecar(service)
    if task is None and not service.task_name and not mutated:
        reject(
            ctx,
            NATIVE_TASK,
            at(ctx, [service], "task"),
            where=where,
            name=name,
            help='name the task that serves it: `task = "..."`',
        )
    if not service.port_label:
        reject(
            ctx,
            NATIVE_PORT,
            ctx.header_span(service),
            where=where,
            name=name,
            help="set the `port` the native service listens on",
        )


def _tproxy_problems(ctx: Context, tproxy: m.ConsulTransparentProxy) -> Iterator[Finding]:
    """`ConsulTransparentProxy.Validate`: every error, as one multierror in Nomad."""
    for cidr in tproxy.exclude_outbound_cidrs or []:
        error = go_parse_prefix_error(cidr)
        if error is not None:
            span = at(ctx, [tproxy], "exclude_outbound_cidrs")
            yield Finding(
                TPROXY_CIDR, span, 'write an address and its bits, e.g. "10.0.0.0/8"', {"error": error}
            )
    if tproxy.uid:
        error = go_uint16_error(tproxy.uid)
        if error is not None:
            span = at(ctx, [tproxy], "uid")
            yield Finding(
                TPROXY_UID, span, "use a numeric user ID from 0 to 65535", {"uid": tproxy.uid, "error": error}
            )
    for uid in tproxy.exclude_uids or []:
        error = go_uint16_error(uid)
        if error is not None:
            span = at(ctx, [tproxy], "exclude_uids")
            yield Finding(
                TPROXY_EXCLUDE_UID, span, "use numeric user IDs from 0 to 65535", {"uid": uid, "error": error}
            )


# ---- Go's parsers, for the messages ---------------------------------------------------------


def go_uint16_error(text: str) -> str | None:
    """The error `strconv.ParseUint(text, 10, 16)` wraps, or None when it parses."""
    return parse_uint_reason(text, 10, 16)


def go_parse_prefix_error(text: str) -> str | None:
    """The error of Go's `netip.ParsePrefix(text)`, or None when it parses. IPv4 addresses
    get Go's own reasons; an IPv6 address that does not parse gets a short one of its own."""
    slash = text.rfind("/")
    if slash < 0:
        return f"netip.ParsePrefix({go_quote(text)}): no '/'"
    address, bits = text[:slash], text[slash + 1 :]
    problem = _address_error(address)
    if problem is None and "%" in address:
        problem = "IPv6 zones cannot be present in a prefix"
    if problem is None and (not bits.isascii() or not bits.isdigit() or (len(bits) > 1 and bits[0] == "0")):
        problem = f"bad bits after slash: {go_quote(bits)}"
    if problem is None and int(bits) > (128 if ":" in address else 32):
        problem = "prefix length out of range"
    return f"netip.ParsePrefix({go_quote(text)}): {problem}" if problem else None


def _address_error(text: str) -> str | None:
    """`netip.ParseAddr`: the first `.`, `:` or `%` decides what the text must be."""
    for char in text:
        if char == ".":
            reason = _ipv4_error(text)
            break
        if char == ":":
            reason = _ipv6_error(text)
            break
        if char == "%":
            reason = "missing IPv6 address"
            break
    else:
        reason = "unable to parse IP"
    return f"ParseAddr({go_quote(text)}): {reason}" if reason else None


def _ipv4_error(text: str) -> str | None:
    """`parseIPv4Fields`: four dot-separated decimal octets, no leading zeros."""
    value, digits, dots = 0, 0, 0
    for index, char in enumerate(text):
        if "0" <= char <= "9":
            if digits == 1 and value == 0:
                return "IPv4 field has octet with leading zero"
            value, digits = value * 10 + int(char), digits + 1
            if value > 255:
                return "IPv4 field has value >255"
        elif char == ".":
            if index in (0, len(text) - 1) or text[index - 1] == ".":
                return f"IPv4 field must have at least one digit (at {go_quote(text[index:])})"
            if dots == 3:
                return "IPv4 address too long"
            value, digits, dots = 0, 0, dots + 1
        else:
            return f"unexpected character (at {go_quote(text[index:])})"
    return "IPv4 address too short" if dots < 3 else None


def _ipv6_error(text: str) -> str | None:
    try:
        ipaddress.IPv6Address(text.partition("%")[0])
    except ValueError:
        return "not an IPv6 address"
    return None


def go_quote(text: str) -> str:
    """Go's `strconv.Quote`, near enough for job-file text."""
    return json.dumps(text, ensure_ascii=False)


# ---- Task.Validate on connect-proxy tasks --------------------------------------------------


@rule(HG292)
def connect_proxy_tasks(ctx: Context) -> None:
    """A task of kind `connect-proxy:<service>` is the Envoy of that sidecar service; the
    ones the server injects always fit, so only written ones are judged."""
    job = ctx.canonical
    for group, task in ctx.canonical_tasks():
        kind = task.kind or ""
        if not kind.startswith(CONNECT_PROXY) or kind == CONNECT_PROXY:
            continue
        where = f"task `{task.name}`"
        if task.services:
            fix = "move the services to the group or to another task"
            reject(ctx, PROXY_SERVICE, ctx.header_span(task.services[0]), where=where, help=fix)
        if task.leader:
            reject(ctx, PROXY_LEADER, at(ctx, [task], "leader"), where=where, help="remove `leader = true`")
        _proxied_service(ctx, job, group, task, kind.removeprefix(CONNECT_PROXY), where)


def _proxied_service(
    ctx: Context, job: m.Job, group: m.TaskGroup, task: m.Task, name: str, where: str
) -> None:
    """`ValidateConnectProxyService`: a group sidecar service of that name must exist."""
    names: list[str] = []
    for service in group.services or []:
        if not has_sidecar(service):
            continue
        server_name = server_service_name(job, group, None, service)
        if server_name == name:
            return
        names.append(server_name)
    span = at(ctx, [task], "kind")
    if not names:
        fix = "add a group service with `connect { sidecar_service {} }`, or remove `kind`"
        reject(ctx, PROXY_NO_SIDECAR, span, where=where, service=name, help=fix)
        return
    fix = "name one of the group's sidecar services: " + ", ".join(f"`{n}`" for n in names)
    reject(ctx, PROXY_UNKNOWN, span, where=where, service=name, names=f"[{' '.join(names)}]", help=fix)
