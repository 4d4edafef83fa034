"""NUMA-aware core placement, a Nomad Enterprise feature (`--enterprise`).

Community Edition ignores `numa` entirely: `coreSelector.candidateMemoryNodes` returns
`[-1]`, "any memory node" (scheduler/feasible/numa_ce.go:53-57 at aa026cc99c). Enterprise's
selector is not public; this follows its documentation (job-specification/numa): with
`affinity = "require"` all of a task's `cores` must come from one NUMA node, and devices the
`numa` block lists (`vendor/type/model`, compared with `NodeDeviceResource.ID().String()` by
the public `memoryNodeMatcher`, device.go:62-100) must be attached to that node; `prefer`
tries the same and falls back to any cores; `none` packs freely. Among NUMA nodes with room,
the one with the fewest free cores is taken (bin-packing, as the documentation says of
`none`), the lower ID on a tie.
"""

from __future__ import annotations

from collections import Counter

from hclgpu.plan.demand import CoreTask
from hclgpu.plan.model import Node
from hclgpu.plan.offers import MemoryNode, Unplaceable

__all__ = ["choose_memory_nodes"]

NUMA_CORES = "numa-cores"
"""The dimension Nomad reports when no NUMA node has the cores (rank.go:767)."""


def choose_memory_nodes(tasks: tuple[CoreTask, ...], node: Node, used: Counter[int]) -> dict[str, MemoryNode]:
    """The NUMA node of each task that asks for one and can have it; raises
    :class:`Unplaceable` for a `require` that no NUMA node can meet."""
    taken: Counter[int] = Counter()
    chosen: dict[str, MemoryNode] = {}
    for task in tasks:
        if task.numa not in ("require", "prefer"):
            continue
        room = [
            (numa.cores - used[numa.id] - taken[numa.id], numa.id)
            for numa in node.numa
            if numa.cores - used[numa.id] - taken[numa.id] >= task.cores
        ]
        if not room:
            if task.numa == "require":
                most = max((numa.cores - used[numa.id] - taken[numa.id] for numa in node.numa), default=0)
                wanted = f"task {task.task} needs {task.cores} cores on one NUMA node"
                raise Unplaceable(f"numa-cores: {wanted}, at most {most} free", NUMA_CORES)
            continue
        _, best = min(room)
        taken[best] += task.cores
        chosen[task.task] = MemoryNode(best, frozenset(task.numa_devices))
    return chosen
