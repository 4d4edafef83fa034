"""Where a pod may run, read back: node affinity and nodeSelector as constraints and
affinities (device labels as the device's own), pod anti-affinity as ``distinct_hosts`` /
``distinct_property``, topology spread as ``spread``, device taint tolerations as implied
by the device request.

The inverse of :mod:`hclgpu.backends.kubernetes.placement`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hclgpu.importers.kubernetes.cel import DeviceTest
from hclgpu.importers.kubernetes.devices import (
    DEVICE_LABELS,
    EXTENDED_RESOURCES,
    MEMORY_LABEL,
    MIG_PARENT,
    MIG_PENDING,
    MIG_RESOURCE,
    PRODUCT_LABEL,
    finish_mig,
    label_tests,
    mig_name,
    test_dict,
    unknown_gpu_names,
)
from hclgpu.importers.kubernetes.source import Findings, Manifest, Path, as_dict, as_list
from hclgpu.units.mig import gfd_mig_product, gfd_parent

NODE_ATTRIBUTES = {
    "kubernetes.io/os": "${attr.kernel.name}",
    "kubernetes.io/arch": "${attr.cpu.arch}",
    "topology.kubernetes.io/zone": "${node.datacenter}",
    "node.kubernetes.io/instance-type": "${node.class}",
    "kubernetes.io/hostname": "${node.unique.name}",
}
"""Well-known node labels → the Nomad node attribute the back end reads them from."""


@dataclass(slots=True)
class Placement:
    """What the pod's placement adds to its group (and to its GPU device, when it has one)."""

    constraints: list[dict[str, Any]] = field(default_factory=list)
    affinities: list[dict[str, Any]] = field(default_factory=list)
    spreads: list[dict[str, Any]] = field(default_factory=list)
    job_constraints: list[dict[str, Any]] = field(default_factory=list)
    sharing: dict[str, str] = field(default_factory=dict)
    """Sharing labels the pod selects nodes by, for the group's ``meta``."""


@dataclass(slots=True)
class PodReader:
    """One pod spec of a workload, and the device requests its containers made."""

    workload: Manifest
    spec: Path
    findings: Findings
    devices: list[dict[str, Any]]
    """Every device block of the pod's tasks, in task order."""
    own_labels: dict[str, str]


def read_placement(pod: PodReader) -> Placement:
    out = Placement()
    _node_selector(pod, out)
    _required(pod, out)
    _preferred(pod, out)
    _anti_affinity(pod, out)
    _spread(pod, out)
    _tolerations(pod)
    finish_mig(pod.devices, pod.workload, pod.findings)
    return out


def node_attribute(key: str, where: Manifest, path: Path, findings: Findings) -> str:
    """The Nomad attribute for a node label; other labels are read as node meta (HG302)."""
    attribute = NODE_ATTRIBUTES.get(key)
    if attribute is None:
        findings.approximated(
            where,
            path,
            f"the node label `{key}` is read as the node meta `${{meta.{key}}}`: set it on the clients",
        )
        return f"${{meta.{key}}}"
    return attribute


def _node_selector(pod: PodReader, out: Placement) -> None:
    for key, value in pod.workload.mapping(*pod.spec, "nodeSelector").items():
        where: Path = (*pod.spec, "nodeSelector", key)
        pod.workload.take(*where)
        _require(pod, out, {"key": key, "operator": "In", "values": [str(value)]}, where)


def _required(pod: PodReader, out: Placement) -> None:
    path: Path = (*pod.spec, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
    terms = pod.workload.items(*path, "nodeSelectorTerms")
    for index, _ in enumerate(terms):
        term: Path = (*path, "nodeSelectorTerms", index)
        if index > 0:
            pod.workload.take(*term)
            pod.findings.left_out(
                pod.workload,
                term,
                "a second nodeSelectorTerm is an alternative (OR); Nomad constraints all hold",
            )
            continue
        for position, expression in enumerate(pod.workload.items(*term, "matchExpressions")):
            where: Path = (*term, "matchExpressions", position)
            pod.workload.take(*where)
            if isinstance(expression, dict):
                _require(pod, out, expression, where)


def _require(pod: PodReader, out: Placement, expression: dict[str, Any], where: Path) -> None:
    if _mig_product(pod, expression, where) or _sharing(pod, out, expression, where):
        return
    device, expression = _device_label(pod, expression)
    found = label_tests(expression) if device is not None else None
    if device is not None and found is not None:
        tests, note = found
        device.setdefault("Constraints", []).extend(test_dict(test) for test in tests)
        if note:
            pod.findings.approximated(pod.workload, where, note)
        return
    _unknown_gpu_names(pod, expression, where)
    for test in _node_tests(expression, pod, where):
        out.constraints.append(test_dict(test))


SHARING_LABELS = {
    "nvidia.com/gpu.sharing-strategy": "gpu_sharing_strategy",
    "nvidia.com/gpu.replicas": "gpu_replicas",
}
"""GPU Feature Discovery's labels of a shared GPU (k8s-device-plugin internal/lm/resource.go
``baseLabeler`` at 1b826ac: ``sharing-strategy`` none, time-slicing or mps; ``replicas``) →
the group meta key that keeps what the pod asked."""


def _sharing(pod: PodReader, out: Placement, expression: dict[str, Any], where: Path) -> bool:
    """A requirement on a sharing label: Nomad has no shared GPUs, so it is kept in meta (HG302)
    rather than made a constraint on a node meta no Nomad client sets."""
    key = str(expression.get("key"))
    if key not in SHARING_LABELS:
        return False
    values = [str(v) for v in expression.get("values") or []]
    written = f"{key} {expression.get('operator')} {values}"
    pod.findings.approximated(
        pod.workload,
        where,
        f"`{written}` selects nodes by how their GPUs are shared; Nomad gives a task whole GPUs of "
        f"its own, so it is kept in the group's meta `{SHARING_LABELS[key]}`, not a constraint",
    )
    out.sharing[SHARING_LABELS[key]] = ",".join(values)
    return True


def _unknown_gpu_names(pod: PodReader, expression: dict[str, Any], where: Path) -> None:
    """HG302 at each value of a cloud's GPU label that names no model on record: the
    requirement stays a node meta test, and the device's model is not constrained."""
    key = str(expression.get("key"))
    values = [str(v) for v in as_list(expression.get("values"))]
    for index in unknown_gpu_names(expression):
        # a matchExpression's value is under `values`; a nodeSelector's is the entry itself
        at: Path = (*where, "values", index) if isinstance(pod.workload.peek(*where), dict) else where
        pod.findings.approximated(
            pod.workload,
            at,
            f"`{values[index]}` in {key} names no GPU model on record: the requirement is kept as a "
            "node meta test, and the device's model is not constrained",
        )


def _gpu(pod: PodReader) -> dict[str, Any] | None:
    """The pod's NVIDIA device, a whole GPU's (or single-strategy MIG device's) first."""
    nvidia = [d for d in pod.devices if d["Name"].split("/")[:2] == ["nvidia", "gpu"]]
    return next((d for d in nvidia if MIG_PENDING not in d), nvidia[0] if nvidia else None)


def _device_label(pod: PodReader, expression: dict[str, Any]) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The device a GFD label tests, and the requirement as on a whole GPU's labels: a mixed MIG
    profile's ``nvidia.com/mig-<profile>.memory`` is its device's memory."""
    key = str(expression.get("key"))
    if key in DEVICE_LABELS:
        return _gpu(pod), expression
    for device in pod.devices:
        pending = device.get(MIG_PENDING)
        if pending is not None and key == f"{MIG_RESOURCE}{pending[0]}.memory":
            return device, {**expression, "key": MEMORY_LABEL}
    return None, expression


def _mig_product(pod: PodReader, expression: dict[str, Any], where: Path) -> bool:
    """A product label naming a MIG device's GPU, read into the device's name: under the mixed
    strategy the parent's ``nvidia.com/gpu.product`` (or the profile's own ``.product``), under
    the single strategy ``nvidia.com/gpu.product`` = ``<parent>-MIG-<profile>`` with
    ``nvidia.com/gpu``."""
    key, values = str(expression.get("key")), [str(v) for v in as_list(expression.get("values"))]
    if expression.get("operator") != "In" or len(values) != 1:
        return False
    pending = [d for d in pod.devices if MIG_PENDING in d and MIG_PARENT not in d]
    parent = gfd_parent(values[0]) if key == PRODUCT_LABEL else None
    if parent is not None and pending:
        for device in pending:
            device[MIG_PARENT] = parent
        return True
    found = gfd_mig_product(values[0])
    if found is None:
        return False
    for device in pending:
        if key == f"{MIG_RESOURCE}{device[MIG_PENDING][0]}.product":
            device[MIG_PARENT] = found[0]
            return True
    whole = next((d for d in pod.devices if d["Name"] == "nvidia/gpu" and MIG_PENDING not in d), None)
    if key != PRODUCT_LABEL or whole is None:
        return False
    whole["Name"] = mig_name(found[0], found[1])
    if not found[2]:
        pod.findings.approximated(
            pod.workload,
            where,
            f"`{values[0]}` is a MIG device of a GPU whose NVML name is not known here: "
            f"`{found[0]}` is a guess at GFD's `-` for spaces",
        )
    return True


def _node_tests(expression: dict[str, Any], pod: PodReader, where: Path) -> list[DeviceTest]:
    """A node label requirement as Nomad tests (NotIn with several values: one per value)."""
    key, operator = str(expression.get("key")), expression.get("operator")
    values = [str(v) for v in as_list(expression.get("values"))]
    attribute = node_attribute(key, pod.workload, where, pod.findings)
    if operator in ("Exists", "DoesNotExist"):
        return [DeviceTest(attribute, "is_set" if operator == "Exists" else "is_not_set")]
    if operator == "In" and values:
        return [
            DeviceTest(attribute, "=", values[0])
            if len(values) == 1
            else DeviceTest(attribute, "set_contains_any", ",".join(values))
        ]
    if operator == "NotIn" and values:
        return [DeviceTest(attribute, "!=", value) for value in values]
    if operator in ("Gt", "Lt") and len(values) == 1:
        return [DeviceTest(attribute, ">" if operator == "Gt" else "<", values[0])]
    pod.findings.left_out(pod.workload, where, f"the node requirement `{key} {operator}` has no Nomad form")
    return []


def _preferred(pod: PodReader, out: Placement) -> None:
    path: Path = (*pod.spec, "affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution")
    for index, term in enumerate(pod.workload.items(*path)):
        here: Path = (*path, index)
        pod.workload.take(*here)
        if not isinstance(term, dict):
            continue
        weight = term["weight"] if isinstance(term.get("weight"), int) else 50
        expressions = [
            e for e in as_list(as_dict(term.get("preference")).get("matchExpressions")) if isinstance(e, dict)
        ]
        if len(expressions) > 1:
            pod.findings.approximated(
                pod.workload, here, "a preference with several requirements becomes one affinity each"
            )
        for position, expression in enumerate(expressions):
            _prefer(pod, out, expression, weight, (*here, "preference", "matchExpressions", position))
        if as_dict(term.get("preference")).get("matchFields"):
            pod.findings.left_out(
                pod.workload, (*here, "preference", "matchFields"), "matchFields has no Nomad form"
            )


def _prefer(pod: PodReader, out: Placement, expression: dict[str, Any], weight: int, where: Path) -> None:
    device, expression = _device_label(pod, expression)
    found = label_tests(expression) if device is not None else None
    if device is not None and found is not None:
        device.setdefault("Affinities", []).extend(test_dict(test, weight) for test in found[0])
        if found[1]:
            pod.findings.approximated(pod.workload, where, found[1])
        return
    _unknown_gpu_names(pod, expression, where)
    tests = _node_tests(expression, pod, where)
    if len(tests) > 1:
        pod.findings.approximated(
            pod.workload, where, "NotIn with several values becomes one affinity per value"
        )
    out.affinities += [test_dict(test, weight) for test in tests]


def _spread_over_hosts(pod: PodReader) -> None:
    """A preferred anti-affinity of the pod's own pods on the hostname is what Nomad's
    scheduler does anyway (its job anti-affinity): nothing to write. Any other preferred
    term is left for the leftover report."""
    path: Path = (*pod.spec, "affinity", "podAntiAffinity", "preferredDuringSchedulingIgnoredDuringExecution")
    for index, item in enumerate(pod.workload.items(*path)):
        term = as_dict(as_dict(item).get("podAffinityTerm"))
        selector = as_dict(as_dict(term.get("labelSelector")).get("matchLabels"))
        own = bool(selector) and all(pod.own_labels.get(k) == v for k, v in selector.items())
        if own and term.get("topologyKey") == "kubernetes.io/hostname":
            pod.workload.take(*path, index)


def _anti_affinity(pod: PodReader, out: Placement) -> None:
    _spread_over_hosts(pod)
    path: Path = (*pod.spec, "affinity", "podAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
    for index, term in enumerate(pod.workload.items(*path)):
        here: Path = (*path, index)
        pod.workload.take(*here)
        selector = as_dict(as_dict(as_dict(term).get("labelSelector")).get("matchLabels"))
        key = str(as_dict(term).get("topologyKey") or "")
        if not selector or any(pod.own_labels.get(k) != v for k, v in selector.items()):
            pod.findings.left_out(
                pod.workload, here, "anti-affinity to other workloads' pods has no Nomad form"
            )
            continue
        if key == "kubernetes.io/hostname":
            test = {"LTarget": "", "RTarget": "true", "Operand": "distinct_hosts"}
        else:
            attribute = node_attribute(key, pod.workload, (*here, "topologyKey"), pod.findings)
            test = {"LTarget": attribute, "RTarget": "", "Operand": "distinct_property"}
        job_wide = list(selector) == ["app.kubernetes.io/name"]
        (out.job_constraints if job_wide else out.constraints).append(test)


def _spread(pod: PodReader, out: Placement) -> None:
    path: Path = (*pod.spec, "topologySpreadConstraints")
    for index, term in enumerate(pod.workload.items(*path)):
        here: Path = (*path, index)
        pod.workload.take(*here)
        term = as_dict(term)
        key = str(term.get("topologyKey") or "")
        attribute = node_attribute(key, pod.workload, (*here, "topologyKey"), pod.findings)
        out.spreads.append({"Attribute": attribute})
        if term.get("maxSkew", 1) != 1 or term.get("whenUnsatisfiable") != "ScheduleAnyway":
            pod.findings.approximated(
                pod.workload,
                here,
                "a spread is a preference in Nomad: maxSkew and DoNotSchedule are not kept",
            )


def _tolerations(pod: PodReader) -> None:
    """Tolerations of the device taints are implied by the device request; others are not kept."""
    names = {"/".join(d["Name"].split("/")[:2]) for d in pod.devices}
    wanted = {key for key, name in EXTENDED_RESOURCES.items() if name in names}
    for index, toleration in enumerate(pod.workload.items(*pod.spec, "tolerations")):
        here: Path = (*pod.spec, "tolerations", index)
        pod.workload.take(*here)
        if isinstance(toleration, dict) and str(toleration.get("key")) in wanted:
            continue
        pod.findings.left_out(pod.workload, here, "Nomad nodes have no taints: this toleration is not kept")
