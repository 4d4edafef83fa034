"""Plans as stable JSON (`hclgpu plan --format json`) and as text tables for the terminal.

The JSON shape is versioned (`"version": 1`) and only ever grows; placements are listed
best score first (ties keep placement order), infeasible nodes in inventory order. A group
with allocations left over carries Nomad's placement metrics, and the text shows them as
`nomad job plan` does ("Task Group "g" (failed to place 1 allocation):").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hclgpu.plan.planner import GroupPlan, Metrics, Placement

if TYPE_CHECKING:
    from rich.table import Table

__all__ = ["to_json", "to_text"]

JSON_VERSION = 1
OUTSIDE = ("datacenter", "node pool")
"""Nodes the scheduler never considers: the text counts them in one line (the JSON lists them)."""


def to_json(
    plans: list[GroupPlan], algorithm: str = "binpack", notes: list[str] | None = None
) -> dict[str, Any]:
    """`{"version": 1, "algorithm": ..., "groups": [...], "notes": [...]}`, plain JSON types only."""
    return {
        "version": JSON_VERSION,
        "algorithm": algorithm,
        "groups": [_group_json(group) for group in plans],
        "notes": list(notes or []),
    }


def _group_json(group: GroupPlan) -> dict[str, Any]:
    return {
        "name": group.name,
        "count": group.count,
        "placements": [_placement_json(p) for p in _best_first(group.placements)],
        "infeasible": [
            {"node": i.node, "reason": i.reason, "dimension": i.dimension, "filtered": i.filtered}
            for i in group.infeasible
        ],
        "unplaced": group.unplaced,
        "metrics": None if group.metrics is None else _metrics_json(group.metrics),
    }


def _metrics_json(metrics: Metrics) -> dict[str, Any]:
    """Nomad's `AllocMetric` field names, in snake case; maps with sorted keys."""
    return {
        "nodes_evaluated": metrics.nodes_evaluated,
        "nodes_filtered": metrics.nodes_filtered,
        "nodes_in_pool": metrics.nodes_in_pool,
        "nodes_available": dict(sorted(metrics.nodes_available.items())),
        "class_filtered": dict(sorted(metrics.class_filtered.items())),
        "constraint_filtered": dict(sorted(metrics.constraint_filtered.items())),
        "nodes_exhausted": metrics.nodes_exhausted,
        "class_exhausted": dict(sorted(metrics.class_exhausted.items())),
        "dimension_exhausted": dict(sorted(metrics.dimension_exhausted.items())),
    }


def _placement_json(placement: Placement) -> dict[str, Any]:
    return {
        "node": placement.node,
        "score": placement.score,
        "components": dict(placement.components),
        "resources": {"cpu": placement.cpu, "memory": placement.memory, "disk": placement.disk,
                      "cores": placement.cores},
        "devices": [
            {"task": d.task, "request": d.request, "group": d.group, "ids": list(d.ids)}
            for d in placement.devices
        ],
    }  # fmt: skip


def _best_first(placements: list[Placement]) -> list[Placement]:
    """Stable sort by descending score (the planner already does; this keeps the promise
    for hand-built plans too)."""
    return sorted(placements, key=lambda placement: -placement.score)


def to_text(plans: list[GroupPlan]) -> list[Table | str]:
    """Per group: a heading line, a table of placements, then the infeasible nodes."""
    out: list[Table | str] = []
    for group in plans:
        placed = group.count - group.unplaced
        out.append(f"group {group.name}: {placed}/{group.count} placed")
        if group.placements:
            out.append(_placements_table(group))
        outside = [i for i in group.infeasible if i.dimension in OUTSIDE]
        out.extend(f"  {i.node}: {i.reason}" for i in group.infeasible if i.dimension not in OUTSIDE)
        if len(outside) == 1:
            out.append(f"  {outside[0].node}: {outside[0].reason}")
        elif outside:
            first = f"{outside[0].node}: {outside[0].reason}"
            out.append(f"  {len(outside)} nodes outside the job's datacenters or pool ({first}, …)")
        if group.unplaced:
            out.append(f"  {group.unplaced} allocation(s) could not be placed")
        if group.metrics is not None:
            out.extend(metrics_lines(group, "    "))
    return out


def metrics_lines(group: GroupPlan, prefix: str) -> list[str]:
    """`formatAllocMetrics` (command/monitor.go:332-387 at aa026cc99c), keys sorted where Go
    iterates a map."""
    assert group.metrics is not None
    metrics = group.metrics
    plural = "allocation" if group.unplaced == 1 else "allocations"
    lines = [f'  Task Group "{group.name}" (failed to place {group.unplaced} {plural}):']
    if metrics.nodes_evaluated == 0:
        lines.append(f"{prefix}* No nodes were eligible for evaluation")
    for datacenter, available in sorted(metrics.nodes_available.items()):
        if available == 0:
            lines.append(f'{prefix}* No nodes are available in datacenter "{datacenter}"')
    for node_class, count in sorted(metrics.class_filtered.items()):
        lines.append(f'{prefix}* Class "{node_class}": {count} nodes excluded by filter')
    for constraint, count in sorted(metrics.constraint_filtered.items()):
        lines.append(f'{prefix}* Constraint "{constraint}": {count} nodes excluded by filter')
    if metrics.nodes_exhausted:
        lines.append(f"{prefix}* Resources exhausted on {metrics.nodes_exhausted} nodes")
    for node_class, count in sorted(metrics.class_exhausted.items()):
        lines.append(f'{prefix}* Class "{node_class}" exhausted on {count} nodes')
    for dimension, count in sorted(metrics.dimension_exhausted.items()):
        lines.append(f'{prefix}* Dimension "{dimension}" exhausted on {count} nodes')
    return lines


def _placements_table(group: GroupPlan) -> Table:
    """rich is imported here only: JSON output and the library API do not need it."""
    from rich.table import Table

    table = Table(title=None, show_edge=False)
    for column in ("node", "score", "components", "devices"):
        table.add_column(column, overflow="fold")  # wrapped, never cut short: the IDs matter
    for p in _best_first(group.placements):
        components = ", ".join(f"{name} {value:.3f}" for name, value in p.components.items())
        devices = "; ".join(f"{d.request} → {d.group} [{', '.join(d.ids)}]" for d in p.devices)
        table.add_row(p.node, f"{p.score:.3f}", components or "-", devices or "-")
    return table
