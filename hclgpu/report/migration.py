"""The migration report of a translation (`render --report md|json`): what of the job carried
over exactly, what approximately (HG302) and what was left out (HG301), by area.

Every block of the job that sets something is placed in an area by what it is (a `device`
is GPU, a `network` or `service` network, a `volume` or `template` storage, `vault` and
`identity` secrets, `restart`, `update`, `lifecycle` and `periodic` lifecycle, constraints,
affinities, spreads and `scaling` scheduling; the rest of a task is the task). A finding
belongs to the innermost block whose text holds it, and so to that block's area. A block
with no finding of its own carried over exactly: it is listed with the fields it sets.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hclgpu.codes.targets import HG301, HG302
from hclgpu.diagnostics import Diagnostic
from hclgpu.ir import models as m
from hclgpu.ir.base import Node

__all__ = ["AREAS", "MigrationReport", "migration_report", "to_json", "to_markdown"]

AREAS = ("gpu", "network", "storage", "secrets", "lifecycle", "scheduling", "task")
"""The areas, in the order a report lists them."""

_AREA_OF = {
    "RequestedDevice": "gpu",
    "NUMAResource": "gpu",
    "NetworkResource": "network",
    "Port": "network",
    "DNSConfig": "network",
    "CNIConfig": "network",
    "Service": "network",
    "ServiceCheck": "network",
    "ConsulConnect": "network",
    "Consul": "network",
    "VolumeRequest": "storage",
    "VolumeMount": "storage",
    "EphemeralDisk": "storage",
    "Template": "storage",
    "TaskArtifact": "storage",
    "Vault": "secrets",
    "WorkloadIdentity": "secrets",
    "Secret": "secrets",
    "RestartPolicy": "lifecycle",
    "UpdateStrategy": "lifecycle",
    "MigrateStrategy": "lifecycle",
    "ReschedulePolicy": "lifecycle",
    "TaskLifecycle": "lifecycle",
    "PeriodicConfig": "lifecycle",
    "ParameterizedJobConfig": "lifecycle",
    "DisconnectStrategy": "lifecycle",
    "Constraint": "scheduling",
    "Affinity": "scheduling",
    "Spread": "scheduling",
    "ScalingPolicy": "scheduling",
}
"""A block's area by its IR class (the innermost classified block on its path wins)."""


@dataclass(slots=True)
class Item:
    """One line of a report: where (block path and line), and what."""

    where: str
    line: int
    text: str


@dataclass(slots=True)
class MigrationReport:
    """One job's translation to one target."""

    job: str
    target: str
    areas: dict[str, dict[str, list[Item]]] = field(
        default_factory=lambda: {area: {"exact": [], "approximate": [], "left_out": []} for area in AREAS}
    )


@dataclass(slots=True)
class _Block:
    node: Node
    path: str
    area: str
    children: list[_Block] = field(default_factory=list)
    findings: int = 0


def migration_report(job: m.Job, target: str, diagnostics: list[Diagnostic]) -> MigrationReport:
    """The report of ``diagnostics`` (the translation's HG301 and HG302) on ``job``."""
    report = MigrationReport(job.name or job.id or "job", target)
    root = _tree(job, f'job "{report.job}"', "scheduling")
    text = next((d.source.text for d in diagnostics), "")
    for diagnostic in diagnostics:
        kinds: dict[str, str] = {HG301: "left_out", HG302: "approximate"}
        kind = kinds.get(diagnostic.code)
        if kind is None:
            continue
        block = _innermost(root, diagnostic) or root
        block.findings += 1
        line = _line(text, diagnostic.span.start) if diagnostic.span else 0
        report.areas[block.area][kind].append(Item(block.path, line, diagnostic.message))
    for block in _walk(root):
        fields = _set_fields(block.node)
        if fields and not block.findings and block.node.span is not None:
            line = _line(text, block.node.span.start) if text else 0
            report.areas[block.area]["exact"].append(Item(block.path, line, ", ".join(fields)))
    return report


_BLOCK_NAMES = {
    "task_groups": "group", "tasks": "task", "services": "service", "networks": "network",
    "devices": "device", "affinities": "affinity", "constraints": "constraint", "spreads": "spread",
    "templates": "template", "artifacts": "artifact", "checks": "check", "dynamic_ports": "port",
    "reserved_ports": "port", "volume_mounts": "volume_mount", "volumes": "volume",
    "restart_policy": "restart", "reschedule_policy": "reschedule",
}  # fmt: skip
"""The HCL block name of an IR field, for a block's path in a report."""


def _tree(node: Node, path: str, area: str) -> _Block:
    """The blocks under ``node``, each with its path and area (inside a device, all GPU)."""
    own = area if area == "gpu" else _AREA_OF.get(type(node).__name__, area)
    block = _Block(node, path, own)
    for name, value in node:
        children = value if isinstance(value, list) else [value]
        for child in children:
            if isinstance(child, Node) and child.span is not None:
                step = _BLOCK_NAMES.get(name, name) + _label(child)
                inherited = "task" if isinstance(child, (m.TaskGroup, m.Task)) else block.area
                block.children.append(_tree(child, f"{path} › {step}", inherited))
    return block


def _label(node: Node) -> str:
    """A block's label as HCL writes it (`"name"`), or nothing."""
    label = next((v for v in (getattr(node, k, None) for k in ("name", "label")) if isinstance(v, str)), "")
    return f' "{label}"' if label else ""


def _walk(block: _Block) -> list[_Block]:
    out = [block]
    for child in block.children:
        out += _walk(child)
    return out


def _innermost(block: _Block, diagnostic: Diagnostic) -> _Block | None:
    """The deepest block whose span holds the finding's."""
    span, own = diagnostic.span, block.node.span
    if span is None or own is None or not (own.start <= span.start and span.end <= own.end):
        return None
    for child in block.children:
        found = _innermost(child, diagnostic)
        if found is not None:
            return found
    return block


_FIELD_NAMES = {
    "l_target": "attribute", "r_target": "value", "operand": "operator", "port_label": "port",
    "memory_mb": "memory", "memory_max_mb": "memory_max", "disk_mb": "disk",
}  # fmt: skip
"""HCL's names of the IR fields whose names differ."""


def _set_fields(node: Node) -> list[str]:
    """The fields the block sets itself (not its blocks)."""
    names = []
    for name, value in node:
        if (
            name == "span"
            or isinstance(value, Node)
            or (isinstance(value, list) and value and isinstance(value[0], Node))
        ):
            continue
        if value not in (None, "", [], {}) and name in node.model_fields_set:
            names.append(_FIELD_NAMES.get(name, name))
    return names


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def to_markdown(reports: list[MigrationReport]) -> str:
    """The reports as Markdown: per job and target, per area, the three lists."""
    lines = []
    titles = {
        "exact": "Carried over exactly",
        "approximate": "Approximated (HG302)",
        "left_out": "Left out (HG301)",
    }
    for report in reports:
        lines += [f"# Migration of job `{report.job}` to {report.target}", ""]
        lines += ["| area | exact | approximate | left out |", "|---|---|---|---|"]
        for area, kinds in report.areas.items():
            lines.append(
                f"| {area} | {len(kinds['exact'])} | {len(kinds['approximate'])} | {len(kinds['left_out'])} |"
            )
        for area, kinds in report.areas.items():
            if not any(kinds.values()):
                continue
            lines += ["", f"## {area}"]
            for kind in ("left_out", "approximate", "exact"):
                if kinds[kind]:
                    lines += ["", f"{titles[kind]}:", ""]
                    lines += [f"- line {i.line}, {i.where}: {i.text}" for i in kinds[kind]]
        lines.append("")
    return "\n".join(lines)


def to_json(reports: list[MigrationReport]) -> str:
    data: list[dict[str, Any]] = [
        {
            "job": r.job,
            "target": r.target,
            "areas": {
                area: {
                    kind: [{"where": i.where, "line": i.line, "text": i.text} for i in items]
                    for kind, items in kinds.items()
                }
                for area, kinds in r.areas.items()
            },
        }
        for r in reports
    ]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
