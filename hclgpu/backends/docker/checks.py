"""Nomad service checks as the engine's healthcheck: a container has one, made from the
first check that probes it.

Nomad (or Consul) runs http and tcp checks from outside the container, against the host
port; a Docker healthcheck runs a command inside the container, against the container
port. So an http check becomes ``curl`` (or ``wget``) on localhost and a tcp check ``nc``
(or bash's /dev/tcp): the image must have one of them (HG302). A script check already runs
inside the task and maps exactly. Service registration itself (names, tags, Consul) has no
engine equivalent and is reported once per service.
"""

from __future__ import annotations

import shlex

from hclgpu.backends import containers
from hclgpu.backends.containers import Check, network_ports, port_number
from hclgpu.backends.docker.container import (
    Container,
    ContainerLowering,
    Health,
    approximated,
    field,
    report_leftovers,
    target_name,
    unsupported,
)
from hclgpu.ir import models as m

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
    "tls_skip_verify",
    "task_name",
    "failures_before_critical",
    "check_restart",
)


def checks_by_task(group: m.TaskGroup, tasks: list[m.Task], ctx: ContainerLowering) -> dict[str, list[Check]]:
    """Each check with the task it probes (see :func:`hclgpu.backends.containers.checks_by_task`).
    Every service is reported once: nothing registers it."""
    return containers.checks_by_task(group, tasks, ctx, lambda service: _report_service(service, ctx))


def _report_service(service: m.Service, ctx: ContainerLowering) -> None:
    """A Nomad service is a catalog entry; the engine has no catalog."""
    unsupported(
        ctx,
        f'service "{service.name}" is not registered: {target_name(ctx)} has no service catalog; only its '
        "first check is kept, as the healthcheck",
        service,
        help="clients reach the container by its published ports, or by name on a user-defined network",
    )
    if service.check_restart is not None:
        _report_check_restart(service.check_restart, ctx)


def _report_check_restart(block: m.CheckRestart, ctx: ContainerLowering) -> None:
    unsupported(
        ctx,
        "check_restart is left out: the engine marks a container unhealthy but does not restart it",
        block,
    )


def lower_health(c: Container, checks: list[Check], ctx: ContainerLowering) -> Health | None:
    """The first check that can be a healthcheck; the others are reported."""
    health: Health | None = None
    for service, check in checks:
        if health is not None:
            unsupported(
                ctx,
                f'a container has one healthcheck: this check of service "{service.name}" is left out',
                check,
            )
            continue
        if c.one_shot:
            unsupported(
                ctx,
                f'the check of service "{service.name}" is left out: task "{c.task.name}" runs to completion',
                check,
            )
            continue
        test = _test(service, check, c.group, ctx)
        if test is not None:
            health = _timing(test, check, ctx)
    return health


def _port(service: m.Service, check: m.ServiceCheck, group: m.TaskGroup) -> int | None:
    """The container port a check targets: a number, or a group port's `to` (else static)."""
    label = check.port_label or service.port_label
    if label.isdigit():
        return int(label)
    port = network_ports(group).get(label)
    return port_number(port) if port is not None else None


def _test(
    service: m.Service, check: m.ServiceCheck, group: m.TaskGroup, ctx: ContainerLowering
) -> list[str] | None:
    """The healthcheck test: CMD for script checks, CMD-SHELL probes for http and tcp."""
    if check.type == "script":
        return ["CMD", check.command, *(check.args or [])]
    if check.type not in ("http", "tcp"):
        unsupported(
            ctx, f"`{check.type}` checks have no {target_name(ctx)} healthcheck; it is left out", check
        )
        return None
    port = _port(service, check, group)
    if port is None:
        label = check.port_label or service.port_label
        unsupported(ctx, f'the check\'s port "{label}" has no fixed number; the check is left out', check)
        return None
    if check.type == "tcp":
        approximated(
            ctx,
            f"the tcp check → {field(ctx, 'healthcheck')} runs `nc -z` (or bash's /dev/tcp) inside the "
            "container, against the container port; the image needs one of them",
            check,
        )
        probe = f'bash -c "exec 3<>/dev/tcp/localhost/{port}"'
        return ["CMD-SHELL", f"nc -z localhost {port} || {probe} || exit 1"]
    return ["CMD-SHELL", _http_line(check, port, ctx)]


def _http_line(check: m.ServiceCheck, port: int, ctx: ContainerLowering) -> str:
    """curl, else wget, GET on localhost; both fail on a 4xx/5xx status as Nomad does."""
    scheme = "https" if check.protocol == "https" else "http"
    path = check.path if check.path.startswith("/") else f"/{check.path}"
    url = shlex.quote(f"{scheme}://localhost:{port}{path}")
    insecure = check.tls_skip_verify and scheme == "https"
    curl = f"curl -fs{'k' if insecure else ''} -o /dev/null {url}"
    wget = f"wget -q {'--no-check-certificate ' if insecure else ''}-O /dev/null {url}"
    approximated(
        ctx,
        f"the http check → {field(ctx, 'healthcheck')} runs curl (or wget) inside the container, against "
        "the container port; the image needs one of them",
        check,
    )
    for name in ("method", "header", "body"):
        value = getattr(check, name)
        if value and not (name == "method" and value.upper() == "GET"):
            unsupported(ctx, f"the check's `{name}` is left out: the healthcheck sends a plain GET", check)
    return f"{curl} || {wget} || exit 1"


def _timing(test: list[str], check: m.ServiceCheck, ctx: ContainerLowering) -> Health:
    """interval and timeout as they are; failures_before_critical as retries (at least 1:
    Nomad's default is critical at the first failure)."""
    health = Health(test, check.interval, check.timeout, max(1, check.failures_before_critical))
    if check.check_restart is not None:
        _report_check_restart(check.check_restart, ctx)
    handled = (*_CHECK_FIELDS, "method", "header", "body")
    report_leftovers(ctx, check, handled, "a service check")
    return health
