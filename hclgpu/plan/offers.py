"""Device requests against one node's device groups (`DeviceChecker`, `createOffer`).

Feasibility (scheduler/feasible/feasible.go:1583-1678 at aa026cc99c) needs a healthy device
group that matches the request's ID and every constraint; the assignment (device.go:106-205)
takes ONE group per request (no splitting across models), its healthy instances not held by
another allocation and passing the `${device.ids}` per-instance filter, and prefers the group
whose affinities score best.

Nomad iterates a node's device groups and instances in Go map order, which is random, and
keeps the best group with `>=`. Here they are taken in inventory order and, on a tie, the
EARLIER group wins (strict `>`), so plans are reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hclgpu.ir import models as m
from hclgpu.plan.demand import DeviceRequest
from hclgpu.plan.fleet import device_id
from hclgpu.plan.model import DeviceGroup, Node
from hclgpu.units import Attribute, check_operator, compare, describe, parse_attribute, string_attribute

__all__ = [
    "MISSING_DEVICES", "NO_MATCH", "Matches", "MemoryNode", "Unplaceable", "constraint_text", "device_id",
    "devices_feasible", "group_name", "id_matches", "matching_groups", "offer",
]  # fmt: skip


@dataclass(frozen=True)
class MemoryNode:
    """`memoryNodeMatcher` (device.go:40-100): the NUMA node a task's cores are on, and the
    device IDs (`vendor/type/model`, as `NodeDeviceResource.ID().String()`) its `numa` block
    lists; instances of those groups must be on that node, others may be anywhere."""

    node: int
    devices: frozenset[str]


class Unplaceable(Exception):
    """Raised inside a node's evaluation with the reason, so the first failure wins."""

    def __init__(self, reason: str, dimension: str = "") -> None:
        super().__init__(reason)
        self.dimension = dimension
        """Nomad's name for what failed: a filter (`missing devices`) or an exhausted dimension
        (`memory`, `devices: no devices match request`)."""

    def kept(self) -> Unplaceable:
        """The same failure without the traceback and context of its raising: one is kept per
        node, and a raised exception holds its frames (and they it) until a collection."""
        return Unplaceable(str(self), self.dimension)

    @property
    def dimension_is_exhaustion(self) -> bool:
        """Is it a resource the node ran out of (`ExhaustedNode`), not a filter (`FilterNode`)?"""
        return self.dimension in EXHAUSTED or self.dimension.startswith(("network:", "devices:"))


EXHAUSTED = ("cpu", "memory", "disk", "cores")


def constraint_text(constraint: m.Constraint | m.Affinity) -> str:
    parts = (constraint.l_target, constraint.operand, constraint.r_target)
    return "`" + " ".join(part for part in parts if part) + "`"


MISSING_DEVICES = "missing devices"
"""`FilterConstraintDevices` (feasible.go:38)."""
NO_MATCH = "devices: no devices match request"
"""The exhausted dimension when `createOffer` finds no group with enough free instances."""


@dataclass
class Matches:
    """Device constraint results per (request, device group contents), and the words for a
    failure: the nodes of a cluster share a handful of GPU models, so each pair is judged
    once per task group, not once per node."""

    failures: dict[tuple[int, tuple[object, ...]], m.Constraint | None] = field(default_factory=dict)
    texts: dict[tuple[int, tuple[object, ...]], str] = field(default_factory=dict)


def devices_feasible(
    requests: tuple[DeviceRequest, ...], node: Node, cache: Matches | None = None
) -> list[list[int]]:
    """`DeviceChecker.hasDevices` (feasible.go:1592-1651): the group's requests, in order,
    greedily take healthy instances of every matching device group, whatever other
    allocations hold; raises :class:`Unplaceable` (`missing devices`) when one cannot.
    Returns each request's matching device groups, for :func:`offer`."""
    if not requests:
        return []
    out: list[list[int]] = []
    available = {index: sum(i.healthy for i in group.instances) for index, group in enumerate(node.devices)}
    for request in requests:
        wanted = request.count
        try:
            matching = matching_groups(request, node, cache)
        except Unplaceable as failure:  # as a filter: Nomad's `missing devices`
            raise Unplaceable(str(failure), MISSING_DEVICES) from None
        out.append(matching)
        healthy = sum(available[index] for index in matching)
        for index in matching:
            taken = min(wanted, available[index])
            available[index] -= taken
            wanted -= taken
        if wanted > 0:
            raise Unplaceable(
                f"missing devices: {request.count} `{request.name}` requested, {healthy} healthy",
                MISSING_DEVICES,
            )
    return out


def offer(
    request: DeviceRequest,
    node: Node,
    taken: dict[int, set[str]],
    memory: MemoryNode | None = None,
    matching: list[int] | None = None,
) -> tuple[int, list[str], int]:
    """`createOffer`: the best-scoring single group that can supply the whole request.
    Returns (group index, instance IDs, Σ matched affinity weights). With ``memory``, groups
    it names take only instances on its NUMA node (`memoryNodeMatcher`)."""
    if request.count == 0:
        raise Unplaceable(
            f"`{request.name}`: invalid request of zero devices", "devices: invalid request of zero devices"
        )
    if matching is None:
        matching = matching_groups(request, node)
    best: tuple[int, list[str], int] | None = None
    free_total = 0
    for index in matching:
        free = _free_instances(request, node.devices[index], taken[index], memory)
        free_total += len(free)
        if len(free) < request.count:
            continue
        score = _affinity_sum(request, node.devices[index])
        if best is None or score > best[2]:  # strict: the earlier group wins a tie
            best = (index, free[: request.count], score)
    if best is not None:
        return best
    if free_total < request.count:
        raise Unplaceable(
            f"devices: {request.count} `{request.name}` requested, {free_total} healthy and free", NO_MATCH
        )
    raise Unplaceable(
        f"`{request.name}`: {request.count} requested, {free_total} healthy free but no single device "
        "group has enough (Nomad does not split a request across groups)",
        NO_MATCH,
    )


def matching_groups(request: DeviceRequest, node: Node, cache: Matches | None = None) -> list[int]:
    """Indexes of healthy groups that match the request's ID and constraints; raises with
    the first failing constraint (of the first ID-matching group) when none does."""
    by_id = [
        index
        for index, group in enumerate(node.devices)
        if id_matches(request.name, group) and any(instance.healthy for instance in group.instances)
    ]
    if not by_id:
        raise Unplaceable(f"no healthy `{request.name}` device group matches")
    matching = [index for index in by_id if _cached_failure(request, node.devices[index], cache) is None]
    if not matching:
        group = node.devices[by_id[0]]
        raise Unplaceable(_failure_text(request, group, cache))
    return matching


def _free_instances(
    request: DeviceRequest, group: DeviceGroup, taken: set[str], memory: MemoryNode | None = None
) -> list[str]:
    """Healthy, untaken instance IDs in inventory order that pass every constraint naming
    `${device.ids}` (checked per instance against the other side, device.go:211-236)."""
    filters = [c for c in request.constraints if "${device.ids}" in (c.l_target, c.r_target)]
    local = memory is not None and group_name(group) in memory.devices
    free = []
    for instance in group.instances:
        if not instance.healthy or instance.id in taken:
            continue
        if local and memory is not None and instance.numa_node != memory.node:
            continue
        if all(_instance_passes(c, instance.id) for c in filters):
            free.append(instance.id)
    return free


def _instance_passes(constraint: m.Constraint, instance_id: str) -> bool:
    """The per-instance check: `checkAttributeConstraint(op, ParseAttribute(other side),
    StringAttr(id))` — the literal side is the left operand, as in Nomad."""
    other = constraint.r_target if constraint.l_target == "${device.ids}" else constraint.l_target
    return check_operator(constraint.operand, parse_attribute(other), string_attribute(instance_id))


def _affinity_sum(request: DeviceRequest, group: DeviceGroup) -> int:
    """Σ weights of the request's affinities that hold on ``group``."""
    return sum(
        weight
        for affinity, weight in request.affinities
        if check_operator(
            affinity.operand,
            resolve_device_target(affinity.l_target, group),
            resolve_device_target(affinity.r_target, group),
        )
    )


def _cache_key(request: DeviceRequest, group: DeviceGroup) -> tuple[int, tuple[object, ...]]:
    return id(request), (group.vendor, group.type, group.model, tuple(group.attributes.items()))


def _cached_failure(request: DeviceRequest, group: DeviceGroup, cache: Matches | None) -> m.Constraint | None:
    """:func:`_failing_constraint`, remembered in ``cache`` unless a constraint reads
    `${device.ids}`, which differ from node to node."""
    if cache is None or request.reads_ids:
        return _failing_constraint(request, group)
    key = _cache_key(request, group)
    if key not in cache.failures:
        cache.failures[key] = _failing_constraint(request, group)
    return cache.failures[key]


def _failure_text(request: DeviceRequest, group: DeviceGroup, cache: Matches | None) -> str:
    """Why ``group`` fails the request, in words; the words cost more than the check (units
    are converted to the most readable one), so they are remembered like the result."""
    failing = _cached_failure(request, group, cache)
    assert failing is not None
    if cache is None or request.reads_ids:
        return _device_failure(failing, group)
    key = _cache_key(request, group)
    if key not in cache.texts:
        cache.texts[key] = _device_failure(failing, group)
    return cache.texts[key]


def _failing_constraint(request: DeviceRequest, group: DeviceGroup) -> m.Constraint | None:
    """The first device constraint that does not hold on ``group`` (`nodeDeviceMatches`)."""
    for constraint in request.constraints:
        left = resolve_device_target(constraint.l_target, group)
        right = resolve_device_target(constraint.r_target, group)
        if not check_operator(constraint.operand, left, right):
            return constraint
    return None


def _device_failure(constraint: m.Constraint, group: DeviceGroup) -> str:
    """E.g. "`${device.attr.memory} >= 40 GiB` fails: 16130 MiB (15.75 GiB) is less"."""
    left = resolve_device_target(constraint.l_target, group)
    right = resolve_device_target(constraint.r_target, group)
    return f"{constraint_text(constraint)} fails on {group_name(group)}: {_why(constraint, left, right)}"


def _why(constraint: m.Constraint, left: Attribute | None, right: Attribute | None) -> str:
    """The reason a device constraint failed, in words."""
    if left is None or right is None:
        missing = constraint.l_target if left is None else constraint.r_target
        return f"{missing} is not set"
    result = compare(left, right)
    if constraint.operand in ("=", "==", "is", "!=", "not", "<", "<=", ">", ">="):
        if result is None:
            return f"{describe(left)} and {describe(right)} are not comparable"
        return f"{describe(left)} is {('less', 'equal', 'greater')[result + 1]}"
    return f"{constraint.l_target} is {describe(left)}"


def resolve_device_target(target: str, group: DeviceGroup) -> Attribute | None:
    """`resolveDeviceTarget`: literal → `ParseAttribute`; `${device.ids|model|vendor|type}`
    → a string; `${device.attr.X}` → the parsed attribute, ``None`` if absent; anything
    else (node targets, spaced `${ device.model }`) → ``None`` (not found)."""
    if not target.startswith("${"):
        return parse_attribute(target)
    strings = {
        "${device.ids}": ",".join(instance.id for instance in group.instances),
        "${device.model}": group.model,
        "${device.vendor}": group.vendor,
        "${device.type}": group.type,
    }
    if target in strings:
        return string_attribute(strings[target])
    if target.startswith("${device.attr."):
        value = group.attributes.get(target[len("${device.attr.") :].removesuffix("}"))
        return None if value is None else parse_attribute(value)
    return None


def id_matches(name: str, group: DeviceGroup) -> bool:
    """`DeviceIdTuple.Matches`: every non-empty part of the request equals the group's."""
    vendor, kind, model = device_id(name)
    return (
        (not vendor or vendor == group.vendor)
        and (not kind or kind == group.type)
        and (not model or model == group.model)
    )


def group_name(group: DeviceGroup) -> str:
    return f"{group.vendor}/{group.type}/{group.model}"
