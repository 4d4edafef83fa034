"""What Nomad's admission hooks check around a `connect` block (HG292).

Before `Job.Validate`, the server passes the job through `jobConnectHook`
(nomad/job_endpoint_hook_connect.go) and `jobExposeCheckHook`
(nomad/job_endpoint_hook_expose_check.go), which look at the group around each Connect
service: its one network and that network's mode, names Consul can take, the task of a
native service, the port of a mesh gateway, the upstreams' local listeners, transparent
proxies, and which checks may be exposed. The `connect` block itself is
:mod:`hclgpu.checks.connect`.

The hooks mutate first. For each group with a network, the connect mutator interpolates
the names of sidecar and gateway services, gives a connect-native service its task,
replaces a gateway's default `proxy` with one that fits the network mode, and injects the
Envoy tasks; the expose mutator turns exposed checks into proxy paths. A mutator error
stops the registration there, so the rule stops at the first one too. The validators
then return only their first error each (connect's, then expose-check's), which is what
the rule reports.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from hclgpu.checks import rule
from hclgpu.checks.connect import (
    CONNECT_PROXY,
    go_quote,
    go_uint16_error,
    has_sidecar,
)
from hclgpu.checks.context import Context
from hclgpu.checks.findings import Finding, report_finding
from hclgpu.checks.gateways import HG292
from hclgpu.checks.server import Condition, at
from hclgpu.ir import models as m
from hclgpu.ir.admission import gateway_prefix
from hclgpu.ir.service_names import RUNTIME_VARIABLE, server_service_name
from hclgpu.settings.releases import Release

HOOK = "nomad/job_endpoint_hook_connect.go"
EXPOSE = "nomad/job_endpoint_hook_expose_check.go"

REWORDED = (1, 11, 0)
"""The release that reworded the network checks of the hooks and let `cni/*` modes in."""

SIDECAR_NETWORKS = Condition(
    "connect-sidecar-network-count",
    code=HG292,
    nomad="groupConnectNetworkModeValidate",
    source=f"{HOOK}:636",
    condition="a group with a `sidecar_service` has no `network` block, or more than one",
    message="connect sidecar: must have exactly one network for Consul Connect:"
    " group {group!r} has {count} networks",
    since=REWORDED,
)
SIDECAR_NETWORKS_LEGACY = Condition(
    "connect-sidecar-network-count-legacy",
    code=HG292,
    nomad="groupConnectSidecarValidate",
    source=f"{HOOK}:639",
    condition="a group with a `sidecar_service` has no `network` block, or more than one"
    " (the wording before 1.11)",
    message="Consul Connect sidecars require exactly 1 network, found {count} in group {group!r}",
    until=REWORDED,
    tag="v1.10.0",
)
SIDECAR_MODE = Condition(
    "connect-sidecar-network-mode",
    code=HG292,
    nomad="groupConnectNetworkModeValidate",
    source=f"{HOOK}:650",
    condition='a group with a `sidecar_service` has a network whose `mode` is not "bridge" or "cni/*"',
    message="connect sidecar: invalid network mode for Consul Connect: group {group!r} uses network mode"
    ' {mode!r}; must be "bridge" or "cni/*"',
    since=REWORDED,
)
SIDECAR_MODE_LEGACY = Condition(
    "connect-sidecar-network-mode-legacy",
    code=HG292,
    nomad="groupConnectSidecarValidate",
    source=f"{HOOK}:643",
    condition='a group with a `sidecar_service` has a network whose `mode` is not "bridge"'
    " (CNI modes came in 1.11)",
    message="Consul Connect sidecar requires bridge network, found {mode!r} in group {group!r}",
    until=REWORDED,
    tag="v1.10.0",
)
GATEWAY_NETWORKS = Condition(
    "connect-gateway-network-count",
    code=HG292,
    nomad="groupConnectNetworkModeValidate",
    source=f"{HOOK}:636",
    condition="a group with a connect `gateway` service has no `network` block, or more than one",
    message="connect gateway: must have exactly one network for Consul Connect:"
    " group {group!r} has {count} networks",
    since=REWORDED,
)
GATEWAY_NETWORKS_LEGACY = Condition(
    "connect-gateway-network-count-legacy",
    code=HG292,
    nomad="groupConnectGatewayValidate",
    source=f"{HOOK}:675",
    condition="a group with a connect `gateway` service has no `network` block, or more than one (the"
    " wording before 1.11)",
    message="Consul Connect gateways require exactly 1 network, found {count} in group {group!r}",
    until=REWORDED,
    tag="v1.10.0",
)
GATEWAY_MODE = Condition(
    "connect-gateway-network-mode",
    code=HG292,
    nomad="groupConnectNetworkModeValidate",
    source=f"{HOOK}:650",
    condition="a group with a connect `gateway` service has a network whose `mode` is not"
    ' "bridge", "host" or "cni/*"',
    message="connect gateway: invalid network mode for Consul Connect: group {group!r} uses network mode"
    ' {mode!r}; must be "bridge", "host", or "cni/*"',
    since=REWORDED,
)
GATEWAY_MODE_LEGACY = Condition(
    "connect-gateway-network-mode-legacy",
    code=HG292,
    nomad="groupConnectGatewayValidate",
    source=f"{HOOK}:680",
    condition='a group with a connect `gateway` service has a network whose `mode` is not "bridge" or'
    ' "host" (CNI modes came in 1.11)',
    message='Consul Connect Gateway service requires Task Group with network mode of type "bridge" or "host"',
    until=REWORDED,
    tag="v1.10.0",
)
EXPOSE_NETWORKS = Condition(
    "expose-check-network-count",
    code=HG292,
    nomad="groupConnectNetworkModeValidate",
    source=f"{HOOK}:636",
    condition="a group service has a check with `expose = true` and the group has no `network` block, or"
    " more than one (from the expose mutator, and so alone, when the check is an http or grpc"
    ' check of a sidecar service with a `path` starting with "/")',
    message="connect expose check: must have exactly one network for Consul Connect: group {group!r} has"
    " {count} networks",
    since=REWORDED,
)
EXPOSE_NETWORKS_LEGACY = Condition(
    "expose-check-network-count-legacy",
    code=HG292,
    nomad="tgValidateUseOfBridgeMode",
    source=f"{EXPOSE}:146",
    condition="a group service has a check with `expose = true` and the group has no `network` block, or"
    " more than one (the wording before 1.11)",
    message="group {group!r} must specify one bridge network for exposing service check(s)",
    until=REWORDED,
    tag="v1.10.0",
)
EXPOSE_MODE = Condition(
    "expose-check-network-mode",
    code=HG292,
    nomad="groupConnectNetworkModeValidate",
    source=f"{HOOK}:650",
    condition="a group service has a check with `expose = true` and the group's network `mode` is not"
    ' "bridge" or "cni/*"',
    message="connect expose check: invalid network mode for Consul Connect: group {group!r} uses network"
    ' mode {mode!r}; must be "bridge" or "cni/*"',
    since=REWORDED,
)
EXPOSE_MODE_LEGACY = Condition(
    "expose-check-network-mode-legacy",
    code=HG292,
    nomad="tgValidateUseOfBridgeMode",
    source=f"{EXPOSE}:149",
    condition="a group service has a check with `expose = true` and the group's network `mode` is not"
    ' "bridge" (CNI modes came in 1.11)',
    message="group {group!r} must use bridge network for exposing service check(s)",
    until=REWORDED,
    tag="v1.10.0",
)
UPPERCASE_SERVICE = Condition(
    "connect-service-name-uppercase",
    code=HG292,
    nomad="groupConnectSidecarValidate",
    source=f"{HOOK}:664",
    condition="a service with a `sidecar_service` has upper-case letters in its name"
    " (as the server interpolates it)",
    message="Consul Connect service name {name!r} in group {group!r} must not contain uppercase characters",
)
UPPERCASE_GROUP = Condition(
    "connect-group-name-uppercase",
    code=HG292,
    nomad="groupConnectSidecarValidate",
    source=f"{HOOK}:668",
    condition="a group with a `sidecar_service` has upper-case letters in its name",
    message="Consul Connect group {group!r} with service {name!r} must not contain uppercase characters",
)
NATIVE_AMBIGUOUS = Condition(
    "connect-native-task-ambiguous",
    code=HG292,
    nomad="getNamedTaskForNativeService",
    source=f"{HOOK}:228",
    condition="a group service with `connect { native = true }` has no `task` and the group has more than"
    " one task (Envoy tasks injected for the group's earlier sidecars count); the connect"
    " mutator's error when the group has a network",
    message="task for Consul Connect Native service {group}->{name} is ambiguous and must be set",
)
NATIVE_UNKNOWN_TASK = Condition(
    "connect-native-task-missing",
    code=HG292,
    nomad="getNamedTaskForNativeService",
    source=f"{HOOK}:236",
    condition="a group service with `connect { native = true }` names a `task` the group does not have"
    " (the connect mutator's error when the group has a network)",
    message="task {task} named by Consul Connect Native service {group}->{name} does not exist",
)
MESH_PORT = Condition(
    "mesh-gateway-without-port",
    code=HG292,
    nomad="groupConnectHook",
    source=f"{HOOK}:363",
    condition="a `gateway { mesh {} }` service has no `port`, in a group with a network (the connect"
    " mutator's error: it stops the registration)",
    message="service.port must be set for mesh gateway service",
)
SAME_UPSTREAM = Condition(
    "connect-upstreams-same-address",
    code=HG292,
    nomad="groupConnectUpstreamsValidate",
    source=f"{HOOK}:588",
    condition="two `upstreams` of a group's sidecars (of one service or two) listen on one"
    " `local_bind_address`:`local_bind_port`, or one `local_bind_socket_path`",
    message="Consul Connect services {name!r} and {other!r} in group {group!r} using same address for"
    " upstreams ({address})",
)
TPROXY_DNS = Condition(
    "transparent-proxy-with-dns",
    code=HG292,
    nomad="groupConnectUpstreamsValidate",
    source=f"{HOOK}:600",
    condition="a sidecar's `transparent_proxy` lacks `no_dns = true` and a network of the group has a"
    " non-empty `dns` block",
    message="Consul Connect transparent proxy cannot be used with network.dns unless no_dns=true",
)
TPROXY_INBOUND = Condition(
    "transparent-proxy-inbound-port-label",
    code=HG292,
    nomad="groupConnectUpstreamsValidate",
    source=f"{HOOK}:606",
    condition="a `transparent_proxy { exclude_inbound_ports }` entry is neither a port number nor the"
    " label of a static port (`static` set) of the group's networks",
    message="Consul Connect transparent proxy port {port!r} must be numeric or one of network.port labels",
)
TPROXY_ALONE = Condition(
    "transparent-proxy-one-connect-block",
    code=HG292,
    nomad="groupConnectUpstreamsValidate",
    source=f"{HOOK}:614",
    condition="a group's sidecar uses `transparent_proxy` and another group service has a `connect` block",
    message="Consul Connect transparent proxy requires there is only one connect block",
)
EXPOSE_SIDECAR = Condition(
    "expose-check-without-sidecar",
    code=HG292,
    nomad="tgValidateUseOfCheckExpose",
    source=f"{EXPOSE}:110",
    condition="a group service without `sidecar_service` has a check with `expose = true`",
    message="exposed service check {group}->{name}->{check} requires use of sidecar_proxy",
)
EXPOSE_TASK_SERVICE = Condition(
    "expose-check-task-service",
    code=HG292,
    nomad="tgValidateUseOfCheckExpose",
    source=f"{EXPOSE}:123",
    condition="a task service has a check with `expose = true`",
    message="exposed service check {group}[{task}]->{name}->{check} is not a task-group service",
)
EXPOSE_PORT = Condition(
    "expose-check-local-port",
    code=HG292,
    nomad="exposePathForCheck",
    source=f"{EXPOSE}:217",
    condition='an exposed http or grpc check (`expose = true`, a `path` starting with "/") of a sidecar'
    " service whose `port` is neither a static port's label nor a number: a dynamic port has no"
    " value yet (the expose mutator's error: it stops the registration)",
    message="unable to determine local service port for service check {group}->{name}->{check}",
)

GATEWAY_PREFIXES = ("connect-ingress", "connect-terminating", "connect-mesh")


Kind = Literal["sidecar", "gateway", "expose"]

NETWORK_CONDITIONS: dict[tuple[Kind, bool], tuple[Condition, Condition]] = {
    ("sidecar", True): (SIDECAR_NETWORKS, SIDECAR_MODE),
    ("sidecar", False): (SIDECAR_NETWORKS_LEGACY, SIDECAR_MODE_LEGACY),
    ("gateway", True): (GATEWAY_NETWORKS, GATEWAY_MODE),
    ("gateway", False): (GATEWAY_NETWORKS_LEGACY, GATEWAY_MODE_LEGACY),
    ("expose", True): (EXPOSE_NETWORKS, EXPOSE_MODE),
    ("expose", False): (EXPOSE_NETWORKS_LEGACY, EXPOSE_MODE_LEGACY),
}
"""The network conditions of each hook: (kind, reworded) -> (network count, network mode)."""
Located = tuple[Finding, str]
"""A finding and the `where` prefix of its message."""
Step = Callable[[Context, m.Job, Release], Located | None]
"""A mutator or validator of the hooks: its first error, if any."""


@rule(HG292)
def admission_hooks(ctx: Context) -> None:
    """The connect and expose-check hooks, in the server's order: a mutator error is the only
    one reported; otherwise each validator's first error."""
    job = ctx.canonical
    release = ctx.profile.release
    mutators: tuple[Step, ...] = (_connect_mutator, _expose_mutator)
    for step in mutators:
        stopped = step(ctx, job, release)
        if stopped is not None:
            report_finding(ctx, *stopped)
            return
    validators: tuple[Step, ...] = (_connect_validator, _expose_validator)
    for validator in validators:
        found = validator(ctx, job, release)
        if found is not None:
            report_finding(ctx, *found)


def _network_problem(ctx: Context, group: m.TaskGroup, kind: Kind, release: Release) -> Finding | None:
    """`groupConnectNetworkModeValidate` (1.11 and later) or its older forms."""
    reworded = release >= REWORDED
    count_condition, mode_condition = NETWORK_CONDITIONS[kind, reworded]
    networks = group.networks or []
    values: dict[str, object] = {"group": group.name, "count": len(networks)}
    if len(networks) != 1:
        span = ctx.header_span(networks[1]) if networks else ctx.label_span(group)
        return Finding(count_condition, span, "give the group exactly one `network` block", values)
    mode = networks[0].mode
    allowed = (
        mode == "bridge" or (kind == "gateway" and mode == "host") or (reworded and mode.startswith("cni/"))
    )
    if allowed:
        return None
    choices = ["bridge", *(["host"] if kind == "gateway" else []), *(["cni/*"] if reworded else [])]
    fix = "use " + " or ".join(f'`mode = "{choice}"`' for choice in choices)
    return Finding(mode_condition, at(ctx, [networks[0]], "mode"), fix, {**values, "mode": mode})


def _connect_mutator(ctx: Context, job: m.Job, release: Release) -> Located | None:
    """`jobConnectHook.Mutate`: the native-task and mesh-port errors of groups with a network."""
    for group in job.task_groups or []:
        if not group.networks:
            continue
        tasks = [task.name for task in group.tasks or []]
        kinds = {task.kind for task in group.tasks or []}
        for service in group.services or []:
            connect = service.connect
            if connect is None:
                continue
            name = server_service_name(job, group, None, service)
            if connect.sidecar_service is not None:
                _inject(tasks, kinds, f"{CONNECT_PROXY}{name}", f"connect-proxy-{name}")
            elif connect.native:
                problem = _native_task_problem(ctx, group, service, name, tasks)
                if problem is not None:
                    return problem, f"group `{group.name}`"
            elif connect.gateway is not None:
                if connect.gateway.mesh is not None and not service.port_label:
                    fix = "set `port` to the label of the port for the gateway's WAN address"
                    return Finding(MESH_PORT, ctx.header_span(service), fix), f"service `{name}`"
                prefix = gateway_prefix(connect.gateway)
                existing = {f"{other}:{name}" for other in GATEWAY_PREFIXES}  # hasGatewayTaskForService
                _inject(tasks, kinds, f"{prefix}:{name}", f"{prefix}-{name}", existing)
    return None


def _inject(
    tasks: list[str], kinds: set[str], kind: str, name: str, existing: set[str] | None = None
) -> None:
    """Count the Envoy task the mutator adds, unless a task of its kind (or of ``existing``
    kinds) is there already."""
    if not kinds & (existing or {kind}):
        kinds.add(kind)
        tasks.append(name)


def _native_task_problem(
    ctx: Context, group: m.TaskGroup, service: m.Service, name: str, tasks: list[str]
) -> Finding | None:
    """`getNamedTaskForNativeService` over the group's tasks as they are at that point."""
    values = {"group": group.name, "name": name}
    if not service.task_name:
        if len(tasks) == 1:
            return None
        fix = "set `task` to the task that serves it: " + ", ".join(f"`{t}`" for t in tasks)
        return Finding(NATIVE_AMBIGUOUS, ctx.header_span(service), fix, values)
    if service.task_name in tasks:
        return None
    fix = "name one of the group's tasks: " + ", ".join(f"`{t}`" for t in tasks)
    return Finding(
        NATIVE_UNKNOWN_TASK, at(ctx, [service], "task"), fix, {**values, "task": service.task_name}
    )


def _expose_mutator(ctx: Context, job: m.Job, release: Release) -> Located | None:
    """`jobExposeCheckHook.Mutate`: exposable checks of sidecar services need the group's
    network and a local port for the service."""
    for group in job.task_groups or []:
        for service in group.services or []:
            if not has_sidecar(service):
                continue
            name = server_service_name(job, group, None, service)
            for check in service.checks or []:
                if not (check.expose and _exposable(check)):
                    continue
                problem = _network_problem(ctx, group, "expose", release)
                if problem is not None:
                    return problem, f"group `{group.name}`"
                if _local_port(group, service.port_label) <= 0:
                    canonical = server_service_name(job, group, None, service, mutated=False)
                    values = {"group": group.name, "name": name, "check": _check_name(check, canonical)}
                    fix = "give the service a static port (`static = ...`) or a port number"
                    return Finding(EXPOSE_PORT, at(ctx, [service], "port"), fix, values), f"service `{name}`"
    return None


def _exposable(check: m.ServiceCheck) -> bool:
    """`checkIsExposable`."""
    return check.type.lower() in ("http", "grpc") and check.path.startswith("/")


def _local_port(group: m.TaskGroup, label: str) -> int:
    """What `exposePathForCheck` finds: a port's static value by label, else the label as a number."""
    value = next(
        (
            port.value
            for network in group.networks or []
            for port in [*(network.reserved_ports or []), *(network.dynamic_ports or [])]
            if port.label == label
        ),
        0,
    )
    if value > 0:
        return value
    return int(label) if re.fullmatch(r"[+-]?[0-9]+", label) else 0


def _check_name(check: m.ServiceCheck, service_name: str) -> str:
    """`ServiceCheck.Canonicalize`'s default name."""
    return check.name or f"service: {go_quote(service_name)} check"


def _connect_validator(ctx: Context, job: m.Job, release: Release) -> Located | None:
    """`jobConnectHook.Validate`: the first error of the first group that has one."""
    for group in job.task_groups or []:
        for service in group.services or []:
            connect = service.connect
            if connect is None:
                continue
            name = server_service_name(job, group, None, service)
            if connect.sidecar_service is not None:
                problem = _network_problem(ctx, group, "sidecar", release) or _lowercase(
                    ctx, group, service, name
                )
            elif connect.native:
                tasks = [task.name for task in group.tasks or []]
                problem = None if group.networks else _native_task_problem(ctx, group, service, name, tasks)
            elif connect.gateway is not None:
                problem = _network_problem(ctx, group, "gateway", release)
            else:
                problem = None
            if problem is not None:
                return problem, f"group `{group.name}`"
        problem = _upstreams_problem(ctx, job, group)
        if problem is not None:
            return problem, f"group `{group.name}`"
    return None


def _lowercase(ctx: Context, group: m.TaskGroup, service: m.Service, name: str) -> Finding | None:
    """Consul assumes sidecar service and group names are lower case."""
    values = {"name": name, "group": group.name}
    if _has_upper(name):
        return Finding(
            UPPERCASE_SERVICE, at(ctx, [service], "name"), f'use `name = "{name.lower()}"`', values
        )
    if group.name != (group.name or "").lower():
        fix = f'rename the group to `"{(group.name or "").lower()}"`'
        return Finding(UPPERCASE_GROUP, ctx.label_span(group), fix, values)
    return None


def _has_upper(name: str) -> bool:
    """Upper-case letters outside variables the server could not resolve (their values are unknown)."""
    return any(part != part.lower() for part in RUNTIME_VARIABLE.split(name))


def _upstreams_problem(ctx: Context, job: m.Job, group: m.TaskGroup) -> Finding | None:
    """`groupConnectUpstreamsValidate`: shared upstream listeners, then transparent proxies."""
    listeners: dict[str, str] = {}
    connect_count = sum(service.connect is not None for service in group.services or [])
    uses_tproxy = False
    for service in group.services or []:
        connect = service.connect
        sidecar = connect.sidecar_service if connect is not None else None
        if sidecar is None or sidecar.proxy is None:
            continue
        name = server_service_name(job, group, None, service)
        for upstream in sidecar.proxy.upstreams or []:
            address = upstream.local_bind_socket_path or _join_host_port(
                upstream.local_bind_address, upstream.local_bind_port
            )
            if address in listeners:
                values = {"name": name, "other": listeners[address], "group": group.name, "address": address}
                span = at(ctx, [upstream], "local_bind_socket_path", "local_bind_port")
                return Finding(SAME_UPSTREAM, span, "give each upstream its own local port or socket", values)
            listeners[address] = name
        tproxy = sidecar.proxy.transparent_proxy
        if tproxy is not None:
            uses_tproxy = True
            problem = _tproxy_group_problem(ctx, group, tproxy)
            if problem is not None:
                return problem
    if uses_tproxy and connect_count > 1:
        span = ctx.label_span(group)
        return Finding(TPROXY_ALONE, span, "move the other Connect services to groups of their own")
    return None


def _join_host_port(host: str, port: int) -> str:
    """Go's `net.JoinHostPort`."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _tproxy_group_problem(
    ctx: Context, group: m.TaskGroup, tproxy: m.ConsulTransparentProxy
) -> Finding | None:
    for network in group.networks or []:
        dns = network.dns
        if dns is not None and (dns.servers or dns.searches or dns.options) and not tproxy.no_dns:
            span = at(ctx, [tproxy], "no_dns")
            return Finding(TPROXY_DNS, span, "set `no_dns = true`, or remove the network's `dns` block")
    static = {port.label for network in group.networks or [] for port in network.reserved_ports or []}
    for port in tproxy.exclude_inbound_ports or []:
        if go_uint16_error(port) is not None and port not in static:
            span = at(ctx, [tproxy], "exclude_inbound_ports")
            fix = "use a port number, or the label of a port with a `static` value"
            return Finding(TPROXY_INBOUND, span, fix, {"port": port})
    return None


def _expose_validator(ctx: Context, job: m.Job, release: Release) -> Located | None:
    """`jobExposeCheckHook.Validate`: per group, its network, then where exposed checks are."""
    for group in job.task_groups or []:
        where = f"group `{group.name}`"
        if any(check.expose for service in group.services or [] for check in service.checks or []):
            problem = _network_problem(ctx, group, "expose", release)
            if problem is not None:
                return problem, where
        problem = _exposed_outside_sidecar(ctx, job, group)
        if problem is not None:
            return problem, where
    return None


def _exposed_outside_sidecar(ctx: Context, job: m.Job, group: m.TaskGroup) -> Finding | None:
    """`tgValidateUseOfCheckExpose`: only group services with a sidecar expose checks."""
    for service in group.services or []:
        name = server_service_name(job, group, None, service)
        for check in service.checks or []:
            if check.expose and not has_sidecar(service):
                values = {"group": group.name, "name": name, "check": _check_name(check, name)}
                fix = "add `connect { sidecar_service {} }` to the service, or remove `expose`"
                return Finding(EXPOSE_SIDECAR, at(ctx, [check], "expose"), fix, values)
    for task in group.tasks or []:
        for service in task.services or []:
            name = server_service_name(job, group, task, service)
            for check in service.checks or []:
                if check.expose:
                    values = {
                        "group": group.name,
                        "task": task.name,
                        "name": name,
                        "check": _check_name(check, name),
                    }
                    fix = "move the service to the group, with a sidecar, or remove `expose`"
                    return Finding(EXPOSE_TASK_SERVICE, at(ctx, [check], "expose"), fix, values)
    return None
