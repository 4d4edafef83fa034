"""`spread` blocks and `distinct_property` constraints: both count allocations per value of a
node attribute (Nomad's `propertySet`, scheduler/feasible/propertyset.go at aa026cc99c).

A property set resolves its attribute on every node once (`${meta.rack}`, `${node.datacenter}`)
and counts this plan's allocations per value. With spread targets, values that are not a
target are counted together as `*` (`targetedPropertyValue`). Counting is incremental: each
call reads only the placements made since the last one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from hclgpu.ir import models as m
from hclgpu.plan.model import Node
from hclgpu.plan.nodecheck import resolve_target
from hclgpu.plan.scores import even_spread_boost, target_spread_boost

__all__ = ["DistinctProperties", "SpreadScorer"]

IMPLICIT_TARGET = "*"
"""`implicitTarget` (spread.go:14): every value the targets do not name."""


@dataclass
class _PropertySet:
    attribute: str
    values: list[str | None]
    """The attribute's value on each node of the inventory; None where it is not set."""
    group: str
    """Count only this group's allocations; empty: the whole job's."""
    targets: frozenset[str] = frozenset()
    counts: Counter[str] = field(default_factory=Counter)
    seen: int = 0

    def targeted(self, value: str) -> str:
        return value if not self.targets or value in self.targets else IMPLICIT_TARGET

    def update(self, placed: list[tuple[str, int]]) -> None:
        """Count the placements made since the last call (`PopulateProposed`)."""
        for group, index in placed[self.seen :]:
            value = self.values[index]
            if value is not None and (not self.group or group == self.group):
                self.counts[self.targeted(value)] += 1
        self.seen = len(placed)


def _values(attribute: str, nodes: list[Node]) -> list[str | None]:
    out: list[str | None] = []
    for node in nodes:
        value, found = resolve_target(attribute, node)
        out.append(value if found else None)
    return out


class DistinctProperties:
    """The `distinct_property` constraints of a job (``group`` empty) or of one group."""

    def __init__(self, constraints: list[m.Constraint] | None, group: str, nodes: list[Node]) -> None:
        self.sets: list[tuple[_PropertySet, int, str]] = []
        for constraint in constraints or []:
            if constraint.operand != "distinct_property":
                continue
            allowed, error = _allowed_count(constraint.r_target)
            self.sets.append(
                (
                    _PropertySet(constraint.l_target, _values(constraint.l_target, nodes), group),
                    allowed,
                    error,
                )
            )

    def failure(self, index: int, placed: list[tuple[str, int]]) -> str | None:
        """Why node ``index`` may not take one more allocation (`SatisfiesDistinctProperties`)."""
        for pset, allowed, error in self.sets:
            if error:
                return error
            pset.update(placed)
            value = pset.values[index]
            if value is None:
                return f'missing property "{pset.attribute}"'
            used = pset.counts[value]
            if used >= allowed:
                return f"distinct_property: {pset.attribute}={value} used by {used} allocs"
        return None


def _allowed_count(value: str) -> tuple[int, str]:
    """`setConstraint` (propertyset.go:91-107): RTarget as a uint64, 1 when empty."""
    if value == "":
        return 1, ""
    if value.isascii() and value.isdigit() and int(value) < 2**64:
        return int(value), ""
    return (
        0,
        f'failed to convert RTarget "{value}" to uint64: '
        f'strconv.ParseUint: parsing "{value}": invalid syntax',
    )


@dataclass(frozen=True)
class _SpreadInfo:
    weight: int
    desired: dict[str, float]


class SpreadScorer:
    """The `allocation-spread` component of one group (`SpreadIterator`, spread.go:121-206).

    ``total_weight`` and ``lowest`` are one-element lists shared by all groups of the plan:
    Nomad's iterator adds every group's spread weights to one sum and keeps the lowest boost
    it has seen, and resets neither between groups.
    """

    def __init__(
        self,
        job: m.Job,
        group: m.TaskGroup,
        nodes: list[Node],
        total_weight: list[int],
        lowest: list[float],
        placed: list[tuple[str, int]],
    ) -> None:
        spreads = [*(job.spreads or []), *(group.spreads or [])]
        name = group.name or ""
        self.sets = [
            _PropertySet(
                s.attribute,
                _values(s.attribute, nodes),
                name,
                frozenset(t.value for t in s.spread_target or []),
            )
            for s in spreads
        ]
        self.info = self._spread_info(job, group, total_weight)
        self.total_weight = total_weight
        self.lowest = lowest
        self.placed = placed
        """Every placement of the plan, (group, node index); the sets count their group's."""
        self.keys = [tuple(pset.values[index] for pset in self.sets) for index in range(len(nodes))]

    @property
    def active(self) -> bool:
        return bool(self.sets)

    @staticmethod
    def _spread_info(job: m.Job, group: m.TaskGroup, total_weight: list[int]) -> dict[str, _SpreadInfo]:
        """`computeSpreadInfo` (spread.go:259-284): desired counts per target from the
        percentages, the rest as `*`; the group's spreads first, then the job's, so a job
        spread on the same attribute replaces the group's."""
        count = group.count if group.count is not None else 1
        info: dict[str, _SpreadInfo] = {}
        for spread in [*(group.spreads or []), *(job.spreads or [])]:
            weight = 50 if spread.weight is None else spread.weight
            desired = {t.value: t.percent / 100 * count for t in spread.spread_target or []}
            wanted = sum(desired.values())
            if 0 < wanted < count:
                desired[IMPLICIT_TARGET] = count - wanted
            info[spread.attribute] = _SpreadInfo(weight, desired)
            total_weight[0] += weight
        return info

    def step(self) -> Callable[[int], float]:
        """The component for each node at this moment; nodes alike in every spread attribute
        get one value, computed once, in inventory order."""
        for pset in self.sets:
            pset.update(self.placed)
        cache: dict[tuple[str | None, ...], float] = {}

        def boost(index: int) -> float:
            key = self.keys[index]
            if key not in cache:
                cache[key] = self._score(key)
            return cache[key]

        return boost

    def _score(self, values: tuple[str | None, ...]) -> float:
        total = 0.0
        for pset, value in zip(self.sets, values, strict=True):
            if value is None:  # `UsedCount` fails: "missing property"
                total -= 1.0
                continue
            info = self.info[pset.attribute]
            if not info.desired:
                total += even_spread_boost(pset.counts, value)
                continue
            targeted = pset.targeted(value)
            desired = info.desired.get(targeted, info.desired.get(IMPLICIT_TARGET))
            if desired is None:
                total -= 1.0
                continue
            if desired == 0:
                total += self.lowest[0]
                continue
            boost = target_spread_boost(desired, pset.counts[targeted] + 1, info.weight, self.total_weight[0])
            total += boost
            self.lowest[0] = min(self.lowest[0], boost)
        return total
