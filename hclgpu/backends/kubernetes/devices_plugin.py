"""Device requests for a device plugin (``--k8s-devices plugin``): an extended resource count
(``nvidia.com/gpu: 1``), a toleration for the device taint, and node affinity on the labels
GPU Feature Discovery puts on a node.

Labels are strings tested with ``In``, ``NotIn``, ``Exists``, ``DoesNotExist`` and the
integer comparisons ``Gt``/``Lt``, so a condition maps only where those operators say
*exactly* the same thing: memory bounds, model (in)equality on GFD's sanitised product name,
presence, and driver bounds that are whole major versions. Anything else is reported.

The model is tested on the label ``--node-labels`` names (:mod:`hclgpu.units.gpu_names`, the
one table ``import`` reads too): GFD's product, or GKE's and Karpenter's GPU names, whose
values may each cover several NVML models (reported where the label says less than the job).

A MIG model (``<parent> MIG <profile>``) follows the device plugin's MIG strategy
(``--mig-strategy``): ``mixed`` asks for the profile's own resource
``nvidia.com/mig-<profile>`` (k8s-device-plugin ``internal/rm/rm.go``) and tests memory on its
``nvidia.com/mig-<profile>.memory`` label; ``single`` asks for ``nvidia.com/gpu`` on nodes
whose ``nvidia.com/gpu.product`` is ``<parent>-MIG-<profile>`` (``internal/lm/resource.go``).
"""

from __future__ import annotations

from typing import Any

from hclgpu.backends.kubernetes.devices_conditions import (
    Driver,
    Expressible,
    Memory,
    Model,
    Presence,
    affinity_weight,
    analyse,
    describe,
    pins_mig,
    request_mig,
    settled,
)
from hclgpu.backends.kubernetes.devices_model import (
    MIG_RESOURCE_PREFIX,
    DeviceLowering,
    Request,
    add_unique,
    split_mig,
)
from hclgpu.backends.kubernetes.options import kubernetes_options
from hclgpu.backends.target import Lowering
from hclgpu.ir import models as m
from hclgpu.units.gpu_names import LABELS, PRODUCT_LABEL, Vocabulary, gfd_product, label_values, models_of

__all__ = ["DRIVER_MAJOR_LABEL", "MEMORY_LABEL", "PRODUCT_LABEL", "gfd_product", "lower_plugin"]

MEMORY_LABEL = "nvidia.com/gpu.memory"
DRIVER_MAJOR_LABEL = "nvidia.com/cuda.driver-version.major"


def lower_plugin(request: Request, ctx: Lowering, out: DeviceLowering) -> None:
    """Extended resource, toleration, required and preferred node affinity for one request."""
    toleration = request.identity.resource
    assert toleration is not None
    mig = request_mig(request) if kubernetes_options(ctx).mig_strategy == "mixed" else None
    resource = toleration if mig is None else MIG_RESOURCE_PREFIX + mig.plugin_profile
    memory_label = MEMORY_LABEL if mig is None else f"{resource}.memory"
    if mig is not None:
        ctx.approximated(
            f"`{request.device.name}` asks for MIG `{mig.profile}` instances of `{mig.parent}`: they are "
            f"requested as `{resource}`, the NVIDIA device plugin's resource under its mixed MIG strategy",
            request.device,
            help="use --mig-strategy single where the device plugin runs with the single strategy",
        )
        # GPU Feature Discovery labels each MIG resource's product, `<resource>.product`
        # (k8s-device-plugin internal/lm/resource.go:160-177 at 1b826ac): the parent it is cut from
        product = gfd_product(f"{mig.parent} MIG {mig.profile}")
        if _is_label_value(product):
            add_unique(out.required, _requirement(f"{resource}.product", "In", product))
    if resource in out.limits:
        ctx.approximated(
            f"`{request.device.name}` asks for `{resource}` again: resources.limits has one count "
            "for both, and their constraints all apply to the node",
            request.device,
        )
    out.limits[resource] = out.limits.get(resource, 0) + request.count
    add_unique(out.tolerations, {"key": toleration, "operator": "Exists", "effect": "NoSchedule"})
    if mig is None or split_mig(request.identity.model) != mig:
        for requirement in _name_model_requirements(request, ctx):
            add_unique(out.required, requirement)
    for constraint in request.device.constraints or []:
        condition = analyse(constraint.l_target, constraint.operand, constraint.r_target, request.identity)
        if settled(condition, constraint, request, ctx) and (mig is None or pins_mig(condition) != mig):
            for requirement in _requirements(condition, constraint, ctx, memory_label) or []:
                add_unique(out.required, requirement)
    for affinity in request.device.affinities or []:
        term = _preferred_term(affinity, request, ctx, memory_label)
        if term is not None:
            out.preferred.append(term)


def _name_model_requirements(request: Request, ctx: Lowering) -> list[dict[str, Any]]:
    """``device "nvidia/gpu/Tesla T4"``: the model in the name is a product label test."""
    model = request.identity.model
    if not model:
        return []
    if not request.identity.nvidia:
        ctx.unsupported(
            f"the model `{model}` in `{request.device.name}` is left out: only NVIDIA GPUs have a "
            "product node label",
            request.device,
        )
        return []
    return _requirements(Model("=", model), request.device, ctx) or []


def _requirements(
    condition: Expressible,
    node: m.Constraint | m.Affinity | m.RequestedDevice,
    ctx: Lowering,
    memory_label: str = MEMORY_LABEL,
) -> list[dict[str, Any]] | None:
    """NodeSelectorRequirements (ANDed) stating the condition exactly, or ``None`` (reported);
    memory is tested on ``memory_label`` (a mixed-strategy MIG profile's own)."""
    if isinstance(condition, Memory):
        operator, value = {"ge": ("Gt", -1), "lt": ("Lt", 0), "eq": ("In", 0), "ne": ("NotIn", 0)}[
            condition.op
        ]
        return [_requirement(memory_label, operator, str(condition.mib + value))]
    if isinstance(condition, Presence):
        key = memory_label if condition.attribute == "memory" else DRIVER_MAJOR_LABEL
        return [{"key": key, "operator": "Exists" if condition.present else "DoesNotExist"}]
    if isinstance(condition, Model):
        return _model_requirements(condition, node, ctx)
    return _driver_requirements(condition, node, ctx)


def _requirement(key: str, operator: str, value: str) -> dict[str, Any]:
    """A NodeSelectorRequirement with one value (label values are always strings)."""
    return {"key": key, "operator": operator, "values": [value]}


def _model_requirements(
    condition: Model, node: m.Constraint | m.Affinity | m.RequestedDevice, ctx: Lowering
) -> list[dict[str, Any]] | None:
    """``=``/``!=`` on the model as ``In``/``NotIn`` on GFD's sanitised product label."""
    where = describe(node) if not isinstance(node, m.RequestedDevice) else f"the model in `{node.name}`"
    if condition.op == "regexp":
        ctx.unsupported(
            f"{where} uses `regexp`, and node labels have no regular expressions; it is left out",
            node,
            help="use --k8s-devices dra (CEL matches() on productName), "
            "or list the models with `=` constraints",
        )
        return None
    if condition.op not in ("=", "!="):
        ctx.unsupported(f"{where} orders model names, which node labels cannot; it is left out", node)
        return None
    vocabulary = kubernetes_options(ctx).node_labels
    if vocabulary != "gfd" and split_mig(condition.value) is None:
        return _cloud_model_requirements(condition, vocabulary, node, ctx)
    label = gfd_product(condition.value)
    if not _is_label_value(label):
        ctx.unsupported(
            f"{where}: `{condition.value}` has no valid {PRODUCT_LABEL} label spelling; it is left out", node
        )
        return None
    if label != condition.value:
        ctx.approximated(
            f"{where} is matched through the node label {PRODUCT_LABEL}=`{label}`, GPU Feature "
            f"Discovery's sanitised spelling of `{condition.value}`",
            node,
        )
    return [_requirement(PRODUCT_LABEL, "In" if condition.op == "=" else "NotIn", label)]


def _cloud_model_requirements(
    condition: Model,
    vocabulary: Vocabulary,
    node: m.Constraint | m.Affinity | m.RequestedDevice,
    ctx: Lowering,
) -> list[dict[str, Any]] | None:
    """``=``/``!=`` on the model as ``In``/``NotIn`` on a cloud's GPU label
    (:mod:`hclgpu.units.gpu_names`). A cloud's name can cover several NVML models (Karpenter's
    ``a100``): the label then says less than the job, which is reported; a model the cloud has
    no name for is never written as another's."""
    where = describe(node) if not isinstance(node, m.RequestedDevice) else f"the model in `{node.name}`"
    label, values = LABELS[vocabulary], label_values(condition.value, vocabulary)
    if not values:
        return _unnamed_model(condition, label, where, node, ctx)
    others = sorted({o for v in values for o in models_of(v, vocabulary)} - {condition.value})
    if others:
        shown = ", ".join(f"`{v}`" for v in values)
        also = ", ".join(f"`{o}`" for o in others)
        ctx.approximated(
            f"{where} is matched through the node label {label} {shown}, which nodes with {also} "
            "also carry: the label cannot tell those models apart",
            node,
            help="use --node-labels gfd where GPU Feature Discovery labels the nodes with the exact model",
        )
    return [{"key": label, "operator": "In" if condition.op == "=" else "NotIn", "values": list(values)}]


def _unnamed_model(
    condition: Model,
    label: str,
    where: str,
    node: m.Constraint | m.Affinity | m.RequestedDevice,
    ctx: Lowering,
) -> list[dict[str, Any]] | None:
    """A model with no value on record in the cloud's label: ``=`` is left out (no label says
    it); ``!=`` is assumed to hold on every node of that cloud, since none is labelled with it."""
    help = "use --node-labels gfd where GPU Feature Discovery labels the nodes"
    if condition.op == "=":
        ctx.unsupported(
            f"{where}: `{condition.value}` has no {label} value on record; it is left out", node, help=help
        )
        return None
    ctx.approximated(
        f"{where}: no {label} value names `{condition.value}`, so no node is assumed to have it and "
        "the constraint is left out",
        node,
        help=help,
    )
    return []


def _driver_requirements(
    condition: Driver, node: m.Constraint | m.Affinity | m.RequestedDevice, ctx: Lowering
) -> list[dict[str, Any]] | None:
    """Driver bounds that are whole major versions (``>= 535``, ``< 600``) as ``Gt``/``Lt``
    on the major-version label; a bound inside a major version has no label to test."""
    requirements = []
    for op, (major, minor, patch) in condition.terms:
        if minor or patch or op not in (">=", "<"):
            ctx.unsupported(
                f"{describe(node) if not isinstance(node, m.RequestedDevice) else node.name}: the driver "
                f"bound `{op} {major}.{minor}.{patch}` is not a whole major version, and only "
                f"{DRIVER_MAJOR_LABEL} is a number; it is left out",
                node,
                help="bound the major version only (`>= 535.0`, `< 600.0`), or use --k8s-devices dra",
            )
            return None
        bound = _requirement(DRIVER_MAJOR_LABEL, "Gt", str(major - 1))
        requirements.append(bound if op == ">=" else _requirement(DRIVER_MAJOR_LABEL, "Lt", str(major)))
    return requirements


def _preferred_term(
    affinity: m.Affinity, request: Request, ctx: Lowering, memory_label: str = MEMORY_LABEL
) -> dict[str, Any] | None:
    """A PreferredSchedulingTerm: weight ``|w|``; a negative weight prefers the complement."""
    weight = affinity_weight(affinity, ctx)
    if weight is None:
        return None
    condition = analyse(affinity.l_target, affinity.operand, affinity.r_target, request.identity)
    if not settled(condition, affinity, request, ctx):
        return None
    expressions = _requirements(condition, affinity, ctx, memory_label)
    if not expressions:
        return None  # reported, or nothing to prefer (a model no node is labelled with)
    if weight < 0:
        if len(expressions) != 1:
            ctx.unsupported(
                f"{describe(affinity)} has a negative weight, and the opposite of several label "
                "requirements is not one preference term; it is left out",
                affinity,
            )
            return None
        expressions = [_complement(expressions[0])]
    return {"weight": abs(weight), "preference": {"matchExpressions": expressions}}


def _complement(requirement: dict[str, Any]) -> dict[str, Any]:
    """The requirement that holds exactly where ``requirement`` does not (on labelled
    nodes): In↔NotIn, Exists↔DoesNotExist, ``Gt n``↔``Lt n+1``."""
    operator = requirement["operator"]
    if operator in ("Exists", "DoesNotExist"):
        return {"key": requirement["key"], "operator": "DoesNotExist" if operator == "Exists" else "Exists"}
    if operator in ("In", "NotIn"):
        return {**requirement, "operator": "NotIn" if operator == "In" else "In"}
    value = int(requirement["values"][0])
    if operator == "Gt":
        return _requirement(requirement["key"], "Lt", str(value + 1))
    return _requirement(requirement["key"], "Gt", str(value - 1))


def _is_label_value(value: str) -> bool:
    """A non-empty Kubernetes label value: at most 63 characters, alphanumeric at both ends."""
    return 0 < len(value) <= 63 and value[0].isalnum() and value[-1].isalnum()
