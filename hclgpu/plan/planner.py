"""A placement dry-run: which nodes of an inventory could run each group, with which GPUs.

It follows Nomad's scheduler (`scheduler/feasible/feasible.go`, `device.go`, `rank.go`) for
the parts that decide whether GPU jobs place:

* candidate nodes: the job's `datacenters` (go-glob `*` patterns; none means `["*"]`) and
  `node_pool` (none means `default`; `all` means any), then the job, group and task
  `constraint`s with the node checker (:mod:`hclgpu.plan.nodecheck`), then `distinct_hosts`
  (job level: one allocation of the job per node; group level: one of the group);
* devices: the requests of all tasks of a group, in task/device order. A request matches a
  device group when `RequestedDevice.ID().Matches` and every device constraint holds
  (:mod:`hclgpu.units` semantics, `${device.*}` resolved as `resolveDeviceTarget` does).
  It is assigned from ONE device group (`createOffer`: no splitting across models), using
  healthy instances not taken by earlier requests or allocations on that node and passing
  the `${device.ids}` per-instance filter;
* scores: `devices` = Σ matched weights of the chosen groups / Σ |weights| of all requests
  (appended only when that total ≠ 0), `node-affinity` = Σ matched node-affinity weights /
  Σ |weights| (appended, as in Nomad, only when the matched sum ≠ 0); a node's score is the
  mean of its components, 0 when it has none.

Deliberate differences, for reproducible output:

* Nomad iterates a node's device groups and their instances in Go map order, which is
  random, and keeps the best group with `>=`, so among equally scored groups the one it
  happens to see last wins. Here groups and instances are taken in inventory order and on
  a tie the EARLIER group wins (strict `>`). Likewise the earlier node wins a score tie.
* No `binpack` component: the inventory has no CPU/memory capacities, so Nomad's
  `ScoreFitBinPack` cannot be computed; it is omitted rather than invented. Scores are
  therefore comparable between nodes of one plan, not equal to Nomad's absolute values
  (which average binpack and `job-anti-affinity` in too).
* Every feasible node is scored (Nomad samples a limited, shuffled subset), and each of the
  group's `count` allocations goes to the best node at that moment, several per node while
  devices remain. Devices used by earlier groups of the job stay used for later groups.
* No preemption, spreads, `distinct_property`, NUMA or existing allocations.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field

from hclgpu.ir import models as m
from hclgpu.plan.model import DeviceGroup, Inventory, Node
from hclgpu.plan.nodecheck import constraint_holds, resolve_target
from hclgpu.units import Attribute, check_operator, compare, describe, parse_attribute, string_attribute

__all__ = ["DeviceChoice", "GroupPlan", "Infeasible", "Placement", "plan"]

_EVALUATIONS = itertools.count()
"""Numbers node evaluations, so a heap entry can tell it is stale."""

DEFAULT_AFFINITY_WEIGHT = 50
"""`api.Affinity.Canonicalize`: a missing `weight` is 50."""


@dataclass
class DeviceChoice:
    """The instances one device request got: ``group`` is the `vendor/type/model` chosen."""

    request: str
    group: str
    ids: list[str]


@dataclass
class Placement:
    """One allocation on ``node``: its score, the score components it averaged, its devices."""

    node: str
    score: float
    components: dict[str, float]
    devices: list[DeviceChoice]


@dataclass
class Infeasible:
    """A node that cannot take even one allocation of the group, with the first reason."""

    node: str
    reason: str


@dataclass
class GroupPlan:
    """The plan of one task group: placements best first, infeasible nodes, what is left."""

    name: str
    count: int
    placements: list[Placement] = field(default_factory=list)
    infeasible: list[Infeasible] = field(default_factory=list)
    unplaced: int = 0


@dataclass(frozen=True)
class _Request:
    """A device request with Nomad's defaults applied (count 1, affinity weight 50)."""

    name: str
    count: int
    constraints: tuple[m.Constraint, ...]
    affinities: tuple[tuple[m.Affinity, int], ...]

    @property
    def total_weight(self) -> int:
        return sum(abs(weight) for _, weight in self.affinities)


class _Unplaceable(Exception):
    """Raised inside a node's evaluation with the reason, so the first failure wins."""


@dataclass
class _State:
    """What earlier allocations of this plan have taken: instance IDs per (node, group index)
    and the nodes each group and the job are already on (for `distinct_hosts`)."""

    used: dict[tuple[str, int], set[str]] = field(default_factory=dict)
    job_nodes: set[str] = field(default_factory=set)


# --------------------------------------------------------------------------- entry point


def plan(job: m.Job, inventory: Inventory) -> list[GroupPlan]:
    """Plan every task group of ``job`` on ``inventory``, groups in job order."""
    state = _State()
    return [_plan_group(job, group, inventory, state) for group in job.task_groups or []]


def _plan_group(job: m.Job, group: m.TaskGroup, inventory: Inventory, state: _State) -> GroupPlan:
    """Place `count` allocations one at a time on the best node at that moment.

    A node's evaluation depends on earlier placements only through that node (its used
    instances, `distinct_hosts`), so each node is evaluated once and only the node that just
    received an allocation is evaluated again: exact, and linear in the inventory size.
    The infeasible list comes from the first evaluation, so exhaustion by this group's own
    allocations shows up as `unplaced`, not as infeasible nodes.
    """
    count = 1 if group.count is None else group.count
    result = GroupPlan(name=group.name or "", count=count)
    group_nodes: set[str] = set()
    heap: list[tuple[float, int, int]] = []  # (-score, node index, evaluation number)
    current: dict[int, tuple[int, Placement]] = {}
    for index, node in enumerate(inventory.nodes):
        try:
            _offer_node(index, _evaluate(job, group, node, state, group_nodes), heap, current)
        except _Unplaceable as failure:
            result.infeasible.append(Infeasible(node.name, str(failure)))
    while len(result.placements) < count and heap:
        _, index, number = heapq.heappop(heap)
        if index not in current or current[index][0] != number:
            continue  # stale: the node was evaluated again since
        best = current[index][1]
        _commit(best, inventory.nodes[index], state, group_nodes)
        result.placements.append(best)
        del current[index]
        with contextlib.suppress(_Unplaceable):
            node = inventory.nodes[index]
            _offer_node(index, _evaluate(job, group, node, state, group_nodes), heap, current)
    result.placements.sort(key=lambda placement: -placement.score)
    result.unplaced = count - len(result.placements)
    return result


def _offer_node(
    index: int,
    placement: Placement,
    heap: list[tuple[float, int, int]],
    current: dict[int, tuple[int, Placement]],
) -> None:
    """Queue a node's current placement; the heap order (-score, index) makes the higher
    score win and, on a tie, the node earlier in the inventory."""
    number = next(_EVALUATIONS)
    current[index] = (number, placement)
    heapq.heappush(heap, (-placement.score, index, number))


def _commit(placement: Placement, node: Node, state: _State, group_nodes: set[str]) -> None:
    """Mark the placement's instances used and its node taken."""
    for choice in placement.devices:
        index = next(i for i, dg in enumerate(node.devices) if _group_name(dg) == choice.group)
        state.used.setdefault((node.name, index), set()).update(choice.ids)
    group_nodes.add(node.name)
    state.job_nodes.add(node.name)


def _evaluate(job: m.Job, group: m.TaskGroup, node: Node, state: _State, group_nodes: set[str]) -> Placement:
    """One allocation of ``group`` on ``node``, or :class:`_Unplaceable` with the first reason."""
    _check_datacenter(job, node)
    _check_node_pool(job, node)
    for constraint in _node_constraints(job, group):
        _check_node_constraint(constraint, node)
    _check_distinct_hosts(job, group, node, state, group_nodes)
    choices, matched, total = _assign_devices(_requests(group), node, state)
    components: dict[str, float] = {}
    if total != 0:
        components["devices"] = matched / total
    affinity = _node_affinity(job, group, node)
    if affinity is not None:
        components["node-affinity"] = affinity
    score = sum(components.values()) / len(components) if components else 0.0
    return Placement(node.name, score, components, choices)


# --------------------------------------------------------------------------- node filters


def _check_datacenter(job: m.Job, node: Node) -> None:
    """`datacenters` entries are go-glob patterns; an empty list is `["*"]` (Canonicalize)."""
    patterns = job.datacenters or ["*"]
    if not any(go_glob(pattern, node.datacenter) for pattern in patterns):
        raise _Unplaceable(f"datacenter {node.datacenter} is not in [{', '.join(patterns)}]")


def _check_node_pool(job: m.Job, node: Node) -> None:
    """`node_pool`: unset means `default`; `all` accepts every pool."""
    pool = job.node_pool or "default"
    if pool != "all" and node.node_pool != pool:
        raise _Unplaceable(f"node pool {node.node_pool} is not {pool}")


def go_glob(pattern: str, subject: str) -> bool:
    """`github.com/ryanuber/go-glob.Glob`, which Nomad uses for datacenters: `*` matches any
    run of characters, nothing else is special."""
    if pattern == "":
        return subject == ""
    if pattern == "*":
        return True
    parts = pattern.split("*")
    if len(parts) == 1:
        return subject == pattern
    for i, part in enumerate(parts[:-1]):
        index = subject.find(part)
        if (i == 0 and not pattern.startswith("*") and index != 0) or index < 0:
            return False
        subject = subject[index + len(part) :]
    return pattern.endswith("*") or subject.endswith(parts[-1])


def _node_constraints(job: m.Job, group: m.TaskGroup) -> Iterator[m.Constraint]:
    """Job, group and task constraints, in that order (the first failure is reported)."""
    yield from job.constraints or []
    yield from group.constraints or []
    for task in group.tasks or []:
        yield from task.constraints or []


def _check_node_constraint(constraint: m.Constraint, node: Node) -> None:
    """Fail with the constraint and what its targets resolved to."""
    if constraint_holds(constraint.l_target, constraint.operand, constraint.r_target, node):
        return
    details = []
    for target in (constraint.l_target, constraint.r_target):
        if target.startswith("${"):
            value, found = resolve_target(target, node)
            details.append(f"{target} is {value}" if found else f"{target} is not set")
    detail = ", ".join(details) or "the literals do not satisfy it"
    raise _Unplaceable(f"{_constraint_text(constraint)} fails: {detail}")


def _check_distinct_hosts(
    job: m.Job, group: m.TaskGroup, node: Node, state: _State, group_nodes: set[str]
) -> None:
    """Job-level `distinct_hosts`: one allocation of the job per node; group-level: one of
    the group. `value = false` switches it off (Nomad parses RTarget with ParseBool)."""
    if _distinct_hosts(job.constraints) and node.name in state.job_nodes:
        raise _Unplaceable("distinct_hosts: the node already runs an allocation of this job")
    if _distinct_hosts(group.constraints) and node.name in group_nodes:
        raise _Unplaceable("distinct_hosts: the node already runs an allocation of this group")


def _distinct_hosts(constraints: list[m.Constraint] | None) -> bool:
    """Is `distinct_hosts` on? An RTarget that is not a Go bool counts as true."""
    for constraint in constraints or []:
        if constraint.operand == "distinct_hosts":
            return constraint.r_target not in ("0", "f", "F", "false", "False", "FALSE")
    return False


def _node_affinity(job: m.Job, group: m.TaskGroup, node: Node) -> float | None:
    """Σ matched weights / Σ |weights| of job, group and task affinities; ``None`` when the
    matched sum is 0, because Nomad then appends no `node-affinity` score at all."""
    affinities = [*(job.affinities or []), *(group.affinities or [])]
    for task in group.tasks or []:
        affinities.extend(task.affinities or [])
    total = sum(abs(_weight(affinity)) for affinity in affinities)
    matched = sum(_weight(a) for a in affinities if constraint_holds(a.l_target, a.operand, a.r_target, node))
    return matched / total if matched != 0 else None


def _weight(affinity: m.Affinity) -> int:
    return DEFAULT_AFFINITY_WEIGHT if affinity.weight is None else affinity.weight


def _constraint_text(constraint: m.Constraint | m.Affinity) -> str:
    parts = (constraint.l_target, constraint.operand, constraint.r_target)
    return "`" + " ".join(part for part in parts if part) + "`"


# --------------------------------------------------------------------------- devices


def _requests(group: m.TaskGroup) -> list[_Request]:
    """All tasks' device requests, in task then device order, with Nomad's defaults."""
    requests = []
    for task in group.tasks or []:
        devices = task.resources.devices if task.resources else None
        for device in devices or []:
            requests.append(
                _Request(
                    name=device.name,
                    count=1 if device.count is None else device.count,
                    constraints=tuple(device.constraints or []),
                    affinities=tuple((a, _weight(a)) for a in device.affinities or []),
                )
            )
    return requests


def _assign_devices(
    requests: list[_Request], node: Node, state: _State
) -> tuple[list[DeviceChoice], int, int]:
    """Assign every request from one device group each; return the choices and the device
    score's numerator (Σ matched weights) and denominator (Σ |weights|)."""
    taken = {index: set(state.used.get((node.name, index), set())) for index in range(len(node.devices))}
    choices, matched, total = [], 0, 0
    for request in requests:
        index, ids, score = _offer(request, node, taken)
        taken[index].update(ids)
        choices.append(DeviceChoice(request.name, _group_name(node.devices[index]), ids))
        matched += score
        total += request.total_weight
    return choices, matched, total


def _offer(request: _Request, node: Node, taken: dict[int, set[str]]) -> tuple[int, list[str], int]:
    """`createOffer`: the best-scoring single group that can supply the whole request.
    Returns (group index, instance IDs, Σ matched affinity weights)."""
    if request.count == 0:
        raise _Unplaceable(f"`{request.name}`: invalid request of zero devices")
    matching = _matching_groups(request, node)
    best: tuple[int, list[str], int] | None = None
    free_total = 0
    for index in matching:
        free = _free_instances(request, node.devices[index], taken[index])
        free_total += len(free)
        if len(free) < request.count:
            continue
        score = _affinity_sum(request, node.devices[index])
        if best is None or score > best[2]:  # strict: the earlier group wins a tie
            best = (index, free[: request.count], score)
    if best is not None:
        return best
    if free_total < request.count:
        raise _Unplaceable(
            f"missing devices: {request.count} `{request.name}` requested, {free_total} healthy free"
        )
    raise _Unplaceable(
        f"`{request.name}`: {request.count} requested, {free_total} healthy free but no single device "
        "group has enough (Nomad does not split a request across groups)"
    )


def _matching_groups(request: _Request, node: Node) -> list[int]:
    """Indexes of healthy groups that match the request's ID and constraints; raises with
    the first failing constraint (of the first ID-matching group) when none does."""
    by_id = [
        index
        for index, group in enumerate(node.devices)
        if id_matches(request.name, group) and any(instance.healthy for instance in group.instances)
    ]
    if not by_id:
        raise _Unplaceable(f"no healthy `{request.name}` device group matches")
    matching = [index for index in by_id if _failing_constraint(request, node.devices[index]) is None]
    if not matching:
        group = node.devices[by_id[0]]
        failing = _failing_constraint(request, group)
        assert failing is not None
        raise _Unplaceable(_device_failure(failing, group))
    return matching


def _free_instances(request: _Request, group: DeviceGroup, taken: set[str]) -> list[str]:
    """Healthy, untaken instance IDs in inventory order that pass every constraint naming
    `${device.ids}` (checked per instance against the other side, device.go:211-236)."""
    filters = [c for c in request.constraints if "${device.ids}" in (c.l_target, c.r_target)]
    free = []
    for instance in group.instances:
        if not instance.healthy or instance.id in taken:
            continue
        if all(_instance_passes(c, instance.id) for c in filters):
            free.append(instance.id)
    return free


def _instance_passes(constraint: m.Constraint, instance_id: str) -> bool:
    """The per-instance check: `checkAttributeConstraint(op, ParseAttribute(other side),
    StringAttr(id))` — the literal side is the left operand, as in Nomad."""
    other = constraint.r_target if constraint.l_target == "${device.ids}" else constraint.l_target
    return check_operator(constraint.operand, parse_attribute(other), string_attribute(instance_id))


def _affinity_sum(request: _Request, group: DeviceGroup) -> int:
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


def _failing_constraint(request: _Request, group: DeviceGroup) -> m.Constraint | None:
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
    return f"{_constraint_text(constraint)} fails on {_group_name(group)}: {_why(constraint, left, right)}"


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


def device_id(name: str) -> tuple[str, str, str]:
    """`RequestedDevice.ID()`: `strings.SplitN(name, "/", 3)` read as type, vendor/type or
    vendor/type/model."""
    parts = name.split("/", 2)
    if len(parts) == 1:
        return "", parts[0], ""
    if len(parts) == 2:
        return parts[0], parts[1], ""
    return parts[0], parts[1], parts[2]


def id_matches(name: str, group: DeviceGroup) -> bool:
    """`DeviceIdTuple.Matches`: every non-empty part of the request equals the group's."""
    wanted = device_id(name)
    have = (group.vendor, group.type, group.model)
    return all(not want or want == got for want, got in zip(wanted, have, strict=True))


def _group_name(group: DeviceGroup) -> str:
    return f"{group.vendor}/{group.type}/{group.model}"
