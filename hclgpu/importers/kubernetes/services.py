"""Services and checks read back: each port of a Service that selects a pod is a group
`service` on the matching network port; each container's probes join the group service on
their port when the back end would give them back to that container, else a service of
their own task.

The inverse of the back end's ``group_service`` and ``checks_by_task``.
"""

from __future__ import annotations

from typing import Any

from hclgpu.importers.common import whole_number
from hclgpu.importers.kubernetes.context import PodContext
from hclgpu.importers.kubernetes.source import Findings, Manifest, Path


def selects(service: Manifest, labels: dict[str, str]) -> bool:
    """Whether the Service's selector picks pods with ``labels``."""
    selector = service.peek("spec", "selector")
    return (
        isinstance(selector, dict) and bool(selector) and all(labels.get(k) == v for k, v in selector.items())
    )


def read_service(service: Manifest, ctx: PodContext, findings: Findings) -> list[dict[str, Any]]:
    """One group service per Service port, on the network port it targets."""
    for key in ("apiVersion", "kind", "metadata", ("spec", "selector")):
        service.take(*((key,) if isinstance(key, str) else key))
    kind = service.take("spec", "type") or "ClusterIP"
    if kind != "ClusterIP":
        findings.approximated(
            service, ("spec", "type"), f"a {kind} Service: Nomad registers the service, it does not expose it"
        )
    name = service.name
    out = []
    for index, port in enumerate(service.items("spec", "ports")):
        here: Path = ("spec", "ports", index)
        label = _target(service, here, port, ctx, findings)
        if label is not None:
            out.append({"Name": name, "PortLabel": label})
    return out


def _target(service: Manifest, here: Path, port: Any, ctx: PodContext, findings: Findings) -> str | None:
    """The label of the network port a Service port sends to (by container port name or number)."""
    number = whole_number(port.get("port"), 1, 65535) if isinstance(port, dict) else None
    if number is None:
        return None
    service.take(*here, "port")
    target = service.take(*here, "targetPort")
    service.take(*here, "name")
    if service.take(*here, "protocol") not in (None, "TCP"):
        findings.approximated(service, (*here, "protocol"), "Nomad service ports carry no protocol")
    if isinstance(target, str) and not target.isdigit():
        label = target.replace("-", "_")
        if label not in ctx.ports:
            findings.left_out(service, (*here, "targetPort"), f"no container port is named `{target}`")
            return None
    else:
        to = (
            number
            if target is None
            else whole_number(int(target) if isinstance(target, str) else target, 1, 65535)
        )
        if to is None:
            findings.left_out(
                service, (*here, "targetPort"), "targetPort is neither a port number nor a name"
            )
            return None
        label = ctx.port_for(to, _name(port))
    entry = ctx.ports[label]
    if number != (entry.get("To") or entry.get("Value")):
        entry["Value"] = number
        findings.approximated(
            service, (*here, "port"),
            f"port {number} differs from the container's {entry.get('To')}: it is `static = {number}`, "
            "which Nomad reserves on the node",
        )  # fmt: skip
    return label


def _name(port: dict[str, Any]) -> str | None:
    name = port.get("name")
    return str(name).replace("-", "_") if name else None


def attach_checks(tasks: list[dict[str, Any]], services: list[dict[str, Any]]) -> None:
    """Each task's checks on the group service of their port when that service's checks run
    in this task (it publishes the port, or is the first main task); else on a task service."""
    mains = [t for t in tasks if "Lifecycle" not in t]
    for task in tasks:
        checks = task.pop("_checks", [])
        if not checks:
            continue
        homes = [_group_home(c, task, tasks, mains, services) for c in checks]
        if all(home is not None for home in homes):
            for check, home in zip(checks, homes, strict=True):
                assert home is not None
                same_port = check.get("PortLabel") == home["PortLabel"]
                home.setdefault("Checks", []).append(
                    {k: v for k, v in check.items() if k != "PortLabel"} if same_port else check
                )
        else:
            task.setdefault("Services", []).append({"Checks": checks})


def _group_home(
    check: dict[str, Any],
    task: dict[str, Any],
    tasks: list[dict[str, Any]],
    mains: list[dict[str, Any]],
    services: list[dict[str, Any]],
) -> dict[str, Any] | None:
    label = check.get("PortLabel")
    home = next((s for s in services if s["PortLabel"] == label), None)
    if home is None or "Lifecycle" in task:
        return None
    owner = next((t for t in tasks if label in (t["Config"].get("ports") or [])), mains[0] if mains else None)
    return home if owner is task else None
