"""The device IDs a job's containers get on one node of an inventory (``render --nodes
INVENTORY --node NAME``).

The job is planned as ``hclgpu plan`` plans it; every group with device requests takes its
first placement on that node, and each request the instance IDs Nomad's device allocator
chose there. The container targets then pass those IDs (``--gpus device=...``, CDI names,
``NVIDIA_VISIBLE_DEVICES``) instead of the host's first indexes.
"""

from __future__ import annotations

from hclgpu.ir import models as m
from hclgpu.plan import planner
from hclgpu.plan.model import Inventory
from hclgpu.plan.planner import GroupPlan

DeviceIds = dict[tuple[str, str, int], list[str]]
"""(group name, task name, index of the request in the task's ``resources.devices``) → IDs."""


class NotPlaced(Exception):
    """A group with device requests cannot be placed on the node; the message says why."""


def planned_device_ids(job: m.Job, inventory: Inventory, node: str) -> DeviceIds:
    """The IDs chosen on ``node`` for every device request of ``job``. Raises
    :class:`NotPlaced` when a group that requests devices has no placement there."""
    device_ids: DeviceIds = {}
    for group, group_plan in zip(job.task_groups or [], planner.plan(job, inventory), strict=True):
        keys = [
            (group_plan.name, task.name, index)
            for task in group.tasks or []
            for index, _ in enumerate((task.resources.devices if task.resources else None) or [])
        ]
        if not keys:
            continue
        placement = next((p for p in group_plan.placements if p.node == node), None)
        if placement is None:
            raise NotPlaced(f'group "{group_plan.name}" cannot be placed on {node}: {_why(group_plan, node)}')
        # the planner assigns a group's requests in task, then device order: one choice each
        for key, choice in zip(keys, placement.devices, strict=True):
            device_ids[key] = list(choice.ids)
    return device_ids


def _why(group_plan: GroupPlan, node: str) -> str:
    """Why ``node`` has no placement of the group: its own reason, or where the plan went."""
    reason = next((i.reason for i in group_plan.infeasible if i.node == node), None)
    if reason is None:
        elsewhere = ", ".join(dict.fromkeys(p.node for p in group_plan.placements)) or "no node"
        reason = f"the plan places its allocations on {elsewhere}"
    return reason
