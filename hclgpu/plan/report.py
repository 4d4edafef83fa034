"""Plans as stable JSON (`hclgpu plan --format json`) and as text tables for the terminal.

The JSON shape is versioned (`"version": 1`) and only ever grows; placements are listed
best score first (ties keep placement order), infeasible nodes in inventory order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hclgpu.plan.planner import GroupPlan, Placement

if TYPE_CHECKING:
    from rich.table import Table

__all__ = ["to_json", "to_text"]

JSON_VERSION = 1


def to_json(plans: list[GroupPlan]) -> dict[str, Any]:
    """`{"version": 1, "groups": [...]}` with plain JSON types only."""
    return {"version": JSON_VERSION, "groups": [_group_json(group) for group in plans]}


def _group_json(group: GroupPlan) -> dict[str, Any]:
    return {
        "name": group.name,
        "count": group.count,
        "placements": [_placement_json(p) for p in _best_first(group.placements)],
        "infeasible": [{"node": i.node, "reason": i.reason} for i in group.infeasible],
        "unplaced": group.unplaced,
    }


def _placement_json(placement: Placement) -> dict[str, Any]:
    return {
        "node": placement.node,
        "score": placement.score,
        "components": dict(placement.components),
        "devices": [{"request": d.request, "group": d.group, "ids": list(d.ids)} for d in placement.devices],
    }


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
        out.extend(f"  {i.node}: {i.reason}" for i in group.infeasible)
        if group.unplaced:
            out.append(f"  {group.unplaced} allocation(s) could not be placed")
    return out


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
