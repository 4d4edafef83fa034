"""Container resources read back: CPU quantities as Nomad MHz (or whole ``cores``), memory
as MiB (a larger limit as ``memory_max``), ephemeral storage as the group's disk, extended
resources and DRA claims as ``device`` blocks.

The inverse of the back end's ``_resources``: ``requests.cpu`` is ``cpu`` MHz at the
configured MHz per core, a CPU limit equal to the request is the docker driver's
``cpu_hard_limit`` (or ``cores`` when both are whole cores).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hclgpu.importers.kubernetes.context import PodContext
from hclgpu.importers.kubernetes.devices import (
    CLAIM_DEVICES,
    EXTENDED_RESOURCES,
    MIG_PENDING,
    MIG_RESOURCE,
    TEMPLATE_DEVICES,
    claim_devices,
    device_block,
)
from hclgpu.importers.kubernetes.source import Manifest, Path, as_dict
from hclgpu.units.quantities import LIMIT, MIB, quantity, whole

_PLAIN = frozenset({"cpu", "memory", "ephemeral-storage"})


def read_resources(
    ctx: PodContext, path: Path, task: dict[str, Any], config: dict[str, Any]
) -> dict[str, Any]:
    base: Path = (*path, "resources")
    requests = ctx.mapping(*base, "requests")
    limits = ctx.mapping(*base, "limits")
    out: dict[str, Any] = {}
    _cpu(ctx, base, requests.get("cpu"), limits.get("cpu"), out, config)
    _memory(ctx, base, requests.get("memory"), limits.get("memory"), out)
    _disk(ctx, base, requests.get("ephemeral-storage", limits.get("ephemeral-storage")))
    devices = _extended(ctx, base, requests, limits) + _claims(ctx, base)
    if devices:
        out["Devices"] = devices
    return out


def _cpu(
    ctx: PodContext, base: Path, request: Any, limit: Any, out: dict[str, Any], config: dict[str, Any]
) -> None:
    ctx.take(*base, "requests", "cpu")
    ctx.take(*base, "limits", "cpu")
    amount = _amount(ctx, base, "cpu", request, limit)
    if amount is None:
        return
    if limit is not None and (request is None or quantity(limit) == amount):
        if (
            isinstance(limit, (int, str))
            and str(limit).isdigit()
            and (request is None or str(request) == str(limit))
        ):
            out["Cores"] = int(str(limit))
            return
        config["cpu_hard_limit"] = True
    elif limit is not None:
        ctx.approximated(
            (*base, "limits", "cpu"), "a CPU limit above the request is not kept: Nomad reserves `cpu`"
        )
    mhz, exact = whole(amount * ctx.cpu_mhz_per_core)
    if mhz > LIMIT:
        ctx.left_out((*base, "requests", "cpu"), f"{mhz} MHz is beyond any node")
        return
    out["CPU"] = max(1, mhz)
    if not exact:
        ctx.approximated((*base, "requests", "cpu"), f"CPU rounded up to {mhz} MHz")


def _memory(ctx: PodContext, base: Path, request: Any, limit: Any, out: dict[str, Any]) -> None:
    ctx.take(*base, "requests", "memory")
    ctx.take(*base, "limits", "memory")
    if _amount(ctx, base, "memory", request, limit) is None:
        return
    wanted, ceiling = quantity(request), quantity(limit)
    if wanted is None:
        wanted, ceiling = ceiling, None
    if wanted is None:
        return
    out["MemoryMB"] = _mib(ctx, (*base, "requests" if request is not None else "limits", "memory"), wanted)
    if ceiling is not None and ceiling > wanted:
        out["MemoryMaxMB"] = _mib(ctx, (*base, "limits", "memory"), ceiling)


def _amount(ctx: PodContext, base: Path, key: str, request: Any, limit: Any) -> Fraction | None:
    """The request (else the limit) as a number; a value that is not a quantity is reported."""
    for side, value in (("requests", request), ("limits", limit)):
        if value is not None and quantity(value) is None:
            ctx.left_out((*base, side, key), f"{value!r} is not a {key} quantity hclgpu can read")
            return None
    return quantity(request if request is not None else limit)


def _mib(ctx: PodContext, where: Path, amount: Fraction) -> int:
    mib, exact = whole(amount / MIB)
    if not exact:
        ctx.approximated(where, f"memory rounded up to {mib} MiB (Nomad counts whole MiB)")
    return max(1, mib)


def _disk(ctx: PodContext, base: Path, request: Any) -> None:
    for side in ("requests", "limits"):
        ctx.take(*base, side, "ephemeral-storage")
    amount = _amount(ctx, base, "ephemeral-storage", request, None)
    if amount is None:
        return
    if ctx.disk_mb is None:
        ctx.disk_mb = _mib(ctx, (*base, "requests", "ephemeral-storage"), amount)
    else:
        ctx.approximated(
            (*base, "requests", "ephemeral-storage"), "the group has one ephemeral_disk: added to it"
        )
        ctx.disk_mb += _mib(ctx, (*base, "requests", "ephemeral-storage"), amount)


def _extended(
    ctx: PodContext, base: Path, requests: dict[str, Any], limits: dict[str, Any]
) -> list[dict[str, Any]]:
    """Device-plugin resources: the count (limits, else requests) of a known device."""
    devices = []
    for key in dict.fromkeys([*limits, *requests]):
        if key in _PLAIN:
            continue
        count = limits.get(key, requests.get(key))
        for side in ("requests", "limits"):
            ctx.take(*base, side, key)
        resource = _unshared(ctx, (*base, "limits", key), key)
        mig = resource[len(MIG_RESOURCE) :] if resource.startswith(MIG_RESOURCE) else ""
        name = "nvidia/gpu" if mig else EXTENDED_RESOURCES.get(resource)
        number = quantity(count)
        if name is None or number is None or number.denominator != 1 or number < 1:
            ctx.left_out((*base, "limits", key), f"`{key}` is not a device resource Nomad knows")
            continue
        device = device_block(name, int(number))
        if mig:  # named once the pod's labels are read (placement.finish_mig)
            device[MIG_PENDING] = (mig, (*ctx.spec, *base, "limits", key))
        devices.append(device)
    return devices


SHARED = ".shared"
"""The suffix the NVIDIA device plugin gives a resource it shares (time-slicing or MPS) with
``renameByDefault`` (k8s-device-plugin api/config/v1/consts.go:26 at 1b826ac,
``DefaultSharedResourceNameSuffix``): ``nvidia.com/gpu.shared``."""


def _unshared(ctx: PodContext, where: Path, key: str) -> str:
    """The resource a shared one replicates (HG302: Nomad gives whole devices), else ``key``."""
    resource = key.removesuffix(SHARED)
    if resource == key or not (resource == "nvidia.com/gpu" or resource.startswith(MIG_RESOURCE)):
        return key
    ctx.approximated(
        where,
        f"`{key}` is a replica of a GPU the device plugin shares (time-slicing or MPS): Nomad gives "
        "the task whole GPUs of its own; the sharing is kept in the group's meta `gpu_sharing`",
    )
    ctx.sharing["gpu_sharing"] = key
    return resource


def _claims(ctx: PodContext, base: Path) -> list[dict[str, Any]]:
    """DRA claims: each through the pod's resourceClaims to its ResourceClaimTemplate, or to
    the ResourceClaim it names, in the input."""
    devices: list[dict[str, Any]] = []
    pod_claims = {
        str(c.get("name")): (i, c) for i, c in enumerate(ctx.items("resourceClaims")) if isinstance(c, dict)
    }
    for index, claim in enumerate(ctx.items(*base, "claims")):
        ctx.take(*base, "claims", index)
        name = str(as_dict(claim).get("name"))
        position, entry = pod_claims.get(name, (None, {}))
        if position is not None:
            ctx.take("resourceClaims", position)
        found = _claim_source(ctx, entry, position)
        if found is None:
            ctx.left_out(
                (*base, "claims", index),
                f"claim `{name}` has no ResourceClaimTemplate or ResourceClaim in the input",
            )
            continue
        source, devices_at = found
        for key in ("apiVersion", "kind", "metadata"):
            source.take(key)
        devices += claim_devices(source, ctx.findings, name, devices_at, ctx.sharing)
    return devices


def _claim_source(
    ctx: PodContext, entry: dict[str, Any], position: int | None
) -> tuple[Manifest, Path] | None:
    """The object a pod's claim entry names, and where its device requests are."""
    template = ctx.claim_templates.get(str(entry.get("resourceClaimTemplateName")))
    if template is not None:
        return template, TEMPLATE_DEVICES
    shared = ctx.claims.get(str(entry.get("resourceClaimName")))
    if shared is None or position is None:
        return None
    ctx.approximated(
        ("resourceClaims", position),
        f"ResourceClaim `{shared.name}` is one set of devices that every pod naming it shares; "
        "a Nomad task asks for devices of its own",
    )
    return shared, CLAIM_DEVICES
