"""Nomad's score components, one at a time, against arithmetic done by hand.

Each expected value is written as the formula from Nomad's source (cited in
hclgpu/plan/scores.py), evaluated by Python, never copied from hclgpu's output.
"""

from __future__ import annotations

import pytest

from hclgpu.plan.model import Inventory, Node
from hclgpu.plan.planner import GroupPlan, plan
from hclgpu.plan.scores import (
    anti_affinity,
    even_spread_boost,
    fit_score,
    free_fractions,
    normalized,
    target_spread_boost,
)
from tests.test_planner import gpus, job

# ------------------------------------------------------------------------------ bin packing


def test_free_fractions_count_everything_on_the_node() -> None:
    # 4000 MHz and 8192 MB available, 1000 MHz and 2048 MB used → 3/4 free of each
    assert free_fractions(4000, 8192, 1000, 2048) == (0.75, 0.75)
    assert free_fractions(0, 0, 0, 0) == (0.0, 0.0)  # a node without capacity counts as full


def test_binpack_fit_is_bestfit_v3_over_18() -> None:
    assert fit_score(0.75, 0.75) == pytest.approx((20 - (10**0.75 + 10**0.75)) / 18)
    assert fit_score(0.5, 0.25) == pytest.approx((20 - (10**0.5 + 10**0.25)) / 18)
    assert fit_score(1.0, 1.0) == 0.0  # an empty node: 20 − 20
    assert fit_score(0.0, 0.0) == 1.0  # a full node: 20 − 2 = 18, the maximum


def test_spread_fit_is_the_mirror_image() -> None:
    assert fit_score(0.75, 0.75, "spread") == pytest.approx((10**0.75 + 10**0.75 - 2) / 18)
    assert fit_score(1.0, 1.0, "spread") == 1.0
    assert fit_score(0.0, 0.0, "spread") == 0.0


def test_fit_is_clamped() -> None:
    # more used than the node has: free < 0 → 10^-1 + 10^-1 = 0.2 → 19.8 > 18 → 18
    assert fit_score(-1.0, -1.0) == 1.0
    assert fit_score(-1.0, -1.0, "spread") == 0.0


def node(name: str, cpu: int, memory: int, **fields: object) -> Node:
    return Node.model_validate({"name": name, "resources": {"cpu": cpu, "memory": memory}, **fields})


def placements(group: GroupPlan) -> list[tuple[str, float]]:
    return [(p.node, p.score) for p in group.placements]


def test_binpack_prefers_the_fuller_node_and_spread_the_emptier() -> None:
    # the default task asks 100 MHz, 300 MB. small: 1000 MHz / 1000 MB → free 0.9, 0.7;
    # large: 10000 / 10000 → free 0.99, 0.97
    inventory = Inventory(nodes=[node("large", 10000, 10000), node("small", 1000, 1000)])
    small = (20 - (10**0.9 + 10**0.7)) / 18
    large = (20 - (10**0.99 + 10**0.97)) / 18
    assert small > large
    assert placements(plan(job(), inventory)[0]) == [("small", pytest.approx(small))]
    spread_small = (10**0.9 + 10**0.7 - 2) / 18
    spread_large = (10**0.99 + 10**0.97 - 2) / 18
    assert placements(plan(job(), inventory, algorithm="spread")[0]) == [
        ("large", pytest.approx(spread_large))
    ]
    assert spread_large > spread_small


def test_reserved_resources_are_taken_off_first() -> None:
    # 2000 MHz, 2000 MB, reserving 1000 of each: 1000 available; 100 / 300 used → 0.9, 0.7 free
    inventory = Inventory(nodes=[node("n", 2000, 2000, reserved={"cpu": 1000, "memory": 1000})])
    (placement,) = plan(job(), inventory)[0].placements
    assert placement.components == {"binpack": pytest.approx((20 - (10**0.9 + 10**0.7)) / 18)}


# ------------------------------------------------------------------------------ capacity


@pytest.mark.parametrize(
    ("resources", "fields", "reason"),
    [
        ("memory = 32768", {}, "memory: needs 32768 MB, 12288 MB free"),
        ("cpu = 5000", {}, "cpu: needs 5000 MHz, 4000 MHz free"),
        ("cores = 3", {}, "cores: needs 3, 2 free"),
        ("", {"ephemeral": "ephemeral_disk { size = 9000 }"}, "disk: needs 9000 MB, 8000 MB free"),
    ],
)
def test_capacity_exhaustion_names_the_dimension(resources: str, fields: dict[str, str], reason: str) -> None:
    # the node: 4000 MHz, 12288 MB, 8000 MB of disk, 2 cores
    inventory = Inventory(
        nodes=[
            Node.model_validate(
                {"name": "n", "resources": {"cpu": 4000, "memory": 12288, "disk": 8000, "cores": 2}}
            )
        ]
    )
    group = plan(job(resources, group=fields.get("ephemeral", "")), inventory)[0]
    assert [(i.node, i.reason, i.filtered) for i in group.infeasible] == [("n", reason, False)]
    assert group.metrics is not None
    assert group.metrics.nodes_exhausted == 1
    assert dict(group.metrics.dimension_exhausted) == {reason.split(":")[0]: 1}


def test_cores_are_priced_at_the_nodes_mhz_per_core() -> None:
    # 8 cores of 16000 MHz = 2000 MHz each; 2 cores → 4000 MHz of CPU, free 1 − 4000/16000
    inventory = Inventory(
        nodes=[Node.model_validate({"name": "n", "resources": {"cpu": 16000, "memory": 10000, "cores": 8}})]
    )
    (placement,) = plan(job("cores = 2"), inventory)[0].placements
    assert (placement.cpu, placement.cores) == (4000, 2)
    assert placement.components["binpack"] == pytest.approx((20 - (10**0.75 + 10 ** (1 - 300 / 10000))) / 18)


def test_ports_static_collision_and_dynamic_exhaustion() -> None:
    network = 'network { port "http" { static = 22 } }'
    inventory = Inventory(nodes=[node("n", 4000, 4000, reserved={"ports": [22]})])
    (infeasible,) = plan(job(group=network), inventory)[0].infeasible
    assert infeasible.reason == "network: reserved port collision http=22"
    dynamic = 'network {\nport "a" {}\nport "b" {}\nport "c" {}\n}'
    ports = {"min_dynamic_port": 20000, "max_dynamic_port": 20002}
    tight = Node.model_validate(
        {"name": "n", "resources": {"cpu": 4000, "memory": 4000, **ports}, "reserved": {"ports": [20001]}}
    )
    (infeasible,) = plan(job(group=dynamic), Inventory(nodes=[tight]))[0].infeasible
    # 3 ports in the range, one reserved → 2 free for 3 dynamic ports
    assert infeasible.reason == "network: dynamic port selection failed (3 needed, 2 free)"
    assert infeasible.dimension == "network: dynamic port selection failed"


def test_devices_exhaust_when_every_free_instance_is_held() -> None:
    inventory = Inventory(
        nodes=[Node.model_validate({"name": "n", "devices": [gpus("T4", "g1").model_dump()]})]
    )
    group = plan(job('device "nvidia/gpu" {}', group="count = 2"), inventory)[0]
    assert [p.devices[0].ids for p in group.placements] == [["g1"]]
    assert group.metrics is not None and dict(group.metrics.dimension_exhausted) == {
        "devices: no devices match request": 1
    }


# ------------------------------------------------------------------------------ anti-affinity


@pytest.mark.parametrize("collisions", [1, 2, 3, 4])
def test_anti_affinity_penalty(collisions: int) -> None:
    assert anti_affinity(collisions, 4) == pytest.approx(-(collisions + 1) / 4)


def test_no_collision_is_no_component() -> None:
    assert anti_affinity(0, 4) is None


def test_anti_affinity_in_a_plan_spreads_equal_nodes() -> None:
    # two equal nodes, count 4: a(0), b(0); then a and b both at −(1+1)/4 → a, then b
    inventory = Inventory(nodes=[node("a", 4000, 4000), node("b", 4000, 4000)])
    group = plan(job(group="count = 4"), inventory)[0]
    assert sorted(p.node for p in group.placements) == ["a", "a", "b", "b"]
    penalized = [
        p.components["job-anti-affinity"] for p in group.placements if "job-anti-affinity" in p.components
    ]
    assert penalized == [pytest.approx(-2 / 4), pytest.approx(-2 / 4)]


def test_normalized_is_the_mean() -> None:
    assert normalized([0.5, -0.25, 1.0]) == pytest.approx((0.5 - 0.25 + 1.0) / 3)
    assert normalized([]) == 0.0


# ------------------------------------------------------------------------------ spread


def test_even_spread_boost() -> None:
    assert even_spread_boost({}, "a") == 0.0  # nothing placed yet
    assert even_spread_boost({"a": 1}, None) == -1.0  # the node lacks the attribute
    assert even_spread_boost({"a": 1}, "b") == (1 - 0) / 1  # an unused value: the largest boost
    assert even_spread_boost({"a": 1}, "a") == -1.0  # min == max: an even spread is broken
    assert even_spread_boost({"a": 2, "b": 1}, "a") == (1 - 2) / 1
    assert even_spread_boost({"a": 2, "b": 1}, "b") == (2 - 1) / 1
    assert even_spread_boost({"a": 4, "b": 2, "c": 2}, "c") == (4 - 2) / 2


def test_target_spread_boost() -> None:
    # 70% of 10 = 7 desired, 3 placed + this one = 4 used, the only spread (weight 50 of 50)
    assert target_spread_boost(7.0, 4, 50, 50) == pytest.approx((7 - 4) / 7)
    # two spreads of weights 30 and 70: this one counts 30/100
    assert target_spread_boost(5.0, 6, 30, 100) == pytest.approx((5 - 6) / 5 * 0.3)


SPREAD = (
    'count = 10\nspread {\nattribute = "${meta.rack}"\nweight = 100\n'
    'target "r1" {\npercent = 70\n}\ntarget "r2" {\npercent = 30\n}\n}'
)


def test_spread_with_targets_and_a_missing_attribute() -> None:
    # first placement, nothing placed: r1 (7 − 1) / 7, r2 (3 − 1) / 3, no rack → −1
    inventory = Inventory(
        nodes=[
            Node.model_validate({"name": "none"}),
            Node.model_validate({"name": "r2", "meta": {"rack": "r2"}}),
            Node.model_validate({"name": "r1", "meta": {"rack": "r1"}}),
        ]
    )
    group = plan(job(group=SPREAD), inventory)[0]
    first = next(p for p in group.placements if p.components.get("allocation-spread") == pytest.approx(6 / 7))
    assert first.node == "r1"
    counts = {name: sum(p.node == name for p in group.placements) for name in ("none", "r1", "r2")}
    assert sum(counts.values()) == 10
    # the rackless node always carries −1 from the spread, worse than any racked node
    assert counts["none"] < counts["r2"] < counts["r1"]


def test_even_spread_over_datacenters() -> None:
    # spread on ${node.datacenter} without targets: dc1, dc2, dc1 nodes, count 2. First: no
    # counts → 0 everywhere → the first node (dc1). Second: dc2 is unused → boost 1, dc1 nodes
    # are at min == max → −1 → the dc2 node.
    inventory = Inventory(
        nodes=[
            Node.model_validate({"name": "a", "datacenter": "dc1"}),
            Node.model_validate({"name": "b", "datacenter": "dc1"}),
            Node.model_validate({"name": "c", "datacenter": "dc2"}),
        ]
    )
    text = job(
        job_body='datacenters = ["dc1", "dc2"]',
        group='count = 2\nspread {\nattribute = "${node.datacenter}"\n}',
    )
    group = plan(text, inventory)[0]
    assert [(p.node, p.components) for p in group.placements] == [
        ("c", {"allocation-spread": 1.0}),
        ("a", {}),
    ]
