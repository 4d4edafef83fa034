"""Device requests for Dynamic Resource Allocation (``--k8s-devices dra``): one
``resource.k8s.io/v1`` ResourceClaimTemplate per request, whose CEL selectors test the NVIDIA
DRA driver's typed attributes, and the pod and container claims that use it.

CEL states nearly every condition exactly (regular expressions, version comparisons, memory
in bytes). DRA cannot weigh preferences, so a device's affinities become the order of its
``firstAvailable`` subrequests, which caps them at the three heaviest.

A MIG model (``<parent> MIG <profile>``, from the name or an ``=`` constraint on
``${device.model}``) asks for the driver's ``mig.nvidia.com`` class instead, whose devices
carry the parent GPU's ``productName`` and the MIG ``profile`` (k8s-dra-driver-gpu
``cmd/gpu-kubelet-plugin/mig.go``, ``CommonAttributesMig``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from hclgpu.backends.kubernetes.devices_conditions import (
    Driver,
    Expressible,
    Memory,
    Model,
    affinity_weight,
    analyse,
    describe,
    pins_mig,
    request_mig,
    settled,
)
from hclgpu.backends.kubernetes.devices_model import (
    DRA_DEVICE_CLASS,
    DRA_MIG_DEVICE_CLASS,
    DeviceLowering,
    Mig,
    Request,
    add_unique,
    split_mig,
)
from hclgpu.backends.kubernetes.names import dns_label
from hclgpu.backends.kubernetes.options import kubernetes_options
from hclgpu.backends.target import Lowering
from hclgpu.ir import models as m

_CAPACITY = f"device.capacity['{DRA_DEVICE_CLASS}']"
_ATTRIBUTES = f"device.attributes['{DRA_DEVICE_CLASS}']"
_MAX_SUBREQUESTS = 8
"""``firstAvailable`` holds at most 8 subrequests: the fallback plus 7 preferred ones, so at
most 3 affinities can be combined in every way (2**3 - 1 = 7)."""
_MAX_PREFERENCES = 3


@dataclass(frozen=True, slots=True)
class _Preference:
    """An affinity translated for DRA: its CEL condition (negated for a negative weight)."""

    weight: int
    cel: str
    node: m.Affinity


def lower_dra(
    prefix: str, task_name: str, index: int, request: Request, ctx: Lowering, out: DeviceLowering
) -> None:
    """One ResourceClaimTemplate for an NVIDIA request, and the pod and container claims using
    it (other devices keep their device-plugin resource: ``lower_devices``)."""
    template_name = _label(prefix, f"-{index}")
    request_name = dns_label(request.identity.type)
    claim_name = _label(task_name, f"-{request_name}-{index}")
    mig = request_mig(request)
    selectors = _dra_selectors(request, mig, ctx)
    preferences = _dra_preferences(request, claim_name, ctx)
    device_class = DRA_DEVICE_CLASS if mig is None else DRA_MIG_DEVICE_CLASS
    metadata: dict[str, Any] = {"name": template_name}
    if kubernetes_options(ctx).namespace:
        metadata["namespace"] = kubernetes_options(ctx).namespace
    out.claim_templates.append(
        {
            "apiVersion": "resource.k8s.io/v1",
            "kind": "ResourceClaimTemplate",
            "metadata": metadata,
            "spec": {
                "spec": {
                    "devices": {
                        "requests": [
                            _device_request(request, request_name, selectors, preferences, device_class)
                        ]
                    }
                }
            },
        }
    )
    out.pod_claims.append({"name": claim_name, "resourceClaimTemplateName": template_name})
    out.container_claims.append({"name": claim_name})
    add_unique(
        out.tolerations, {"key": request.identity.resource, "operator": "Exists", "effect": "NoSchedule"}
    )


def _label(prefix: str, suffix: str) -> str:
    """A DNS label that keeps ``suffix`` whole, trimming the prefix: the index is what makes
    two templates of one task different."""
    return dns_label(prefix, 63 - len(suffix)) + suffix


def _dra_selectors(request: Request, mig: Mig | None, ctx: Lowering) -> list[str]:
    """One CEL expression per constraint (the name's model first); all must match. The
    MIG model that chose the ``mig.nvidia.com`` class is its parent's name and profile."""
    selectors = []
    if request.identity.model:
        named = split_mig(request.identity.model)
        selectors += _mig_cel(named) if named is not None else [_cel(Model("=", request.identity.model))]
    for constraint in request.device.constraints or []:
        condition = analyse(constraint.l_target, constraint.operand, constraint.r_target, request.identity)
        if not settled(condition, constraint, request, ctx):
            continue
        pinned = pins_mig(condition)
        for expression in _mig_cel(pinned) if pinned is not None and pinned == mig else [_cel(condition)]:
            if expression not in selectors:
                selectors.append(expression)
    return selectors


def _mig_cel(mig: Mig) -> list[str]:
    """The selectors of a MIG instance in ``mig.nvidia.com``: parent product and profile."""
    return [
        f"{_ATTRIBUTES}.productName == {cel_string(mig.parent)}",
        f"{_ATTRIBUTES}.profile == {cel_string(mig.profile)}",
    ]


def _dra_preferences(request: Request, claim_name: str, ctx: Lowering) -> list[_Preference]:
    """The affinities as CEL conditions, heaviest first; those beyond what eight
    subrequests can combine are reported and dropped."""
    preferences = []
    for affinity in request.device.affinities or []:
        weight = affinity_weight(affinity, ctx)
        if weight is None:
            continue
        condition = analyse(affinity.l_target, affinity.operand, affinity.r_target, request.identity)
        if not settled(condition, affinity, request, ctx):
            continue
        cel = _cel(condition)
        preferences.append(_Preference(abs(weight), cel if weight > 0 else f"!({cel})", affinity))
    preferences.sort(key=lambda p: -p.weight)
    for dropped in preferences[_MAX_PREFERENCES:]:
        ctx.unsupported(
            f"{describe(dropped.node)} is left out: {_MAX_SUBREQUESTS} firstAvailable subrequests can "
            f"combine only the {_MAX_PREFERENCES} heaviest affinities of a device",
            dropped.node,
        )
    kept = preferences[:_MAX_PREFERENCES]
    for preference in kept:
        ctx.approximated(
            f"{describe(preference.node)} becomes the order of the firstAvailable subrequests of claim "
            f"`{claim_name}`: Kubernetes allocates the first subrequest the chosen node can satisfy, "
            "rather than ranking devices and nodes by Nomad's weighted score",
            preference.node,
        )
    return kept


def _device_request(
    request: Request, name: str, selectors: list[str], preferences: list[_Preference], device_class: str
) -> dict[str, Any]:
    """A DeviceRequest: ``exactly`` without affinities, else ``firstAvailable`` subrequests
    from the best combination of preferences down to the plain constraints."""
    if not preferences:
        return {"name": name, "exactly": _exact(device_class, request.count, selectors)}
    subrequests = []
    for position, chosen in enumerate(_combinations(preferences)):
        sub_name = "preferred" if position == 0 else f"preferred-{position + 1}"
        subrequests.append({"name": sub_name, **_exact(device_class, request.count, selectors + chosen)})
    subrequests.append({"name": "fallback", **_exact(device_class, request.count, selectors)})
    return {"name": name, "firstAvailable": subrequests}


def _combinations(preferences: list[_Preference]) -> list[list[str]]:
    """Every non-empty set of preferences, by total weight, highest first (ties: heavier
    members first): a device in an earlier set scores at least as high in Nomad."""
    sets = [
        list(chosen)
        for size in range(len(preferences), 0, -1)
        for chosen in combinations(range(len(preferences)), size)
    ]
    sets.sort(key=lambda chosen: (-sum(preferences[i].weight for i in chosen), chosen))
    return [[preferences[i].cel for i in chosen] for chosen in sets]


def _exact(device_class: str, count: int, selectors: list[str]) -> dict[str, Any]:
    """The fields an ExactDeviceRequest and a DeviceSubRequest share."""
    body: dict[str, Any] = {
        "deviceClassName": device_class,
        "allocationMode": "ExactCount",
        "count": count,
    }
    if selectors:
        body["selectors"] = [{"cel": {"expression": expression}} for expression in selectors]
    return body


def _cel(condition: Expressible) -> str:
    """A CEL expression over the NVIDIA DRA driver's attributes stating the condition exactly."""
    if isinstance(condition, Memory):
        return _memory_cel(condition)
    if isinstance(condition, Model):
        name = f"{_ATTRIBUTES}.productName"
        if condition.op == "regexp":
            return f"{name}.matches({cel_string(condition.value)})"
        return f"{name} {'==' if condition.op == '=' else condition.op} {cel_string(condition.value)}"
    if isinstance(condition, Driver):
        return " && ".join(
            f"{_ATTRIBUTES}.driverVersion.compareTo(semver('{a}.{b}.{c}')) {op} 0"
            for op, (a, b, c) in condition.terms
        )
    test = (
        f"'memory' in {_CAPACITY}" if condition.attribute == "memory" else f"'driverVersion' in {_ATTRIBUTES}"
    )
    return test if condition.present else f"!({test})"


def _memory_cel(condition: Memory) -> str:
    """The MiB bound on the capacity in bytes: ``M >= n`` is ``bytes >= n Mi`` when M is the
    byte count rounded down to whole MiB."""

    def compare(mib: int, relation: str) -> str:
        return f"{_CAPACITY}.memory.compareTo(quantity('{_quantity(mib)}')) {relation} 0"

    n = condition.mib
    if condition.op == "ge":
        return compare(n, ">=")
    if condition.op == "lt":
        return compare(n, "<")
    if condition.op == "eq":
        return f"{compare(n, '>=')} && {compare(n + 1, '<')}"
    return f"{compare(n, '<')} || {compare(n + 1, '>=')}"


def _quantity(mib: int) -> str:
    """``mib`` MiB as a Kubernetes quantity with the largest binary suffix that is exact."""
    if mib == 0:
        return "0"
    for suffix, shift in (("Ei", 40), ("Pi", 30), ("Ti", 20), ("Gi", 10)):
        if mib % (1 << shift) == 0:
            return f"{mib >> shift}{suffix}"
    return f"{mib}Mi"


_CEL_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def cel_string(text: str) -> str:
    """``text`` as a single-quoted CEL string literal: backslash and quote escaped, control
    characters as ``\\u`` escapes (a CEL literal may not hold a raw line break)."""
    out = []
    for char in text:
        if char in _CEL_ESCAPES:
            out.append(_CEL_ESCAPES[char])
        elif ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "'" + "".join(out) + "'"
