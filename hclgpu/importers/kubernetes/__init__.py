"""Kubernetes manifests back to a Nomad job: ``hclgpu import --from kubernetes``.

The input is one or many YAML or JSON documents (a ``List`` is opened). Its workloads
(Deployment, StatefulSet, ReplicaSet, DaemonSet, Job, CronJob, Pod) become the job's groups,
and so do the pod templates of an operator's kinds (RayCluster, PyTorchJob, LeaderWorkerSet);
the Services selecting their pods, the ConfigMaps they mount and the ResourceClaimTemplates
they claim are read with them. The job is named after the workloads' common
``app.kubernetes.io/name`` label, else the first workload; a group after its workload, less
the job name prefix the back end adds. Every field that is not read is reported (HG301) at
its place in the input; what is read only approximately is HG302.
"""

from __future__ import annotations

from typing import Any

from hclgpu.importers.common import Imported, ImportFailure, ImportOptions, finish, load_documents
from hclgpu.importers.kubernetes.source import Findings, Manifest, as_dict
from hclgpu.importers.kubernetes.workload import (
    POD_PATHS,
    GroupRead,
    Objects,
    group_name,
    pod_templates,
    read_group,
)

_SERVER_FIELDS = frozenset(
    {"status", "uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink"}
)


def import_kubernetes(text: str, options: ImportOptions | None = None) -> Imported:
    """Read the manifests in ``text`` and write the Nomad job they describe."""
    cpu_mhz_per_core = (options or ImportOptions()).cpu_mhz_per_core
    findings = Findings()
    manifests = _manifests(load_documents(text))
    templates = {id(m): pod_templates(m) for m in manifests}
    workloads = [m for m in manifests if templates[id(m)]]
    if not workloads:
        raise ImportFailure(
            "no workload in the input: expected a Deployment, StatefulSet, ReplicaSet, DaemonSet, Job, "
            "CronJob or Pod, or a custom resource with pod templates"
        )
    objects = _objects([m for m in manifests if not templates[id(m)] or m.kind in POD_PATHS], findings)
    name = _job_name(workloads)
    pods = [(workload, pod) for workload in workloads for pod in templates[id(workload)]]
    reads: list[GroupRead] = []
    for workload, pod in pods:
        if workload.kind not in POD_PATHS and pod is templates[id(workload)][0]:
            findings.approximated(
                workload,
                ("kind",),
                f"a {workload.kind} is an operator's kind: its pod templates are read as groups; "
                "what the operator does around them is not",
            )
        group = group_name(workload, pod, name)
        reads.append(read_group(workload, group, objects, findings, cpu_mhz_per_core, pod))
    job = _job(name, reads, [workload for workload, _ in pods], findings)
    for manifest in manifests:
        _report_leftovers(manifest, findings)
    return finish(job, findings.items)


def _manifests(documents: list[Any]) -> list[Manifest]:
    """Every object, Lists opened; a document that is not an object is an error."""
    out: list[Manifest] = []
    for index, document in enumerate(documents):
        if not isinstance(document, dict):
            raise ImportFailure(f"document {index + 1} is not a Kubernetes object (a mapping)")
        if str(document.get("kind", "")).endswith("List") and isinstance(document.get("items"), list):
            for position, item in enumerate(document["items"]):
                if isinstance(item, dict):
                    out.append(Manifest(item, index, ("items", position)))
            continue
        out.append(Manifest(document, index))
    return out


def _objects(manifests: list[Manifest], findings: Findings) -> Objects:
    objects = Objects()
    for manifest in manifests:
        if manifest.kind == "Service":
            objects.services.append(manifest)
        elif manifest.kind == "ConfigMap":
            objects.config_maps[manifest.name] = manifest
            for key in ("apiVersion", "kind", "metadata"):
                manifest.take(key)
        elif manifest.kind == "ResourceClaimTemplate":
            objects.claim_templates[manifest.name] = manifest
        elif manifest.kind == "ResourceClaim":
            objects.claims[manifest.name] = manifest
        elif manifest.kind not in POD_PATHS:
            manifest.take()
            findings.left_out(
                manifest, (), f"a {manifest.kind or 'kind-less object'} has no Nomad equivalent"
            )
    return objects


def _job_name(workloads: list[Manifest]) -> str:
    """The workloads' common app.kubernetes.io/name (or app) label, else the first one's name."""
    for key in ("app.kubernetes.io/name", "app.kubernetes.io/part-of", "app"):
        values = {str(as_dict(w.peek("metadata", "labels")).get(key)) for w in workloads}
        if len(values) == 1 and values != {"None"}:
            return values.pop()
    return workloads[0].name or "job"


def _job(name: str, reads: list[GroupRead], workloads: list[Manifest], findings: Findings) -> dict[str, Any]:
    job: dict[str, Any] = {"ID": name, "Name": name, "Type": reads[0].job_type}
    namespaces = {str(w.peek("metadata", "namespace")) for w in workloads if w.peek("metadata", "namespace")}
    if namespaces:
        job["Namespace"] = sorted(namespaces)[0]
        if len(namespaces) > 1:
            findings.approximated(workloads[0], ("metadata", "namespace"), "a Nomad job is in one namespace")
    for read, workload in zip(reads, workloads, strict=True):
        if read.job_type != job["Type"]:
            findings.approximated(
                workload, ("kind",), f"a {workload.kind} in a {job['Type']} job runs as a {job['Type']} group"
            )
    periodic = next((r.periodic for r in reads if r.periodic is not None), None)
    if periodic is not None:
        job["Periodic"] = periodic
    if any(r.parameterized for r in reads):
        job["ParameterizedJob"] = {}
    constraints = [c for r in reads for c in r.job_constraints]
    if constraints:
        job["Constraints"] = [c for i, c in enumerate(constraints) if c not in constraints[:i]]
    _hoist_meta(job, [r.group for r in reads])
    job["TaskGroups"] = [r.group for r in reads]
    return job


def _hoist_meta(job: dict[str, Any], groups: list[dict[str, Any]]) -> None:
    """Meta every group has with the same value is the job's."""
    common = dict(groups[0].get("Meta") or {})
    for group in groups[1:]:
        common = {k: v for k, v in common.items() if (group.get("Meta") or {}).get(k) == v}
    if not common:
        return
    job["Meta"] = common
    for group in groups:
        rest = {k: v for k, v in (group.get("Meta") or {}).items() if k not in common}
        if rest:
            group["Meta"] = rest
        else:
            group.pop("Meta", None)


def _report_leftovers(manifest: Manifest, findings: Findings) -> None:
    for path in manifest.leftovers():
        last = str(path[-1]) if path else manifest.kind
        if last in _SERVER_FIELDS:
            findings.left_out(manifest, path, f"`{last}` is set by the cluster; it is not part of a job")
        else:
            findings.left_out(manifest, path, f"`{last}` has no Nomad equivalent; it is left out")
