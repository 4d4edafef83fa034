"""Device requests read back: extended resources as `device` blocks, node affinity on GPU
Feature Discovery labels (and on GKE's and Karpenter's GPU names, through the table of
:mod:`hclgpu.units.gpu_names` the back end writes them from) as their constraints and
affinities, and DRA ResourceClaimTemplates (CEL selectors in the forms the back end writes)
as device blocks with constraints.

The inverse of :mod:`hclgpu.backends.kubernetes.devices_plugin` and
:mod:`~hclgpu.backends.kubernetes.devices_dra`: a label or selector that those modules
would have written from a Nomad constraint becomes that constraint again; anything else is
reported where it is in the input.
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Any

from hclgpu.importers.common import whole_number
from hclgpu.importers.kubernetes.cel import DeviceTest, mib_text, negated, parse_selector
from hclgpu.importers.kubernetes.source import Findings, Manifest, Path, as_list
from hclgpu.units.gpu_names import GKE_LABEL, KARPENTER_LABEL, models_of, vocabulary_of
from hclgpu.units.mig import MIG_PROFILES
from hclgpu.units.mig import profile_from_plugin as mig_profile

EXTENDED_RESOURCES = {
    "nvidia.com/gpu": "nvidia/gpu",
    "amd.com/gpu": "amd/gpu",
    "gpu.intel.com/i915": "intel/gpu",
    "aws.amazon.com/neuron": "aws/neuron",
    "aws.amazon.com/neurondevice": "aws/neuron",
    "aws.amazon.com/neuroncore": "aws/neuroncore",
}
"""Extended resources (device plugins) → Nomad device names."""
GPU = "nvidia.com/gpu"
MEMORY_LABEL = "nvidia.com/gpu.memory"
PRODUCT_LABEL = "nvidia.com/gpu.product"
DRIVER_MAJOR_LABEL = "nvidia.com/cuda.driver-version.major"
CLOUD_LABELS = frozenset({GKE_LABEL, KARPENTER_LABEL})
"""GKE's and Karpenter's GPU name labels: a model in a cloud's words (:mod:`hclgpu.units.gpu_names`)."""
DEVICE_LABELS = frozenset({MEMORY_LABEL, PRODUCT_LABEL, DRIVER_MAJOR_LABEL, *CLOUD_LABELS})
DRA_CLASSES = {"gpu.nvidia.com": "nvidia/gpu", "gpu.amd.com": "amd/gpu", "gpu.intel.com": "intel/gpu"}
"""DeviceClasses of the NVIDIA, AMD (ROCm) and Intel DRA drivers → the Nomad device names the
extended resources of their device plugins map to."""
TEMPLATE_DEVICES: Path = ("spec", "spec", "devices")
"""Where a ResourceClaimTemplate keeps its device requests."""
CLAIM_DEVICES: Path = ("spec", "devices")
"""Where a ResourceClaim keeps them."""


SHARED_PRODUCT = "-SHARED"
"""What GFD appends to the product of a shared GPU (time-slicing or MPS replicas)."""
MIG_RESOURCE = "nvidia.com/mig-"
"""The NVIDIA device plugin's resources under its mixed MIG strategy: ``nvidia.com/mig-<profile>``
(profile ``+`` as ``.``)."""
MIG_PENDING = "_MigProfile"
"""A key a mixed-strategy MIG device carries while the pod's labels may still name its parent:
``(profile as the plugin writes it, where the resource is)``; removed by :func:`finish_mig`."""
MIG_PARENT = "_MigParent"
"""The parent a product label named for a pending MIG device (removed with ``MIG_PENDING``)."""


def mig_name(parent: str, profile: str) -> str:
    """The Nomad device of a MIG instance: nomad-device-nvidia's model is NVML's name."""
    return f"nvidia/gpu/{parent} MIG {profile}"


def finish_mig(devices: list[dict[str, Any]], where: Manifest, findings: Findings) -> None:
    """Name each mixed-strategy MIG device: by the parent a label named, else the only parent
    whose table has the profile, else ``nvidia/gpu`` with a model regexp (HG302)."""
    for device in devices:
        if MIG_PENDING not in device:
            continue
        plugin_profile, at = device.pop(MIG_PENDING)
        parent = device.pop(MIG_PARENT, None)
        if parent is None:
            having = [p for p in MIG_PROFILES if mig_profile(p, plugin_profile) in MIG_PROFILES[p]]
            if len(having) == 1:
                parent = having[0]
                findings.approximated(
                    where,
                    at,
                    f"no node label names the GPU: `{parent}`, the only one with MIG profile "
                    f"`{mig_profile(parent, plugin_profile)}`, is assumed",
                )
        if parent is not None:
            device["Name"] = mig_name(parent, mig_profile(parent, plugin_profile))
            continue
        profile = mig_profile(None, plugin_profile)
        test = DeviceTest("${device.model}", "regexp", f"MIG {re.escape(profile)}$")
        device.setdefault("Constraints", []).insert(0, test_dict(test))
        findings.approximated(
            where,
            at,
            f"no node label names the GPU, and MIG profile `{profile}` is not of exactly one known "
            f"model: any GPU's `{profile}` instances are asked for (a `${{device.model}}` regexp)",
        )


def label_tests(expression: dict[str, Any]) -> tuple[list[DeviceTest], str | None] | None:
    """A NodeSelectorRequirement on a GFD device label as device tests (and a note on what
    they bend), or None when the requirement says something a device test cannot."""
    key, operator = expression.get("key"), expression.get("operator")
    values = [str(v) for v in as_list(expression.get("values"))]
    if operator in ("Exists", "DoesNotExist") and key in (MEMORY_LABEL, DRIVER_MAJOR_LABEL):
        attribute = "${device.attr.memory}" if key == MEMORY_LABEL else "${device.attr.driver_version}"
        return [DeviceTest(attribute, "is_set" if operator == "Exists" else "is_not_set")], None
    if key == MEMORY_LABEL and len(values) == 1 and re.fullmatch(r"-?\d{1,18}", values[0]):
        return [_memory_test(operator, int(values[0]))], None
    if key == DRIVER_MAJOR_LABEL and len(values) == 1 and re.fullmatch(r"\d{1,18}", values[0]):
        major = int(values[0])
        if operator == "Gt":
            return [DeviceTest("${device.attr.driver_version}", "version", f">= {major + 1}.0")], None
        if operator == "Lt":
            return [DeviceTest("${device.attr.driver_version}", "version", f"< {major}.0")], None
    if key == PRODUCT_LABEL and operator in ("In", "NotIn") and values:
        return _product_tests(operator, values)
    if key in CLOUD_LABELS and operator in ("In", "NotIn") and values:
        return _cloud_tests(str(key), operator, values)
    return None


def unknown_gpu_names(expression: dict[str, Any]) -> list[int]:
    """The positions of the values of a requirement on a cloud's GPU label that name no model
    on record (those the requirement cannot be read as device tests for)."""
    vocabulary = vocabulary_of(str(expression.get("key")))
    if vocabulary is None or vocabulary == "gfd":
        return []
    values = [str(v) for v in as_list(expression.get("values"))]
    return [index for index, value in enumerate(values) if not models_of(value, vocabulary)]


def _cloud_tests(key: str, operator: str, values: list[str]) -> tuple[list[DeviceTest], str | None] | None:
    """GKE's or Karpenter's GPU names as the NVML models they stand for: ``In`` one ``=`` (or a
    regexp of the models, as for several GFD products), ``NotIn`` one ``!=`` per model; None
    when a value names no model on record. A name that stands for several models (Karpenter's
    ``a100``) is read as all of them, and noted: the table, not the label, says which."""
    vocabulary = vocabulary_of(key)
    assert vocabulary is not None
    per_value = [models_of(value, vocabulary) for value in values]
    if not all(per_value):
        return None
    models = list(dict.fromkeys(model for found in per_value for model in found))
    coarse = [(value, found) for value, found in zip(values, per_value, strict=True) if len(found) > 1]
    note = None
    if coarse:
        named = "; ".join(
            f"`{v}` is on nodes with {', '.join(f'`{m}`' for m in found)}" for v, found in coarse
        )
        note = f"{key} {named}: " + (
            "any of them is accepted" if operator == "In" else "all of them are kept off"
        )
    if operator == "NotIn":
        return [DeviceTest("${device.model}", "!=", model) for model in models], note
    if len(models) == 1:
        return [DeviceTest("${device.model}", "=", models[0])], note
    # re.escape escapes spaces, which RE2 reads as themselves either way: kept plain to read
    pattern = "^(" + "|".join(re.escape(model).replace("\\ ", " ") for model in models) + ")$"
    return [DeviceTest("${device.model}", "regexp", pattern)], note


def _memory_test(operator: Any, mib: int) -> DeviceTest:
    """``Gt n`` is ``>= n+1 MiB``: GFD labels the memory in whole MiB, as Nomad fingerprints it."""
    if operator == "Gt":
        return DeviceTest("${device.attr.memory}", ">=", mib_text(mib + 1))
    if operator == "Lt":
        return DeviceTest("${device.attr.memory}", "<", mib_text(mib))
    return DeviceTest("${device.attr.memory}", "=" if operator == "In" else "!=", mib_text(mib))


def _product_tests(operator: str, values: list[str]) -> tuple[list[DeviceTest], str | None]:
    """GFD's products as the NVML names of :mod:`hclgpu.units.gpu_names` where on record
    (``Tesla-T4`` is ``Tesla T4``), else as spelt. One value: ``=``/``!=``. Several: a regexp
    that also accepts spaces where GFD wrote `-` (In), or one ``!=`` per value (NotIn). GFD's
    ``-SHARED`` suffix (a time-sliced or MPS GPU, internal/lm/resource.go at 1b826ac) is
    dropped and said: Nomad gives whole GPUs."""
    notes = []
    if any(value.endswith(SHARED_PRODUCT) for value in values):
        values = [value.removesuffix(SHARED_PRODUCT) for value in values]
        notes.append(
            f"`{SHARED_PRODUCT}` marks a GPU the device plugin shares (time-slicing or MPS); "
            "Nomad gives a task whole GPUs"
        )
    names = [_nvml_name(value) for value in values]
    if any(name is None for name in names):
        notes.append(
            f"{PRODUCT_LABEL} is GPU Feature Discovery's spelling of the model (spaces as `-`); "
            "Nomad compares the NVML name, which may be spelt with spaces"
        )
    models = [value if name is None else name for value, name in zip(values, names, strict=True)]
    if len(models) == 1 or operator == "NotIn":
        op = "=" if operator == "In" else "!="
        return [DeviceTest("${device.model}", op, model) for model in models], "; ".join(notes) or None
    pattern = (
        "^("
        + "|".join(
            re.escape(m).replace("\\ ", " ").replace("\\-", "-")
            if n is not None
            else re.escape(m).replace("\\-", "[- ]")
            for m, n in zip(models, names, strict=True)
        )
        + ")$"
    )
    if any(name is None for name in names):
        notes[-1] = "the model list is a regexp that accepts GFD's `-` as a space"
    return [DeviceTest("${device.model}", "regexp", pattern)], "; ".join(notes) or None


def _nvml_name(product: str) -> str | None:
    """The NVML name of the one model on record whose GFD product is ``product``, or None."""
    found = models_of(product, "gfd")
    return found[0] if len(found) == 1 else None


def device_block(name: str, count: int) -> dict[str, Any]:
    """A device request; the count only when it is not Nomad's default of one (the idiom is
    `device "nvidia/gpu" {}`)."""
    return {"Name": name} if count == 1 else {"Name": name, "Count": count}


def test_dict(test: DeviceTest, weight: int | None = None) -> dict[str, Any]:
    """A constraint (or, with a weight, an affinity) in API JSON."""
    out: dict[str, Any] = {"LTarget": test.attribute, "RTarget": test.value, "Operand": test.operator}
    if weight is not None:
        out["Weight"] = weight
    return out


# --------------------------------------------------------------------------- DRA


def claim_devices(
    template: Manifest,
    findings: Findings,
    claim: str,
    devices_at: Path = TEMPLATE_DEVICES,
    sharing: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The device blocks of one ResourceClaimTemplate or ResourceClaim (one per request).

    A request of resource.k8s.io/v1 keeps its class and selectors under ``exactly``; in
    v1alpha3 and v1beta1 they sit on the request itself (and ``exactly`` does not exist)."""
    devices = []
    for index, _ in enumerate(template.items(*devices_at, "requests")):
        path: Path = (*devices_at, "requests", index)
        template.take(*path, "name")
        if template.peek(*path, "firstAvailable") is not None:
            device = _first_available(template, path, findings)
        elif template.peek(*path, "exactly") is not None:
            device = _exactly(template, (*path, "exactly"), findings)
        else:
            device = _exactly(template, path, findings)
        if device is not None:
            devices.append(device)
    strategy = _dra_sharing(template.peek(*devices_at, "config"))
    if strategy is not None:
        template.take(*devices_at, "config")
        findings.approximated(
            template,
            (*devices_at, "config"),
            f"claim `{claim}` shares its GPUs ({strategy}); Nomad gives a task whole GPUs of its own, so "
            "the sharing is kept in the group's meta `gpu_sharing`",
        )
        if sharing is not None:
            sharing["gpu_sharing"] = strategy
    for key in ("constraints", "config"):
        if template.peek(*devices_at, key):
            template.take(*devices_at, key)
            findings.left_out(
                template, (*devices_at, key), f"`{key}` of claim `{claim}` has no Nomad equivalent"
            )
    return devices


def _dra_sharing(config: Any) -> str | None:
    """The sharing strategy an NVIDIA ``GpuConfig`` of a claim's ``config`` sets (``TimeSlicing``
    or ``MPS``: k8s-dra-driver-gpu api/nvidia.com/resource/v1beta1/sharing.go at 2240711), or
    None when it sets none (or the config is anything else, left out as before)."""
    if not isinstance(config, list) or len(config) != 1 or not isinstance(config[0], dict):
        return None
    opaque = config[0].get("opaque")
    parameters = opaque.get("parameters") if isinstance(opaque, dict) else None
    if not isinstance(parameters, dict) or parameters.get("kind") not in ("GpuConfig", "MigDeviceConfig"):
        return None
    sharing = parameters.get("sharing")
    strategy = sharing.get("strategy") if isinstance(sharing, dict) else None
    return (
        strategy
        if isinstance(strategy, str) and set(parameters) <= {"apiVersion", "kind", "sharing"}
        else None
    )


def _exactly(template: Manifest, path: Path, findings: Findings) -> dict[str, Any] | None:
    """An ExactDeviceRequest: class → device name, count, selectors → constraints."""
    device_class = template.take(*path, "deviceClassName")
    name = DRA_CLASSES.get(str(device_class))
    if name is None:
        template.take(*path)  # the request's count and selectors go with it
        findings.left_out(
            template, (*path, "deviceClassName"), f"device class `{device_class}` has no known Nomad device"
        )
        return None
    device = device_block(name, _count(template, path, findings))
    constraints = [test_dict(t) for t in _selectors(template, path, findings)]
    if constraints:
        device["Constraints"] = constraints
    return device


def _count(template: Manifest, path: Path, findings: Findings) -> int:
    mode = template.take(*path, "allocationMode") or "ExactCount"
    count = template.take(*path, "count")
    if mode != "ExactCount":
        findings.approximated(
            template, (*path, "allocationMode"), f"allocationMode {mode}: Nomad asks for a count (1 here)"
        )
        return 1
    if count is None:
        return 1  # ExactCount's default
    number = whole_number(count, 1)
    if number is None:
        findings.approximated(
            template, (*path, "count"), f"count {count!r} is not a device count: 1 is asked for"
        )
    return number or 1


def _selectors(template: Manifest, path: Path, findings: Findings) -> list[DeviceTest]:
    tests = []
    for index, _ in enumerate(template.items(*path, "selectors")):
        expression = template.take(*path, "selectors", index, "cel", "expression")
        test = parse_selector(str(expression or ""))
        if test is None:
            findings.left_out(
                template,
                (*path, "selectors", index),
                "this selector is not one of the CEL forms that map to a Nomad device constraint",
            )
        else:
            tests.append(test)
    return tests


def _first_available(template: Manifest, path: Path, findings: Findings) -> dict[str, Any] | None:
    """Subrequests best first, the plain constraints last: the first one's extra selectors are
    the affinities; their order fixes which weights reproduce it."""
    subs = template.items(*path, "firstAvailable")
    last: Path = (*path, "firstAvailable", len(subs) - 1)
    template.take(*last, "name")
    device = _exactly(template, last, findings)
    if device is None or len(subs) < 2:
        return device
    base = [_cel_of(s) for s in as_list(template.peek(*last, "selectors")) if _is_cel(s)]
    sets = []
    for index in range(len(subs) - 1):
        here: Path = (*path, "firstAvailable", index)
        for key in ("name", "deviceClassName", "allocationMode", "count", "selectors"):
            template.take(*here, key)
        chosen = [_cel_of(s) for s in as_list(template.peek(*here, "selectors")) if _is_cel(s)]
        sets.append([c for c in chosen if c not in base])
    affinities = _affinities(sets, template, (*path, "firstAvailable", 0), findings)
    if affinities:
        device["Affinities"] = affinities
    return device


def _cel_of(selector: dict[str, Any]) -> str:
    return str(selector["cel"].get("expression") or "")


def _is_cel(selector: Any) -> bool:
    return isinstance(selector, dict) and isinstance(selector.get("cel"), dict)


def _affinities(
    sets: list[list[str]], template: Manifest, path: Path, findings: Findings
) -> list[dict[str, Any]]:
    """The preferences of the first (largest) set, with weights that order every set as given."""
    preferences = sets[0]
    weights = _weights(preferences, sets)
    out = []
    for expression, weight in zip(preferences, weights, strict=True):
        test, sign = parse_selector(expression), 1
        inner = negated(expression)
        if test is None and inner is not None:
            test, sign = parse_selector(inner), -1
        if test is None:
            findings.left_out(
                template, path, f"the preference `{expression}` is not a form that maps to Nomad"
            )
            continue
        out.append(test_dict(test, sign * weight))
    if out:
        findings.approximated(
            template,
            path,
            "the order of firstAvailable subrequests becomes affinity weights "
            f"({', '.join(str(a['Weight']) for a in out)}) that rank devices in the same order",
        )
    return out


def _weights(preferences: list[str], sets: list[list[str]]) -> list[int]:
    """Weights, heaviest first, under which sorting every combination reproduces ``sets``."""
    for candidate in ([50], [50, 25], [60, 30, 20], [40, 30, 20]):
        if len(candidate) == len(preferences) and _order(preferences, candidate) == sets:
            return candidate
    return [max(1, 50 - 10 * i) for i in range(len(preferences))]


def _order(preferences: list[str], weights: list[int]) -> list[list[str]]:
    chosen_sets = [
        c for size in range(len(preferences), 0, -1) for c in combinations(range(len(preferences)), size)
    ]
    chosen_sets.sort(key=lambda c: (-sum(weights[i] for i in c), c))
    return [[preferences[i] for i in c] for c in chosen_sets]
