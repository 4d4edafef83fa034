"""Service checks as container probes: a container's first usable check becomes its
readinessProbe, a check with ``check_restart`` its livenessProbe.

A group service's check belongs to no task in Nomad, but a probe belongs to one container,
so :func:`~hclgpu.backends.containers.checks_by_task` picks it: the task the check names,
else the task publishing its port, else the group's first main task. A check that cannot be
a probe is reported there.
"""

from __future__ import annotations

import copy

from hclgpu.backends.containers import SECOND, Check, network_ports, port_number
from hclgpu.backends.kubernetes.objects import Obj
from hclgpu.backends.kubernetes.reporting import approximated, report_leftovers, unsupported
from hclgpu.backends.kubernetes.tasks import seconds
from hclgpu.backends.target import Lowering
from hclgpu.ir import models as m

_PROBE_TYPES = ("http", "tcp", "grpc", "script")


def add_probes(
    container: Obj, task: m.Task, checks: list[Check], group: m.TaskGroup, ctx: Lowering, probes: bool
) -> None:
    """The first check becomes the readinessProbe; a check with check_restart, the livenessProbe."""
    handlers: list[tuple[Check, Obj]] = []
    for check in checks:
        handler = _handler(check, group, ctx) if _usable(check, task, ctx, probes) else None
        if handler is not None:
            handlers.append((check, handler))
    if not handlers:
        return
    (_, first), handler = handlers[0]
    container["readinessProbe"] = _timing(handler, first, ctx, readiness=True)
    live = next(((c, h) for c, h in handlers if _restart_of(c) is not None), None)
    if live is not None:
        restart = _restart_of(live[0])
        assert restart is not None
        probe = _timing(live[1], live[0][1], ctx, readiness=False)
        probe["failureThreshold"] = restart.limit
        if restart.grace:
            probe["initialDelaySeconds"] = seconds(restart.grace)
        container["livenessProbe"] = probe
        report_leftovers(
            ctx, restart, ("limit", "grace"), f'the check_restart of service "{live[0][0].name}"'
        )
    for (extra_service, extra), _ in handlers[1:]:
        if live is None or extra is not live[0][1]:
            unsupported(
                ctx,
                f'a container has one readinessProbe: this check of service "{extra_service.name}" '
                "is left out",
                extra,
            )


def _usable(check: Check, task: m.Task, ctx: Lowering, probes: bool) -> bool:
    """Whether a check can be a probe of this container (reported when not)."""
    service, c = check
    if not probes:
        unsupported(
            ctx,
            f'the check of service "{service.name}": task "{task.name}" is an init container, which '
            "cannot have probes; it is left out",
            c,
        )
        return False
    if c.type not in _PROBE_TYPES:
        unsupported(ctx, f"`{c.type}` checks have no Kubernetes probe; it is left out", c)
        return False
    return True


def _restart_of(check: Check) -> m.CheckRestart | None:
    """The check's own check_restart, else its service's; `limit = 0` disables it in Nomad."""
    restart = check[1].check_restart or check[0].check_restart
    return restart if restart is not None and restart.limit > 0 else None


def _handler(check: Check, group: m.TaskGroup, ctx: Lowering) -> Obj | None:
    """The probe action: httpGet, tcpSocket, grpc or exec; ports as numbers, which also work
    when the container does not name the port (bridge networking needs no `ports`)."""
    service, c = check
    if c.type == "script":
        return {"exec": {"command": [c.command, *(c.args or [])]}}
    label = c.port_label or service.port_label
    port = network_ports(group).get(label)
    number = int(label) if label.isdigit() else port_number(port) if port is not None else None
    if number is None:
        unsupported(ctx, f'the check\'s port "{label}" has no fixed number; the check is left out', c)
        return None
    if c.type == "tcp":
        return {"tcpSocket": {"port": number}}
    if c.type == "grpc":
        return {"grpc": {"port": number, **({"service": c.grpc_service} if c.grpc_service else {})}}
    get: Obj = {"path": c.path or "/", "port": number}
    if c.protocol == "https":
        get["scheme"] = "HTTPS"
    if c.header:
        get["httpHeaders"] = [{"name": k, "value": v} for k, vs in sorted(c.header.items()) for v in vs]
    if c.method and c.method.upper() != "GET":
        unsupported(ctx, f"method {c.method}: httpGet probes only send GET", c)
    return {"httpGet": get}


_CHECK_FIELDS = (
    "name",
    "type",
    "command",
    "args",
    "path",
    "protocol",
    "port_label",
    "interval",
    "timeout",
    "header",
    "method",
    "check_restart",
    "grpc_service",
    "task_name",
    "success_before_passing",
    "failures_before_critical",
    "tls_skip_verify",
)


def _timing(handler: Obj, check: m.ServiceCheck, ctx: Lowering, readiness: bool) -> Obj:
    """interval → periodSeconds, timeout → timeoutSeconds (whole seconds, at least 1)."""
    probe: Obj = copy.deepcopy(handler)
    for field, key in (("interval", "periodSeconds"), ("timeout", "timeoutSeconds")):
        ns = getattr(check, field)
        if ns:
            probe[key] = max(1, seconds(ns))
            if ns % SECOND:
                approximated(ctx, f"check `{field}` rounded up to {probe[key]}s ({key})", check)
    if readiness and check.success_before_passing > 0:
        probe["successThreshold"] = check.success_before_passing
    if check.failures_before_critical > 0:
        probe["failureThreshold"] = check.failures_before_critical
    report_leftovers(ctx, check, _CHECK_FIELDS, "a service check")
    return probe
