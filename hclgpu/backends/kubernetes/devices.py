"""A task's `device` requests as Kubernetes sees them: device-plugin resources with node
affinity (``--k8s-devices plugin``), or DRA ResourceClaimTemplates with CEL selectors
(``--k8s-devices dra``).

Nomad tests every constraint against one device group with typed attributes (units,
versions, RE2). Kubernetes has two weaker languages for the same wish:

* **plugin**: an extended resource count (``nvidia.com/gpu: 1``) plus node affinity on the
  labels GPU Feature Discovery puts on a node. Labels are strings tested with ``In``,
  ``NotIn``, ``Exists``, ``DoesNotExist`` and the integer comparisons ``Gt``/``Lt``, so a
  constraint maps only where those operators say *exactly* the same thing;
* **dra**: a ``resource.k8s.io/v1`` claim whose CEL selectors see the NVIDIA DRA driver's
  typed attributes (``productName``, version-typed ``driverVersion``, ``memory`` capacity
  in bytes), which expresses nearly everything, regular expressions included.

This module is the entry point: it reads each device block's count and identity (vendor,
type, model, extended resource) and hands the request to the chosen mode
(:mod:`~hclgpu.backends.kubernetes.devices_plugin` or
:mod:`~hclgpu.backends.kubernetes.devices_dra`). Both analyse constraints the same way
(:mod:`~hclgpu.backends.kubernetes.devices_conditions`) and share one vocabulary
(:mod:`~hclgpu.backends.kubernetes.devices_model`). Whatever is left out is HG301 and
whatever is bent is HG302, located at the constraint, affinity or device block concerned;
nothing is dropped silently.
"""

from __future__ import annotations

from hclgpu.backends.kubernetes.devices_conditions import ALIASES
from hclgpu.backends.kubernetes.devices_dra import cel_string, lower_dra
from hclgpu.backends.kubernetes.devices_model import (
    DEFAULT_VENDORS,
    DRA_DEVICE_CLASS,
    EXTENDED_RESOURCES,
    DeviceLowering,
    Identity,
    Request,
)
from hclgpu.backends.kubernetes.devices_plugin import gfd_product, lower_plugin
from hclgpu.backends.kubernetes.options import kubernetes_options
from hclgpu.backends.target import Lowering
from hclgpu.ir import models as m

__all__ = [
    "DEFAULT_VENDORS",
    "DRA_DEVICE_CLASS",
    "EXTENDED_RESOURCES",
    "DeviceLowering",
    "cel_string",
    "gfd_product",
    "lower_devices",
]

_SHARED_TYPES = frozenset({"gpu"})
"""Types several vendors make: assuming the vendor of one of them is an approximation (HG302)."""


def lower_devices(job_name: str, group_name: str, task: m.Task, ctx: Lowering) -> DeviceLowering:
    """Translate the task's ``device`` blocks for the device mode chosen in ``ctx.options``."""
    out = DeviceLowering()
    devices = task.resources.devices if task.resources is not None else None
    for index, device in enumerate(devices or []):
        request = _request(device, ctx)
        if request is None:
            continue
        dra = kubernetes_options(ctx).k8s_devices == "dra"
        if dra and request.identity.nvidia:
            lower_dra(f"{job_name}-{group_name}-{task.name}", task.name, index, request, ctx, out)
            continue
        if dra:  # no accelerator is dropped: the device plugin's resource, in the same pod
            ctx.approximated(
                f"`{request.device.name}` has no DRA device class hclgpu knows (only NVIDIA's "
                f"`{DRA_DEVICE_CLASS}`); it is requested as the device plugin's "
                f"`{request.identity.resource}` instead",
                request.device,
                help="the node needs that device plugin; use --k8s-devices plugin for every device",
            )
        lower_plugin(request, ctx, out)
    return out


def _request(device: m.RequestedDevice, ctx: Lowering) -> Request | None:
    """The count and identity of a device block, or ``None`` (reported) when Kubernetes
    cannot ask for it at all."""
    count = 1 if device.count is None else device.count
    if count == 0:
        ctx.unsupported(
            f"`{device.name}` asks for zero devices; Kubernetes has no zero-count request, so it is left out",
            device,
            help="ask for at least one device, or remove the block",
        )
        return None
    identity = _identity(device, ctx)
    if identity is None:
        return None
    return Request(device, identity, count)


def _identity(device: m.RequestedDevice, ctx: Lowering) -> Identity | None:
    """Split the name like Nomad, fill a missing vendor or type from an ``=`` constraint or a
    default, and look up the extended resource (HG301 when there is none)."""
    parts = device.name.split("/", 2)
    if len(parts) == 1:
        vendor, type_, model = "", parts[0], ""
    elif len(parts) == 2:
        vendor, type_, model = parts[0], parts[1], ""
    else:
        vendor, type_, model = parts
    type_ = type_ or _pinned(device, "${device.type}") or _only_type(vendor, device, ctx)
    vendor = vendor or _pinned(device, "${device.vendor}") or _default_vendor(type_, device, ctx)
    resource = EXTENDED_RESOURCES.get((vendor, type_))
    if resource is None:
        ctx.unsupported(
            f"no Kubernetes extended resource is known for `{device.name}` "
            f"(vendor `{vendor or '?'}`, type `{type_ or '?'}`); the device request is left out",
            device,
            help="known: " + ", ".join(f"{v}/{t}" for v, t in EXTENDED_RESOURCES),
        )
        return None
    return Identity(vendor, type_, model, resource)


def _pinned(device: m.RequestedDevice, target: str) -> str:
    """The literal a constraint ``target = "x"`` pins, or ``""``: the name may leave the
    vendor out and a constraint say it instead."""
    for constraint in device.constraints or []:
        operand = ALIASES.get(constraint.operand, constraint.operand)
        if constraint.l_target == target and operand == "=" and not constraint.r_target.startswith("${"):
            return constraint.r_target
    return ""


def _default_vendor(type_: str, device: m.RequestedDevice, ctx: Lowering) -> str:
    """The vendor assumed for a bare type; HG302 where other vendors make that type too."""
    vendor = DEFAULT_VENDORS.get(type_, "")
    if vendor and type_ in _SHARED_TYPES:
        ctx.approximated(
            f"`{device.name}` names no vendor; `{vendor}` is assumed, so the request is for "
            f"`{EXTENDED_RESOURCES[(vendor, type_)]}` devices",
            device,
            help=f'write `device "{vendor}/{type_}"` (or another vendor) to say which',
        )
    return vendor


def _only_type(vendor: str, device: m.RequestedDevice, ctx: Lowering) -> str:
    """The type assumed for ``vendor//model``: the vendor's only known type, if it has one."""
    types = [t for v, t in EXTENDED_RESOURCES if v == vendor]
    if len(types) != 1:
        return ""
    ctx.approximated(
        f"`{device.name}` names no device type; `{types[0]}` is assumed, so the request is for "
        f"`{EXTENDED_RESOURCES[(vendor, types[0])]}` devices",
        device,
    )
    return types[0]
