"""A placement dry-run that ranks nodes as Nomad's generic scheduler does, one job at a time.

The job is taken as the server stores it (`api.Job.Canonicalize`, then the admission
mutators: Envoy sidecars ask for resources, implied constraints filter nodes). Each group's
`count` allocations are placed one at a time, each seeing the ones before it, through the
iterator chain of `NewGenericStack` (scheduler/feasible/stack.go:394-490 at aa026cc99c):

1. **Candidates**: nodes in the job's `datacenters` (go-glob patterns) and `node_pool`.
2. **Filters** (`FeasibilityWrapper`): job constraints; the task drivers (when the inventory
   lists them); group and task constraints; device feasibility (:mod:`hclgpu.plan.offers`).
3. **`distinct_hosts`** and **`distinct_property`** (feasible.go:845-1050, propertyset.go),
   against the allocations this plan has made.
4. **Bin packing** (rank.go:210-796): static and dynamic ports, devices (one group each, free
   instances only, `${device.ids}` filter), reserved cores, then CPU, memory and disk against
   the node's capacity less its reservation and everything already on it (`AllocsFit`).
   Scores: `binpack` (`ScoreFitBinPack` or, with the spread algorithm, `ScoreFitSpread`,
   divided by 18) and `devices` (Σ matched device-affinity weights / Σ |weights|, when any).
5. **`job-anti-affinity`** −(n+1)/count for n allocations of the group already on the node;
   **`node-affinity`** Σ matched weights / Σ |weights| whenever the job has affinities (since
   Nomad 1.10.2, a zero sum counts too); **`allocation-spread`** (spread.go) when not zero.
6. The final score is the mean of the components (`ScoreNormalizationIterator`).

Deliberate differences, for reproducible output (and said in `hclgpu plan --help`):

* Nomad shuffles the nodes and scores only a few of them (`LimitIterator`: log2 of the node
  count, at least 2; more with spreads or affinities), keeping the best of those. Here every
  candidate is scored and the best one wins, the earlier node in the inventory on a tie: the
  placement Nomad reaches when its sample contains the best node.
* Device groups and instances are taken in inventory order, not Go's random map order.
* No preemption, quotas, host volumes, CSI, host networks or `node-reschedule-penalty` (a new
  job has no failed allocations). NUMA placement is an Enterprise feature (numa_ce.go:53-57):
  Community Edition ignores `numa`, and so does this plan, with a note, unless `enterprise`
  asks for Enterprise's placement (:mod:`hclgpu.plan.numa`).
* Allocations of the job itself in `--allocs` are left out: the plan places the job anew.
"""

from __future__ import annotations

import heapq
import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from hclgpu.ir import models as m
from hclgpu.ir.admission import admit
from hclgpu.ir.canonical import canonicalize
from hclgpu.plan.allocs import Existing
from hclgpu.plan.demand import Ask, affinity_weight, group_ask
from hclgpu.plan.model import Inventory, Node
from hclgpu.plan.nodecheck import constraint_holds, resolve_target
from hclgpu.plan.numa import choose_memory_nodes
from hclgpu.plan.offers import (
    Matches,
    MemoryNode,
    Unplaceable,
    constraint_text,
    device_id,
    devices_feasible,
    group_name,
    id_matches,
    offer,
)
from hclgpu.plan.scores import anti_affinity, fit_score, free_fractions, normalized
from hclgpu.plan.spreads import DistinctProperties, SpreadScorer

__all__ = [
    "DeviceChoice", "GroupPlan", "Infeasible", "Metrics", "Placement", "Schedule", "device_id",
    "go_glob", "id_matches", "plan", "schedule",
]  # fmt: skip

_EVALUATIONS = itertools.count()
"""Numbers node evaluations, so a heap entry can tell it is stale."""


@dataclass
class DeviceChoice:
    """The instances one device request got: ``group`` is the `vendor/type/model` chosen."""

    request: str
    group: str
    ids: list[str]
    task: str = ""


@dataclass
class Placement:
    """One allocation on ``node``: its score, the score components it averaged, its devices,
    and what it takes of the node (CPU MHz, memory MB, disk MB, cores)."""

    node: str
    score: float
    components: dict[str, float]
    devices: list[DeviceChoice]
    cpu: int = 0
    memory: int = 0
    disk: int = 0
    cores: int = 0
    numa: dict[str, int] = field(default_factory=dict)
    """The NUMA node of each task placed by NUMA affinity (`--enterprise` only)."""


@dataclass
class Infeasible:
    """A node that cannot take even one allocation of the group, with the first reason and
    Nomad's name for it: the constraint or filter (``filtered``) or the exhausted dimension."""

    node: str
    reason: str
    dimension: str = ""
    filtered: bool = True


@dataclass
class Metrics:
    """Nomad's `AllocMetric` for an allocation that could not be placed: what `nomad job plan`
    prints under "failed to place" (command/monitor.go:332-387)."""

    nodes_evaluated: int = 0
    nodes_filtered: int = 0
    nodes_in_pool: int = 0
    nodes_available: dict[str, int] = field(default_factory=dict)
    class_filtered: Counter[str] = field(default_factory=Counter)
    constraint_filtered: Counter[str] = field(default_factory=Counter)
    nodes_exhausted: int = 0
    class_exhausted: Counter[str] = field(default_factory=Counter)
    dimension_exhausted: Counter[str] = field(default_factory=Counter)


@dataclass
class GroupPlan:
    """The plan of one task group: placements best first, infeasible nodes, what is left."""

    name: str
    count: int
    placements: list[Placement] = field(default_factory=list)
    infeasible: list[Infeasible] = field(default_factory=list)
    unplaced: int = 0
    metrics: Metrics | None = None


@dataclass
class Schedule:
    """Every group's plan, and notes on what the plan could not model for this input."""

    groups: list[GroupPlan]
    notes: list[str] = field(default_factory=list)


@dataclass
class _NodeState:
    """What a node already carries: existing allocations plus this plan's placements."""

    cpu: int = 0
    memory: int = 0
    disk: int = 0
    cores: int = 0
    ports: set[int] = field(default_factory=set)
    devices: dict[int, set[str]] = field(default_factory=dict)
    groups: Counter[str] = field(default_factory=Counter)
    """This job's placements on the node, per group."""
    numa_cores: Counter[int] = field(default_factory=Counter)
    """Cores this plan took per NUMA node (`--enterprise` only)."""


# --------------------------------------------------------------------------- entry points


def plan(
    job: m.Job,
    inventory: Inventory,
    allocations: tuple[Existing, ...] = (),
    algorithm: str | None = None,
    enterprise: bool = False,
) -> list[GroupPlan]:
    """Plan every task group of ``job`` on ``inventory``, groups in job order."""
    return schedule(job, inventory, allocations, algorithm, enterprise).groups


def schedule(
    job: m.Job,
    inventory: Inventory,
    allocations: tuple[Existing, ...] = (),
    algorithm: str | None = None,
    enterprise: bool = False,
) -> Schedule:
    """:func:`plan` with its notes. ``algorithm`` (`binpack` or `spread`) overrides the
    inventory's scheduler configuration; ``enterprise`` places `numa` blocks as Nomad
    Enterprise does (:mod:`hclgpu.plan.numa`).

    The cyclic collector is paused while planning: it allocates per node and option, and
    each collection would walk the whole inventory, so the time per node grew with the
    fleet (2.6x from 1,000 to 50,000 nodes). The per-node state is freed (by reference
    counting) before the collector resumes, so that no collection walks it either."""
    from hclgpu.gc_pause import paused_gc

    with paused_gc():
        return _schedule(job, inventory, allocations, algorithm, enterprise)


def _schedule(
    job: m.Job,
    inventory: Inventory,
    allocations: tuple[Existing, ...],
    algorithm: str | None,
    enterprise: bool,
) -> Schedule:
    stored = admit(canonicalize(job))
    notes: list[str] = []
    states = _initial_states(inventory, allocations, stored, notes)
    run = _Run(stored, inventory, states, algorithm or inventory.scheduler.algorithm, enterprise)
    groups = [run.group(group) for group in stored.task_groups or []]
    notes.extend(_model_notes(stored, inventory, enterprise))
    return Schedule(groups, notes)


def _initial_states(
    inventory: Inventory, allocations: tuple[Existing, ...], job: m.Job, notes: list[str]
) -> list[_NodeState]:
    """Each node's load from the existing allocations of other jobs."""
    states = [_NodeState() for _ in inventory.nodes]
    by_key = {node.key: index for index, node in enumerate(inventory.nodes)}
    by_key.update({node.name: index for index, node in enumerate(inventory.nodes) if node.name not in by_key})
    namespace = job.namespace or "default"
    own = unknown = 0
    for alloc in allocations:
        if alloc.job == job.id and alloc.namespace == namespace:
            own += 1
            continue
        index = by_key.get(alloc.node)
        if index is None:
            unknown += 1
            continue
        _hold(states[index], inventory.nodes[index], alloc)
    if own:
        notes.append(f"{own} allocation(s) of job {job.id} left out: the plan places the job anew")
    if unknown:
        notes.append(f"{unknown} allocation(s) on nodes the inventory does not have left out")
    return states


def _hold(state: _NodeState, node: Node, alloc: Existing) -> None:
    state.cpu += alloc.cpu
    state.memory += alloc.memory
    state.disk += alloc.disk
    state.cores += alloc.cores
    state.ports.update(alloc.ports)
    groups = {(g.vendor, g.type, g.model): index for index, g in enumerate(node.devices)}
    for vendor, kind, model, instance in alloc.device_ids:
        index = groups.get((vendor, kind, model))
        if index is not None:
            state.devices.setdefault(index, set()).add(instance)


def _model_notes(job: m.Job, inventory: Inventory, enterprise: bool) -> list[str]:
    notes = []
    unknown = [node.name for node in inventory.nodes if node.resources is None]
    if unknown:
        shown = ", ".join(unknown[:3]) + (f" and {len(unknown) - 3} more" if len(unknown) > 3 else "")
        notes.append(
            f"{len(unknown)} node(s) without resources ({shown}): CPU, memory and disk are not checked "
            "there and they get no binpack score"
        )
    tasks = (t for g in job.task_groups or [] for t in g.tasks or [])
    numa = any(
        t.resources and t.resources.numa and t.resources.numa.affinity not in ("", "none") for t in tasks
    )
    if numa and not enterprise:
        notes.append(
            "numa: NUMA-aware placement is a Nomad Enterprise feature; Community Edition ignores it "
            "(--enterprise places it)"
        )
    return notes


# --------------------------------------------------------------------------- one group


class _Run:
    """The plan of one job: node states and property counts carried from group to group."""

    def __init__(
        self, job: m.Job, inventory: Inventory, states: list[_NodeState], algorithm: str, enterprise: bool
    ) -> None:
        self.job = job
        self.enterprise = enterprise
        self.nodes = inventory.nodes
        self.states = states
        self.algorithm = algorithm
        self.placed: list[tuple[str, int]] = []
        """(group name, node index) of every placement so far, for the property sets."""
        self.spread_weights = [0]
        """`SpreadIterator.sumSpreadWeights`, which Nomad never resets between groups."""
        self.lowest_boost = [-1.0]
        """`SpreadIterator.lowestSpreadBoost`, likewise kept for the whole evaluation."""
        self.job_properties = DistinctProperties(job.constraints, "", self.nodes)

    def group(self, group: m.TaskGroup) -> GroupPlan:
        return _GroupRun(self, group).place()


class _GroupRun:
    """Places one group's allocations; see :func:`_GroupRun.place`."""

    def __init__(self, run: _Run, group: m.TaskGroup) -> None:
        self.run = run
        self.group = group
        self.name = group.name or ""
        self.count = group.count if group.count is not None else 1
        self.ask: Ask = group_ask(group)
        job = run.job
        self.job_distinct = _distinct_hosts(job.constraints)
        self.distinct = self.job_distinct or _distinct_hosts(group.constraints)
        self.group_properties = DistinctProperties(group.constraints, self.name, run.nodes)
        self.properties = bool(run.job_properties.sets or self.group_properties.sets)
        self.spreads = SpreadScorer(job, group, run.nodes, run.spread_weights, run.lowest_boost, run.placed)
        self.affinities = _node_affinities(job, group)
        self.result = GroupPlan(name=self.name, count=self.count)
        self.static: dict[int, Unplaceable] = {}
        self.matches = Matches()
        self.matching: dict[int, list[list[int]]] = {}
        """Each feasible node's matching device groups per request (they never change)."""
        self.datacenters: dict[tuple[str, str], bool] = {}
        self.current: dict[int, tuple[int, Placement]] = {}
        self.failed: dict[int, Unplaceable] = {}

    def place(self) -> GroupPlan:
        """Evaluate every node once, then place allocations one at a time on the best node at
        that moment. A placement changes only its node's fit, anti-affinity and devices, so
        only that node is evaluated again; spreads and `distinct_property` depend on counts
        per attribute value and are applied at selection time."""
        heap: list[tuple[float, int, int]] = []
        for start, node in enumerate(self.run.nodes):
            try:
                self.matching[start] = self._filter(node)
            except Unplaceable as failure:
                self.static[start] = failure.kept()
                self.result.infeasible.append(_infeasible(node, failure, filtered=True))
                continue
            self._evaluate(start, heap, first=True)
        while len(self.result.placements) < self.count:
            index = self._select(heap)
            if index is None:
                break
            placement = self.current.pop(index)[1]
            self._commit(index, placement)
            self._evaluate(index, heap, first=False)
        self.result.placements.sort(key=lambda placement: -placement.score)
        self.result.unplaced = self.count - len(self.result.placements)
        if self.result.unplaced:
            self.result.metrics = self._metrics()
        return self.result

    # ----------------------------------------------------------------------- evaluation

    def _evaluate(self, index: int, heap: list[tuple[float, int, int]], *, first: bool) -> None:
        node = self.run.nodes[index]
        try:
            placement = self._fit(index, node)
        except Unplaceable as failure:
            self.failed[index] = failure.kept()
            if first:
                self.result.infeasible.append(
                    _infeasible(node, failure, filtered=not failure.dimension_is_exhaustion)
                )
            return
        self.failed.pop(index, None)
        number = next(_EVALUATIONS)
        self.current[index] = (number, placement)
        heapq.heappush(heap, (-placement.score, index, number))

    def _filter(self, node: Node) -> list[list[int]]:
        """The checks that depend on the node alone, in the stack's order."""
        job = self.run.job
        key = (node.datacenter, node.node_pool)
        if key not in self.datacenters:
            self.datacenters[key] = _in_pool(job, node)
        if not self.datacenters[key]:
            _check_datacenter(job, node)
            _check_node_pool(job, node)
        for constraint in job.constraints or []:
            _check_node_constraint(constraint, node)
        if node.drivers is not None:
            missing = [driver for driver in self.ask.drivers if driver not in node.drivers]
            if missing:
                raise Unplaceable(f"missing drivers: {', '.join(missing)}", "missing drivers")
        for constraint in _group_constraints(self.group):
            _check_node_constraint(constraint, node)
        return devices_feasible(self.ask.devices, node, self.matches)

    def _fit(self, index: int, node: Node) -> Placement:
        """`distinct_hosts`, then the bin-packing iterator's checks and scores."""
        state = self.run.states[index]
        if self.distinct and (state.groups[self.name] or (self.job_distinct and sum(state.groups.values()))):
            raise Unplaceable(
                "distinct_hosts: the node already runs an allocation of this job", "distinct_hosts"
            )
        _check_ports(self.ask, node, state)
        memory = (
            choose_memory_nodes(self.ask.core_tasks, node, state.numa_cores) if self.run.enterprise else {}
        )
        choices, matched, total = _assign_devices(self.ask, node, state, memory, self.matching.get(index))
        components: dict[str, float] = {}
        cpu, memory_mb, disk = self._check_capacity(node, state, components)
        if total != 0:
            components["devices"] = matched / total
        penalty = anti_affinity(state.groups[self.name], self.count)
        if penalty is not None:
            components["job-anti-affinity"] = penalty
        if self.affinities:
            components["node-affinity"] = _node_affinity(self.affinities, node)
        placement = Placement(node.name, normalized(components.values()), components, choices)
        placement.cpu, placement.memory, placement.disk = cpu, memory_mb, disk
        placement.cores = self.ask.cores
        placement.numa = {task: chosen.node for task, chosen in memory.items()}
        return placement

    def _check_capacity(
        self, node: Node, state: _NodeState, components: dict[str, float]
    ) -> tuple[int, int, int]:
        """Cores, then `AllocsFit`'s CPU, memory and disk; adds the `binpack` component."""
        resources = node.resources
        mhz_per_core = resources.cpu / resources.cores if resources and resources.cores else 0.0
        cpu, memory = self.ask.usage_on(mhz_per_core)
        if resources is None:
            return cpu, memory, self.ask.disk
        reserved = node.reserved
        if self.ask.cores:
            free = resources.cores - reserved.cores - state.cores
            if free < self.ask.cores:
                raise Unplaceable(f"cores: needs {self.ask.cores}, {max(free, 0)} free", "cores")
        available_cpu, available_memory = resources.cpu - reserved.cpu, resources.memory - reserved.memory
        _fits("cpu", cpu, available_cpu - state.cpu, "MHz")
        _fits("memory", memory, available_memory - state.memory, "MB")
        if resources.disk is not None:
            _fits("disk", self.ask.disk, resources.disk - reserved.disk - state.disk, "MB")
        free_cpu, free_memory = free_fractions(
            available_cpu, available_memory, state.cpu + cpu, state.memory + memory
        )
        components["binpack"] = fit_score(free_cpu, free_memory, self.run.algorithm)
        return cpu, memory, self.ask.disk

    # ----------------------------------------------------------------------- selection

    def _select(self, heap: list[tuple[float, int, int]]) -> int | None:
        """The best node now: from the heap when the group has no spreads (its scores do not
        change elsewhere), else by scoring every candidate's spread component."""
        if self.spreads.active:
            return self._select_with_spreads()
        while heap:
            _, index, number = heap[0]
            if index not in self.current or self.current[index][0] != number:
                heapq.heappop(heap)  # stale: the node was evaluated again since
                continue
            failure = self._property_failure(index) if self.properties else None
            if failure is not None:
                heapq.heappop(heap)
                del self.current[index]
                self.failed[index] = failure  # counts only grow: it stays out for this group
                continue
            return index
        return None

    def _select_with_spreads(self) -> int | None:
        """Score every candidate's spread now; the chosen placement keeps its component."""
        boosts = self.spreads.step()
        best: tuple[float, int, float] | None = None
        for index in sorted(self.current):
            if self.properties and self._property_failure(index) is not None:
                continue
            placement = self.current[index][1]
            spread = boosts(index)
            if spread != 0.0:  # the mean with one more component
                count = len(placement.components)
                score = (placement.score * count + spread) / (count + 1)
            else:
                score = placement.score
            if best is None or score > best[0]:
                best = (score, index, spread)
        if best is None:
            return None
        score, index, spread = best
        chosen = self.current[index][1]
        if spread != 0.0:
            chosen.components = {**chosen.components, "allocation-spread": spread}
        chosen.score = score
        return index

    def _property_failure(self, index: int) -> Unplaceable | None:
        for properties in (self.run.job_properties, self.group_properties):
            reason = properties.failure(index, self.run.placed)
            if reason is not None:
                return Unplaceable(reason, reason)
        return None

    def _commit(self, index: int, placement: Placement) -> None:
        state = self.run.states[index]
        node = self.run.nodes[index]
        state.cpu += placement.cpu
        state.memory += placement.memory
        state.disk += placement.disk
        state.cores += placement.cores
        state.ports.update(port for _, port in self.ask.static_ports)
        state.ports.update(_dynamic_ports(self.ask, node, state))
        for choice in placement.devices:
            group = next(i for i, dg in enumerate(node.devices) if group_name(dg) == choice.group)
            state.devices.setdefault(group, set()).update(choice.ids)
        state.groups[self.name] += 1
        for task, numa_node in placement.numa.items():
            state.numa_cores[numa_node] += next(t.cores for t in self.ask.core_tasks if t.task == task)
        self.run.placed.append((self.name, index))
        self.result.placements.append(placement)

    # ----------------------------------------------------------------------- metrics

    def _metrics(self) -> Metrics:
        """`AllocMetric` of the first allocation that found no node: every candidate node
        evaluated, filtered (by which constraint) or exhausted (on which dimension)."""
        metrics = Metrics()
        job = self.run.job
        for index, node in enumerate(self.run.nodes):
            if not _in_pool(job, node):
                continue
            metrics.nodes_in_pool += 1
            metrics.nodes_available[node.datacenter] = metrics.nodes_available.get(node.datacenter, 0) + 1
            metrics.nodes_evaluated += 1
            failure = self.static.get(index) or self._property_failure(index) or self.failed.get(index)
            if failure is None:
                continue
            if failure.dimension_is_exhaustion:
                metrics.nodes_exhausted += 1
                if node.node_class:
                    metrics.class_exhausted[node.node_class] += 1
                metrics.dimension_exhausted[failure.dimension] += 1
            else:
                metrics.nodes_filtered += 1
                if node.node_class:
                    metrics.class_filtered[node.node_class] += 1
                metrics.constraint_filtered[failure.dimension] += 1
        return metrics


# --------------------------------------------------------------------------- node filters


def _in_pool(job: m.Job, node: Node) -> bool:
    try:
        _check_datacenter(job, node)
        _check_node_pool(job, node)
    except Unplaceable:
        return False
    return True


def _infeasible(node: Node, failure: Unplaceable, *, filtered: bool) -> Infeasible:
    return Infeasible(node.name, str(failure), failure.dimension, filtered)


def _check_datacenter(job: m.Job, node: Node) -> None:
    """`datacenters` entries are go-glob patterns; an empty list is `["*"]` (Canonicalize)."""
    patterns = job.datacenters or ["*"]
    if not any(go_glob(pattern, node.datacenter) for pattern in patterns):
        raise Unplaceable(f"datacenter {node.datacenter} is not in [{', '.join(patterns)}]", "datacenter")


def _check_node_pool(job: m.Job, node: Node) -> None:
    """`node_pool`: unset means `default`; `all` accepts every pool."""
    pool = job.node_pool or "default"
    if pool != "all" and node.node_pool != pool:
        raise Unplaceable(f"node pool {node.node_pool} is not {pool}", "node pool")


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


def _group_constraints(group: m.TaskGroup) -> Iterator[m.Constraint]:
    """`TaskGroupConstraints`: the group's, then each task's (stack.go:496-513)."""
    yield from group.constraints or []
    for task in group.tasks or []:
        yield from task.constraints or []


def _check_node_constraint(constraint: m.Constraint, node: Node) -> None:
    """Fail with the constraint and what its targets resolved to; the dimension is Nomad's
    `Constraint.String()`, the key of `ConstraintFiltered`."""
    if constraint_holds(constraint.l_target, constraint.operand, constraint.r_target, node):
        return
    details = []
    for target in (constraint.l_target, constraint.r_target):
        if target.startswith("${"):
            value, found = resolve_target(target, node)
            details.append(f"{target} is {value}" if found else f"{target} is not set")
    detail = ", ".join(details) or "the literals do not satisfy it"
    key = f"{constraint.l_target} {constraint.operand} {constraint.r_target}"
    raise Unplaceable(f"{constraint_text(constraint)} fails: {detail}", key)


def _distinct_hosts(constraints: list[m.Constraint] | None) -> bool:
    """`hasDistinctHostsConstraint` (feasible.go:875-890): the first `distinct_hosts` decides;
    an empty value or one that is not a Go bool counts as true."""
    for constraint in constraints or []:
        if constraint.operand == "distinct_hosts":
            return constraint.r_target not in ("0", "f", "F", "false", "False", "FALSE")
    return False


def _node_affinities(job: m.Job, group: m.TaskGroup) -> list[m.Affinity]:
    """Job, group and task affinities (`NodeAffinityIterator.SetTaskGroup`)."""
    affinities = [*(job.affinities or []), *(group.affinities or [])]
    for task in group.tasks or []:
        affinities.extend(task.affinities or [])
    return affinities


def _node_affinity(affinities: list[m.Affinity], node: Node) -> float:
    """Σ matched weights / Σ |weights| (rank.go:967-992)."""
    total = sum(abs(affinity_weight(affinity)) for affinity in affinities)
    matched = sum(
        affinity_weight(a) for a in affinities if constraint_holds(a.l_target, a.operand, a.r_target, node)
    )
    return matched / total if total else 0.0


# --------------------------------------------------------------------------- bin packing


def _fits(dimension: str, needs: int, free: int, unit: str) -> None:
    if needs > free:
        raise Unplaceable(f"{dimension}: needs {needs} {unit}, {max(free, 0)} {unit} free", dimension)


def _check_ports(ask: Ask, node: Node, state: _NodeState) -> None:
    """`NetworkIndex.AssignPorts`: a static port another allocation or the node holds is a
    collision; dynamic ports need that many free in the node's range."""
    used = state.ports | set(node.reserved.ports)
    for label, port in ask.static_ports:
        if port > 65535:
            raise Unplaceable(f"network: invalid port {port} (out of range)", "network: invalid port")
        if port in used:
            raise Unplaceable(
                f"network: reserved port collision {label}={port}",
                f"network: reserved port collision {label}={port}",
            )
        used.add(port)
    if ask.dynamic_ports:
        low, high = _port_range(node)
        free = (high - low + 1) - sum(1 for port in used if low <= port <= high)
        if free < ask.dynamic_ports:
            raise Unplaceable(
                f"network: dynamic port selection failed ({ask.dynamic_ports} needed, {max(free, 0)} free)",
                "network: dynamic port selection failed",
            )


def _port_range(node: Node) -> tuple[int, int]:
    if node.resources is None:
        return 20000, 32000
    return node.resources.min_dynamic_port, node.resources.max_dynamic_port


def _dynamic_ports(ask: Ask, node: Node, state: _NodeState) -> list[int]:
    """The lowest free ports of the range, standing for the ones Nomad picks at random."""
    low, high = _port_range(node)
    taken = state.ports | set(node.reserved.ports)
    out: list[int] = []
    port = low
    while len(out) < ask.dynamic_ports and port <= high:
        if port not in taken:
            out.append(port)
        port += 1
    return out


def _assign_devices(
    ask: Ask, node: Node, state: _NodeState, memory: dict[str, MemoryNode], matching: list[list[int]] | None
) -> tuple[list[DeviceChoice], int, int]:
    """Assign every request from one device group each; return the choices and the device
    score's numerator (Σ matched weights) and denominator (Σ |weights| of requests with
    affinities). A task placed by NUMA affinity takes its listed devices from its NUMA node;
    with `prefer`, from anywhere when that node has too few."""
    taken = {index: set(state.devices.get(index, set())) for index in range(len(node.devices))}
    prefer = {core.task for core in ask.core_tasks if core.numa == "prefer"}
    choices, matched, total = [], 0, 0
    for number, request in enumerate(ask.devices):
        groups = matching[number] if matching else None
        try:
            index, ids, score = offer(request, node, taken, memory.get(request.task), groups)
        except Unplaceable:
            if request.task not in memory or request.task not in prefer:
                raise
            index, ids, score = offer(request, node, taken, None, groups)
        taken[index].update(ids)
        choices.append(DeviceChoice(request.name, group_name(node.devices[index]), ids, request.task))
        matched += score
        total += request.total_weight
    return choices, matched, total
