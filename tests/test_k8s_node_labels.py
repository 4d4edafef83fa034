"""GPU node-label vocabularies: ``render --node-labels gfd|gke|karpenter`` writes a model
(in)equality on GPU Feature Discovery's, GKE's or Karpenter's label from the one table of
:mod:`hclgpu.units.gpu_names`, and ``import`` reads GKE's and Karpenter's labels back from it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from hclgpu.backends import registry
from hclgpu.backends.kubernetes.devices import gfd_product
from hclgpu.backends.target import Lowering
from hclgpu.cli import main
from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.importers.kubernetes import import_kubernetes
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile
from hclgpu.units.gpu_names import GPU_NAMES, label_values, models_of

GKE = "cloud.google.com/gke-accelerator"
KARPENTER = "karpenter.k8s.aws/instance-gpu-name"
PRODUCT = "nvidia.com/gpu.product"


def _job(device: str, body: str = "") -> str:
    return f"""job "j" {{
  group "g" {{
    task "t" {{
      driver = "docker"
      config {{ image = "busybox" }}
      resources {{
        device "{device}" {{
{body}
        }}
      }}
    }}
  }}
}}
"""


def _constraint(operator: str, value: str) -> str:
    return (
        f'constraint {{\n attribute = "${{device.model}}"\n operator = "{operator}"\n value = "{value}"\n}}'
    )


def _render(text: str, node_labels: str | None) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The pod spec rendered with ``--node-labels`` (None: the default), and the findings."""
    result = compile_source(SourceFile("j.nomad.hcl", text), checks=False)
    assert result.job is not None, [d.message for d in result.diagnostics]
    sink = Sink()
    given = {} if node_labels is None else {"node_labels": node_labels}
    ctx = Lowering("kubernetes", result.source, sink, registry.render_options("kubernetes", **given))
    manifests = registry.get("kubernetes").join(registry.render(result.job, "kubernetes", ctx))
    pods = [
        d["spec"]["template"]["spec"] for d in yaml.safe_load_all(manifests) if d and "template" in d["spec"]
    ]
    assert len(pods) == 1
    return pods[0], sink.sorted()


def _required(pod: dict[str, Any]) -> list[dict[str, Any]]:
    affinity = pod.get("affinity", {}).get("nodeAffinity", {})
    terms = affinity.get("requiredDuringSchedulingIgnoredDuringExecution", {}).get("nodeSelectorTerms", [])
    return [e for term in terms for e in term["matchExpressions"]]


def _codes(diagnostics: list[Diagnostic]) -> list[tuple[str, str]]:
    """Findings other than the cpu conversion every job gets."""
    return [(d.code, d.message) for d in diagnostics if "MHz" not in d.message]


# --------------------------------------------------------------------------- the table


def test_the_gfd_column_is_gfd_products_rule_for_every_row() -> None:
    for row in GPU_NAMES:
        assert row.gfd == gfd_product(row.model)
        assert label_values(row.model, "gfd") == (gfd_product(row.model),)
    assert {row.model: row.gfd for row in GPU_NAMES}["NVIDIA H100 80GB HBM3"] == "NVIDIA-H100-80GB-HBM3"


def test_each_cloud_value_reads_back_to_the_models_it_was_written_for() -> None:
    for row in GPU_NAMES:
        for value in row.gke:
            assert row.model in models_of(value, "gke")
        for value in row.karpenter:
            assert row.model in models_of(value, "karpenter")
    assert models_of("a100", "karpenter") == ("NVIDIA A100-SXM4-40GB", "NVIDIA A100-SXM4-80GB")
    assert models_of("v100", "karpenter") == ("Tesla V100-SXM2-16GB", "Tesla V100-SXM2-32GB")
    assert models_of("nvidia-h100-mega-80gb", "gke") == ("NVIDIA H100 80GB HBM3",)
    assert models_of("nvidia-rtx-9999", "gke") == ()
    assert label_values("NVIDIA A10G", "gke") == ()
    assert label_values("NVIDIA GeForce RTX 4090", "karpenter") == ()


# --------------------------------------------------------------------------- render


@pytest.mark.parametrize(
    ("vocabulary", "expected"),
    [
        (None, {"key": PRODUCT, "operator": "In", "values": ["Tesla-T4"]}),
        ("gfd", {"key": PRODUCT, "operator": "In", "values": ["Tesla-T4"]}),
        ("gke", {"key": GKE, "operator": "In", "values": ["nvidia-tesla-t4"]}),
        ("karpenter", {"key": KARPENTER, "operator": "In", "values": ["t4"]}),
    ],
)
def test_the_model_in_the_name_is_written_on_the_chosen_label(
    vocabulary: str | None, expected: dict[str, Any]
) -> None:
    pod, diagnostics = _render(_job("nvidia/gpu/Tesla T4"), vocabulary)
    assert _required(pod) == [expected]
    assert [code for code, _ in _codes(diagnostics)] == (["HG302"] if expected["key"] == PRODUCT else [])


def test_an_h100_is_either_of_gkes_two_names_exactly() -> None:
    pod, diagnostics = _render(_job("nvidia/gpu", _constraint("=", "NVIDIA H100 80GB HBM3")), "gke")
    assert _required(pod) == [
        {"key": GKE, "operator": "In", "values": ["nvidia-h100-80gb", "nvidia-h100-mega-80gb"]}
    ]
    assert _codes(diagnostics) == []


def test_inequality_is_not_in_on_the_cloud_label() -> None:
    pod, diagnostics = _render(_job("nvidia/gpu", _constraint("!=", "NVIDIA L4")), "karpenter")
    assert _required(pod) == [{"key": KARPENTER, "operator": "NotIn", "values": ["l4"]}]
    assert _codes(diagnostics) == []


def test_a_karpenter_name_of_several_models_is_written_and_reported() -> None:
    pod, diagnostics = _render(_job("nvidia/gpu/NVIDIA A100-SXM4-40GB"), "karpenter")
    assert _required(pod) == [{"key": KARPENTER, "operator": "In", "values": ["a100"]}]
    [(code, message)] = _codes(diagnostics)
    assert code == "HG302"
    assert "`NVIDIA A100-SXM4-80GB`" in message and "cannot tell those models apart" in message


def test_a_model_the_cloud_has_no_name_for_is_left_out_not_mislabelled() -> None:
    pod, diagnostics = _render(_job("nvidia/gpu/NVIDIA A10G"), "gke")
    assert _required(pod) == []
    [(code, message)] = _codes(diagnostics)
    assert code == "HG301" and "`NVIDIA A10G` has no cloud.google.com/gke-accelerator value" in message


def test_not_equal_to_another_model_than_the_names_is_settled_before_the_label() -> None:
    pod, diagnostics = _render(_job("nvidia/gpu/Tesla T4", _constraint("!=", "NVIDIA L40S")), "gke")
    assert _required(pod) == [{"key": GKE, "operator": "In", "values": ["nvidia-tesla-t4"]}]
    assert _codes(diagnostics) == []  # the model in the name settles it: it always holds


def test_an_unnamed_inequality_is_reported_when_the_model_is_open() -> None:
    pod, diagnostics = _render(_job("nvidia/gpu", _constraint("!=", "NVIDIA L40S")), "gke")
    assert _required(pod) == []
    [(code, message)] = _codes(diagnostics)
    assert code == "HG302" and "no node is assumed to have it" in message


def test_a_preference_for_a_model_is_a_preferred_term_on_the_cloud_label() -> None:
    body = 'affinity {\n attribute = "${device.model}"\n value = "NVIDIA H200"\n weight = -40\n}'
    pod, _ = _render(_job("nvidia/gpu", body), "karpenter")
    preferred = pod["affinity"]["nodeAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"]
    assert preferred == [
        {
            "weight": 40,
            "preference": {"matchExpressions": [{"key": KARPENTER, "operator": "NotIn", "values": ["h200"]}]},
        }
    ]


def test_memory_keeps_gfds_label_under_a_cloud_vocabulary() -> None:
    body = 'constraint {\n attribute = "${device.attr.memory}"\n operator = ">="\n value = "40 GiB"\n}'
    pod, _ = _render(_job("nvidia/gpu/Tesla T4", body), "gke")
    assert _required(pod) == [
        {"key": GKE, "operator": "In", "values": ["nvidia-tesla-t4"]},
        {"key": "nvidia.com/gpu.memory", "operator": "Gt", "values": ["40959"]},
    ]


def test_a_mig_model_keeps_gfds_product_label() -> None:
    text = _job("nvidia/gpu/NVIDIA A100-SXM4-40GB MIG 1g.5gb")
    result = compile_source(SourceFile("j.nomad.hcl", text), checks=False)
    assert result.job is not None
    sink = Sink()
    options = registry.render_options("kubernetes", node_labels="gke", mig_strategy="single")
    ctx = Lowering("kubernetes", result.source, sink, options)
    manifests = registry.get("kubernetes").join(registry.render(result.job, "kubernetes", ctx))
    assert "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb" in manifests and GKE not in manifests


def test_the_cli_flag_and_a_bad_value(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    job = tmp_path / "j.nomad.hcl"
    job.write_text(_job("nvidia/gpu/NVIDIA L4"))
    assert main(["render", str(job), "--target", "kubernetes", "--node-labels", "karpenter"]) == 0
    assert "karpenter.k8s.aws/instance-gpu-name" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        main(["render", str(job), "--target", "kubernetes", "--node-labels", "azure"])
    assert exit_.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


# --------------------------------------------------------------------------- import


def _manifest(pod: dict[str, Any]) -> str:
    container = {"name": "app", "image": "busybox", "resources": {"limits": {"nvidia.com/gpu": 1}}}
    spec = {"containers": [container], **pod}
    template = {"metadata": {"labels": {"app": "web"}}, "spec": spec}
    body = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}}
    return json.dumps({**body, "spec": {"template": template}})


def _required_affinity(*expressions: dict[str, Any]) -> dict[str, Any]:
    terms = [{"matchExpressions": list(expressions)}]
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}


def _imported(pod: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], list[tuple[str, str, str]]]:
    """The imported group, its GPU device and the findings (code, pointer, message)."""
    imported = import_kubernetes(_manifest(pod))
    result = compile_source(SourceFile("j.nomad.hcl", imported.hcl), checks=False)
    assert result.job is not None, [d.message for d in result.diagnostics]
    job = result.job.model_dump(by_alias=True, exclude_none=True, exclude={"span"})
    group = job["TaskGroups"][0]
    device = group["Tasks"][0]["Resources"]["Devices"][0]
    return group, device, [(d.code, d.pointer, d.message) for d in imported.dropped]


def _tests(entries: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(c["LTarget"], c["Operand"], c["RTarget"]) for c in entries]


def test_a_gke_node_selector_is_the_devices_model() -> None:
    group, device, findings = _imported({"nodeSelector": {GKE: "nvidia-tesla-t4"}})
    assert device["Name"] == "nvidia/gpu"
    assert _tests(device["Constraints"]) == [("${device.model}", "=", "Tesla T4")]
    assert "Constraints" not in group
    assert not [f for f in findings if "gke-accelerator" in f[2]]


def test_gkes_two_h100_names_are_one_model() -> None:
    expression = {"key": GKE, "operator": "In", "values": ["nvidia-h100-80gb", "nvidia-h100-mega-80gb"]}
    _, device, _ = _imported({"affinity": _required_affinity(expression)})
    assert _tests(device["Constraints"]) == [("${device.model}", "=", "NVIDIA H100 80GB HBM3")]


def test_several_gke_values_are_a_regexp_of_their_models() -> None:
    expression = {"key": GKE, "operator": "In", "values": ["nvidia-l4", "nvidia-tesla-t4"]}
    _, device, _ = _imported({"affinity": _required_affinity(expression)})
    assert _tests(device["Constraints"]) == [("${device.model}", "regexp", "^(NVIDIA L4|Tesla T4)$")]


def test_a_karpenter_name_of_several_models_is_all_of_them_and_noted() -> None:
    expression = {"key": KARPENTER, "operator": "In", "values": ["a100"]}
    _, device, findings = _imported({"affinity": _required_affinity(expression)})
    assert _tests(device["Constraints"]) == [
        ("${device.model}", "regexp", r"^(NVIDIA A100\-SXM4\-40GB|NVIDIA A100\-SXM4\-80GB)$")
    ]
    [note] = [f for f in findings if KARPENTER in f[2]]
    assert note[0] == "HG302" and "any of them is accepted" in note[2]
    assert note[1].endswith("/matchExpressions/0")


def test_karpenter_not_in_is_one_inequality_per_model() -> None:
    expression = {"key": KARPENTER, "operator": "NotIn", "values": ["t4", "v100"]}
    _, device, _ = _imported({"affinity": _required_affinity(expression)})
    assert _tests(device["Constraints"]) == [
        ("${device.model}", "!=", "Tesla T4"),
        ("${device.model}", "!=", "Tesla V100-SXM2-16GB"),
        ("${device.model}", "!=", "Tesla V100-SXM2-32GB"),
    ]


def test_a_preferred_cloud_label_is_a_device_affinity() -> None:
    term = {
        "weight": 30,
        "preference": {"matchExpressions": [{"key": KARPENTER, "operator": "In", "values": ["l40s"]}]},
    }
    affinity = {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [term]}}
    _, device, _ = _imported({"affinity": affinity})
    assert device["Affinities"] == [
        {"LTarget": "${device.model}", "RTarget": "NVIDIA L40S", "Operand": "=", "Weight": 30}
    ]


def test_an_unknown_cloud_value_is_node_meta_reported_at_the_value() -> None:
    expression = {"key": GKE, "operator": "In", "values": ["nvidia-tesla-t4", "nvidia-rtx-9999"]}
    group, device, findings = _imported({"affinity": _required_affinity(expression)})
    assert "Constraints" not in device
    assert _tests(group["Constraints"]) == [
        ("${meta.cloud.google.com/gke-accelerator}", "set_contains_any", "nvidia-tesla-t4,nvidia-rtx-9999")
    ]
    [unknown] = [f for f in findings if "nvidia-rtx-9999" in f[2]]
    assert unknown[0] == "HG302" and unknown[1].endswith("/matchExpressions/0/values/1")


def test_an_unknown_node_selector_value_is_reported_at_its_entry() -> None:
    group, _, findings = _imported({"nodeSelector": {KARPENTER: "t4g"}})
    assert _tests(group["Constraints"]) == [("${meta.karpenter.k8s.aws/instance-gpu-name}", "=", "t4g")]
    [unknown] = [f for f in findings if "`t4g`" in f[2]]
    assert unknown[0] == "HG302" and unknown[1].endswith("/nodeSelector/karpenter.k8s.aws~1instance-gpu-name")


# --------------------------------------------------------------------------- round trip


@pytest.mark.parametrize(
    ("vocabulary", "model"),
    [
        ("gke", "Tesla T4"),
        ("gke", "NVIDIA H100 80GB HBM3"),
        ("gke", "NVIDIA A100-SXM4-80GB"),
        ("karpenter", "NVIDIA L4"),
    ],
)
def test_render_then_import_gives_the_same_model(vocabulary: str, model: str) -> None:
    result = compile_source(
        SourceFile("j.nomad.hcl", _job("nvidia/gpu", _constraint("=", model))), checks=False
    )
    assert result.job is not None
    options = registry.render_options("kubernetes", node_labels=vocabulary)
    ctx = Lowering("kubernetes", result.source, Sink(), options)
    manifests = registry.get("kubernetes").join(registry.render(result.job, "kubernetes", ctx))
    imported = import_kubernetes(manifests)
    back = compile_source(SourceFile("back.nomad.hcl", imported.hcl), checks=False)
    assert back.job is not None
    job = back.job.model_dump(by_alias=True, exclude_none=True, exclude={"span"})
    device = job["TaskGroups"][0]["Tasks"][0]["Resources"]["Devices"][0]
    assert _tests(device["Constraints"]) == [("${device.model}", "=", model)]
    assert not [d for d in imported.dropped if "gpu-name" in d.message or "gke-accelerator" in d.message]
