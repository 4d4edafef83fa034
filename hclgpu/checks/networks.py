"""Ports and networks (HG245-HG250).

What Nomad's server checks at registration (`TaskGroup.validateNetworks`,
`validateServices` in nomad/structs/structs.go), what the docker driver checks when the
task starts (`createContainerConfig` in drivers/docker/driver.go), and the deprecation
warnings Nomad prints (`TaskGroup.Warnings`, `Task.Warnings`). Nomad compares group
ports among themselves, and task-network ports against the group's, so the rules do the
same: two task networks may reuse a label without Nomad noticing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.server import Check, Condition, reject
from hclgpu.codes import Severity
from hclgpu.codes.base import Code, E, W
from hclgpu.diagnostics import Edit, Related
from hclgpu.eval.expr import closest, did_you_mean
from hclgpu.eval.functions.base import go_quote
from hclgpu.ir import models as m
from hclgpu.source import Span
from hclgpu.syntax import ast

HG245 = Code(
    "HG245",
    "duplicate-port-label",
    E,
    summary="A port label is declared twice in one group",
    doc="""What: two `port "<label>"` blocks of a group's `network` blocks share a label, or
a task's `resources { network { port ... } }` reuses a label of the group network.

Why: Nomad rejects the job at registration: "Port label http already in use by
taskgroup network". A label names one port: services, checks, `NOMAD_PORT_<label>`
and docker `ports` refer to it.

Example:
    network {
      port "http" {}
      port "http" { to = 8080 }
    }

Fix: give every port of the group a label of its own.""",
)


HG246 = Code(
    "HG246",
    "static-port-collision",
    E,
    summary="The same static port is reserved twice in one group",
    doc="""What: two ports of one group (group or task `network` blocks) ask for the same
`static` host port on the same host network.

Why: Nomad rejects the job at registration: "Static port 8080 already reserved by
taskgroup network:http". One allocation cannot bind a host port twice. (Ports of a
group network may set `ignore_collision = true` to share a port that supports
SO_REUSEPORT.)

Example:
    network {
      port "http"  { static = 8080 }
      port "admin" { static = 8080 }
    }

Fix: use different static ports, drop `static` from one of them to get a dynamic
port, or set `ignore_collision = true` where the program can share the port.""",
)


HG247 = Code(
    "HG247",
    "port-out-of-range",
    E,
    summary="A port number is outside 0-65535",
    doc="""What: a port's `static` value is above 65535, or its `to` value is above 65535 or
below -1 (-1 means "same as the host port", for Consul Connect).

Why: Nomad rejects the job at registration with `Port http (70000) cannot be greater
than 65535` or `Port "http" cannot be mapped to negative value -2`.

Example:
    port "http" { static = 80800 }

Fix: use a port number between 1 and 65535.""",
)


HG248 = Code(
    "HG248",
    "undeclared-port",
    E,
    summary="A service, check or docker `ports` entry names a port no network declares",
    doc="""What: a `service` or `check` `port`, or an entry of a docker task's
`config { ports = [...] }`, names a port label that no `network` block of the group
declares (for task services: the group's first network or the task's own network).

Why: for a task service Nomad rejects the job at registration (`port label "http"
referenced by services web does not exist`, `validateServices`): an error. A group
service is accepted but fails to register when the allocation starts, and docker
fails to start the task (`Port "http" not found, check network block`) or publishes
nothing when the group has no network ports: those two are warnings.

Example:
    network { port "http" { to = 8080 } }
    service { port = "htpp" }

Fix: correct the label, or declare the port in the group's `network` block.""",
)


HG249 = Code(
    "HG249",
    "task-network-deprecated",
    W,
    summary="A `network` block inside a task's `resources` is deprecated",
    doc="""What: a task declares its network in `resources { network { ... } }`.

Why: Nomad warns at registration: "task network resources have been deprecated as of
Nomad 0.12.0. Please configure networking via group network block." Newer features
(bridge and CNI networking, Consul Connect, docker `ports`, `host_network`) work only
with the group `network` block.

Example:
    task "web" {
      resources {
        network {
          port "http" {}
        }
      }
    }

Fix: move the `network` block to the group, and in docker tasks list the ports in
`config { ports = ["http"] }` (with `to = <container port>` on the port) instead of
`port_map`.""",
)


HG250 = Code(
    "HG250",
    "mbits-deprecated",
    W,
    summary="`mbits` is deprecated and ignored",
    doc="""What: a group `network` block sets `mbits`.

Why: Nomad warns at registration: "mbits has been deprecated as of Nomad 0.12.0.
Please remove mbits from the network block." Network bandwidth is no longer
scheduled, so the value reserves nothing.

Example:
    network {
      mbits = 100
    }

Fix: remove `mbits`.""",
)

PORT_LABEL_TWICE = Condition(
    "port-label-twice",
    code=HG245,
    nomad="TaskGroup.validateNetworks",
    source="nomad/structs/structs.go:7324",
    condition="two ports of a group's networks have one label",
    message="Port label {label} already in use by {other}",
)

STATIC_PORT_TWICE = Condition(
    "static-port-twice",
    code=HG246,
    nomad="TaskGroup.validateNetworks",
    source="nomad/structs/structs.go:7341",
    condition="two ports reserve one static port (without ignore_collision)",
    message="Static port {port} already reserved by {other}",
)

PORT_ABOVE_65535 = Condition(
    "port-above-65535",
    code=HG247,
    nomad="TaskGroup.validateNetworks",
    source="nomad/structs/structs.go:7345",
    condition="a static port above 65535",
    message="Port {label} ({port}) cannot be greater than 65535",
)

PORT_MAPPED_NEGATIVE = Condition(
    "port-mapped-negative",
    code=HG247,
    nomad="TaskGroup.validateNetworks",
    source="nomad/structs/structs.go:7354",
    condition="a port's `to` below 0 (-1 excepted)",
    message="Port {label!r} cannot be mapped to negative value {to}",
)

PORT_MAPPED_ABOVE_65535 = Condition(
    "port-mapped-above-65535",
    code=HG247,
    nomad="TaskGroup.validateNetworks",
    source="nomad/structs/structs.go:7357",
    condition="a port's `to` above 65535",
    message="Port {label!r} cannot be mapped to a port ({to}) greater than 65535",
)

TASK_PORT_LABEL_TWICE = Condition(
    "task-port-label-twice",
    code=HG245,
    nomad="TaskGroup.validateNetworks",
    source="nomad/structs/structs.go:7412",
    condition="a port of a task's `resources { network }` has a label of the group network's",
    message="Port label {label} already in use by {other}",
)

TASK_STATIC_PORT_TWICE = Condition(
    "task-static-port-twice",
    code=HG246,
    nomad="TaskGroup.validateNetworks",
    source="nomad/structs/structs.go:7425",
    condition="a task network's static port is reserved by the group network or an earlier task"
    " (ignore_collision does not count there)",
    message="Static port {port} already reserved by {other}",
)

TASK_PORT_ABOVE_65535 = Condition(
    "task-port-above-65535",
    code=HG247,
    nomad="TaskGroup.validateNetworks",
    source="nomad/structs/structs.go:7428",
    condition="a task network's static port above 65535",
    message="Port {label} ({port}) cannot be greater than 65535",
)

TASK_SERVICE_PORT = Condition(
    "task-service-port",
    code=HG248,
    nomad="validateServices",
    source="nomad/structs/structs.go:8589",
    condition="a task service or check names a port that is not a label of the group's first network or the"
    " task's",
    message="port label {label!r} referenced by services {services} does not exist",
)

TASK_CHECK_NUMERIC_PORT = Condition(
    "task-check-numeric-port",
    code=HG248,
    nomad="validateServices",
    source="nomad/structs/structs.go:8539",
    condition='a task check uses a numeric port without `address_mode = "driver"`',
    message='check {name!r} cannot use a numeric port {port} without setting address_mode="driver"',
)

GROUP_SERVICE_PORT = Check(
    "group-service-port",
    code=HG248,
    condition="a group service, or a check of one, names a port label that no `network` block of the group"
    " declares (Nomad accepts the job; the service fails to register when the allocation starts)",
)

DOCKER_PORT_UNDECLARED = Check(
    "docker-port-undeclared",
    code=HG248,
    condition="a docker task's `config { ports }` names a port label that no group `network` block declares"
    " (the driver refuses to start the task, or publishes nothing)",
)


MAX_PORT = 65535
SAME_AS_HOST = -1
"""`to = -1`: Consul Connect's "same port as on the host"; anything lower is refused."""
PORT_CHECK_TYPES = ("grpc", "http", "tcp")
"""Check types that need a port (`ServiceCheck.RequiresPort`, compared as written)."""
_NUMBER = re.compile(r"[+-]?\d+")


@dataclass(frozen=True, slots=True)
class PlacedPort:
    """A port and where it is declared: the group network, or a task's deprecated one."""

    port: m.Port
    task: m.Task | None = None


def network_ports(network: m.NetworkResource) -> list[m.Port]:
    """A network's ports in source order (normalisation split them into static and dynamic)."""
    ports = [*(network.reserved_ports or []), *(network.dynamic_ports or [])]
    return sorted(ports, key=lambda port: port.span.start if port.span else 0)


def group_ports(ctx: Context, group: m.TaskGroup) -> list[PlacedPort]:
    """The ports of a group of ``ctx.job``'s networks (only read: the rules share the list)."""
    return ctx.shared(_declared_ports)[id(group)]


def task_ports(ctx: Context, task: m.Task) -> list[PlacedPort]:
    """The ports of a task of ``ctx.job``'s own networks (only read)."""
    return ctx.shared(_declared_ports)[id(task)]


def all_ports(ctx: Context, group: m.TaskGroup) -> list[PlacedPort]:
    """The group network's ports, then each task network's, as Nomad validates them."""
    declared = ctx.shared(_declared_ports)
    return [*declared[id(group)], *(p for task in group.tasks or [] for p in declared[id(task)])]


def _declared_ports(ctx: Context) -> dict[int, list[PlacedPort]]:
    """Every group's and task's ports, by the id of the node (the job outlives the run)."""
    declared: dict[int, list[PlacedPort]] = {}
    for group in ctx.groups():
        declared[id(group)] = [PlacedPort(p) for n in group.networks or [] for p in network_ports(n)]
        for task in group.tasks or []:
            networks = task.resources.networks if task.resources is not None else None
            declared[id(task)] = [PlacedPort(p, task) for n in networks or [] for p in network_ports(n)]
    return declared


def _where(placed: PlacedPort) -> str:
    return f"task `{placed.task.name}`" if placed.task is not None else "the group network"


# ---- labels and static ports ---------------------------------------------------------


@rule(HG245)
def duplicate_port_label(ctx: Context) -> None:
    """A label names one port; Nomad refuses a group whose networks declare one twice."""
    for group in ctx.groups():
        seen: dict[str, PlacedPort] = {}
        for placed in group_ports(ctx, group):
            _check_label(ctx, group, placed, seen)
            seen.setdefault(placed.port.label, placed)
        for task in group.tasks or []:
            for placed in task_ports(ctx, task):
                _check_label(ctx, group, placed, seen)


def _check_label(ctx: Context, group: m.TaskGroup, placed: PlacedPort, seen: dict[str, PlacedPort]) -> None:
    first = seen.get(placed.port.label)
    if first is None:
        return
    reject(
        ctx,
        PORT_LABEL_TWICE if placed.task is None else TASK_PORT_LABEL_TWICE,
        ctx.label_span(placed.port),
        label=placed.port.label,
        other="taskgroup network",
        help=f"port label `{placed.port.label}` is already declared by {_where(first)} of group "
        f"`{group.name}`; give every port of the group a label of its own",
        related=_related(ctx.label_span(first.port), "first declared here"),
    )


@rule(HG246)
def static_port_collision(ctx: Context) -> None:
    """One allocation cannot bind a host port twice; Nomad refuses the job."""
    for group in ctx.groups():
        reserved: dict[tuple[str, int], PlacedPort] = {}
        for placed in all_ports(ctx, group):
            port = placed.port
            if port.value == 0 or port.value > MAX_PORT:
                continue
            key = (port.host_network or "default", port.value)
            first = reserved.setdefault(key, placed)
            if first is placed or (port.ignore_collision and placed.task is None):
                continue
            on = f" on host network `{port.host_network}`" if port.host_network else ""
            owner = f"{first.task.name}:" if first.task is not None else "taskgroup network:"
            reject(
                ctx,
                STATIC_PORT_TWICE if placed.task is None else TASK_STATIC_PORT_TWICE,
                ctx.value_span(port, "static"),
                port=port.value,
                other=f"{owner}{first.port.label}",
                help=f"static port {port.value}{on} is already reserved by port `{first.port.label}` "
                f"of {_where(first)}; use another static port, drop `static` to get a dynamic one, "
                "or set `ignore_collision = true` if the program can share it",
                related=_related(ctx.value_span(first.port, "static"), "first reserved here"),
            )


@rule(HG247)
def port_out_of_range(ctx: Context) -> None:
    """Ports are 16-bit; Nomad refuses larger static ports and `to` values below -1."""
    for group in ctx.groups():
        for placed in all_ports(ctx, group):
            port = placed.port
            if port.value > MAX_PORT:
                reject(
                    ctx,
                    PORT_ABOVE_65535 if placed.task is None else TASK_PORT_ABOVE_65535,
                    ctx.value_span(port, "static"),
                    label=port.label,
                    port=port.value,
                    help=f"use a port between 1 and {MAX_PORT}",
                )
            # Nomad checks `to` on group networks only.
            if placed.task is None and not SAME_AS_HOST <= port.to <= MAX_PORT:
                reject(
                    ctx,
                    PORT_MAPPED_NEGATIVE if port.to < 0 else PORT_MAPPED_ABOVE_65535,
                    ctx.value_span(port, "to"),
                    label=port.label,
                    to=port.to,
                    help=f"use a container port between 1 and {MAX_PORT} (-1: the same as the host port)",
                )


# ---- references to ports -------------------------------------------------------------


@rule(HG248)
def undeclared_port(ctx: Context) -> None:
    """Services, checks and docker `ports` can only use ports a network declares."""
    for group in ctx.groups():
        declared = [p.port.label for p in group_ports(ctx, group)]
        first = [p.label for p in network_ports(group.networks[0])] if group.networks else []
        for service in group.services or []:
            _check_service(ctx, service, declared, f"group `{group.name}`")
        for task in group.tasks or []:
            own = [p.port.label for p in task_ports(ctx, task)]
            scope = f"group `{group.name}` or task `{task.name}`"
            # Nomad's server looks a task service's ports up in the group's first network
            # and the task's own (validateServices, nomad/structs/structs.go:8440 at aa026cc99c)
            _task_service_ports(ctx, group, task, [*first, *own], scope)
            if task.driver == "docker":
                _check_docker_ports(ctx, group, task, declared, own)


def _task_service_ports(
    ctx: Context, group: m.TaskGroup, task: m.Task, declared: list[str], scope: str
) -> None:
    """A task's services and checks, as `validateServices` checks them: one error per port
    label no network declares, naming every service that uses it (sorted), and one per
    check that names a port number without `address_mode = "driver"`. A check without a
    port of its own uses its service's, and is reported as its service."""
    from hclgpu.checks.naming import service_name

    users: dict[str, list[tuple[m.Service, m.Service | m.ServiceCheck]]] = {}
    for service in task.services or []:
        label = service.port_label
        if label and not (service.address_mode == "driver" and _NUMBER.fullmatch(label)):
            users.setdefault(label, []).append((service, service))
        for check in service.checks or []:
            # a check without a port of its own uses the service's: reported with the
            # service (a number it inherits is HG284's task-check-inherited-numeric-port)
            label = check.port_label
            if check.type not in PORT_CHECK_TYPES or not label:
                continue
            if _NUMBER.fullmatch(label):
                if check.address_mode != "driver":
                    _numeric_check_port(ctx, check, service_name(ctx.job, group, task, service), label)
                continue
            users.setdefault(label, []).append((service, check))
    for label in sorted(users):
        if "${" in label or label in declared:  # runtime values cannot be checked
            continue
        names = ", ".join(sorted({service_name(ctx.job, group, task, s) for s, _ in users[label]}))
        reject(
            ctx,
            TASK_SERVICE_PORT,
            ctx.value_span(users[label][0][1], "port"),
            label=label,
            services=names,
            help=f"no `network` block of {scope} declares `{label}`; {_label_help(label, declared)}",
            fix=_renamed(ctx, users[label][0][1], label, declared) if len(users[label]) == 1 else (),
        )


def _numeric_check_port(ctx: Context, check: m.ServiceCheck, name: str, label: str) -> None:
    check_name = check.name or f"service: {go_quote(name)} check"
    reject(
        ctx,
        TASK_CHECK_NUMERIC_PORT,
        ctx.value_span(check, "port"),
        name=check_name,
        port=int(label),
        help='a port number needs `address_mode = "driver"`; otherwise name a declared port',
    )


def _check_service(ctx: Context, service: m.Service, declared: list[str], scope: str) -> None:
    """A group service's port, then every check that names a port of its own.

    Group services may name a port number (Consul Connect sidecars do); task services and
    their checks are `_task_service_ports`, as Nomad's `validateServices` has them.
    """
    _check_reference(ctx, service, service.port_label, declared, scope)
    for check in service.checks or []:
        if check.type in PORT_CHECK_TYPES:
            _check_reference(ctx, check, check.port_label, declared, scope)


def _check_reference(
    ctx: Context, node: m.Service | m.ServiceCheck, label: str, declared: list[str], scope: str
) -> None:
    """Runtime `${...}` values cannot be checked; a number is a port, not a label."""
    if not label or "${" in label or label in declared or _NUMBER.fullmatch(label):
        return
    kind = "check" if isinstance(node, m.ServiceCheck) else "service"
    ctx.report(
        HG248,
        f"{kind} port `{label}` is not declared by any `network` block of {scope}",
        ctx.value_span(node, "port"),
        help=_label_help(label, declared),
        severity=Severity.WARNING,  # the server refuses only task services' (TASK_SERVICE_PORT)
        check=GROUP_SERVICE_PORT.id,
        fix=_renamed(ctx, node, label, declared),
    )


def _renamed(
    ctx: Context, node: m.Service | m.ServiceCheck, label: str, declared: list[str]
) -> tuple[Edit, ...]:
    """The did-you-mean port written in place of ``label`` (a guess: an unsafe fix)."""
    close = closest(label, declared)
    return ctx.written(node, "port", f'"{close}"') if close else ()


def _check_docker_ports(
    ctx: Context, group: m.TaskGroup, task: m.Task, declared: list[str], own: list[str]
) -> None:
    """docker publishes only group-network ports listed in `config.ports`."""
    labels = (task.config or {}).get("ports")
    if not isinstance(labels, list):
        return
    for index, label in enumerate(labels):
        if not isinstance(label, str) or "${" in label or label in declared:
            continue
        help = (
            f'docker `ports` only publishes group network ports: move `port "{label}"` '
            f"to the `network` block of group `{group.name}`"
            if label in own
            else _label_help(label, declared)
        )
        ctx.report(
            HG248,
            f"docker `ports` names `{label}`, which no `network` block of group `{group.name}` declares",
            config_item_span(ctx, task, "ports", index),
            help=help,
            severity=Severity.WARNING,  # the server accepts it; the container just does not get the port
            check=DOCKER_PORT_UNDECLARED.id,
        )


def _label_help(label: str, declared: list[str]) -> str:
    suggestion = did_you_mean(label, declared)
    if suggestion:
        return suggestion
    if declared:
        return "declared ports: " + ", ".join(f"`{name}`" for name in dict.fromkeys(declared))
    return f'declare it in the group: `network {{ port "{label}" {{}} }}`'


# ---- deprecated network settings -------------------------------------------------------


@rule(HG249)
def task_network_deprecated(ctx: Context) -> None:
    """Task-level networks predate Nomad 0.12; bridge mode, Connect and docker `ports` ignore them."""
    for group, task in ctx.tasks():
        networks = (task.resources.networks if task.resources else None) or []
        if networks:  # one warning per task: Task.Warnings, nomad/structs/structs.go:8607 at aa026cc99c
            ctx.report(
                HG249,
                f"task `{task.name}`: task network resources have been deprecated as of Nomad 0.12.0. "
                "Please configure networking via group network block.",
                ctx.header_span(networks[0]),
                help=f"the task declares a `network` inside `resources`; move it to group `{group.name}`",
            )


@rule(HG250)
def mbits_deprecated(ctx: Context) -> None:
    """Bandwidth is no longer scheduled: `mbits` reserves nothing."""
    for group in ctx.groups():
        network = group.networks[0] if group.networks else None  # TaskGroup.Warnings, structs.go:7653
        if network is not None and network.mbits is not None and network.mbits > 0:
            ctx.report(
                HG250,
                f"group `{group.name}`: mbits has been deprecated as of Nomad 0.12.0. "
                "Please remove mbits from the network block",
                ctx.name_span(network, "mbits"),
                help="Nomad no longer schedules bandwidth: `mbits` reserves nothing; remove it",
            )


# ---- helpers -------------------------------------------------------------------------


def _related(span: Span | None, message: str) -> list[Related]:
    return [Related(span, message)] if span is not None else []


def config_attribute(ctx: Context, task: m.Task, name: str) -> ast.Attribute | ast.Block | None:
    """`name` inside the task's `config` block, written as an attribute or as a block."""
    block = ctx.block_of(task)
    if block is None:
        return None
    for config in block.body.blocks("config"):
        for item in config.body.items:
            if (item.name if isinstance(item, ast.Attribute) else item.type) == name:
                return item
    return None


def config_value_span(ctx: Context, task: m.Task, name: str) -> Span | None:
    """The value of `name = ...` in the task's `config`, when written as an attribute."""
    found = config_attribute(ctx, task, name)
    return found.value.span if isinstance(found, ast.Attribute) else None


def config_item_span(ctx: Context, task: m.Task, name: str, index: int) -> Span | None:
    """The `index`-th element of a list in the task's `config`, else the nearest thing written."""
    found = config_attribute(ctx, task, name)
    if isinstance(found, ast.Attribute):
        value = found.value
        if isinstance(value, ast.Tuple) and index < len(value.items):
            return value.items[index].span
        return value.span
    if isinstance(found, ast.Block):
        return found.type_span
    return ctx.header_span(task)
