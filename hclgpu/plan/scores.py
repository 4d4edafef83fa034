"""Nomad's scoring formulas, each a small function of counts and fractions.

Every function cites the Go it follows (hashicorp/nomad at aa026cc99c, 2.0.6). The planner
calls them with what it tracks; they know nothing of jobs or inventories, so the tests can
check each one against arithmetic done by hand.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

__all__ = [
    "BINPACK_MAX_FIT",
    "anti_affinity",
    "even_spread_boost",
    "fit_score",
    "free_fractions",
    "normalized",
    "target_spread_boost",
]

BINPACK_MAX_FIT = 18.0
"""`binPackingMaxFitScore` (scheduler/feasible/rank.go:23): the fit is divided by it."""


def free_fractions(cpu: int, memory: int, used_cpu: int, used_memory: int) -> tuple[float, float]:
    """`computeFreePercentage` (nomad/structs/funcs.go:234-255): the share of the node's CPU
    and memory (less what it reserves) left free once ``used`` (everything on it, this
    allocation included) is placed. A node without CPU or memory counts as full."""
    free_cpu = 1 - used_cpu / cpu if cpu > 0 else 0.0
    free_memory = 1 - used_memory / memory if memory > 0 else 0.0
    return free_cpu, free_memory


def fit_score(free_cpu: float, free_memory: float, algorithm: str = "binpack") -> float:
    """The `binpack` component: `ScoreFitBinPack` (funcs.go:257-281, Google's BestFit v3:
    20 − (10^free_cpu + 10^free_mem)) or `ScoreFitSpread` (funcs.go:284-295, its mirror
    image: (10^free_cpu + 10^free_mem) − 2), clamped to [0, 18], divided by 18."""
    total = math.pow(10, free_cpu) + math.pow(10, free_memory)
    score = 20.0 - total if algorithm == "binpack" else total - 2
    return min(max(score, 0.0), BINPACK_MAX_FIT) / BINPACK_MAX_FIT


def anti_affinity(collisions: int, desired_count: int) -> float | None:
    """`job-anti-affinity` (rank.go:833-866): −(collisions + 1) / count for a node already
    running ``collisions`` allocations of this job's group; None (no component) for none."""
    if collisions <= 0:
        return None
    return -1 * (collisions + 1) / desired_count


def normalized(components: Iterable[float]) -> float:
    """`ScoreNormalizationIterator` (rank.go:1024-1038): the mean of the components, 0 if none."""
    values = list(components)
    return sum(values) / len(values) if values else 0.0


def target_spread_boost(desired: float, used: int, weight: int, total_weight: int) -> float:
    """One spread with targets (spread.go:186-199): (desired − used) / desired × weight / Σ
    weights, where ``used`` counts this placement too."""
    return ((desired - used) / desired) * (weight / total_weight)


def even_spread_boost(counts: Mapping[str, int], value: str | None) -> float:
    """`evenSpreadScoreBoost` (spread.go:208-255): a spread without targets prefers the value
    with the fewest allocations. ``counts`` are allocations per attribute value so far;
    ``value`` is this node's (None: the node lacks the attribute)."""
    if not counts:
        return 0.0
    if value is None:
        return -1.0
    current = counts.get(value, 0)
    lowest = highest = 0
    for count in counts.values():  # Go's loop, where 0 means "not seen yet"
        if lowest == 0 or count < lowest:
            lowest = count
        if highest == 0 or count > highest:
            highest = count
    delta_boost = -1.0 if lowest == 0 else (lowest - current) / lowest
    if current != lowest:
        return delta_boost
    if lowest == highest:
        return -1.0
    if lowest == 0:
        return 1.0
    return (highest - lowest) / lowest
