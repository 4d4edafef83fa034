"""The grouped drafts as a Nomad job in API JSON: the job type and restart policies from
`restart`, meta hoisted to the widest level that has it, a network per group whose port
labels the tasks' `ports` and checks name, and every task.

The compose back end writes `unless-stopped` for the tasks of a service job, and
`on-failure:N` (N = restart attempts, no key when 0) for those of a batch job, with no
restart for one-shot lifecycle tasks (:func:`hclgpu.backends.docker.lowering._restart`).
"""

from __future__ import annotations

import re
from typing import Any

from hclgpu.importers.compose.draft import Draft, PortSpec
from hclgpu.importers.compose.findings import Findings
from hclgpu.importers.compose.grouping import Group

_ON_FAILURE = re.compile(r"on-failure(?::(\d{1,18}))?")  # a longer count is no count
_SERVICE_NAME_BAD = re.compile(r"[^a-z0-9-]+")
_CONFIG_FIRST = ("image", "entrypoint", "command", "args", "ports")


def build_job(name: str, groups: list[Group], is_generated: bool, findings: Findings) -> dict[str, Any]:
    drafts = [d for g in groups for d in g.drafts]
    kind = job_type(drafts, is_generated, findings)
    job: dict[str, Any] = {"ID": name, "Name": name, "Type": kind}
    meta = _common_meta(drafts)
    if meta:
        job["Meta"] = meta
    job["TaskGroups"] = [_group(g, kind, meta, findings) for g in groups]
    return job


def job_type(drafts: list[Draft], is_generated: bool, findings: Findings) -> str:
    """service when a task is always restarted; batch when they run to completion; with no
    restart anywhere, batch only for a file the back end wrote (it writes none for attempts = 0)."""
    running = [d for d in drafts if not d.one_shot]
    for d in drafts:
        known = d.restart in (None, "no", "always", "unless-stopped")
        if not known and not _ON_FAILURE.fullmatch(d.restart or ""):
            findings.left_out(d.at("restart"), f"restart `{d.restart}` is not a Compose restart policy")
            d.restart = None
    if any(d.restart in ("always", "unless-stopped") for d in running):
        kind = "service"
    elif any(d.restart is not None for d in running) or is_generated:
        kind = "batch"
    else:
        kind = "service"
    for d in running:
        if kind == "service" and d.restart not in ("always", "unless-stopped"):
            where = d.at("restart") if d.restart is not None else d.path
            findings.approximated(
                where,
                f"restart `{d.restart or 'no'}` in a service job: Nomad restarts the task whenever it exits",
            )
    for d in drafts:
        if d.one_shot and d.keeps_running:
            findings.approximated(d.at("restart"), f"a {d.hook} task follows the group's restart policy")
    return kind


def _policy(draft: Draft, findings: Findings) -> dict[str, Any]:
    """A batch task's restart block (see the module docstring)."""
    match = _ON_FAILURE.fullmatch(draft.restart or "")
    if match is None:
        return {"Attempts": 0}
    if match.group(1) is None:
        findings.approximated(
            draft.at("restart"), 'on-failure without a count → mode = "delay": Nomad waits out each interval'
        )
        return {"Mode": "delay"}
    return {"Attempts": int(match.group(1))}


def _common_meta(drafts: list[Draft]) -> dict[str, str]:
    """The meta entries every draft has (the back end merges job, group and task meta)."""
    if not drafts:
        return {}
    items = set(drafts[0].meta.items())
    for d in drafts[1:]:
        items &= set(d.meta.items())
    return {k: v for k, v in drafts[0].meta.items() if (k, v) in items}


def _group(group: Group, kind: str, above: dict[str, str], findings: Findings) -> dict[str, Any]:
    out: dict[str, Any] = {"Name": group.name}
    count = _count(group, findings)
    if count is not None:
        out["Count"] = count
    labels = _port_labels(group)
    running = [d for d in group.drafts if not d.one_shot]
    policies = {d.name: _policy(d, findings) for d in running} if kind == "batch" else {}
    first = policies[running[0].name] if running and policies else None
    if first is not None:
        out["RestartPolicy"] = first
    meta = _common_meta(group.drafts)
    meta = {k: v for k, v in meta.items() if k not in above}
    tasks = []
    for draft in group.drafts:
        own = policies.get(draft.name)
        task = _task(draft, labels, {**above, **meta}, findings)
        if own is not None and own != first:
            task["RestartPolicy"] = {"Attempts": 0, "Mode": "fail", **own}
        tasks.append(task)
    out["Tasks"] = tasks
    if meta:
        out["Meta"] = meta
    ports = _network_ports(labels)
    if ports:
        out["Networks"] = [ports]
    return out


def _count(group: Group, findings: Findings) -> int | None:
    counts = [d.replicas for d in group.drafts if d.replicas is not None]
    for d in group.drafts:
        if d.replicas is not None and d.replicas != counts[0]:
            findings.approximated(d.path, f"{d.replicas} replicas → count = {counts[0]}, as in its group")
    return counts[0] if counts and counts[0] != 1 else None


def _port_labels(group: Group) -> dict[tuple[int | None, int], str]:
    """A label per published (host, container) pair of the group: the long syntax's name, else
    ``port_<container port>`` (Compose loses the job's labels)."""
    labels: dict[tuple[int | None, int], str] = {}
    for draft in group.drafts:
        for port in draft.ports:
            key = (port.host, port.container)
            if key not in labels:
                base = port.name or f"port_{port.container}"
                label, n = base, 2
                while label in labels.values():
                    label, n = f"{base}_{n}", n + 1
                labels[key] = label
    return labels


def _network_ports(labels: dict[tuple[int | None, int], str]) -> dict[str, Any]:
    reserved = [
        {"Label": label, "Value": host, **({"To": container} if container != host else {})}
        for (host, container), label in labels.items()
        if host is not None
    ]
    dynamic = [{"Label": label, "To": c} for (host, c), label in labels.items() if host is None]
    return {k: v for k, v in (("ReservedPorts", reserved), ("DynamicPorts", dynamic)) if v}


def _task(
    draft: Draft, labels: dict[tuple[int | None, int], str], above: dict[str, str], findings: Findings
) -> dict[str, Any]:
    config = dict(draft.config)
    if draft.ports:
        config["ports"] = list(dict.fromkeys(labels[(p.host, p.container)] for p in draft.ports))
    ordered = {k: config[k] for k in _CONFIG_FIRST if k in config}
    task: dict[str, Any] = {"Name": draft.task_name, "Driver": "docker"}
    if draft.hook:
        task["Lifecycle"] = {"Hook": draft.hook, "Sidecar": draft.sidecar}
    task["Config"] = {**ordered, **config}
    if draft.env:
        task["Env"] = dict(draft.env)
    service = _service(draft, labels, findings)
    if service is not None:
        task["Services"] = [service]
    if draft.resources:
        for device in draft.resources.get("Devices", []):
            if device.get("Count") == 1:
                del device["Count"]  # Nomad's default: the idiom is `device "nvidia/gpu" {}`
        task["Resources"] = draft.resources
    task.update(draft.task)
    meta = {k: v for k, v in draft.meta.items() if k not in above}
    if meta:
        task["Meta"] = meta
    return task


def _service(
    draft: Draft, labels: dict[tuple[int | None, int], str], findings: Findings
) -> dict[str, Any] | None:
    """The healthcheck as the check of a service named after the compose service."""
    spec = draft.check
    if spec is None:
        return None
    name = _SERVICE_NAME_BAD.sub("-", draft.name.lower()).strip("-") or "service"
    port = _label_of(draft.ports, spec.port, labels)
    if spec.port is not None and port is None and spec.fallback is not None:
        findings.approximated(
            draft.at("healthcheck"),
            f"the check probes port {spec.port}, which is not published: it runs in the task as a script "
            "check",
        )
        return {"Name": name, "Checks": [spec.fallback]}
    if port is None:
        return {"Name": name, "Checks": [spec.check]}
    if spec.note:
        findings.approximated(draft.at("healthcheck", "test"), spec.note)
    return {"Name": name, "PortLabel": port, "Provider": "nomad", "Checks": [spec.check]}


def _label_of(
    ports: list[PortSpec], container: int | None, labels: dict[tuple[int | None, int], str]
) -> str | None:
    for port in ports:
        if port.container == container:
            return labels[(port.host, port.container)]
    return None
