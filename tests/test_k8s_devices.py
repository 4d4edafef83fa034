"""Kubernetes device lowering (hclgpu/backends/kubernetes/devices.py) on small compiled jobs.

Every expected value below is worked out by hand from the rules (backends.md §3, Nomad's
attribute semantics), not copied from the code's output:

* GFD labels memory in whole MiB, so ``>= X`` is ``Gt [ceil(X MiB) - 1]``, ``> X`` is
  ``Gt [floor(X MiB)]``, ``< X`` is ``Lt [ceil(X MiB)]``, ``<= X`` is ``Lt [floor(X MiB) + 1]``.
  4 GB = 4 000 000 000 B = 3814.697265625 MiB; 16 GB = 15258.7890625 MiB.
* DRA compares bytes, bounded at the same whole MiB: ``M >= n`` is ``bytes >= n Mi``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from hclgpu.backends import registry
from hclgpu.backends.kubernetes.devices import DeviceLowering, cel_string, gfd_product, lower_devices
from hclgpu.backends.target import Lowering
from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile

try:
    import celpy  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # cel-python is not a dependency: CEL syntax is checked where it is installed
    celpy = None

needs_celpy = pytest.mark.skipif(celpy is None, reason="cel-python (celpy) is not installed; CEL not parsed")

CAP = "device.capacity['gpu.nvidia.com'].memory"
ATTR = "device.attributes['gpu.nvidia.com']"
NVIDIA_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}


# --------------------------------------------------------------------------- helpers


def constraint(attribute: str, operator: str, value: str | None = None) -> str:
    value_line = f'            value     = "{value}"\n' if value is not None else ""
    return (
        f'          constraint {{\n            attribute = "{attribute}"\n'
        f'            operator  = "{operator}"\n{value_line}          }}\n'
    )


def affinity(attribute: str, operator: str, value: str, weight: int | None = None) -> str:
    weight_line = f"            weight    = {weight}\n" if weight is not None else ""
    return (
        f'          affinity {{\n            attribute = "{attribute}"\n'
        f'            operator  = "{operator}"\n            value     = "{value}"\n'
        f"{weight_line}          }}\n"
    )


def device(name: str = "nvidia/gpu", *blocks: str, count: int | None = 1) -> str:
    count_line = f"          count = {count}\n" if count is not None else ""
    return f'        device "{name}" {{\n{count_line}{"".join(blocks)}        }}\n'


def job(*devices: str, job_name: str = "j", group: str = "g", task: str = "t") -> str:
    return (
        f'job "{job_name}" {{\n  group "{group}" {{\n    task "{task}" {{\n      driver = "docker"\n'
        '      config {\n        image = "busybox:1.36"\n      }\n'
        f"      resources {{\n{''.join(devices)}      }}\n    }}\n  }}\n}}\n"
    )


@dataclass
class Lowered:
    out: DeviceLowering
    diagnostics: list[Diagnostic]
    text: str

    @property
    def codes(self) -> list[str]:
        return [d.code for d in self.diagnostics]

    def at(self, diagnostic: Diagnostic) -> str:
        """The source text a diagnostic points at."""
        assert diagnostic.span is not None
        return self.text[diagnostic.span.start : diagnostic.span.end]

    def only(self, code: str) -> Diagnostic:
        found = [d for d in self.diagnostics if d.code == code]
        assert len(found) == 1, [(d.code, d.message) for d in self.diagnostics]
        return found[0]

    @property
    def request(self) -> dict[str, Any]:
        [template] = self.out.claim_templates
        [request] = template["spec"]["spec"]["devices"]["requests"]
        return request  # type: ignore[no-any-return]

    @property
    def selectors(self) -> list[str]:
        return [s["cel"]["expression"] for s in self.request["exactly"].get("selectors", [])]


def lower(text: str, mode: str = "plugin", namespace: str | None = None) -> Lowered:
    result = compile_source(SourceFile("j.hcl", text), checks=False)
    assert result.job is not None, [f"{d.code} {d.message}" for d in result.diagnostics]
    group = result.job.task_groups[0]  # type: ignore[index]
    task = group.tasks[0]  # type: ignore[index]
    sink = Sink()
    options = registry.render_options("kubernetes", k8s_devices=mode, namespace=namespace)
    out = lower_devices(
        result.job.name or "", group.name or "", task, Lowering("kubernetes", result.source, sink, options)
    )
    return Lowered(out, sink.sorted(), text)


def gt(key: str, value: str) -> dict[str, Any]:
    return {"key": key, "operator": "Gt", "values": [value]}


def req(key: str, operator: str, value: str) -> dict[str, Any]:
    return {"key": key, "operator": operator, "values": [value]}


MEM = "nvidia.com/gpu.memory"
PRODUCT = "nvidia.com/gpu.product"
DRIVER = "nvidia.com/cuda.driver-version.major"

SEED = device(
    "nvidia/gpu",
    constraint("${device.attr.memory}", ">=", "4 GiB"),
    '          affinity {\n            attribute = "${device.model}"\n'
    '            operator  = "regexp"\n            value     = "Tesla"\n          }\n',
)


# --------------------------------------------------------------------------- the seed job


def test_seed_device_in_plugin_mode() -> None:
    lowered = lower(job(SEED, job_name="tensorrt", group="back", task="rtserver"))
    assert lowered.out.limits == {"nvidia.com/gpu": 1}
    assert lowered.out.required == [{"key": MEM, "operator": "Gt", "values": ["4095"]}]
    assert lowered.out.preferred == []
    assert lowered.out.tolerations == [NVIDIA_TOLERATION]
    assert lowered.out.claim_templates == lowered.out.pod_claims == lowered.out.container_claims == []
    hg301 = lowered.only("HG301")
    assert lowered.codes == ["HG301"]
    assert "regexp" in hg301.message
    located = lowered.at(hg301)
    assert located.startswith("affinity") and '"Tesla"' in located and "constraint" not in located


def test_seed_device_in_dra_mode() -> None:
    lowered = lower(job(SEED, job_name="tensorrt", group="back", task="rtserver"), "dra")
    memory = f"{CAP}.compareTo(quantity('4Gi')) >= 0"
    tesla = f"{ATTR}.productName.matches('Tesla')"

    def sub(name: str, *selectors: str) -> dict[str, Any]:
        return {
            "name": name,
            "deviceClassName": "gpu.nvidia.com",
            "allocationMode": "ExactCount",
            "count": 1,
            "selectors": [{"cel": {"expression": s}} for s in selectors],
        }

    assert lowered.out.claim_templates == [
        {
            "apiVersion": "resource.k8s.io/v1",
            "kind": "ResourceClaimTemplate",
            "metadata": {"name": "tensorrt-back-rtserver-0"},
            "spec": {
                "spec": {
                    "devices": {
                        "requests": [
                            {
                                "name": "gpu",
                                "firstAvailable": [sub("preferred", memory, tesla), sub("fallback", memory)],
                            }
                        ]
                    }
                }
            },
        }
    ]
    assert lowered.out.pod_claims == [
        {"name": "rtserver-gpu-0", "resourceClaimTemplateName": "tensorrt-back-rtserver-0"}
    ]
    assert lowered.out.container_claims == [{"name": "rtserver-gpu-0"}]
    assert lowered.out.limits == {}
    assert "HG301" not in lowered.codes
    hg302 = lowered.only("HG302")  # the affinity ranks devices, not nodes: named, not hidden
    assert "firstAvailable" in hg302.message and lowered.at(hg302).startswith("affinity")


# --------------------------------------------------------------------------- memory bounds

MEMORY_PLUGIN = [
    # GiB: 4 GiB = 4096 MiB exactly
    (">=", "4 GiB", req(MEM, "Gt", "4095")),
    (">", "4 GiB", req(MEM, "Gt", "4096")),
    ("<", "4 GiB", req(MEM, "Lt", "4096")),
    ("<=", "4 GiB", req(MEM, "Lt", "4097")),
    ("=", "4 GiB", req(MEM, "In", "4096")),
    ("==", "4 GiB", req(MEM, "In", "4096")),
    ("!=", "4 GiB", req(MEM, "NotIn", "4096")),
    ("not", "4 GiB", req(MEM, "NotIn", "4096")),
    # MiB
    (">=", "1500 MiB", req(MEM, "Gt", "1499")),
    (">", "1500 MiB", req(MEM, "Gt", "1500")),
    ("<", "1500 MiB", req(MEM, "Lt", "1500")),
    ("<=", "1500 MiB", req(MEM, "Lt", "1501")),
    ("=", "1500 MiB", req(MEM, "In", "1500")),
    # SI: 4 GB = 3814.697265625 MiB, 16 GB = 15258.7890625 MiB
    (">=", "4 GB", req(MEM, "Gt", "3814")),
    (">", "4 GB", req(MEM, "Gt", "3814")),
    ("<", "4 GB", req(MEM, "Lt", "3815")),
    ("<=", "4 GB", req(MEM, "Lt", "3815")),
    ("<=", "16 GB", req(MEM, "Lt", "15259")),
    (">=", "16GB", req(MEM, "Gt", "15258")),
    # fractions: 1.5 GiB = 1536 MiB; 1 KiB = 1/1024 MiB; 0.5 MiB
    (">=", "1.5 GiB", req(MEM, "Gt", "1535")),
    (">=", "1 KiB", req(MEM, "Gt", "0")),
    ("<", "1 KiB", req(MEM, "Lt", "1")),
    (">", "0.5 MiB", req(MEM, "Gt", "0")),
    ("<=", "0.5 MiB", req(MEM, "Lt", "1")),
]


@pytest.mark.parametrize(("operator", "value", "expected"), MEMORY_PLUGIN)
def test_memory_bounds_as_node_labels(operator: str, value: str, expected: dict[str, Any]) -> None:
    lowered = lower(job(device("nvidia/gpu", constraint("${device.attr.memory}", operator, value))))
    assert lowered.out.required == [expected]
    assert lowered.diagnostics == []


def test_memory_mirrored_sides_mean_the_same_bound() -> None:
    # "4 GiB" <= memory is memory >= 4 GiB
    lowered = lower(job(device("nvidia/gpu", constraint("4 GiB", "<=", "${device.attr.memory}"))))
    assert lowered.out.required == [req(MEM, "Gt", "4095")]


MEMORY_DRA = [
    (">=", "4 GiB", f"{CAP}.compareTo(quantity('4Gi')) >= 0"),
    (">", "4 GiB", f"{CAP}.compareTo(quantity('4097Mi')) >= 0"),
    ("<", "4 GiB", f"{CAP}.compareTo(quantity('4Gi')) < 0"),
    ("<=", "4 GiB", f"{CAP}.compareTo(quantity('4097Mi')) < 0"),
    ("=", "4 GiB", f"{CAP}.compareTo(quantity('4Gi')) >= 0 && {CAP}.compareTo(quantity('4097Mi')) < 0"),
    ("!=", "4 GiB", f"{CAP}.compareTo(quantity('4Gi')) < 0 || {CAP}.compareTo(quantity('4097Mi')) >= 0"),
    (">=", "1500 MiB", f"{CAP}.compareTo(quantity('1500Mi')) >= 0"),
    (">=", "4 GB", f"{CAP}.compareTo(quantity('3815Mi')) >= 0"),
    ("<=", "16 GB", f"{CAP}.compareTo(quantity('15259Mi')) < 0"),
    (">=", "1 TiB", f"{CAP}.compareTo(quantity('1Ti')) >= 0"),
    (">", "1 TiB", f"{CAP}.compareTo(quantity('1048577Mi')) >= 0"),
    (">=", "80 GiB", f"{CAP}.compareTo(quantity('80Gi')) >= 0"),
]


@pytest.mark.parametrize(("operator", "value", "expected"), MEMORY_DRA)
def test_memory_bounds_as_cel(operator: str, value: str, expected: str) -> None:
    lowered = lower(job(device("nvidia/gpu", constraint("${device.attr.memory}", operator, value))), "dra")
    assert lowered.selectors == [expected]
    assert lowered.diagnostics == []


def test_memory_equal_to_a_fraction_of_a_mib_never_holds() -> None:
    lowered = lower(job(device("nvidia/gpu", constraint("${device.attr.memory}", "=", "4 GB"))))
    assert lowered.out.required == []
    assert lowered.at(lowered.only("HG301")).startswith("constraint")


def test_memory_not_equal_to_a_fraction_of_a_mib_always_holds() -> None:
    for mode in ("plugin", "dra"):
        lowered = lower(job(device("nvidia/gpu", constraint("${device.attr.memory}", "!=", "4 GB"))), mode)
        assert lowered.diagnostics == []
        assert lowered.out.required == []
        if mode == "dra":
            assert lowered.selectors == []


@pytest.mark.parametrize("value", ["4096", "4 GB/s", "3 GHz", "4 gib", "lots"])
@pytest.mark.parametrize("mode", ["plugin", "dra"])
def test_memory_without_a_byte_unit_is_left_out(value: str, mode: str) -> None:
    lowered = lower(job(device("nvidia/gpu", constraint("${device.attr.memory}", ">=", value))), mode)
    assert lowered.out.required == []
    assert lowered.codes == ["HG301"]
    assert lowered.at(lowered.diagnostics[0]).startswith("constraint")
    if mode == "dra":
        assert lowered.selectors == []


# --------------------------------------------------------------------------- affinity weights


def test_affinity_weight_none_is_50() -> None:
    lowered = lower(job(device("nvidia/gpu", affinity("${device.attr.memory}", ">=", "4 GiB"))))
    assert lowered.out.preferred == [
        {"weight": 50, "preference": {"matchExpressions": [req(MEM, "Gt", "4095")]}}
    ]
    assert lowered.out.required == []


@pytest.mark.parametrize(
    ("operator", "value", "weight", "expected"),
    [
        (">=", "4 GiB", 70, req(MEM, "Gt", "4095")),
        # memory >= 4 GiB is Gt 4095; its complement is M <= 4095, i.e. Lt 4096
        (">=", "4 GiB", -30, req(MEM, "Lt", "4096")),
        # memory < 8 GiB is Lt 8192; its complement is M >= 8192, i.e. Gt 8191
        ("<", "8 GiB", -40, req(MEM, "Gt", "8191")),
        ("=", "16 GiB", -10, req(MEM, "NotIn", "16384")),
        ("!=", "16 GiB", -100, req(MEM, "In", "16384")),
    ],
)
def test_affinity_weights_and_negation(
    operator: str, value: str, weight: int, expected: dict[str, Any]
) -> None:
    lowered = lower(job(device("nvidia/gpu", affinity("${device.attr.memory}", operator, value, weight))))
    assert lowered.out.preferred == [{"weight": abs(weight), "preference": {"matchExpressions": [expected]}}]
    assert lowered.diagnostics == []


def test_negative_model_affinity_prefers_other_models() -> None:
    lowered = lower(job(device("nvidia/gpu", affinity("${device.model}", "=", "Tesla T4", -20))))
    assert lowered.out.preferred == [
        {"weight": 20, "preference": {"matchExpressions": [req(PRODUCT, "NotIn", "Tesla-T4")]}}
    ]
    assert lowered.codes == ["HG302"]  # the sanitised spelling is named


def test_zero_weight_affinity_is_left_out() -> None:
    lowered = lower(job(device("nvidia/gpu", affinity("${device.attr.memory}", ">=", "4 GiB", 0))))
    assert lowered.out.preferred == []
    assert lowered.at(lowered.only("HG301")).startswith("affinity")


def test_weight_beyond_100_is_clamped() -> None:
    lowered = lower(job(device("nvidia/gpu", affinity("${device.attr.memory}", ">=", "4 GiB", 120))))
    assert lowered.out.preferred == [
        {"weight": 100, "preference": {"matchExpressions": [req(MEM, "Gt", "4095")]}}
    ]
    assert lowered.at(lowered.only("HG302")).startswith("affinity")


def test_negative_weight_in_dra_prefers_the_negation() -> None:
    lowered = lower(job(device("nvidia/gpu", affinity("${device.model}", "=", "Tesla T4", -20))), "dra")
    first, fallback = lowered.request["firstAvailable"]
    assert first["name"] == "preferred" and fallback["name"] == "fallback"
    assert first["selectors"] == [{"cel": {"expression": f"!({ATTR}.productName == 'Tesla T4')"}}]
    assert "selectors" not in fallback
    assert "HG301" not in lowered.codes


def test_dra_combines_affinities_by_total_weight() -> None:
    lowered = lower(
        job(
            device(
                "nvidia/gpu",
                constraint("${device.attr.memory}", ">=", "16 GiB"),
                affinity("${device.model}", "=", "NVIDIA L4", 30),
                affinity("${device.attr.memory}", ">=", "40 GiB", 70),
                count=2,
            )
        ),
        "dra",
    )
    base = f"{CAP}.compareTo(quantity('16Gi')) >= 0"
    l4 = f"{ATTR}.productName == 'NVIDIA L4'"
    big = f"{CAP}.compareTo(quantity('40Gi')) >= 0"
    subrequests = lowered.request["firstAvailable"]
    assert [s["name"] for s in subrequests] == ["preferred", "preferred-2", "preferred-3", "fallback"]
    assert [[x["cel"]["expression"] for x in s["selectors"]] for s in subrequests] == [
        [base, big, l4],  # 100
        [base, big],  # 70
        [base, l4],  # 30
        [base],
    ]
    assert all(s["count"] == 2 and s["deviceClassName"] == "gpu.nvidia.com" for s in subrequests)


def test_dra_keeps_three_affinities_within_eight_subrequests() -> None:
    affinities = [affinity("${device.attr.memory}", ">=", f"{n} GiB", n) for n in (10, 20, 30, 40)]
    lowered = lower(job(device("nvidia/gpu", *affinities)), "dra")
    assert len(lowered.request["firstAvailable"]) == 8
    dropped = lowered.only("HG301")
    assert '"10 GiB"' in lowered.at(dropped)


# --------------------------------------------------------------------------- counts and names


def test_count_none_is_one() -> None:
    lowered = lower(job(device("nvidia/gpu", count=None)))
    assert lowered.out.limits == {"nvidia.com/gpu": 1}
    assert lowered.diagnostics == []


@pytest.mark.parametrize("mode", ["plugin", "dra"])
def test_count_zero_is_left_out(mode: str) -> None:
    lowered = lower(job(device("nvidia/gpu", count=0)), mode)
    assert lowered.out.limits == {}
    assert lowered.out.claim_templates == [] and lowered.out.tolerations == []
    assert lowered.at(lowered.only("HG301")).startswith('device "nvidia/gpu"')


def test_requests_of_one_resource_are_summed() -> None:
    lowered = lower(job(device("nvidia/gpu", count=2), device("nvidia/gpu", count=3)))
    assert lowered.out.limits == {"nvidia.com/gpu": 5}
    assert lowered.out.tolerations == [NVIDIA_TOLERATION]
    assert lowered.codes == ["HG302"]


@pytest.mark.parametrize(
    ("name", "resource"),
    [
        ("amd/gpu", "amd.com/gpu"),
        ("aws/neuron", "aws.amazon.com/neuron"),
        ("neuron", "aws.amazon.com/neuron"),
        ("aws/neuroncore", "aws.amazon.com/neuroncore"),
        ("intel/gpu", "gpu.intel.com/i915"),
        ("nvidia/gpu", "nvidia.com/gpu"),
    ],
)
def test_extended_resource_names(name: str, resource: str) -> None:
    lowered = lower(job(device(name, count=2)))
    assert lowered.out.limits == {resource: 2}
    assert lowered.out.tolerations == [{"key": resource, "operator": "Exists", "effect": "NoSchedule"}]
    assert lowered.diagnostics == []


def test_bare_gpu_assumes_nvidia() -> None:
    lowered = lower(job(device("gpu")))
    assert lowered.out.limits == {"nvidia.com/gpu": 1}
    hg302 = lowered.only("HG302")
    assert "assumed" in hg302.message and lowered.at(hg302).startswith('device "gpu"')


def test_bare_gpu_with_a_vendor_constraint() -> None:
    lowered = lower(job(device("gpu", constraint("${device.vendor}", "=", "amd"))))
    assert lowered.out.limits == {"amd.com/gpu": 1}
    assert lowered.diagnostics == []


@pytest.mark.parametrize("name", ["acme/tpu", "NVIDIA/gpu", "tpu", "nvidia/fpga"])
@pytest.mark.parametrize("mode", ["plugin", "dra"])
def test_unknown_vendor_or_type_is_left_out(name: str, mode: str) -> None:
    lowered = lower(job(device(name, constraint("${device.attr.memory}", ">=", "4 GiB"))), mode)
    assert lowered.out.limits == {} and lowered.out.required == [] and lowered.out.claim_templates == []
    assert lowered.at(lowered.only("HG301")).startswith(f'device "{name}"')


def test_other_vendors_have_no_labels_for_constraints() -> None:
    lowered = lower(
        job(
            device(
                "amd/gpu",
                constraint("${device.attr.memory}", ">=", "4 GiB"),
                affinity("${device.model}", "=", "MI300X", 50),
            )
        )
    )
    assert lowered.out.limits == {"amd.com/gpu": 1}
    assert lowered.out.required == [] and lowered.out.preferred == []
    assert [lowered.at(d).split(" ")[0] for d in lowered.diagnostics] == ["constraint", "affinity"]
    assert lowered.codes == ["HG301", "HG301"]


def test_a_device_without_a_dra_class_keeps_its_device_plugin_resource() -> None:
    """No accelerator is dropped: an AMD GPU or a Neuron device has no DRA class hclgpu
    knows, so the pod asks its device plugin's resource, said as HG302 at the device."""
    for name, resource in (("amd/gpu", "amd.com/gpu"), ("aws/neuron", "aws.amazon.com/neuron")):
        lowered = lower(job(device(name)), "dra")
        assert lowered.out.claim_templates == lowered.out.pod_claims == lowered.out.container_claims == []
        assert lowered.out.limits == {resource: 1}
        assert lowered.at(lowered.only("HG302")).startswith(f'device "{name}"')


def test_an_nvidia_claim_and_a_plugin_resource_share_one_pod() -> None:
    lowered = lower(job(device("nvidia/gpu") + device("aws/neuron")), "dra")
    assert len(lowered.out.claim_templates) == 1
    assert lowered.out.limits == {"aws.amazon.com/neuron": 1}


@pytest.mark.parametrize(
    ("attribute", "operator", "value", "codes"),
    [
        ("${device.vendor}", "=", "nvidia", []),
        ("${device.type}", "=", "gpu", []),
        ("${device.vendor}", "!=", "amd", []),
        ("${device.vendor}", "=", "amd", ["HG301"]),
        ("${device.type}", "=", "fpga", ["HG301"]),
    ],
)
def test_vendor_and_type_constraints_are_implied_by_the_resource(
    attribute: str, operator: str, value: str, codes: list[str]
) -> None:
    lowered = lower(job(device("nvidia/gpu", constraint(attribute, operator, value))))
    assert lowered.out.limits == {"nvidia.com/gpu": 1}
    assert lowered.out.required == []
    assert lowered.codes == codes


# --------------------------------------------------------------------------- models


@pytest.mark.parametrize(
    ("model", "label"),
    [
        ("NVIDIA-A100-SXM4-80GB", "NVIDIA-A100-SXM4-80GB"),
        ("NVIDIA A100-SXM4-80GB", "NVIDIA-A100-SXM4-80GB"),
        ("Tesla T4", "Tesla-T4"),
        ("NVIDIA H100 80GB HBM3", "NVIDIA-H100-80GB-HBM3"),
        ("GeForce RTX 3090 (Ti)", "GeForce-RTX-3090-Ti"),
        ("Quadro_RTX.8000", "Quadro_RTX.8000"),
    ],
)
def test_gfd_product_spelling(model: str, label: str) -> None:
    assert gfd_product(model) == label


def test_model_kept_as_written_has_no_note() -> None:
    lowered = lower(job(device("nvidia/gpu", constraint("${device.model}", "=", "NVIDIA-A100-SXM4-80GB"))))
    assert lowered.out.required == [req(PRODUCT, "In", "NVIDIA-A100-SXM4-80GB")]
    assert lowered.diagnostics == []


def test_model_sanitised_is_noted() -> None:
    lowered = lower(job(device("nvidia/gpu", constraint("${device.model}", "!=", "Tesla T4"))))
    assert lowered.out.required == [req(PRODUCT, "NotIn", "Tesla-T4")]
    hg302 = lowered.only("HG302")
    assert "Tesla-T4" in hg302.message and lowered.at(hg302).startswith("constraint")


def test_model_in_the_device_name() -> None:
    plugin = lower(job(device("nvidia/gpu/Tesla T4")))
    assert plugin.out.required == [req(PRODUCT, "In", "Tesla-T4")]
    assert plugin.at(plugin.only("HG302")).startswith('device "nvidia/gpu/Tesla T4"')
    dra = lower(job(device("nvidia/gpu/Tesla T4")), "dra")
    assert dra.selectors == [f"{ATTR}.productName == 'Tesla T4'"]
    assert dra.diagnostics == []


def test_model_constraint_settled_by_the_name() -> None:
    holds = lower(job(device("nvidia/gpu/Tesla T4", constraint("${device.model}", "=", "Tesla T4"))))
    assert holds.out.required == [req(PRODUCT, "In", "Tesla-T4")]
    assert holds.codes == ["HG302"]  # only the sanitised spelling of the name's model
    never = lower(job(device("nvidia/gpu/Tesla T4", constraint("${device.model}", "=", "NVIDIA L4"))))
    assert sorted(never.codes) == ["HG301", "HG302"]
    assert never.out.required == [req(PRODUCT, "In", "Tesla-T4")]


def test_model_regexp_constraint_in_both_modes() -> None:
    text = job(device("nvidia/gpu", constraint("${device.model}", "regexp", "A100|H100")))
    plugin = lower(text)
    assert plugin.out.required == []
    assert "regexp" in plugin.only("HG301").message
    dra = lower(text, "dra")
    assert dra.selectors == [f"{ATTR}.productName.matches('A100|H100')"]
    assert dra.diagnostics == []


def test_model_regexp_with_backslashes_is_escaped_in_cel() -> None:
    # HCL "^Tesla\\s" is the RE2 text ^Tesla\s; in a CEL literal the backslash is doubled
    text = job(device("nvidia/gpu", constraint("${device.model}", "regexp", "^Tesla\\\\s")))
    assert lower(text, "dra").selectors == [f"{ATTR}.productName.matches('^Tesla\\\\s')"]


def test_model_with_quote_and_backslash_is_escaped_in_cel() -> None:
    # HCL "It's \\ odd" is the model It's \ odd
    text = job(device("nvidia/gpu", constraint("${device.model}", "=", "It's \\\\ odd")))
    lowered = lower(text, "dra")
    assert lowered.selectors == [f"{ATTR}.productName == 'It\\'s \\\\ odd'"]


@pytest.mark.parametrize(
    ("text", "literal"),
    [
        ("Tesla T4", "'Tesla T4'"),
        ("It's", "'It\\'s'"),
        ("a\\b", "'a\\\\b'"),
        ('say "hi"', "'say \"hi\"'"),
        ("new\nline\ttab", "'new\\nline\\ttab'"),
        ("bell\x07", "'bell\\u0007'"),
        ("中文 ✓", "'中文 ✓'"),
    ],
)
def test_cel_string_literals(text: str, literal: str) -> None:
    assert cel_string(text) == literal


def test_model_number_never_equals_a_model() -> None:
    # Nomad parses "1080" as an int, which never compares with the model string
    lowered = lower(job(device("nvidia/gpu", constraint("${device.model}", "=", "1080"))))
    assert lowered.out.required == [] and lowered.codes == ["HG301"]


# --------------------------------------------------------------------------- driver version


@pytest.mark.parametrize(
    ("operator", "value", "expected"),
    [
        ("version", ">= 535.0", [req(DRIVER, "Gt", "534")]),
        ("version", "< 600", [req(DRIVER, "Lt", "600")]),
        ("version", ">= 535.0, < 600.0.0", [req(DRIVER, "Gt", "534"), req(DRIVER, "Lt", "600")]),
        ("version", "~> 535.0", [req(DRIVER, "Gt", "534"), req(DRIVER, "Lt", "536")]),
        ("semver", ">= 535.0.0", [req(DRIVER, "Gt", "534")]),
    ],
)
def test_driver_major_bounds_as_labels(operator: str, value: str, expected: list[dict[str, Any]]) -> None:
    lowered = lower(job(device("nvidia/gpu", constraint("${device.attr.driver_version}", operator, value))))
    assert lowered.out.required == expected
    assert lowered.diagnostics == []


@pytest.mark.parametrize(
    ("operator", "value"),
    [("version", ">= 535.104"), ("version", "> 535"), ("version", "<= 600"), ("version", "= 535.104.05"),
     ("=", "535.104.05"), ("version", "535")],
)  # fmt: skip
def test_driver_bounds_inside_a_major_version_are_left_out(operator: str, value: str) -> None:
    lowered = lower(job(device("nvidia/gpu", constraint("${device.attr.driver_version}", operator, value))))
    assert lowered.out.required == []
    assert lowered.at(lowered.only("HG301")).startswith("constraint")


@pytest.mark.parametrize(
    ("operator", "value", "expected"),
    [
        ("version", ">= 535.104", "driverVersion.compareTo(semver('535.104.0')) >= 0"),
        ("semver", "> 535.104.5", "driverVersion.compareTo(semver('535.104.5')) > 0"),
        ("version", "= 535.104.05", "driverVersion.compareTo(semver('535.104.5')) == 0"),
        (
            "version",
            "~> 535.104",
            "driverVersion.compareTo(semver('535.104.0')) >= 0"
            f" && {ATTR}.driverVersion.compareTo(semver('536.0.0')) < 0",
        ),
        (
            "version",
            "~> 535.104.3",
            "driverVersion.compareTo(semver('535.104.3')) >= 0"
            f" && {ATTR}.driverVersion.compareTo(semver('535.105.0')) < 0",
        ),
    ],
)
def test_driver_versions_as_cel(operator: str, value: str, expected: str) -> None:
    lowered = lower(
        job(device("nvidia/gpu", constraint("${device.attr.driver_version}", operator, value))), "dra"
    )
    assert lowered.selectors == [f"{ATTR}.{expected}"]
    assert lowered.diagnostics == []


# --------------------------------------------------------------------------- presence and the rest


def test_is_set_and_is_not_set() -> None:
    plugin = lower(
        job(
            device(
                "nvidia/gpu",
                constraint("${device.attr.memory}", "is_set"),
                constraint("${device.attr.driver_version}", "is_not_set"),
            )
        )
    )
    assert plugin.out.required == [
        {"key": MEM, "operator": "Exists"},
        {"key": DRIVER, "operator": "DoesNotExist"},
    ]
    dra = lower(job(device("nvidia/gpu", constraint("${device.attr.memory}", "is_set"))), "dra")
    assert dra.selectors == ["'memory' in device.capacity['gpu.nvidia.com']"]


@pytest.mark.parametrize(
    ("attribute", "operator", "value"),
    [
        ("${device.ids}", "set_contains_any", "GPU-1,GPU-2"),
        ("${device.attr.power}", ">=", "300 W"),
        ("${device.attr.memory}", "version", ">= 1"),
        ("${device.model}", "set_contains", "T4"),
    ],
)
@pytest.mark.parametrize("mode", ["plugin", "dra"])
def test_unmapped_constraints_are_left_out(attribute: str, operator: str, value: str, mode: str) -> None:
    lowered = lower(job(device("nvidia/gpu", constraint(attribute, operator, value))), mode)
    assert lowered.out.required == []
    if mode == "dra":
        assert lowered.selectors == []
    assert lowered.at(lowered.only("HG301")).startswith("constraint")


def test_node_target_in_a_device_never_holds() -> None:
    lowered = lower(job(device("nvidia/gpu", constraint("${node.class}", "=", "gpu"))))
    assert lowered.out.required == [] and lowered.codes == ["HG301"]


def test_required_terms_are_not_repeated() -> None:
    mem = constraint("${device.attr.memory}", ">=", "4 GiB")
    lowered = lower(job(device("nvidia/gpu", mem), device("nvidia/gpu", mem)))
    assert lowered.out.required == [req(MEM, "Gt", "4095")]


# --------------------------------------------------------------------------- DRA objects


def test_dra_names_keep_the_index_and_stay_dns_labels() -> None:
    long = "a" * 70
    lowered = lower(
        job(device("nvidia/gpu"), device("nvidia/gpu", count=2), job_name=long, task="Train_Task"), "dra"
    )
    names = [t["metadata"]["name"] for t in lowered.out.claim_templates]
    assert [n[-2:] for n in names] == ["-0", "-1"] and all(len(n) <= 63 for n in names)
    assert lowered.out.pod_claims == [
        {"name": "train-task-gpu-0", "resourceClaimTemplateName": names[0]},
        {"name": "train-task-gpu-1", "resourceClaimTemplateName": names[1]},
    ]
    assert lowered.out.container_claims == [{"name": "train-task-gpu-0"}, {"name": "train-task-gpu-1"}]
    counts = [
        t["spec"]["spec"]["devices"]["requests"][0]["exactly"]["count"] for t in lowered.out.claim_templates
    ]
    assert counts == [1, 2]


def test_dra_namespace_and_plain_request() -> None:
    lowered = lower(job(device("nvidia/gpu", count=4)), "dra", namespace="ml")
    [template] = lowered.out.claim_templates
    assert template["metadata"] == {"name": "j-g-t-0", "namespace": "ml"}
    assert lowered.request == {
        "name": "gpu",
        "exactly": {"deviceClassName": "gpu.nvidia.com", "allocationMode": "ExactCount", "count": 4},
    }
    assert lowered.out.limits == {}


DRA_JOBS = [
    job(SEED),
    job(device("nvidia/gpu/Tesla T4", constraint("${device.attr.memory}", "=", "16 GiB"), count=2)),
    job(
        device(
            "nvidia/gpu",
            constraint("${device.attr.driver_version}", "version", "~> 535.104"),
            constraint("${device.attr.memory}", "is_not_set"),
            affinity("${device.model}", "regexp", "^NVIDIA (A|H)100", -30),
            affinity("${device.attr.memory}", "!=", "80 GiB", 20),
            affinity("${device.model}", "<", "It's \\\\ odd", 10),
        )
    ),
]


@pytest.mark.parametrize("text", DRA_JOBS)
def test_dra_templates_validate_against_kubernetes_1_34(text: str) -> None:
    kubernetes_validate = pytest.importorskip("kubernetes_validate")
    for template in lower(text, "dra").out.claim_templates:
        kubernetes_validate.validate(template, "1.34", strict=True)


def _expressions(lowered: Lowered) -> list[str]:
    found = []
    for template in lowered.out.claim_templates:
        for request in template["spec"]["spec"]["devices"]["requests"]:
            for body in request.get("firstAvailable", [request.get("exactly", {})]):
                found += [s["cel"]["expression"] for s in body.get("selectors", [])]
    return found


@needs_celpy
@pytest.mark.parametrize("text", DRA_JOBS)
def test_cel_expressions_parse(text: str) -> None:
    expressions = _expressions(lower(text, "dra"))
    assert expressions
    environment = celpy.Environment()
    for expression in expressions:
        environment.compile(expression)


@needs_celpy
@pytest.mark.parametrize("text", ["Tesla T4", "It's \\ odd", "quote ' \" both", "new\nline", "bell\x07 ✓"])
def test_cel_string_literals_evaluate_to_the_text(text: str) -> None:
    environment = celpy.Environment()
    program = environment.program(environment.compile(cel_string(text)))
    assert str(program.evaluate({})) == text


@needs_celpy
def test_cel_regexp_matches_like_nomad() -> None:
    environment = celpy.Environment()
    pattern = cel_string("^Tesla\\s")
    expression = f"name.matches({pattern})"
    program = environment.program(environment.compile(expression))
    assert program.evaluate({"name": celpy.celtypes.StringType("Tesla T4")}) == celpy.celtypes.BoolType(True)
    assert program.evaluate({"name": celpy.celtypes.StringType("NVIDIA Tesla")}) == celpy.celtypes.BoolType(
        False
    )


# --------------------------------------------------------------------------- MIG instances

A100 = "NVIDIA A100-SXM4-40GB"
MIG_1G = f"{A100} MIG 1g.5gb"

# DeviceClass selectors of NVIDIA's DRA driver (k8s-dra-driver-gpu, deployments/helm/
# dra-driver-nvidia-gpu/templates/deviceclass-{gpu,mig}.yaml).
DEVICE_CLASSES = {
    f"{kind}.nvidia.com": f"device.driver == 'gpu.nvidia.com' && {ATTR}.type == '{kind}'"
    for kind in ("gpu", "mig")
}


def _slice_device(name: str, **attributes: str) -> dict[str, Any]:
    return {"name": name, "attributes": {k: {"string": v} for k, v in attributes.items()}}


# A MIG-enabled A100's devices as the driver publishes them (CommonAttributesMig: the parent's
# productName, plus type "mig" and the profile), and the full GPU.
A100_SLICE = {
    "apiVersion": "resource.k8s.io/v1",
    "kind": "ResourceSlice",
    "spec": {
        "driver": "gpu.nvidia.com",
        "devices": [
            _slice_device("gpu-0", type="gpu", productName=A100),
            _slice_device("gpu-0-mig-1g5gb-0", type="mig", productName=A100, profile="1g.5gb"),
            _slice_device("gpu-0-mig-1g5gb-1", type="mig", productName=A100, profile="1g.5gb"),
            _slice_device("gpu-0-mig-2g10gb-2", type="mig", productName=A100, profile="2g.10gb"),
        ],
    },
}


def _allocatable(request: dict[str, Any]) -> list[str]:
    """The devices of A100_SLICE that the request's class and selectors all accept."""
    assert celpy is not None
    environment = celpy.Environment()
    expressions = [DEVICE_CLASSES[request["deviceClassName"]]]
    expressions += [s["cel"]["expression"] for s in request.get("selectors", [])]
    programs = [environment.program(environment.compile(e)) for e in expressions]
    driver = A100_SLICE["spec"]["driver"]  # type: ignore[index]
    names = []
    for slice_device in A100_SLICE["spec"]["devices"]:  # type: ignore[index]
        attributes = {
            k: celpy.celtypes.StringType(v["string"]) for k, v in slice_device["attributes"].items()
        }
        device_value = celpy.json_to_cel({"driver": driver, "attributes": {driver: {}}})
        device_value[celpy.celtypes.StringType("attributes")][celpy.celtypes.StringType(driver)] = (
            celpy.celtypes.MapType(attributes)
        )
        if all(
            program.evaluate({"device": device_value}) == celpy.celtypes.BoolType(True)
            for program in programs
        ):
            names.append(slice_device["name"])
    return names


MIG_JOBS = {
    "name": device(f"nvidia/gpu/{MIG_1G}", count=2),
    "constraint": device("nvidia/gpu", constraint("${device.model}", "=", MIG_1G), count=2),
    "constraint ==": device("nvidia/gpu", constraint("${device.model}", "==", MIG_1G), count=2),
}


@pytest.mark.parametrize("block", MIG_JOBS.values(), ids=list(MIG_JOBS))
def test_mig_model_is_a_claim_in_the_mig_class(block: str) -> None:
    lowered = lower(job(block), "dra")
    assert lowered.request["exactly"]["deviceClassName"] == "mig.nvidia.com"
    assert lowered.request["exactly"]["count"] == 2
    assert lowered.selectors == [f"{ATTR}.productName == '{A100}'", f"{ATTR}.profile == '1g.5gb'"]
    assert lowered.out.tolerations == [NVIDIA_TOLERATION]


def test_whole_gpu_model_stays_in_the_gpu_class() -> None:
    lowered = lower(job(device(f"nvidia/gpu/{A100}")), "dra")
    assert lowered.request["exactly"]["deviceClassName"] == "gpu.nvidia.com"
    assert lowered.selectors == [f"{ATTR}.productName == '{A100}'"]


@needs_celpy
@pytest.mark.parametrize("block", MIG_JOBS.values(), ids=list(MIG_JOBS))
def test_mig_claim_allocates_exactly_the_profile_slices(block: str) -> None:
    assert _allocatable(lower(job(block), "dra").request["exactly"]) == [
        "gpu-0-mig-1g5gb-0",
        "gpu-0-mig-1g5gb-1",
    ]


@needs_celpy
def test_whole_gpu_claim_allocates_the_full_gpu_only() -> None:
    assert _allocatable(lower(job(device(f"nvidia/gpu/{A100}")), "dra").request["exactly"]) == ["gpu-0"]


def test_mig_claims_validate_against_kubernetes_1_34() -> None:
    kubernetes_validate = pytest.importorskip("kubernetes_validate")
    for template in lower(job(*MIG_JOBS.values()), "dra").out.claim_templates:
        kubernetes_validate.validate(template, "1.34", strict=True)


def lower_mig(text: str, strategy: str | None) -> Lowered:
    result = compile_source(SourceFile("j.hcl", text), checks=False)
    assert result.job is not None
    group = result.job.task_groups[0]  # type: ignore[index]
    sink = Sink()
    given = {} if strategy is None else {"mig_strategy": strategy}
    options = registry.render_options("kubernetes", k8s_devices="plugin", **given)
    out = lower_devices("j", "g", group.tasks[0], Lowering("kubernetes", result.source, sink, options))  # type: ignore[index]
    return Lowered(out, sink.sorted(), text)


@pytest.mark.parametrize("strategy", [None, "mixed"])
@pytest.mark.parametrize("block", MIG_JOBS.values(), ids=list(MIG_JOBS))
def test_mixed_strategy_asks_for_the_profile_resource(block: str, strategy: str | None) -> None:
    lowered = lower_mig(job(block), strategy)
    assert lowered.out.limits == {"nvidia.com/mig-1g.5gb": 2}
    # GPU Feature Discovery's label of the profile's product names the parent it is cut from
    product = req("nvidia.com/mig-1g.5gb.product", "In", f"{A100.replace(' ', '-')}-MIG-1g.5gb")
    assert lowered.out.required == [product]
    assert lowered.out.tolerations == [NVIDIA_TOLERATION]
    assert "mixed MIG strategy" in lowered.only("HG302").message


def test_mixed_strategy_tests_memory_on_the_profile_label() -> None:
    block = device(
        f"nvidia/gpu/{A100} MIG 1g.10gb+me", constraint("${device.attr.memory}", ">=", "8 GiB"), count=1
    )
    lowered = lower_mig(job(block), "mixed")
    assert lowered.out.limits == {"nvidia.com/mig-1g.10gb.me": 1}
    product = req("nvidia.com/mig-1g.10gb.me.product", "In", f"{A100.replace(' ', '-')}-MIG-1g.10gb.me")
    assert lowered.out.required == [product, gt("nvidia.com/mig-1g.10gb.me.memory", "8191")]


@pytest.mark.parametrize("block", MIG_JOBS.values(), ids=list(MIG_JOBS))
def test_single_strategy_asks_for_gpus_with_the_mig_product_label(block: str) -> None:
    lowered = lower_mig(job(block), "single")
    assert lowered.out.limits == {"nvidia.com/gpu": 2}
    assert lowered.out.required == [req(PRODUCT, "In", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb")]
    assert lowered.out.tolerations == [NVIDIA_TOLERATION]


def test_gfd_product_of_a_mig_profile_with_plus() -> None:
    assert gfd_product(f"{A100} MIG 1g.10gb+me") == "NVIDIA-A100-SXM4-40GB-MIG-1g.10gb.me"
