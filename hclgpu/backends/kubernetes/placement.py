"""Where a pod may run: Nomad's node constraints and affinities as node affinity, spreads as
topologySpreadConstraints, distinct_hosts/distinct_property as pod anti-affinity, merged with
the node terms, tolerations and DRA claims of the tasks' devices.

Nomad node attributes are read from well-known node labels (some only by convention, which
is reported as HG302); a test that label selectors cannot state is left out (HG301).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from hclgpu.backends.kubernetes.objects import Obj, is_label_key, is_label_value, selector_labels
from hclgpu.backends.kubernetes.reporting import approximated, unsupported
from hclgpu.backends.kubernetes.tasks import translatable
from hclgpu.backends.target import Lowering
from hclgpu.ir import models as m
from hclgpu.ir.base import Node

if TYPE_CHECKING:
    from hclgpu.backends.kubernetes.devices import DeviceLowering


_NODE_LABELS: dict[str, tuple[str, bool]] = {
    "${attr.kernel.name}": ("kubernetes.io/os", False),
    "${attr.cpu.arch}": ("kubernetes.io/arch", False),
    "${node.datacenter}": ("topology.kubernetes.io/zone", True),
    "${node.class}": ("node.kubernetes.io/instance-type", True),
    "${node.unique.name}": ("kubernetes.io/hostname", True),
    "${attr.unique.hostname}": ("kubernetes.io/hostname", True),
}


def node_label(attribute: str, node: Node, ctx: Lowering) -> str | None:
    """The node label a Nomad node attribute maps to (HG302 when the mapping is a convention)."""
    key, approximate = _NODE_LABELS.get(attribute, ("", False))
    if not key and attribute.startswith("${meta.") and attribute.endswith("}"):
        key, approximate = attribute[len("${meta.") : -1], True
    if not key or not is_label_key(key):
        block = type(node).__name__.lower()  # constraint, affinity, spread
        unsupported(ctx, f"`{attribute}` has no Kubernetes node label; the {block} is left out", node)
        return None
    if approximate:
        approximated(ctx, f"`{attribute}` is read from the node label `{key}`", node)
    return key


_IN = {"=": "In", "==": "In", "is": "In", "!=": "NotIn", "not": "NotIn"}
_ORDER = {">": ("Gt", 0), ">=": ("Gt", -1), "<": ("Lt", 0), "<=": ("Lt", 1)}
_NEGATED = {"In": "NotIn", "NotIn": "In", "Exists": "DoesNotExist", "DoesNotExist": "Exists"}


def node_expression(c: m.Constraint | m.Affinity, ctx: Lowering) -> Obj | None:
    """A NodeSelectorRequirement for a node constraint or affinity, or None (reported)."""
    op, value = c.operand or "=", c.r_target
    if "${" in value:
        unsupported(ctx, f"`{value}`: Kubernetes node affinity compares labels to literal values", c)
        return None
    if op in ("is_set", "is_not_set"):
        key = node_label(c.l_target, c, ctx)
        return (
            None if key is None else {"key": key, "operator": "Exists" if op == "is_set" else "DoesNotExist"}
        )
    values = _values(op, value)
    if values is None or not all(is_label_value(v) for v in values):
        unsupported(ctx, f"`{c.l_target} {op} {value}` cannot be written as node affinity; it is left out", c)
        return None
    key = node_label(c.l_target, c, ctx)
    if key is None:
        return None
    operator = _IN.get(op) or ("In" if op.startswith("set_contains") else _ORDER[op][0])
    return {"key": key, "operator": operator, "values": values}


def _values(op: str, value: str) -> list[str] | None:
    """The label values of an operator, None when labels cannot express it."""
    if op in _IN:
        return [value]
    if op.startswith("set_contains"):
        items = [v.strip() for v in value.split(",") if v.strip()]
        return items if items and (op == "set_contains_any" or len(items) == 1) else None
    if op in _ORDER and re.fullmatch(r"-?\d+", value.strip()):
        return [str(int(value) + _ORDER[op][1])]
    return None


def pod_placement(job: m.Job, group: m.TaskGroup, ctx: Lowering, devices: Sequence[DeviceLowering]) -> Obj:
    """Affinity, topology spread, tolerations and DRA claims of the pod."""
    out: Obj = {}
    affinity = _affinity(job, group, ctx, devices)
    if affinity:
        out["affinity"] = affinity
    spread = _spread(job, group, ctx)
    if spread:
        out["topologySpreadConstraints"] = spread
    tolerations = _unique([t for d in devices for t in d.tolerations])
    if tolerations:
        out["tolerations"] = tolerations
    claims = _unique([c for d in devices for c in d.pod_claims])
    if claims:
        out["resourceClaims"] = claims
    return out


def _affinity(job: m.Job, group: m.TaskGroup, ctx: Lowering, devices: Sequence[DeviceLowering]) -> Obj:
    """Job, group and task constraints and the devices' terms as ONE required nodeSelectorTerm
    (its expressions are ANDed, as Nomad's constraints are); affinities as preferred terms;
    distinct_* as pod anti-affinity. A pod is placed whole, so task-level ones apply to it."""
    tasks = [t for t in group.tasks or [] if translatable(t)]
    constraints = [*(job.constraints or []), *(group.constraints or [])]
    constraints += [c for t in tasks for c in t.constraints or []]
    affinities = [*(job.affinities or []), *(group.affinities or [])]
    affinities += [a for t in tasks for a in t.affinities or []]
    node_constraints = [c for c in constraints if not c.operand.startswith("distinct_")]
    required = [e for c in node_constraints if (e := node_expression(c, ctx))]
    required = _unique(required + [r for d in devices for r in d.required])
    preferred = [p for a in affinities if (p := _preference(a, ctx))]
    preferred = _unique(preferred + [p for d in devices for p in d.preferred])
    node: Obj = {}
    if required:
        node["requiredDuringSchedulingIgnoredDuringExecution"] = {
            "nodeSelectorTerms": [{"matchExpressions": required}]
        }
    if preferred:
        node["preferredDuringSchedulingIgnoredDuringExecution"] = preferred
    distinct = [c for c in constraints if c.operand.startswith("distinct_")]
    anti = [t for c in distinct if (t := _distinct(c, job, group, ctx))]
    affinity: Obj = {"nodeAffinity": node} if node else {}
    if anti:
        affinity["podAntiAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": anti}
    spread = _job_anti_affinity(job, group)
    if spread is not None and not any(a["topologyKey"] == HOSTNAME for a in anti):
        preferred = affinity.setdefault("podAntiAffinity", {})
        preferred["preferredDuringSchedulingIgnoredDuringExecution"] = [spread]
    return affinity


HOSTNAME = "kubernetes.io/hostname"
JOB_ANTI_AFFINITY_WEIGHT = 50
"""Nomad scores a node down for each allocation of the same job and group it already runs,
-(collisions + 1) / count (scheduler/rank.go:788-850 `JobAntiAffinityIterator` at v1.10.0),
so a group's allocations spread over nodes unless packing wins; in Kubernetes, a preferred
pod anti-affinity on the hostname, at the weight Nomad's affinities default to."""


def _job_anti_affinity(job: m.Job, group: m.TaskGroup) -> Obj | None:
    """The scheduler's implicit spread of a group's allocations, for a group of several (a
    system job has one per node already)."""
    if (group.count or 1) < 2 or job.type in ("system", "sysbatch"):
        return None
    term = {"labelSelector": {"matchLabels": selector_labels(job, group)}, "topologyKey": HOSTNAME}
    return {"weight": JOB_ANTI_AFFINITY_WEIGHT, "podAffinityTerm": term}


def _unique(items: list[Obj]) -> list[Obj]:
    out: list[Obj] = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


def _preference(a: m.Affinity, ctx: Lowering) -> Obj | None:
    """A preferred term; a negative Nomad weight prefers the opposite."""
    expression = node_expression(a, ctx)
    if expression is None:
        return None
    weight = 50 if a.weight is None else a.weight
    if weight < 0:
        operator = _NEGATED.get(expression["operator"])
        if operator is None:
            unsupported(ctx, "a negative weight cannot invert a Gt/Lt node affinity; it is left out", a)
            return None
        expression = {**expression, "operator": operator}
    return {"weight": max(1, min(100, abs(weight))), "preference": {"matchExpressions": [expression]}}


def _distinct(c: m.Constraint, job: m.Job, group: m.TaskGroup, ctx: Lowering) -> Obj | None:
    """distinct_hosts / distinct_property (limit 1) as required pod anti-affinity."""
    job_level = any(c is x for x in job.constraints or [])
    selector = {"app.kubernetes.io/name": selector_labels(job, group)["app.kubernetes.io/name"]}
    selector = selector if job_level else selector_labels(job, group)
    if c.operand == "distinct_hosts":
        if c.r_target == "false":
            return None
        return {"labelSelector": {"matchLabels": selector}, "topologyKey": HOSTNAME}
    if c.r_target not in ("", "1"):
        unsupported(ctx, f"distinct_property with a limit of {c.r_target}: pod anti-affinity allows one", c)
        return None
    key = node_label(c.l_target, c, ctx)
    return None if key is None else {"labelSelector": {"matchLabels": selector}, "topologyKey": key}


def _spread(job: m.Job, group: m.TaskGroup, ctx: Lowering) -> list[Obj]:
    """Spreads as topologySpreadConstraints: an even spread, not Nomad's target percentages."""
    out: list[Obj] = []
    for spread in [*(job.spreads or []), *(group.spreads or [])]:
        key = node_label(spread.attribute, spread, ctx)
        if key is None:
            continue
        approximated(
            ctx,
            f"spread over `{spread.attribute}` → topologySpreadConstraints (maxSkew 1, ScheduleAnyway): "
            "an even spread; `weight` and the targets' `percent` are not kept",
            spread,
        )
        if all(t["topologyKey"] != key for t in out):
            out.append(
                {
                    "maxSkew": 1,
                    "topologyKey": key,
                    "whenUnsatisfiable": "ScheduleAnyway",
                    "labelSelector": {"matchLabels": selector_labels(job, group)},
                }
            )
    return out
