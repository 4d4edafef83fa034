"""Placement scenarios (tests/data/plan/<name>/: job.nomad.hcl, nodes.json, allocs.json).

Each test derives its expected placement in its docstring from Nomad's scheduler rules
(hclgpu/plan/planner.py cites them). Unless a node says otherwise it has 8000 MHz,
16384 MB, 100000 MB of disk, 8 cores and docker; a task without resources asks for the
defaults, 100 MHz and 300 MB, and a group for 300 MB of disk. The default task on an idle
node scores binpack (20 − (10^(1 − 100/8000) + 10^(1 − 300/16384))) / 18.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hclgpu.cli import main
from tests.conftest import ROOT

SCENARIOS = ROOT / "tests" / "data" / "plan"
IDLE = (20 - (10 ** (1 - 100 / 8000) + 10 ** (1 - 300 / 16384))) / 18


def binpack(cpu: float, memory: float, spread: bool = False) -> float:
    """The fit of a node left with ``cpu`` and ``memory`` free (fractions)."""
    total = 10**cpu + 10**memory
    return min(max(total - 2 if spread else 20 - total, 0), 18) / 18


def run(name: str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict[str, Any]]:
    folder = SCENARIOS / name
    args = ["plan", str(folder / "job.nomad.hcl"), "--nodes", str(folder / "nodes.json"), "--format", "json"]
    if (folder / "allocs.json").exists():
        args += ["--allocs", str(folder / "allocs.json")]
    status = main([*args, *extra])
    return status, json.loads(capsys.readouterr().out)["groups"][0]


def nodes(group: dict[str, Any]) -> list[str]:
    return [placement["node"] for placement in group["placements"]]


def reasons(group: dict[str, Any]) -> dict[str, str]:
    return {item["node"]: item["reason"] for item in group["infeasible"]}


def test_the_scenarios_are_all_here() -> None:
    assert len([folder for folder in SCENARIOS.iterdir() if (folder / "job.nomad.hcl").exists()]) >= 12


def test_three_allocations_over_three_equal_nodes(capsys: pytest.CaptureFixture[str]) -> None:
    """3 allocations, nodes a, b, c alike. The first ties everywhere → a (the earlier node).
    The second: a carries job-anti-affinity −(1+1)/3 and a worse fit; b and c still score
    IDLE → b; the third → c. One per node, each at the idle score."""
    status, group = run("three-equal-nodes", capsys)
    assert status == 0
    assert nodes(group) == ["a", "b", "c"]
    assert [p["score"] for p in group["placements"]] == [pytest.approx(IDLE)] * 3


def test_a_full_node_is_skipped(capsys: pytest.CaptureFixture[str]) -> None:
    """Another job holds 12000 of a's 16384 MB: 4384 MB free < 8192 asked → a is exhausted on
    memory. b takes it: free CPU 1 − 100/8000, free memory 1 − 8192/16384."""
    status, group = run("full-node-skipped", capsys)
    assert status == 0
    assert nodes(group) == ["b"]
    assert reasons(group) == {"a": "memory: needs 8192 MB, 4384 MB free"}
    assert group["placements"][0]["score"] == pytest.approx(binpack(1 - 100 / 8000, 1 - 8192 / 16384))


def test_a_held_gpu_is_not_reused(capsys: pytest.CaptureFixture[str]) -> None:
    """GPU-a1 is held by another job's allocation, so the offer takes GPU-a2."""
    status, group = run("held-gpu-not-reused", capsys)
    assert status == 0
    assert group["placements"][0]["devices"][0]["ids"] == ["GPU-a2"]


def test_terminal_allocations_hold_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """The allocation holding GPU-a1 is complete (ClientStatus), so the GPU is free again."""
    status, group = run("terminal-allocations-hold-nothing", capsys)
    assert status == 0
    assert group["placements"][0]["devices"][0]["ids"] == ["GPU-a1"]


def test_binpack_fills_the_busy_node(capsys: pytest.CaptureFixture[str]) -> None:
    """The task asks 1000 MHz, 1024 MB. b already runs 4000 MHz, 8192 MB. Binpack:
    a = fit(1 − 1000/8000, 1 − 1024/16384), b = fit(1 − 5000/8000, 1 − 9216/16384); the
    busier b scores higher."""
    status, group = run("binpack-fills-the-busy-node", capsys)
    busy = binpack(1 - 5000 / 8000, 1 - 9216 / 16384)
    assert busy > binpack(1 - 1000 / 8000, 1 - 1024 / 16384)
    assert (status, nodes(group)) == (0, ["b"])
    assert group["placements"][0]["components"] == {"binpack": pytest.approx(busy)}


def test_the_spread_algorithm_picks_the_idle_node(capsys: pytest.CaptureFixture[str]) -> None:
    """Same cluster, the inventory's scheduler algorithm is spread: ScoreFitSpread is
    (10^free_cpu + 10^free_mem − 2) / 18, higher on the idle a. --scheduler-algorithm
    binpack overrides the inventory and gives b again."""
    status, group = run("spread-algorithm-picks-the-idle-node", capsys)
    assert (status, nodes(group)) == (0, ["a"])
    assert group["placements"][0]["score"] == pytest.approx(
        binpack(1 - 1000 / 8000, 1 - 1024 / 16384, spread=True)
    )
    _, group = run("spread-algorithm-picks-the-idle-node", capsys, "--scheduler-algorithm", "binpack")
    assert nodes(group) == ["b"]


def test_spread_targets_split_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    """count 4, targets r1 50% and r2 50% → 2 desired each; n1 in r1, n2 in r2, no resources
    (no binpack). 1st: both (2 − 1)/2 = 0.5 → n1. 2nd: n1 spread (2 − 2)/2 = 0 (not
    averaged) and anti-affinity −2/4 → −0.5; n2 0.5 → n2. 3rd: both −0.5 → n1. 4th: n1
    spread (2 − 3)/2 and −3/4 → −0.625; n2 −0.5 → n2. Two each."""
    status, group = run("spread-targets", capsys)
    assert status == 0
    assert sorted(nodes(group)) == ["n1", "n1", "n2", "n2"]
    assert [p["score"] for p in group["placements"]] == [0.5, 0.5, -0.5, -0.5]


def test_distinct_property_one_per_rack(capsys: pytest.CaptureFixture[str]) -> None:
    """distinct_property on ${meta.rack} (value empty → 1 allowed), racks r1 (a, b) and
    r2 (c, d), count 3. 1st → a; then a and b are filtered (r1 used by 1); 2nd → c; the
    3rd finds all four nodes filtered, each with the rack it used."""
    status, group = run("distinct-property-per-rack", capsys)
    assert status == 1
    assert nodes(group) == ["a", "c"]
    assert group["unplaced"] == 1
    assert group["metrics"]["nodes_filtered"] == 4
    assert group["metrics"]["constraint_filtered"] == {
        "distinct_property: ${meta.rack}=r1 used by 1 allocs": 2,
        "distinct_property: ${meta.rack}=r2 used by 1 allocs": 2,
    }


def test_distinct_hosts(capsys: pytest.CaptureFixture[str]) -> None:
    """distinct_hosts, count 3 over a and b: one each, the third is filtered on both."""
    status, group = run("distinct-hosts", capsys)
    assert (status, nodes(group), group["unplaced"]) == (1, ["a", "b"], 1)
    assert group["metrics"]["constraint_filtered"] == {"distinct_hosts": 2}


def test_node_affinity_prefers_the_matching_node(capsys: pytest.CaptureFixture[str]) -> None:
    """affinity zone = fast, weight 100: b scores (IDLE + 100/100) / 2, a (IDLE + 0/100) / 2."""
    status, group = run("node-affinity", capsys)
    assert (status, nodes(group)) == (0, ["b"])
    assert group["placements"][0]["score"] == pytest.approx((IDLE + 1) / 2)


def test_device_affinity_picks_the_model(capsys: pytest.CaptureFixture[str]) -> None:
    """Device affinity on the A100 model, weight 100: node b's A100 scores 100/100 = 1 as the
    devices component, a's T4 0/100 = 0 → b at (IDLE + 1) / 2."""
    status, group = run("device-affinity-picks-the-model", capsys)
    assert (status, nodes(group)) == (0, ["b"])
    assert group["placements"][0]["components"] == {"binpack": pytest.approx(IDLE), "devices": 1.0}


def test_a_node_without_the_driver_is_filtered(capsys: pytest.CaptureFixture[str]) -> None:
    """a has only exec; the docker task needs docker → "missing drivers"."""
    status, group = run("missing-driver", capsys)
    assert (status, nodes(group)) == (0, ["b"])
    assert reasons(group) == {"a": "missing drivers: docker"}


def test_a_taken_static_port_is_a_collision(capsys: pytest.CaptureFixture[str]) -> None:
    """Another allocation on a holds port 8080; the group's static 8080 collides there."""
    status, group = run("static-port-taken", capsys)
    assert (status, nodes(group)) == (0, ["b"])
    assert reasons(group) == {"a": "network: reserved port collision http=8080"}


def test_reserved_memory_is_not_offered(capsys: pytest.CaptureFixture[str]) -> None:
    """a reserves 2048 MB: 16384 − 2048 = 14336 < 15000 asked; b has all 16384."""
    status, group = run("reserved-memory", capsys)
    assert (status, nodes(group)) == (0, ["b"])
    assert reasons(group) == {"a": "memory: needs 15000 MB, 14336 MB free"}


def test_datacenter_and_class_filters(capsys: pytest.CaptureFixture[str]) -> None:
    """datacenters dc1 and ${node.class} = gpu: c is in dc2, b is class cpu; both allocations
    go to a, the second with job-anti-affinity −(1+1)/2 = −1."""
    status, group = run("datacenter-and-class-filters", capsys)
    assert (status, nodes(group)) == (0, ["a", "a"])
    assert group["placements"][1]["components"]["job-anti-affinity"] == -1.0
    assert reasons(group) == {
        "b": "`${node.class} = gpu` fails: ${node.class} is cpu",
        "c": "datacenter dc2 is not in [dc1]",
    }


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('[{"ID": "a1", "NodeID": "n"}]', "allocation a1: no AllocatedResources"),
        ("[1]", "allocation 0: expected an object, got int"),
        ('{"ID": 5, "NodeID": "n"}', "allocation 0: ID: expected a string, got int"),
        ('[{"ID": "a1", "NodeID": "n", "AllocatedResources": {"Tasks": {"t": {"Cpu": {"CpuShares": -1}}}}}]',
         "CpuShares: expected a non-negative integer"),
        ("{", "not valid YAML or JSON"),
        ("", "empty file"),
    ],
)  # fmt: skip
def test_bad_allocations_are_exit_2(
    content: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An allocations file that cannot be read is a one-line error and exit 2, nothing printed."""
    path = tmp_path / "allocs.json"
    path.write_text(content)
    folder = SCENARIOS / "three-equal-nodes"
    status = main(
        ["plan", str(folder / "job.nomad.hcl"), "--nodes", str(folder / "nodes.json"), "--allocs", str(path)]
    )
    captured = capsys.readouterr()
    assert (status, captured.out) == (2, "")
    assert captured.err.startswith("hclgpu: ") and message in captured.err, captured.err
