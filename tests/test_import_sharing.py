"""Shared GPUs read back from Kubernetes: the device plugin's time-slicing and MPS (renamed
`.shared` resources, GFD's sharing labels) and the DRA driver's sharing settings become whole
GPUs (Nomad has no shared GPUs) with HG302, the sharing kept in the group's meta."""

from __future__ import annotations

import json
from typing import Any

from hclgpu.importers.kubernetes import import_kubernetes
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile


def _deployment(limits: dict[str, Any], **pod: Any) -> dict[str, Any]:
    container = {"name": "app", "image": "busybox", "resources": {"limits": limits}}
    template = {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [container], **pod}}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web"},
        "spec": {"template": template},
    }


def _imported(*documents: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    text = "\n---\n".join(json.dumps(d) for d in documents)
    imported = import_kubernetes(text)
    result = compile_source(SourceFile("j.nomad.hcl", imported.hcl), checks=False)
    assert result.job is not None, [d.message for d in result.diagnostics]
    job = result.job.model_dump(by_alias=True, exclude_none=True, exclude={"span"})
    group = job["TaskGroups"][0]
    group["Meta"] = {**job.get("Meta", {}), **group.get("Meta", {})}  # one group's meta is the job's
    return group, [(d.code, d.message) for d in imported.dropped]


def test_a_shared_resource_is_whole_gpus_with_the_sharing_in_meta() -> None:
    group, findings = _imported(_deployment({"nvidia.com/gpu.shared": 2}))
    (device,) = group["Tasks"][0]["Resources"]["Devices"]
    assert (device["Name"], device["Count"]) == ("nvidia/gpu", 2)
    assert group["Meta"] == {"gpu_sharing": "nvidia.com/gpu.shared"}
    assert any(code == "HG302" and "whole GPUs of its own" in message for code, message in findings)


def test_a_sharing_label_is_meta_not_a_node_constraint() -> None:
    selector = {"nvidia.com/gpu.sharing-strategy": "time-slicing", "nvidia.com/gpu.replicas": "4"}
    group, findings = _imported(_deployment({"nvidia.com/gpu": 1}, nodeSelector=selector))
    assert group["Meta"] == {"gpu_sharing_strategy": "time-slicing", "gpu_replicas": "4"}
    assert "Constraints" not in group  # no `${meta.nvidia.com/gpu.sharing-strategy}` on Nomad clients
    assert sum(code == "HG302" and "how their GPUs are shared" in m for code, m in findings) == 2


def test_a_dra_claim_with_time_slicing_is_whole_gpus_with_the_strategy_in_meta() -> None:
    # the shape of NVIDIA's DRA driver demo (k8s-dra-driver-gpu demo/specs/quickstart, GpuConfig)
    parameters = {
        "apiVersion": "resource.nvidia.com/v1beta1",
        "kind": "GpuConfig",
        "sharing": {"strategy": "TimeSlicing", "timeSlicingConfig": {"interval": "Long"}},
    }
    template = {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaimTemplate",
        "metadata": {"name": "shared-gpu"},
        "spec": {
            "spec": {
                "devices": {
                    "requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.nvidia.com"}}],
                    "config": [
                        {
                            "requests": ["gpu"],
                            "opaque": {"driver": "gpu.nvidia.com", "parameters": parameters},
                        }
                    ],
                }
            }
        },
    }
    deployment = _deployment({}, resourceClaims=[{"name": "gpu", "resourceClaimTemplateName": "shared-gpu"}])
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    container["resources"] = {"claims": [{"name": "gpu"}]}
    group, findings = _imported(deployment, template)
    assert group["Tasks"][0]["Resources"]["Devices"][0]["Name"] == "nvidia/gpu"
    assert group["Meta"] == {"gpu_sharing": "TimeSlicing"}
    assert any(code == "HG302" and "shares its GPUs (TimeSlicing)" in m for code, m in findings)
