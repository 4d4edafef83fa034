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
from functools import cache
from typing import Any

from hclgpu.codes.targets import HG301, HG302
from hclgpu.diagnostics import Diagnostic
from hclgpu.ir import models as m
from hclgpu.ir.base import Node
from hclgpu.ir.schema import schema_of
from hclgpu.source import SourceFile

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


_KINDS: dict[str, str] = {HG301: "left_out", HG302: "approximate"}
"""Which list a translation finding goes in."""


def migration_report(
    job: m.Job, source: SourceFile, target: str, diagnostics: list[Diagnostic]
) -> MigrationReport:
    """The report of ``diagnostics`` (the translation's HG301 and HG302) on ``job``, read
    from ``source``."""
    report = MigrationReport(job.name or job.id or "job", target)
    root = _tree(job, f'job "{report.job}"', "scheduling")
    for diagnostic in diagnostics:
        kind = _KINDS.get(diagnostic.code)
        if kind is None:
            continue
        block = _innermost(root, diagnostic) or root
        block.findings += 1
        line = source.position(diagnostic.span.start).line if diagnostic.span else 0
        report.areas[block.area][kind].append(Item(block.path, line, diagnostic.message))
    for block in _walk(root):
        fields = _set_fields(block.node)
        if fields and not block.findings and block.node.span is not None:
            line = source.position(block.node.span.start).line
            report.areas[block.area]["exact"].append(Item(block.path, line, ", ".join(fields)))
    return report


@cache
def _hcl_names(model: type[Node]) -> dict[str, str]:
    """Each field's name as HCL writes it (the attribute or block name of its `hcl` tag), for
    the paths and field lists of a report; a label or untagged field keeps its own name."""
    schema = schema_of(model)
    names = {spec.name: spec.hcl.name for spec in (*schema.attributes.values(), *schema.blocks.values())}
    return {**names, **_PORTS}


_PORTS = {"reserved_ports": "port", "dynamic_ports": "port"}
"""A network's `port` blocks, which the decoder sorts into two lists of their own names."""


def _tree(node: Node, path: str, area: str) -> _Block:
    """The blocks under ``node``, each with its path and area (inside a device, all GPU)."""
    own = area if area == "gpu" else _AREA_OF.get(type(node).__name__, area)
    block = _Block(node, path, own)
    for name, value in node:
        children = value if isinstance(value, list) else [value]
        for child in children:
            if isinstance(child, Node) and child.span is not None:
                step = _hcl_names(type(node)).get(name, name) + _label(child)
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
            names.append(_hcl_names(type(node)).get(name, name))
    return names


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
