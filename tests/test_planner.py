"""The placement dry-run (`hclgpu.plan.planner`) on hand-written inventories.

Every expected value is derived by hand from Nomad's scheduler semantics
(shared/reference/nomad-semantics.md §1, §4-7); the comments show the arithmetic.
"""

from __future__ import annotations

import json
import re

import pytest

from hclgpu.ir import models as m
from hclgpu.pipeline import compile_source
from hclgpu.plan.model import DeviceGroup, Instance, Inventory, Node
from hclgpu.plan.nodecheck import check_order, constraint_holds, resolve_target
from hclgpu.plan.planner import GroupPlan, device_id, go_glob, id_matches, plan
from hclgpu.plan.report import to_json, to_text
from hclgpu.source import SourceFile

# ------------------------------------------------------------------------------ helpers


def job(resources: str = "", job_body: str = "", group: str = "") -> m.Job:
    """A job with one group "g" of one task "t"; the arguments go inside the task's
    `resources`, the job and the group."""
    text = f"""
job "j" {{
  {job_body}
  group "g" {{
    {group}
    task "t" {{
      driver = "docker"
      config {{ image = "x" }}
      resources {{
        {resources}
      }}
    }}
  }}
}}
"""
    result = compile_source(SourceFile("j.hcl", one_per_line(text)), checks=False)
    assert result.job is not None, result.diagnostics
    return result.job


def one_per_line(text: str) -> str:
    """HCL wants one attribute per line; the tests write blocks on one line for brevity."""
    text = text.replace("{ ", "{\n").replace(" }", "\n}")
    return re.sub(r" (operator|value|weight) =", r"\n\1 =", text)


def gpus(model: str, *ids: str, memory: str = "16130 MiB", unhealthy: tuple[str, ...] = ()) -> DeviceGroup:
    instances = [Instance(id=i) for i in ids] + [Instance(id=i, healthy=False) for i in unhealthy]
    return DeviceGroup(
        vendor="nvidia", type="gpu", model=model, instances=instances, attributes={"memory": memory}
    )


V100 = "Tesla V100-SXM2-16GB"


def node(name: str, *devices: DeviceGroup, **fields: object) -> Node:
    return Node.model_validate({"name": name, "devices": list(devices), **fields})


def one(plans: list[GroupPlan]) -> GroupPlan:
    assert len(plans) == 1
    return plans[0]


def reasons(group: GroupPlan) -> dict[str, str]:
    return {item.node: item.reason for item in group.infeasible}


# ------------------------------------------------------------------------------ names


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("gpu", ("", "gpu", "")),
        ("nvidia/gpu", ("nvidia", "gpu", "")),
        ("nvidia/gpu/Tesla K80", ("nvidia", "gpu", "Tesla K80")),
        ("a/b/c/d", ("a", "b", "c/d")),
        ("nvidia//x", ("nvidia", "", "x")),
    ],
)
def test_device_id_split(name: str, expected: tuple[str, str, str]) -> None:
    assert device_id(name) == expected


@pytest.mark.parametrize(
    ("name", "matches"),
    [("gpu", True), ("nvidia/gpu", True), (f"nvidia/gpu/{V100}", True), ("amd/gpu", False),
     ("nvidia/gpu/tesla v100-sxm2-16gb", False), ("fpga", False), (f"nvidia//{V100}", True)],
)  # fmt: skip
def test_id_matches_exact_non_empty_parts(name: str, matches: bool) -> None:
    assert id_matches(name, gpus(V100, "a")) is matches


@pytest.mark.parametrize("name", ["gpu", "nvidia/gpu", f"nvidia/gpu/{V100}"])
def test_feasible_by_every_name_form(name: str) -> None:
    inventory = Inventory(nodes=[node("n1", gpus(V100, "GPU-a"))])
    group = one(plan(job(f'device "{name}" {{}}'), inventory))
    assert [p.node for p in group.placements] == ["n1"]
    assert group.placements[0].devices[0].group == f"nvidia/gpu/{V100}"
    assert group.placements[0].devices[0].ids == ["GPU-a"]
    assert group.unplaced == 0


def test_no_matching_group_reason() -> None:
    inventory = Inventory(nodes=[node("n1", gpus(V100, "GPU-a"))])
    group = one(plan(job('device "amd/gpu" {}'), inventory))
    assert reasons(group) == {"n1": "no healthy `amd/gpu` device group matches"}
    assert group.unplaced == 1


# ------------------------------------------------------------------------------ units


def memory_job(value: str) -> m.Job:
    return job(
        f'device "nvidia/gpu" {{ constraint {{ attribute = "${{device.attr.memory}}" '
        f'operator = ">=" value = "{value}" }} }}'
    )


def test_memory_constraint_with_units() -> None:
    inventory = Inventory(nodes=[node("n1", gpus(V100, "GPU-a"))])
    # 16130 MiB = 16130 * 2^20 = 16,913,530,880 B < 16 GiB = 17,179,869,184 B → fails
    failed = one(plan(memory_job("16 GiB"), inventory))
    assert failed.placements == []
    assert reasons(failed) == {
        "n1": f"`${{device.attr.memory}} >= 16 GiB` fails on nvidia/gpu/{V100}: 16130 MiB (15.75 GiB) is less"
    }
    # 15 GiB = 16,106,127,360 B ≤ 16,913,530,880 B → passes
    assert [p.node for p in one(plan(memory_job("15 GiB"), inventory)).placements] == ["n1"]


def test_unitless_value_is_not_comparable() -> None:
    # "16000" has no unit, the attribute has MiB: Compare says not comparable → fails
    inventory = Inventory(nodes=[node("n1", gpus(V100, "GPU-a"))])
    group = one(plan(memory_job("16000"), inventory))
    assert reasons(group)["n1"].endswith("16130 MiB (15.75 GiB) and 16000 are not comparable")


def test_missing_attribute_reason() -> None:
    inventory = Inventory(nodes=[node("n1", gpus(V100, "GPU-a"))])
    text = 'device "gpu" { constraint { attribute = "${device.attr.bar1}" operator = ">" value = "1 GiB" } }'
    assert reasons(one(plan(job(text), inventory)))["n1"].endswith("${device.attr.bar1} is not set")


# ------------------------------------------------------------------------------ counting


def test_unhealthy_instances_are_excluded() -> None:
    inventory = Inventory(nodes=[node("n1", gpus(V100, "GPU-a", unhealthy=("GPU-b",)))])
    group = one(plan(job('device "nvidia/gpu" { count = 2 }'), inventory))
    # one healthy of two → missing devices
    assert reasons(group) == {"n1": "missing devices: 2 `nvidia/gpu` requested, 1 healthy"}
    assert group.unplaced == 1


def test_all_unhealthy_group_does_not_match() -> None:
    inventory = Inventory(nodes=[node("n1", gpus(V100, unhealthy=("GPU-a",)))])
    group = one(plan(job('device "nvidia/gpu" {}'), inventory))
    assert reasons(group) == {"n1": "no healthy `nvidia/gpu` device group matches"}


def test_a_request_never_spans_two_groups() -> None:
    # 1 V100 + 1 T4 = 2 healthy, but each group alone has 1 < 2
    inventory = Inventory(nodes=[node("n1", gpus(V100, "GPU-a"), gpus("Tesla T4", "GPU-b"))])
    group = one(plan(job('device "nvidia/gpu" { count = 2 }'), inventory))
    assert group.placements == []
    assert reasons(group)["n1"].startswith("`nvidia/gpu`: 2 requested, 2 healthy free but no single")


def test_two_requests_use_two_groups() -> None:
    # one request per group is fine
    inventory = Inventory(nodes=[node("n1", gpus(V100, "GPU-a"), gpus("Tesla T4", "GPU-b"))])
    body = f'device "nvidia/gpu/{V100}" {{}}\n device "nvidia/gpu/Tesla T4" {{}}'
    placement = one(plan(job(body), inventory)).placements[0]
    assert [(d.group, d.ids) for d in placement.devices] == [
        (f"nvidia/gpu/{V100}", ["GPU-a"]),
        ("nvidia/gpu/Tesla T4", ["GPU-b"]),
    ]


def test_zero_count_is_never_placed() -> None:
    inventory = Inventory(nodes=[node("n1", gpus(V100, "GPU-a"))])
    group = one(plan(job('device "gpu" { count = 0 }'), inventory))
    assert reasons(group) == {"n1": "`gpu`: invalid request of zero devices"}


def test_device_ids_filter_per_instance() -> None:
    inventory = Inventory(nodes=[node("n1", gpus(V100, "GPU-a", "GPU-b", "GPU-c"))])
    text = (
        'device "nvidia/gpu" { count = 1\n constraint { attribute = "${device.ids}" '
        'operator = "set_contains_any" value = "GPU-c,GPU-x" } }'
    )
    # feasibility: "GPU-a,GPU-b,GPU-c" contains GPU-c → group matches; assignment: only GPU-c passes
    assert one(plan(job(text), inventory)).placements[0].devices[0].ids == ["GPU-c"]
    # count 2: feasible (3 healthy match), but only one instance passes the per-instance filter
    # in createOffer → the node is exhausted on "devices: no devices match request"
    group = one(plan(job(text.replace("count = 1", "count = 2")), inventory))
    assert reasons(group) == {"n1": "devices: 2 `nvidia/gpu` requested, 1 healthy and free"}
    assert group.infeasible[0].dimension == "devices: no devices match request"
    assert group.infeasible[0].filtered is False


# ------------------------------------------------------------------------------ scoring


def affinity_job() -> m.Job:
    return job(
        'device "nvidia/gpu" {\n'
        '  affinity { attribute = "${device.model}" value = "Tesla T4" weight = 50 }\n'
        '  affinity { attribute = "${device.attr.memory}" operator = ">" value = "20 GiB" weight = -25 }\n'
        "}"
    )


def test_device_affinity_score_and_group_choice() -> None:
    # T4 (15 GiB): matches model (+50), memory > 20 GiB is false → 50 / (50 + 25) = 2/3
    # A100 (40 GiB): model no, memory yes (-25) → -25 / 75 = -1/3
    inventory = Inventory(
        nodes=[
            node("big", gpus("A100", "GPU-x", memory="40 GiB")),
            node("both", gpus("A100", "GPU-y", memory="40 GiB"), gpus("Tesla T4", "GPU-z", memory="15 GiB")),
        ]
    )
    group = one(plan(affinity_job(), inventory))
    best = group.placements[0]
    assert best.node == "both"
    assert best.devices[0].ids == ["GPU-z"]  # the T4 group wins on score
    assert best.components == {"devices": pytest.approx(50 / 75)}
    assert best.score == pytest.approx(2 / 3)
    assert group.unplaced == 0 and len(group.placements) == 1


def test_score_tie_goes_to_the_earlier_group() -> None:
    # no affinities: both groups score 0, the first in inventory order wins (Nomad: random)
    inventory = Inventory(nodes=[node("n1", gpus("A", "GPU-1"), gpus("B", "GPU-2"))])
    placement = one(plan(job('device "gpu" {}'), inventory)).placements[0]
    assert placement.devices[0].group == "nvidia/gpu/A"
    assert placement.components == {} and placement.score == 0.0


def test_node_affinity_and_mean_of_components() -> None:
    # n1: node affinity rack = r1 (weight 100) matches, kernel = windows (default 50) does not
    #     → 100 / (100 + 50) = 2/3; devices: model T4 (50) → 50 / 50 = 1; mean (2/3 + 1) / 2 = 5/6
    # n0: no node affinity matches → 0 / 150 = 0, which since Nomad 1.10.2 (#25800) is still
    #     averaged in: (1 + 0) / 2 = 1/2. n1 first; its only GPU is then taken, so n0 second.
    text = job(
        'device "gpu" { affinity { attribute = "${device.model}" value = "T4" weight = 50 } }',
        group='count = 2\naffinity { attribute = "${meta.rack}" value = "r1" weight = 100 }\n'
        'affinity { attribute = "${attr.kernel.name}" value = "windows" }',
    )
    inventory = Inventory(
        nodes=[
            node("n0", gpus("T4", "GPU-0"), meta={"rack": "r2"}, attributes={"kernel.name": "linux"}),
            node("n1", gpus("T4", "GPU-1"), meta={"rack": "r1"}, attributes={"kernel.name": "linux"}),
        ]
    )
    first, second = one(plan(text, inventory)).placements
    assert first.node == "n1"
    assert first.components == {"devices": 1.0, "node-affinity": pytest.approx(100 / 150)}
    assert first.score == pytest.approx(5 / 6)
    assert (second.node, second.components, second.score) == (
        "n0",
        {"devices": 1.0, "node-affinity": 0.0},
        0.5,
    )


def test_negative_node_affinity_lowers_the_score() -> None:
    # rack = r1 weight -30 matches on n0 only: -30 / 30 = -1 → n0 scores -1, n1 scores 0
    text = job(group='affinity { attribute = "${meta.rack}" value = "r1" weight = -30 }')
    inventory = Inventory(nodes=[node("n0", meta={"rack": "r1"}), node("n1", meta={"rack": "r2"})])
    best = one(plan(text, inventory)).placements[0]
    assert (best.node, best.score) == ("n1", 0.0)


def test_node_affinity_zero_counts_when_the_job_has_affinities() -> None:
    # rank.go:967-992 at 2.0.6: a job with affinities always gets the component, 0 / 50 here
    text = job(group='affinity { attribute = "${meta.rack}" value = "r9" }')
    placement = one(plan(text, Inventory(nodes=[node("n1", meta={"rack": "r1"})]))).placements[0]
    assert placement.components == {"node-affinity": 0.0} and placement.score == 0.0


# ------------------------------------------------------------------------------ node checker


@pytest.mark.parametrize(
    ("left", "op", "right", "holds"),
    [
        ("10", ">", "9", True),  # int64: 10 > 9
        ("10", "<", "9.5", False),  # float64: 10.0 < 9.5 is false
        ("abc", "<", "abd", True),  # lexical
        ("10", ">", "9x", False),  # lexical: "1" < "9"
        ("1.10", ">", "1.9", False),  # float: 1.1 < 1.9 (a version would say otherwise)
    ],
)
def test_node_order_is_int_then_float_then_lexical(left: str, op: str, right: str, holds: bool) -> None:
    assert check_order(op, left, right) is holds


def test_node_targets_and_raw_string_equality() -> None:
    n = node("n1", datacenter="dc9", node_class="big", attributes={"mem": "16 GiB"}, meta={"r": "1"})
    assert resolve_target("${node.unique.name}", n) == ("n1", True)
    assert resolve_target("${node.unique.id}", n) == ("n1", True)
    assert resolve_target("${node.class}", n) == ("big", True)
    assert resolve_target("${node.pool}", n) == ("default", True)
    assert resolve_target("${meta.nope}", n) == ("", False)
    assert resolve_target("${device.model}", n) == ("", False)
    # no units at node level: "16 GiB" != "16384 MiB" as strings
    assert not constraint_holds("${attr.mem}", "=", "16384 MiB", n)
    assert constraint_holds("${attr.mem}", "!=", "16384 MiB", n)
    # != with the left side missing: "" vs "x" → true; both missing → false
    assert constraint_holds("${meta.nope}", "!=", "x", n)
    assert not constraint_holds("${meta.nope}", "!=", "${meta.gone}", n)
    assert constraint_holds("${meta.r}", "is_set", "", n) and constraint_holds(
        "${meta.x}", "is_not_set", "", n
    )
    assert constraint_holds("${attr.mem}", "regexp", "^16", n)
    assert constraint_holds("${node.datacenter}", "set_contains_any", "dc1, dc9", n)
    assert constraint_holds("${meta.r}", "version", ">= 0.5", n)


def test_node_constraint_reason_numeric_vs_lexical() -> None:
    # "${attr.cpu.numcores} >= 16": "8" vs "16" as int64 → 8 < 16 fails (lexically "8" > "16")
    text = job("", job_body='constraint { attribute = "${attr.cpu.numcores}" operator = ">=" value = "16" }')
    inventory = Inventory(
        nodes=[
            node("small", attributes={"cpu.numcores": "8"}),
            node("big", attributes={"cpu.numcores": "32"}),
        ]
    )
    group = one(plan(text, inventory))
    assert [p.node for p in group.placements] == ["big"]
    assert reasons(group) == {"small": "`${attr.cpu.numcores} >= 16` fails: ${attr.cpu.numcores} is 8"}


def test_device_targets_never_resolve_in_node_constraints() -> None:
    text = job("", job_body='constraint { attribute = "${device.model}" value = "T4" }')
    group = one(plan(text, Inventory(nodes=[node("n1", gpus("T4", "GPU-0"))])))
    assert reasons(group) == {"n1": "`${device.model} = T4` fails: ${device.model} is not set"}


# ------------------------------------------------------------------------------ datacenters, pools


@pytest.mark.parametrize(
    ("pattern", "subject", "matches"),
    [("*", "x", True), ("dc*", "dc2", True), ("*-east", "us-east", True), ("a*c*e", "abcde", True),
     ("dc1", "dc10", False), ("dc*", "xdc1", False), ("", "", True)],
)  # fmt: skip
def test_go_glob(pattern: str, subject: str, matches: bool) -> None:
    assert go_glob(pattern, subject) is matches


def test_datacenters_and_node_pool() -> None:
    inventory = Inventory(
        nodes=[
            node("a", datacenter="dc1"),
            node("b", datacenter="dc2"),
            node("c", datacenter="dc1", node_pool="gpu"),
        ]
    )
    group = one(plan(job("", job_body='datacenters = ["dc1"]'), inventory))
    assert [p.node for p in group.placements] == ["a"]
    assert reasons(group) == {"b": "datacenter dc2 is not in [dc1]", "c": "node pool gpu is not default"}
    pooled = one(plan(job("", job_body='datacenters = ["dc*"]\n node_pool = "gpu"'), inventory))
    assert [p.node for p in pooled.placements] == ["c"]
    everywhere = one(plan(job(group="count = 3", job_body='node_pool = "all"'), inventory))
    # no resources, no devices: the first allocation ties at 0 → a; then a carries
    # job-anti-affinity −(1+1)/3 and b, c still score 0 → b, then c
    assert [p.node for p in everywhere.placements] == ["a", "b", "c"]


# ------------------------------------------------------------------------------ count, distinct_hosts


def test_count_packs_several_allocations_per_node() -> None:
    # n1 has 3 GPUs, n2 has 1; count 5 of 1 GPU each, no other score component:
    # 1st: tie at 0 → n1 (g1). 2nd: n1 has job-anti-affinity −(1+1)/5 = −0.4, n2 0 → n2 (g4).
    # 3rd: n2 has no GPU left → n1 at −0.4 (g2). 4th: n1 at −(2+1)/5 = −0.6 (g3). 5th: none.
    # Placements are listed best score first.
    inventory = Inventory(nodes=[node("n1", gpus("T4", "g1", "g2", "g3")), node("n2", gpus("T4", "g4"))])
    group = one(plan(job_count(5), inventory))
    assert [(p.node, p.devices[0].ids, p.score) for p in group.placements] == [
        ("n1", ["g1"], 0.0),
        ("n2", ["g4"], 0.0),
        ("n1", ["g2"], pytest.approx(-2 / 5)),
        ("n1", ["g3"], pytest.approx(-3 / 5)),
    ]
    assert group.unplaced == 1  # 5 − 4 GPUs
    assert group.infeasible == []  # both nodes could take the first allocation


def job_count(count: int, extra: str = "") -> m.Job:
    text = f"""
job "j" {{
  {extra}
  group "g" {{
    count = {count}
    task "t" {{
      driver = "docker"
      config {{ image = "x" }}
      resources {{
        device "gpu" {{}}
      }}
    }}
  }}
}}
"""
    result = compile_source(SourceFile("j.hcl", text), checks=False)
    assert result.job is not None
    return result.job


def test_distinct_hosts_one_allocation_per_node() -> None:
    inventory = Inventory(nodes=[node("n1", gpus("T4", "g1", "g2", "g3")), node("n2", gpus("T4", "g4"))])
    group = one(plan(job_count(3, "constraint { distinct_hosts = true }"), inventory))
    assert [p.node for p in group.placements] == ["n1", "n2"]
    assert group.unplaced == 1
    off = one(plan(job_count(3, "constraint { distinct_hosts = false }"), inventory))
    # off: anti-affinity alone → n1, n2 (0 beats −2/3), then n1 at −(1+1)/3
    assert [(p.node, p.score) for p in off.placements] == [
        ("n1", 0.0),
        ("n2", 0.0),
        ("n1", pytest.approx(-2 / 3)),
    ]


# ------------------------------------------------------------------------------ report


def test_json_shape_and_text() -> None:
    inventory = Inventory(nodes=[node("n1", gpus("T4", "g1")), node("n2", datacenter="dc2")])
    plans = plan(job_count(2, 'datacenters = ["dc1"]'), inventory)
    data = to_json(plans)
    assert json.loads(json.dumps(data)) == {
        "version": 1,
        "algorithm": "binpack",
        "notes": [],
        "groups": [
            {
                "name": "g",
                "count": 2,
                "placements": [
                    {
                        "node": "n1",
                        "score": 0.0,
                        "components": {},
                        "resources": {"cpu": 100, "memory": 300, "disk": 300, "cores": 0},
                        "devices": [{"task": "t", "request": "gpu", "group": "nvidia/gpu/T4", "ids": ["g1"]}],
                    }
                ],
                "infeasible": [
                    {
                        "node": "n2",
                        "reason": "datacenter dc2 is not in [dc1]",
                        "dimension": "datacenter",
                        "filtered": True,
                    }
                ],
                "unplaced": 1,
                "metrics": {
                    "nodes_evaluated": 1,
                    "nodes_filtered": 0,
                    "nodes_in_pool": 1,
                    "nodes_available": {"dc1": 1},
                    "class_filtered": {},
                    "constraint_filtered": {},
                    "nodes_exhausted": 1,
                    "class_exhausted": {},
                    "dimension_exhausted": {"devices: no devices match request": 1},
                },
            }
        ],
    }
    text = to_text(plans)
    assert text[0] == "group g: 1/2 placed"
    assert "  n2: datacenter dc2 is not in [dc1]" in text
    assert "  1 allocation(s) could not be placed" in text
    assert text[-3:] == [
        '  Task Group "g" (failed to place 1 allocation):',
        "    * Resources exhausted on 1 nodes",
        '    * Dimension "devices: no devices match request" exhausted on 1 nodes',
    ]
