"""Probes read back as service checks: the readiness probe is a check, a liveness probe the
same check with ``check_restart`` (or a second check with it when the two differ).

The inverse of :mod:`hclgpu.backends.kubernetes.probes`: periodSeconds → interval,
timeoutSeconds → timeout, thresholds → success_before_passing / failures_before_critical,
the liveness failureThreshold and initialDelaySeconds → check_restart limit and grace.
"""

from __future__ import annotations

from typing import Any

from hclgpu.importers.common import whole_number
from hclgpu.importers.kubernetes.context import PodContext
from hclgpu.importers.kubernetes.source import Path

SECOND = 1_000_000_000
_TIMING = ("periodSeconds", "timeoutSeconds", "successThreshold", "failureThreshold", "initialDelaySeconds")


def read_probes(ctx: PodContext, path: Path, probes: bool) -> list[dict[str, Any]]:
    """The container's checks (API JSON ``ServiceCheck``), readiness first; none for an init
    container (``probes`` false), whose probes Nomad cannot run."""
    if not probes:
        for key in ("readinessProbe", "livenessProbe", "startupProbe"):
            if ctx.peek(*path, key):
                ctx.take(*path, key)
                ctx.left_out((*path, key), "a prestart task has no checks in Nomad: this probe is not kept")
        return []
    ready = _check(ctx, (*path, "readinessProbe"))
    live = _check(ctx, (*path, "livenessProbe"))
    if ctx.peek(*path, "startupProbe"):
        ctx.take(*path, "startupProbe")
        ctx.left_out((*path, "startupProbe"), "Nomad has no startup check: the startupProbe is not kept")
    if live is not None:
        live = _restart(ctx, (*path, "livenessProbe"), live)
    if ready is None and live is not None:
        ctx.approximated((*path, "livenessProbe"), "the liveness check also gates readiness in Nomad")
        return [live]
    if ready is not None and live is not None:
        same = {k: v for k, v in live.items() if k not in ("CheckRestart", "FailuresBeforeCritical")}
        if same == {k: v for k, v in ready.items() if k != "FailuresBeforeCritical"}:
            return [{**ready, "CheckRestart": live["CheckRestart"]}]
        # two checks of one task service need two names: Nomad's server refuses a duplicate
        # (validateServices, nomad/structs/structs.go:8496 at aa026cc99c), and both would
        # take the default `service: "<name>" check`
        return [{**ready, "Name": "readiness"}, {**live, "Name": "liveness"}]
    return [ready] if ready is not None else []


def _check(ctx: PodContext, path: Path) -> dict[str, Any] | None:
    probe = ctx.peek(*path)
    if not isinstance(probe, dict):
        return None
    check = _handler(ctx, path, probe)
    if check is None:
        return None
    period, timeout = probe.get("periodSeconds", 10), probe.get("timeoutSeconds", 1)
    check["Interval"] = _seconds(period, 10)
    check["Timeout"] = _seconds(timeout, 1)
    for key in ("periodSeconds", "timeoutSeconds"):
        ctx.take(*path, key)
    success = whole_number(probe.get("successThreshold"), 1)
    if success is not None and path[-1] == "readinessProbe":
        ctx.take(*path, "successThreshold")
        if success > 1:
            check["SuccessBeforePassing"] = success
    failure = whole_number(probe.get("failureThreshold"), 1)
    if failure is not None and path[-1] == "readinessProbe":
        ctx.take(*path, "failureThreshold")
        check["FailuresBeforeCritical"] = failure
    return check


def _seconds(value: Any, default: int) -> int:
    return (whole_number(value, 1, 10**9) or default) * SECOND


def _handler(ctx: PodContext, path: Path, probe: dict[str, Any]) -> dict[str, Any] | None:
    """httpGet, tcpSocket, grpc or exec as an http, tcp, grpc or script check."""
    if isinstance(probe.get("exec"), dict):
        command = [str(c) for c in ctx.take(*path, "exec", "command") or []]
        if not command:
            return None
        return {"Type": "script", "Command": command[0], **({"Args": command[1:]} if command[1:] else {})}
    for kind, check_type in (("httpGet", "http"), ("tcpSocket", "tcp"), ("grpc", "grpc")):
        handler = probe.get(kind)
        if isinstance(handler, dict):
            return _network_check(ctx, (*path, kind), handler, check_type)
    return None


def _network_check(
    ctx: PodContext, path: Path, handler: dict[str, Any], check_type: str
) -> dict[str, Any] | None:
    port = ctx.take(*path, "port")
    label = _port_label(ctx, port)
    if label is None:
        ctx.left_out((*path, "port"), f"probe port `{port}` names no container port")
        return None
    check: dict[str, Any] = {"Type": check_type, "PortLabel": label}
    if check_type == "http":
        check["Path"] = str(ctx.take(*path, "path") or "/")
        if ctx.take(*path, "scheme") == "HTTPS":
            check["Protocol"] = "https"
        headers: dict[str, list[str]] = {}
        for index, header in enumerate(ctx.items(*path, "httpHeaders")):
            ctx.take(*path, "httpHeaders", index)
            if not isinstance(header, dict):
                continue
            headers.setdefault(str(header.get("name")), []).append(str(header.get("value", "")))
        if headers:
            check["Header"] = headers
    if check_type == "grpc" and ctx.take(*path, "service"):
        check["GRPCService"] = str(handler["service"])
    return check


def _port_label(ctx: PodContext, port: Any) -> str | None:
    """A named container port's label, or the label of the network port with that number."""
    if isinstance(port, str) and not port.isdigit():
        wanted = port.replace("-", "_")
        return wanted if wanted in ctx.ports else None
    number = whole_number(int(port) if isinstance(port, str) and port.isdigit() else port, 1, 65535)
    if number is not None:
        return ctx.port_for(number)
    return None


def _restart(ctx: PodContext, path: Path, check: dict[str, Any]) -> dict[str, Any]:
    """The liveness thresholds as ``check_restart``: restart after ``limit`` failures."""
    limit = whole_number(ctx.take(*path, "failureThreshold"), 1)
    restart: dict[str, Any] = {"Limit": limit or 3}
    delay = whole_number(ctx.take(*path, "initialDelaySeconds"), 1, 10**9)
    if delay is not None:
        restart["Grace"] = delay * SECOND
    ctx.take(*path, "successThreshold")
    return {**check, "CheckRestart": restart}
