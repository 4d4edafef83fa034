"""What a device constraint or affinity asks of a device, whatever the output mode.

Every constraint is *analysed* once, into a mode-independent condition: a bound on whole
MiB of memory, a model test, driver-version bounds, a presence test, a value Nomad settles
statically (vendor and type are known from the device name), or something with no
equivalent. Each mode (:mod:`~hclgpu.backends.kubernetes.devices_plugin`,
:mod:`~hclgpu.backends.kubernetes.devices_dra`) then renders the condition or says why it
cannot; :func:`settled` reports the conditions that need no rendering.

Memory is compared in whole MiB in both modes, because that is what Nomad compares: the
NVIDIA plugin fingerprints ``memory`` as NVML's total in whole MiB (rounded down), and GFD
labels ``nvidia.com/gpu.memory`` with the same figure. The DRA driver reports exact bytes,
so a bound is moved to the MiB boundary that admits exactly the devices Nomad admits
(``> 4 GB`` is ``>= 3815 MiB`` for a device reported in whole MiB).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, TypeGuard

from hclgpu.backends.kubernetes.devices_model import Identity, Mig, Request, split_mig
from hclgpu.backends.target import Lowering
from hclgpu.ir import models as m
from hclgpu.units import Attribute, check_operator, in_base_units, parse_attribute, string_attribute
from hclgpu.units.table import BYTE

_MIB = 1 << 20
_MAX_MIB = (1 << 63) // _MIB - 2
"""A MiB bound whose byte value (and the next MiB) still fits the int64 Kubernetes parses."""

ALIASES = {"==": "=", "is": "=", "not": "!="}
_ORDER_OPERATORS = frozenset({"=", "!=", "<", "<=", ">", ">="})
_MIRRORED = {"=": "=", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_STRING_OPERATORS = frozenset({"regexp", "set_contains", "set_contains_all", "set_contains_any"})
_GO_SPACE = " \t\n\f\r"
_KINDS = {"int": "an integer", "float": "a float", "bool": "a boolean", "string": "a string"}


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
class Memory:
    """``M op mib`` on the memory in whole MiB: ``ge`` (>=), ``lt`` (<), ``eq``, ``ne``."""

    op: Literal["ge", "lt", "eq", "ne"]
    mib: int


@dataclass(frozen=True, slots=True)
class Model:
    """A test of the NVML model name: ``=``, ``!=``, ``<``, ``<=``, ``>``, ``>=`` or ``regexp``."""

    op: str
    value: str


@dataclass(frozen=True, slots=True)
class Driver:
    """Driver-version bounds, all of which must hold: ``(op, (major, minor, patch))``."""

    terms: tuple[tuple[str, tuple[int, int, int]], ...]


@dataclass(frozen=True, slots=True)
class Presence:
    """``is_set`` / ``is_not_set`` on an attribute a node or device may lack."""

    attribute: Literal["memory", "driver"]
    present: bool


Condition = _Static | _Unsupported | Memory | Model | Driver | Presence
Expressible = Memory | Model | Driver | Presence


@dataclass(frozen=True, slots=True)
class _Symbol:
    """A device target whose value differs from device to device (``${device.attr.memory}``)."""

    name: str


# --------------------------------------------------------------------------- analysis


def analyse(l_target: str, operand: str, r_target: str, identity: Identity) -> Condition:
    """What a constraint (or affinity) asks of a device, independent of the output mode.

    Sides resolve as Nomad's ``resolveDeviceTarget`` does; a literal on the left with the
    device target on the right is turned around, so ``"4 GiB" <= ${device.attr.memory}``
    is the same bound as its mirror image.
    """
    op = ALIASES.get(operand, operand)
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


def _resolve(target: str, identity: Identity) -> Attribute | _Symbol | None:
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


def _presence(left: Attribute | _Symbol | None, present: bool) -> Condition:
    """``is_set`` / ``is_not_set``: static unless the attribute is one a GPU may lack."""
    if not isinstance(left, _Symbol):
        return _Static((left is not None) == present)
    if left.name in ("model", "ids"):
        return _Static(present, "every device has a model and IDs")
    if left.name == "attr.memory":
        return Presence("memory", present)
    if left.name == "attr.driver_version":
        return Presence("driver", present)
    return _unmapped(left.name)


def _symbolic(name: str, op: str, right: Attribute) -> Condition:
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


def _memory_condition(op: str, right: Attribute) -> Condition:
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


def _memory_bound(op: str, mib: Fraction, text: str) -> Condition:
    """``M op mib`` for an integer ``M`` restated with integer bounds (floor/ceil exactly)."""
    if op == ">=":
        return Memory("ge", math.ceil(mib))
    if op == ">":
        return Memory("ge", math.floor(mib) + 1)
    if op == "<":
        return Memory("lt", math.ceil(mib))
    if op == "<=":
        return Memory("lt", math.floor(mib) + 1)
    if mib.denominator != 1:
        return _Static(op == "!=", f"`{text}` is not a whole number of MiB, and the memory always is")
    return Memory("eq" if op == "=" else "ne", int(mib))


def _model_condition(op: str, right: Attribute) -> Condition:
    """A test of the model string; only strings compare with it in Nomad."""
    if op not in _ORDER_OPERATORS and op != "regexp":
        return _Unsupported(f"`{op}` on the model has no equivalent")
    if right.kind != "string":
        return _Static(
            False, f"Nomad reads `{right.text}` as {_KINDS[right.kind]}, which never equals a model name"
        )
    value = str(right.value)
    if op == "regexp":
        from hclgpu.re2 import re2_problem

        problem = re2_problem(value)
        if problem is not None:
            return _Unsupported(f"`{value}` is not a regular expression Nomad accepts: {problem}")
    return Model(op, value)


def _driver_condition(op: str, right: Attribute) -> Condition:
    """A ``version``/``semver`` test of the driver version, as bounds on x.y.z."""
    if op not in ("version", "semver"):
        return _Unsupported(f"`{op}` compares the driver version as a string; only `version`/`semver` map")
    if right.kind != "string":
        return _Static(False, f"Nomad reads `{right.text}` as {_KINDS[right.kind]}, not a version constraint")
    from hclgpu.units.versions import semver_constraint_problem, version_constraint_problem

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
    return Driver(tuple(terms))


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


def request_mig(request: Request) -> Mig | None:
    """The MIG instance an NVIDIA request asks for: the model in its name, else the first
    ``=`` constraint on ``${device.model}`` naming a MIG model (``None``: whole GPUs)."""
    if not request.identity.nvidia:
        return None
    if request.identity.model:
        return split_mig(request.identity.model)
    for constraint in request.device.constraints or []:
        condition = analyse(constraint.l_target, constraint.operand, constraint.r_target, request.identity)
        mig = pins_mig(condition)
        if mig is not None:
            return mig
    return None


def pins_mig(condition: Condition) -> Mig | None:
    """The MIG instance an ``=`` test of the model names, or ``None``."""
    if isinstance(condition, Model) and condition.op == "=":
        return split_mig(condition.value)
    return None


# --------------------------------------------------------------------------- reporting


def describe(node: m.Constraint | m.Affinity) -> str:
    """How a message names the block: its kind and its test, as the user wrote it."""
    kind = "constraint" if isinstance(node, m.Constraint) else "affinity"
    value = f' "{node.r_target}"' if node.r_target or node.operand not in ("is_set", "is_not_set") else ""
    return f"the {kind} `{node.l_target} {node.operand}{value}`"


def settled(
    condition: Condition, node: m.Constraint | m.Affinity, request: Request, ctx: Lowering
) -> TypeGuard[Expressible]:
    """Report a condition that needs no output; ``True`` when it still has to be rendered.

    A constraint that always holds needs nothing, and an affinity that always or never
    matches does not rank anything; a constraint that never holds cannot be stated (Nomad
    never places the task) and is reported, as is an affinity that can never match.
    """
    what = describe(node)
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


def affinity_weight(affinity: m.Affinity, ctx: Lowering) -> int | None:
    """Nomad's weight (``None`` is 50), or ``None`` for a zero weight (reported)."""
    weight = 50 if affinity.weight is None else affinity.weight
    if weight == 0:
        ctx.unsupported(f"{describe(affinity)} has weight 0, which Nomad rejects; it is left out", affinity)
        return None
    if abs(weight) > 100:
        clamped = 100 if weight > 0 else -100
        ctx.approximated(
            f"{describe(affinity)} has weight {weight}, outside Nomad's -100..100; the preference "
            f"weight is {abs(clamped)}",
            affinity,
        )
        return clamped
    return weight
