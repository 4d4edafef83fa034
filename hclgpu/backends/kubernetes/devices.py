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

Every constraint is first *analysed* once, into a mode-independent condition: a bound on
whole MiB of memory, a model test, driver-version bounds, a presence test, a value Nomad
settles statically (vendor and type are known from the device name), or something with
no equivalent. Each mode then renders the condition or says why it cannot. Whatever is
left out is HG301 and whatever is bent is HG302, located at the constraint, affinity or
device block concerned; nothing is dropped silently.

Memory is compared in whole MiB in both modes, because that is what Nomad compares: the
NVIDIA plugin fingerprints ``memory`` as NVML's total in whole MiB (rounded down), and GFD
labels ``nvidia.com/gpu.memory`` with the same figure. The DRA driver reports exact bytes,
so a bound is moved to the MiB boundary that admits exactly the devices Nomad admits
(``> 4 GB`` is ``>= 3815 MiB`` for a device reported in whole MiB).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Any, Literal, TypeGuard

from hclgpu.backends.kubernetes.names import dns_label
from hclgpu.backends.target import Lowering
from hclgpu.ir import models as m
from hclgpu.units import Attribute, check_operator, in_base_units, parse_attribute, string_attribute
from hclgpu.units.table import BYTE

__all__ = [
    "DEFAULT_VENDORS",
    "DRA_DEVICE_CLASS",
    "EXTENDED_RESOURCES",
    "DeviceLowering",
    "cel_string",
    "gfd_product",
    "lower_devices",
]

EXTENDED_RESOURCES: dict[tuple[str, str], str] = {
    ("nvidia", "gpu"): "nvidia.com/gpu",
    ("amd", "gpu"): "amd.com/gpu",
    ("intel", "gpu"): "gpu.intel.com/i915",
    ("aws", "neuron"): "aws.amazon.com/neuron",
    ("aws", "neuroncore"): "aws.amazon.com/neuroncore",
}
"""Nomad ``(vendor, type)`` → the extended resource its Kubernetes device plugin advertises."""

DEFAULT_VENDORS: dict[str, str] = {"gpu": "nvidia", "neuron": "aws", "neuroncore": "aws"}
"""The vendor assumed for a name without one (``device "gpu"``)."""

_SHARED_TYPES = frozenset({"gpu"})
"""Types several vendors make: assuming the vendor of one of them is an approximation (HG302)."""

NVIDIA = "nvidia"
DRA_DEVICE_CLASS = "gpu.nvidia.com"
"""The NVIDIA DRA driver's DeviceClass for whole GPUs (also its attribute domain)."""

MEMORY_LABEL = "nvidia.com/gpu.memory"
PRODUCT_LABEL = "nvidia.com/gpu.product"
DRIVER_MAJOR_LABEL = "nvidia.com/cuda.driver-version.major"

_CAPACITY = f"device.capacity['{DRA_DEVICE_CLASS}']"
_ATTRIBUTES = f"device.attributes['{DRA_DEVICE_CLASS}']"
_MAX_SUBREQUESTS = 8
"""``firstAvailable`` holds at most 8 subrequests: the fallback plus 7 preferred ones, so at
most 3 affinities can be combined in every way (2**3 - 1 = 7)."""
_MAX_PREFERENCES = 3

_MIB = 1 << 20
_MAX_MIB = (1 << 63) // _MIB - 2
"""A MiB bound whose byte value (and the next MiB) still fits the int64 Kubernetes parses."""

_ALIASES = {"==": "=", "is": "=", "not": "!="}
_ORDER_OPERATORS = frozenset({"=", "!=", "<", "<=", ">", ">="})
_MIRRORED = {"=": "=", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_STRING_OPERATORS = frozenset({"regexp", "set_contains", "set_contains_all", "set_contains_any"})
_GO_SPACE = " \t\n\f\r"
_KINDS = {"int": "an integer", "float": "a float", "bool": "a boolean", "string": "a string"}


@dataclass(slots=True)
class DeviceLowering:
    """What a task's device requests add to its pod: one field per place in the manifests.

    ``limits`` go into both ``requests`` and ``limits`` (extended resources must be equal
    integers there); ``required`` is ANDed into one ``nodeSelectorTerm``.
    """

    limits: dict[str, int] = field(default_factory=dict)
    required: list[dict[str, Any]] = field(default_factory=list)
    preferred: list[dict[str, Any]] = field(default_factory=list)
    tolerations: list[dict[str, Any]] = field(default_factory=list)
    claim_templates: list[dict[str, Any]] = field(default_factory=list)
    pod_claims: list[dict[str, Any]] = field(default_factory=list)
    container_claims: list[dict[str, Any]] = field(default_factory=list)


# --------------------------------------------------------------------------- conditions


@dataclass(frozen=True, slots=True)
class _Static:
    """A condition Nomad settles without looking at a device's attributes."""

    holds: bool
    why: str = ""


@dataclass(frozen=True, slots=True)
class _Unsupported:
    """A condition neither Kubernetes language can state exactly."""

    message: str
    help: str | None = None


@dataclass(frozen=True, slots=True)
class _Memory:
    """``M op mib`` on the memory in whole MiB: ``ge`` (>=), ``lt`` (<), ``eq``, ``ne``."""

    op: Literal["ge", "lt", "eq", "ne"]
    mib: int


@dataclass(frozen=True, slots=True)
class _Model:
    """A test of the NVML model name: ``=``, ``!=``, ``<``, ``<=``, ``>``, ``>=`` or ``regexp``."""

    op: str
    value: str


@dataclass(frozen=True, slots=True)
class _Driver:
    """Driver-version bounds, all of which must hold: ``(op, (major, minor, patch))``."""

    terms: tuple[tuple[str, tuple[int, int, int]], ...]


@dataclass(frozen=True, slots=True)
class _Presence:
    """``is_set`` / ``is_not_set`` on an attribute a node or device may lack."""

    attribute: Literal["memory", "driver"]
    present: bool


_Condition = _Static | _Unsupported | _Memory | _Model | _Driver | _Presence
_Expressible = _Memory | _Model | _Driver | _Presence


@dataclass(frozen=True, slots=True)
class _Symbol:
    """A device target whose value differs from device to device (``${device.attr.memory}``)."""

    name: str


@dataclass(frozen=True, slots=True)
class _Identity:
    """Vendor, type and model of a request, as Nomad's ``RequestedDevice.ID()`` splits the
    name (vendor and type possibly filled in from constraints or defaults)."""

    vendor: str
    type: str
    model: str
    resource: str | None

    @property
    def nvidia(self) -> bool:
        """Only NVIDIA GPUs have GFD labels and a DRA class that hclgpu maps constraints to."""
        return self.resource == EXTENDED_RESOURCES[(NVIDIA, "gpu")]


@dataclass(frozen=True, slots=True)
class _Request:
    """One device block that survived the count and name checks."""

    device: m.RequestedDevice
    identity: _Identity
    count: int


@dataclass(frozen=True, slots=True)
class _Preference:
    """An affinity translated for DRA: its CEL condition (negated for a negative weight)."""

    weight: int
    cel: str
    node: m.Affinity


# --------------------------------------------------------------------------- entry point


def lower_devices(job_name: str, group_name: str, task: m.Task, ctx: Lowering) -> DeviceLowering:
    """Translate the task's ``device`` blocks for the device mode chosen in ``ctx.options``."""
    out = DeviceLowering()
    devices = task.resources.devices if task.resources is not None else None
    for index, device in enumerate(devices or []):
        request = _request(device, ctx)
        if request is None:
            continue
        if ctx.options.k8s_devices == "dra":
            _lower_dra(f"{job_name}-{group_name}-{task.name}", task.name, index, request, ctx, out)
        else:
            _lower_plugin(request, ctx, out)
    return out


def _request(device: m.RequestedDevice, ctx: Lowering) -> _Request | None:
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
    return _Request(device, identity, count)


def _identity(device: m.RequestedDevice, ctx: Lowering) -> _Identity | None:
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
    return _Identity(vendor, type_, model, resource)


def _pinned(device: m.RequestedDevice, target: str) -> str:
    """The literal a constraint ``target = "x"`` pins, or ``""``: the name may leave the
    vendor out and a constraint say it instead."""
    for constraint in device.constraints or []:
        operand = _ALIASES.get(constraint.operand, constraint.operand)
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


# --------------------------------------------------------------------------- analysis


def _analyse(l_target: str, operand: str, r_target: str, identity: _Identity) -> _Condition:
    """What a constraint (or affinity) asks of a device, independent of the output mode.

    Sides resolve as Nomad's ``resolveDeviceTarget`` does; a literal on the left with the
    device target on the right is turned around, so ``"4 GiB" <= ${device.attr.memory}``
    is the same bound as its mirror image.
    """
    op = _ALIASES.get(operand, operand)
    left = _resolve(l_target, identity)
    if op in ("is_set", "is_not_set"):
        return _presence(left, op == "is_set")
    right = _resolve(r_target, identity)
    if isinstance(right, _Symbol) and not isinstance(left, _Symbol):
        if op not in _MIRRORED:
            return _Unsupported(f"`{op}` needs the device attribute as its `attribute`, not its `value`")
        left, right, op = right, left, _MIRRORED[op]
    if isinstance(right, _Symbol):
        return _Unsupported("it compares two device attributes with each other")
    if not isinstance(left, _Symbol):
        return _Static(check_operator(op, left, right))
    if right is None:
        return _Static(op == "!=", f"`{r_target}` is not a device attribute, so Nomad never finds it")
    return _symbolic(left.name, op, right)


def _resolve(target: str, identity: _Identity) -> Attribute | _Symbol | None:
    """Nomad's ``resolveDeviceTarget``: a literal, a value known from the request's
    identity, a per-device :class:`_Symbol`, or ``None`` (never found in a device block)."""
    if not target.startswith("${"):
        return parse_attribute(target)
    if target == "${device.vendor}":
        return string_attribute(identity.vendor)
    if target == "${device.type}":
        return string_attribute(identity.type)
    if target == "${device.model}":
        return string_attribute(identity.model) if identity.model else _Symbol("model")
    if target == "${device.ids}":
        return _Symbol("ids")
    if target.startswith("${device.attr."):
        return _Symbol("attr." + target.removeprefix("${device.attr.").removesuffix("}"))
    return None


def _presence(left: Attribute | _Symbol | None, present: bool) -> _Condition:
    """``is_set`` / ``is_not_set``: static unless the attribute is one a GPU may lack."""
    if not isinstance(left, _Symbol):
        return _Static((left is not None) == present)
    if left.name in ("model", "ids"):
        return _Static(present, "every device has a model and IDs")
    if left.name == "attr.memory":
        return _Presence("memory", present)
    if left.name == "attr.driver_version":
        return _Presence("driver", present)
    return _unmapped(left.name)


def _symbolic(name: str, op: str, right: Attribute) -> _Condition:
    """Dispatch a test of a per-device value to the attribute that knows its semantics."""
    if name == "model":
        return _model_condition(op, right)
    if name == "attr.memory":
        return _memory_condition(op, right)
    if name == "attr.driver_version":
        return _driver_condition(op, right)
    if name == "ids":
        return _Unsupported(
            "`${device.ids}` picks device instances by ID, which Kubernetes leaves to the device driver",
            help="pin instances with the driver's own configuration instead",
        )
    return _unmapped(name)


def _unmapped(name: str) -> _Unsupported:
    """An attribute with no GFD label and no DRA attribute that hclgpu maps."""
    return _Unsupported(
        f"`${{device.{name}}}` has no Kubernetes node label or DRA attribute that hclgpu maps",
        help="mappable: ${device.attr.memory}, ${device.model}, ${device.attr.driver_version}",
    )


def _memory_condition(op: str, right: Attribute) -> _Condition:
    """A comparison with the memory, as a bound on whole MiB that admits exactly the
    devices Nomad admits (Nomad compares the int MiB attribute with the literal in bytes)."""
    if op in _STRING_OPERATORS:
        return _Static(False, "the memory is a number, and Nomad applies this operator to strings only")
    if op not in _ORDER_OPERATORS:
        return _Unsupported(f"`{op}` on the memory has no equivalent")
    if right.unit is None or right.unit.base != BYTE:
        return _Static(
            False,
            f"`{right.text}` has no byte unit, so Nomad cannot compare it with the memory in MiB "
            '(write "4 GiB")',
        )
    in_bytes = in_base_units(right)
    if in_bytes is None:
        return _Unsupported(f"`{right.text}` is not a finite number of bytes")
    mib = Fraction(in_bytes) / _MIB
    if abs(mib) > _MAX_MIB:
        return _Unsupported(f"`{right.text}` is beyond the 64-bit integers Kubernetes compares")
    return _memory_bound(op, mib, right.text)


def _memory_bound(op: str, mib: Fraction, text: str) -> _Condition:
    """``M op mib`` for an integer ``M`` restated with integer bounds (floor/ceil exactly)."""
    if op == ">=":
        return _Memory("ge", math.ceil(mib))
    if op == ">":
        return _Memory("ge", math.floor(mib) + 1)
    if op == "<":
        return _Memory("lt", math.ceil(mib))
    if op == "<=":
        return _Memory("lt", math.floor(mib) + 1)
    if mib.denominator != 1:
        return _Static(op == "!=", f"`{text}` is not a whole number of MiB, and the memory always is")
    return _Memory("eq" if op == "=" else "ne", int(mib))


def _model_condition(op: str, right: Attribute) -> _Condition:
    """A test of the model string; only strings compare with it in Nomad."""
    if op not in _ORDER_OPERATORS and op != "regexp":
        return _Unsupported(f"`{op}` on the model has no equivalent")
    if right.kind != "string":
        return _Static(
            False, f"Nomad reads `{right.text}` as {_KINDS[right.kind]}, which never equals a model name"
        )
    value = str(right.value)
    if op == "regexp":
        from hclgpu.units.patterns import re2_problem

        problem = re2_problem(value)
        if problem is not None:
            return _Unsupported(f"`{value}` is not a regular expression Nomad accepts: {problem}")
    return _Model(op, value)


def _driver_condition(op: str, right: Attribute) -> _Condition:
    """A ``version``/``semver`` test of the driver version, as bounds on x.y.z."""
    if op not in ("version", "semver"):
        return _Unsupported(f"`{op}` compares the driver version as a string; only `version`/`semver` map")
    if right.kind != "string":
        return _Static(False, f"Nomad reads `{right.text}` as {_KINDS[right.kind]}, not a version constraint")
    from hclgpu.units.patterns import semver_constraint_problem, version_constraint_problem

    text = str(right.value)
    problem = (version_constraint_problem if op == "version" else semver_constraint_problem)(text)
    if problem is not None:
        return _Unsupported(f"`{text}` is not a {op} constraint Nomad accepts: {problem}")
    terms: list[tuple[str, tuple[int, int, int]]] = []
    for term in text.split(","):
        parsed = _version_term(term)
        if isinstance(parsed, _Unsupported):
            return parsed
        terms.extend(parsed)
    return _Driver(tuple(terms))


def _version_term(term: str) -> list[tuple[str, tuple[int, int, int]]] | _Unsupported:
    """One go-version term (already validated) as plain bounds; ``~>`` becomes a range."""
    term = term.strip(_GO_SPACE)
    op = next((o for o in ("~>", ">=", "<=", "!=", ">", "<", "=") if term.startswith(o)), "")
    text = term[len(op) :].strip(_GO_SPACE).removeprefix("v")
    if not all(part.isdigit() for part in text.split(".")):
        return _Unsupported(f"`{text}` has a pre-release or build part, which is ordered differently here")
    given = [int(part) for part in text.split(".")]
    if len(given) > 3:
        return _Unsupported(f"`{text}` has more than three parts")
    version = (*given, 0, 0)[:3]
    bound = (version[0], version[1], version[2])
    if op != "~>":
        return [({"": "==", "=": "=="}.get(op, op), bound)]
    if len(given) == 1:
        return [(">=", bound)]
    upper = [*given[:-2], given[-2] + 1, 0, 0][:3]
    return [(">=", bound), ("<", (upper[0], upper[1], upper[2]))]


# --------------------------------------------------------------------------- reporting


def _describe(node: m.Constraint | m.Affinity) -> str:
    """How a message names the block: its kind and its test, as the user wrote it."""
    kind = "constraint" if isinstance(node, m.Constraint) else "affinity"
    value = f' "{node.r_target}"' if node.r_target or node.operand not in ("is_set", "is_not_set") else ""
    return f"the {kind} `{node.l_target} {node.operand}{value}`"


def _settled(
    condition: _Condition, node: m.Constraint | m.Affinity, request: _Request, ctx: Lowering
) -> TypeGuard[_Expressible]:
    """Report a condition that needs no output; ``True`` when it still has to be rendered.

    A constraint that always holds needs nothing, and an affinity that always or never
    matches does not rank anything; a constraint that never holds cannot be stated (Nomad
    never places the task) and is reported, as is an affinity that can never match.
    """
    what = _describe(node)
    if isinstance(condition, _Unsupported):
        ctx.unsupported(
            f"{what} cannot be expressed: {condition.message}; it is left out", node, condition.help
        )
        return False
    if isinstance(condition, _Static):
        if not condition.holds:
            why = f" ({condition.why})" if condition.why else ""
            ctx.unsupported(
                f"{what} never holds for `{request.device.name}` devices{why}; it is left out",
                node,
                help="Nomad would never place this" if isinstance(node, m.Constraint) else None,
            )
        return False
    if not request.identity.nvidia:
        ctx.unsupported(
            f"{what} is left out: only NVIDIA GPUs have node labels (GPU Feature Discovery) or a DRA "
            f"driver that hclgpu maps, not `{request.identity.resource}`",
            node,
        )
        return False
    return True


def _weight(affinity: m.Affinity, ctx: Lowering) -> int | None:
    """Nomad's weight (``None`` is 50), or ``None`` for a zero weight (reported)."""
    weight = 50 if affinity.weight is None else affinity.weight
    if weight == 0:
        ctx.unsupported(f"{_describe(affinity)} has weight 0, which Nomad rejects; it is left out", affinity)
        return None
    if abs(weight) > 100:
        clamped = 100 if weight > 0 else -100
        ctx.approximated(
            f"{_describe(affinity)} has weight {weight}, outside Nomad's -100..100; the preference "
            f"weight is {abs(clamped)}",
            affinity,
        )
        return clamped
    return weight


# --------------------------------------------------------------------------- plugin mode


def _lower_plugin(request: _Request, ctx: Lowering, out: DeviceLowering) -> None:
    """Extended resource, toleration, required and preferred node affinity for one request."""
    resource = request.identity.resource
    assert resource is not None
    if resource in out.limits:
        ctx.approximated(
            f"`{request.device.name}` asks for `{resource}` again: resources.limits has one count "
            "for both, and their constraints all apply to the node",
            request.device,
        )
    out.limits[resource] = out.limits.get(resource, 0) + request.count
    _add_unique(out.tolerations, {"key": resource, "operator": "Exists", "effect": "NoSchedule"})
    for requirement in _name_model_requirements(request, ctx):
        _add_unique(out.required, requirement)
    for constraint in request.device.constraints or []:
        condition = _analyse(constraint.l_target, constraint.operand, constraint.r_target, request.identity)
        if _settled(condition, constraint, request, ctx):
            for requirement in _requirements(condition, constraint, ctx) or []:
                _add_unique(out.required, requirement)
    for affinity in request.device.affinities or []:
        term = _preferred_term(affinity, request, ctx)
        if term is not None:
            out.preferred.append(term)


def _add_unique(items: list[dict[str, Any]], item: dict[str, Any]) -> None:
    """Append unless an equal entry is there: two requests may ask the same of the node."""
    if item not in items:
        items.append(item)


def _name_model_requirements(request: _Request, ctx: Lowering) -> list[dict[str, Any]]:
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
    return _requirements(_Model("=", model), request.device, ctx) or []


def _requirements(
    condition: _Expressible, node: m.Constraint | m.Affinity | m.RequestedDevice, ctx: Lowering
) -> list[dict[str, Any]] | None:
    """NodeSelectorRequirements (ANDed) stating the condition exactly, or ``None`` (reported)."""
    if isinstance(condition, _Memory):
        operator, value = {"ge": ("Gt", -1), "lt": ("Lt", 0), "eq": ("In", 0), "ne": ("NotIn", 0)}[
            condition.op
        ]
        return [_requirement(MEMORY_LABEL, operator, str(condition.mib + value))]
    if isinstance(condition, _Presence):
        key = MEMORY_LABEL if condition.attribute == "memory" else DRIVER_MAJOR_LABEL
        return [{"key": key, "operator": "Exists" if condition.present else "DoesNotExist"}]
    if isinstance(condition, _Model):
        return _model_requirements(condition, node, ctx)
    return _driver_requirements(condition, node, ctx)


def _requirement(key: str, operator: str, value: str) -> dict[str, Any]:
    """A NodeSelectorRequirement with one value (label values are always strings)."""
    return {"key": key, "operator": operator, "values": [value]}


def _model_requirements(
    condition: _Model, node: m.Constraint | m.Affinity | m.RequestedDevice, ctx: Lowering
) -> list[dict[str, Any]] | None:
    """``=``/``!=`` on the model as ``In``/``NotIn`` on GFD's sanitised product label."""
    where = _describe(node) if not isinstance(node, m.RequestedDevice) else f"the model in `{node.name}`"
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


def _driver_requirements(
    condition: _Driver, node: m.Constraint | m.Affinity | m.RequestedDevice, ctx: Lowering
) -> list[dict[str, Any]] | None:
    """Driver bounds that are whole major versions (``>= 535``, ``< 600``) as ``Gt``/``Lt``
    on the major-version label; a bound inside a major version has no label to test."""
    requirements = []
    for op, (major, minor, patch) in condition.terms:
        if minor or patch or op not in (">=", "<"):
            ctx.unsupported(
                f"{_describe(node) if not isinstance(node, m.RequestedDevice) else node.name}: the driver "
                f"bound `{op} {major}.{minor}.{patch}` is not a whole major version, and only "
                f"{DRIVER_MAJOR_LABEL} is a number; it is left out",
                node,
                help="bound the major version only (`>= 535.0`, `< 600.0`), or use --k8s-devices dra",
            )
            return None
        bound = _requirement(DRIVER_MAJOR_LABEL, "Gt", str(major - 1))
        requirements.append(bound if op == ">=" else _requirement(DRIVER_MAJOR_LABEL, "Lt", str(major)))
    return requirements


def _preferred_term(affinity: m.Affinity, request: _Request, ctx: Lowering) -> dict[str, Any] | None:
    """A PreferredSchedulingTerm: weight ``|w|``; a negative weight prefers the complement."""
    weight = _weight(affinity, ctx)
    if weight is None:
        return None
    condition = _analyse(affinity.l_target, affinity.operand, affinity.r_target, request.identity)
    if not _settled(condition, affinity, request, ctx):
        return None
    expressions = _requirements(condition, affinity, ctx)
    if expressions is None:
        return None
    if weight < 0:
        if len(expressions) != 1:
            ctx.unsupported(
                f"{_describe(affinity)} has a negative weight, and the opposite of several label "
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


def gfd_product(model: str) -> str:
    """GPU Feature Discovery's ``nvidia.com/gpu.product`` spelling of an NVML model name:
    characters outside ``[A-Za-z0-9-_. ]`` dropped, spaces turned into ``-``."""
    kept = "".join(c for c in model if c.isascii() and (c.isalnum() or c in "-_. "))
    return kept.replace(" ", "-")


def _is_label_value(value: str) -> bool:
    """A non-empty Kubernetes label value: at most 63 characters, alphanumeric at both ends."""
    return 0 < len(value) <= 63 and value[0].isalnum() and value[-1].isalnum()


# --------------------------------------------------------------------------- DRA mode


def _lower_dra(
    prefix: str, task_name: str, index: int, request: _Request, ctx: Lowering, out: DeviceLowering
) -> None:
    """One ResourceClaimTemplate for the request, and the pod and container claims using it."""
    if not request.identity.nvidia:
        ctx.unsupported(
            f"`{request.device.name}` has no DRA device class hclgpu knows (only NVIDIA's "
            f"`{DRA_DEVICE_CLASS}`); the device request is left out",
            request.device,
            help="use --k8s-devices plugin for this device",
        )
        return
    template_name = _label(prefix, f"-{index}")
    request_name = dns_label(request.identity.type)
    claim_name = _label(task_name, f"-{request_name}-{index}")
    selectors = _dra_selectors(request, ctx)
    preferences = _dra_preferences(request, claim_name, ctx)
    metadata: dict[str, Any] = {"name": template_name}
    if ctx.options.namespace:
        metadata["namespace"] = ctx.options.namespace
    out.claim_templates.append(
        {
            "apiVersion": "resource.k8s.io/v1",
            "kind": "ResourceClaimTemplate",
            "metadata": metadata,
            "spec": {
                "spec": {
                    "devices": {"requests": [_device_request(request, request_name, selectors, preferences)]}
                }
            },
        }
    )
    out.pod_claims.append({"name": claim_name, "resourceClaimTemplateName": template_name})
    out.container_claims.append({"name": claim_name})
    _add_unique(
        out.tolerations, {"key": request.identity.resource, "operator": "Exists", "effect": "NoSchedule"}
    )


def _label(prefix: str, suffix: str) -> str:
    """A DNS label that keeps ``suffix`` whole, trimming the prefix: the index is what makes
    two templates of one task different."""
    return dns_label(prefix, 63 - len(suffix)) + suffix


def _dra_selectors(request: _Request, ctx: Lowering) -> list[str]:
    """One CEL expression per constraint (the name's model first); all must match."""
    selectors = [_cel(_Model("=", request.identity.model))] if request.identity.model else []
    for constraint in request.device.constraints or []:
        condition = _analyse(constraint.l_target, constraint.operand, constraint.r_target, request.identity)
        if _settled(condition, constraint, request, ctx):
            selectors.append(_cel(condition))
    return selectors


def _dra_preferences(request: _Request, claim_name: str, ctx: Lowering) -> list[_Preference]:
    """The affinities as CEL conditions, heaviest first; those beyond what eight
    subrequests can combine are reported and dropped."""
    preferences = []
    for affinity in request.device.affinities or []:
        weight = _weight(affinity, ctx)
        if weight is None:
            continue
        condition = _analyse(affinity.l_target, affinity.operand, affinity.r_target, request.identity)
        if not _settled(condition, affinity, request, ctx):
            continue
        cel = _cel(condition)
        preferences.append(_Preference(abs(weight), cel if weight > 0 else f"!({cel})", affinity))
    preferences.sort(key=lambda p: -p.weight)
    for dropped in preferences[_MAX_PREFERENCES:]:
        ctx.unsupported(
            f"{_describe(dropped.node)} is left out: {_MAX_SUBREQUESTS} firstAvailable subrequests can "
            f"combine only the {_MAX_PREFERENCES} heaviest affinities of a device",
            dropped.node,
        )
    kept = preferences[:_MAX_PREFERENCES]
    for preference in kept:
        ctx.approximated(
            f"{_describe(preference.node)} becomes the order of the firstAvailable subrequests of claim "
            f"`{claim_name}`: Kubernetes allocates the first subrequest the chosen node can satisfy, "
            "rather than ranking devices and nodes by Nomad's weighted score",
            preference.node,
        )
    return kept


def _device_request(
    request: _Request, name: str, selectors: list[str], preferences: list[_Preference]
) -> dict[str, Any]:
    """A DeviceRequest: ``exactly`` without affinities, else ``firstAvailable`` subrequests
    from the best combination of preferences down to the plain constraints."""
    if not preferences:
        return {"name": name, "exactly": _exact(request.count, selectors)}
    subrequests = []
    for position, chosen in enumerate(_combinations(preferences)):
        sub_name = "preferred" if position == 0 else f"preferred-{position + 1}"
        subrequests.append({"name": sub_name, **_exact(request.count, selectors + chosen)})
    subrequests.append({"name": "fallback", **_exact(request.count, selectors)})
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


def _exact(count: int, selectors: list[str]) -> dict[str, Any]:
    """The fields an ExactDeviceRequest and a DeviceSubRequest share."""
    body: dict[str, Any] = {
        "deviceClassName": DRA_DEVICE_CLASS,
        "allocationMode": "ExactCount",
        "count": count,
    }
    if selectors:
        body["selectors"] = [{"cel": {"expression": expression}} for expression in selectors]
    return body


def _cel(condition: _Expressible) -> str:
    """A CEL expression over the NVIDIA DRA driver's attributes stating the condition exactly."""
    if isinstance(condition, _Memory):
        return _memory_cel(condition)
    if isinstance(condition, _Model):
        name = f"{_ATTRIBUTES}.productName"
        if condition.op == "regexp":
            return f"{name}.matches({cel_string(condition.value)})"
        return f"{name} {'==' if condition.op == '=' else condition.op} {cel_string(condition.value)}"
    if isinstance(condition, _Driver):
        return " && ".join(
            f"{_ATTRIBUTES}.driverVersion.compareTo(semver('{a}.{b}.{c}')) {op} 0"
            for op, (a, b, c) in condition.terms
        )
    test = (
        f"'memory' in {_CAPACITY}" if condition.attribute == "memory" else f"'driverVersion' in {_ATTRIBUTES}"
    )
    return test if condition.present else f"!({test})"


def _memory_cel(condition: _Memory) -> str:
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
