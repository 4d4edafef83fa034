"""Kubernetes output: every sample in both device modes, validated by kubernetes-validate
(strict, 1.34) and by the rules strict mode misses; golden manifests; the seed TensorRT
job; an adversarial job whose values must survive YAML exactly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from hclgpu.backends import registry
from hclgpu.backends.target import Lowering
from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile
from tests.conftest import ROOT, Golden

SAMPLES = sorted((ROOT / "samples").glob("*.hcl"))
GOLDEN = ROOT / "tests" / "golden" / "kubernetes"
MODES = ("plugin", "dra")


def render(
    text: str, name: str = "job.nomad.hcl", mode: str = "plugin", base: Path = ROOT
) -> tuple[str, list[Diagnostic]]:
    result = compile_source(SourceFile(name, text), EvalOptions(VariableInputs(env={}), base_dir=base))
    assert result.job is not None, [f"{d.code} {d.message}" for d in result.diagnostics]
    sink = Sink()
    ctx = Lowering("kubernetes", result.source, sink, registry.render_options("kubernetes", k8s_devices=mode))
    return registry.get("kubernetes").join(registry.render(result.job, "kubernetes", ctx)), sink.sorted()


def documents(text: str) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(text) if d is not None]


def own_checks(doc: dict[str, Any]) -> list[str]:
    """What kubernetes-validate's strict schemas do not check (backends.md 3.5)."""
    problems: list[str] = []
    pod = _pod_spec(doc)
    if pod is None:
        return problems
    affinity = pod.get("affinity", {}).get("nodeAffinity", {})
    for term in affinity.get("preferredDuringSchedulingIgnoredDuringExecution", []):
        if not 1 <= term["weight"] <= 100:
            problems.append(f"preferred weight {term['weight']} outside 1..100")
    terms = affinity.get("requiredDuringSchedulingIgnoredDuringExecution", {}).get("nodeSelectorTerms", [])
    expressions = [e for t in terms for e in t.get("matchExpressions", [])]
    expressions += [
        e
        for p in affinity.get("preferredDuringSchedulingIgnoredDuringExecution", [])
        for e in p["preference"].get("matchExpressions", [])
    ]
    for e in expressions:
        if e["operator"] in ("Gt", "Lt") and (
            len(e.get("values", [])) != 1 or not e["values"][0].lstrip("-").isdigit()
        ):
            problems.append(f"{e['operator']} needs one integer value, has {e.get('values')}")
    for container in pod.get("containers", []) + pod.get("initContainers", []):
        resources = container.get("resources", {})
        limits, requests = resources.get("limits", {}), resources.get("requests", {})
        for name, value in limits.items():
            if "/" in name:  # an extended resource
                if not isinstance(value, int) and not str(value).isdigit():
                    problems.append(f"{name} limit {value!r} is not an integer")
                if name in requests and str(requests[name]) != str(value):
                    problems.append(f"{name} request {requests[name]!r} differs from the limit {value!r}")
    return problems


def _pod_spec(doc: dict[str, Any]) -> dict[str, Any] | None:
    spec = doc.get("spec", {})
    if doc.get("kind") == "CronJob":
        spec = spec.get("jobTemplate", {}).get("spec", {})
    template = spec.get("template") if isinstance(spec, dict) else None
    return template.get("spec") if isinstance(template, dict) else None


def validate(text: str) -> None:
    import kubernetes_validate

    for doc in documents(text):
        kubernetes_validate.validate(doc, "1.34", strict=True)
        assert own_checks(doc) == []


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_sample_renders_valid_golden_manifests(sample: Path, mode: str, golden: Golden) -> None:
    text, _ = render(sample.read_text(encoding="utf-8"), sample.name, mode, sample.parent)
    validate(text)
    golden(GOLDEN / f"{sample.name.removesuffix('.hcl').removesuffix('.nomad')}.{mode}.yaml", text)


def _tensorrt(mode: str) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    sample = ROOT / "samples" / "tensorrt.nomad.hcl"
    text, diagnostics = render(sample.read_text(encoding="utf-8"), sample.name, mode, sample.parent)
    return documents(text), diagnostics


def test_seed_tensorrt_job_with_device_plugins() -> None:
    docs, diagnostics = _tensorrt("plugin")
    back = next(d for d in docs if d["kind"] == "Deployment" and d["metadata"]["name"] == "tensorrt-back")
    pod = back["spec"]["template"]["spec"]
    container = pod["containers"][0]
    assert container["resources"]["limits"]["nvidia.com/gpu"] == 1
    required = pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    assert {"key": "nvidia.com/gpu.memory", "operator": "Gt", "values": ["4095"]} in required[
        "nodeSelectorTerms"
    ][0]["matchExpressions"]
    regexp = [d for d in diagnostics if d.code == "HG301" and "regexp" in d.message.lower()]
    assert len(regexp) == 1 and regexp[0].span is not None
    source = (ROOT / "samples" / "tensorrt.nomad.hcl").read_text()
    assert "affinity" in source[regexp[0].span.start : regexp[0].span.end + 200]


def test_seed_tensorrt_job_with_dra() -> None:
    docs, diagnostics = _tensorrt("dra")
    templates = [d for d in docs if d["kind"] == "ResourceClaimTemplate"]
    assert len(templates) == 1
    text = yaml.safe_dump(templates[0])
    assert "matches(" in text and "compareTo(quantity(" in text
    assert not [d for d in diagnostics if d.code == "HG301" and "regexp" in d.message.lower()]


ADVERSARIAL = [
    'quote " and \\\\ backslash',
    "new\nline",
    "{{ template }} and ${NOMAD_ALLOC_DIR}",
    "key: value",
    "# not a comment",
    "&anchor *alias",
    "!!python/object:os.system",
    "unicodé ✓ 中文 \u2028",
    "- dash",
    "yes",
    "012",
    "",
]


def _hcl_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("${", "$${")
    return f'"{escaped.replace("%{", "%%{")}"'


def test_adversarial_values_survive_yaml_exactly() -> None:
    env = "\n".join(f"        V{i} = {_hcl_string(v)}" for i, v in enumerate(ADVERSARIAL))
    meta = "\n".join(f"    m{i} = {_hcl_string(v)}" for i, v in enumerate(ADVERSARIAL))
    args = ", ".join(_hcl_string(v) for v in ADVERSARIAL)
    text = (
        f'job "adversarial" {{\n  meta {{\n{meta}\n  }}\n  group "g" {{\n    task "t" {{\n'
        f'      driver = "docker"\n      config {{\n        image = "busybox:1.36"\n'
        f"        args = [{args}]\n      }}\n"
        f"      env {{\n{env}\n      }}\n    }}\n  }}\n}}\n"
    )
    rendered, _ = render(text)
    validate(rendered)
    [deployment] = [d for d in documents(rendered) if d["kind"] == "Deployment"]
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    # Nomad's task directories are where the docker driver mounts them; the rest is kept exactly
    expected = [v.replace("${NOMAD_ALLOC_DIR}", "/alloc") for v in ADVERSARIAL]
    assert container["args"] == expected
    assert {e["name"]: e["value"] for e in container["env"] if e["name"].startswith("V")} == {
        f"V{i}": v for i, v in enumerate(expected)
    }
    annotations = deployment["metadata"]["annotations"]
    assert sorted(v for v in annotations.values() if v in ADVERSARIAL) == sorted(ADVERSARIAL)
