"""`numa` blocks: ignored as Nomad Community Edition ignores them, placed with `--enterprise`.

The node: 8 cores in two NUMA nodes of 4, two T4 GPUs both attached to NUMA node 0.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hclgpu.cli import main
from hclgpu.ir import models as m
from hclgpu.pipeline import compile_source
from hclgpu.plan.model import Inventory, Node
from hclgpu.plan.planner import schedule
from hclgpu.source import SourceFile

JOB = """
job "numa" {
  group "g" {
    count = 2
    task "t" {
      driver = "docker"
      config {
        image = "x"
      }
      resources {
        cores  = CORES
        memory = 1024
        numa {
          affinity = "AFFINITY"
          devices  = ["nvidia/gpu/Tesla T4"]
        }
        device "nvidia/gpu/Tesla T4" {}
      }
    }
  }
}
"""

NODE = {
    "name": "n",
    "resources": {"cpu": 16000, "memory": 32768, "cores": 8},
    "attributes": {"nomad.version": "1.11.3", "kernel.name": "linux"},
    "numa": [{"id": 0, "cores": 4}, {"id": 1, "cores": 4}],
    "devices": [
        {
            "vendor": "nvidia",
            "type": "gpu",
            "model": "Tesla T4",
            "instances": [{"id": "g0", "numa_node": 0}, {"id": "g1", "numa_node": 0}],
        }
    ],
}


def job(affinity: str, cores: int = 4) -> m.Job:
    text = JOB.replace("AFFINITY", affinity).replace("CORES", str(cores))
    result = compile_source(SourceFile("numa.hcl", text), checks=False)
    assert result.job is not None, result.diagnostics
    return result.job


def inventory() -> Inventory:
    return Inventory(nodes=[Node.model_validate(NODE)])


def test_community_edition_ignores_numa() -> None:
    """CE's candidateMemoryNodes is [-1]: both allocations place, GPUs in inventory order."""
    planned = schedule(job("require"), inventory())
    assert [p.devices[0].ids for p in planned.groups[0].placements] == [["g0"], ["g1"]]
    assert any("Enterprise" in note for note in planned.notes)


def test_require_keeps_cores_and_listed_devices_on_one_numa_node() -> None:
    """1st: both NUMA nodes have 4 free cores, the tie goes to node 0, whose GPU g0 is taken.
    2nd: node 0 has no cores left; node 1 has 4 but no GPU → exhausted on devices."""
    group = schedule(job("require"), inventory(), enterprise=True).groups[0]
    assert [(p.devices[0].ids, p.numa) for p in group.placements] == [(["g0"], {"t": 0})]
    assert group.unplaced == 1
    assert group.metrics is not None
    assert dict(group.metrics.dimension_exhausted) == {"devices: no devices match request": 1}


def test_prefer_falls_back_to_any_device() -> None:
    """The 2nd allocation's cores are on NUMA node 1; with `prefer` its GPU may be g1 on node 0."""
    group = schedule(job("prefer"), inventory(), enterprise=True).groups[0]
    assert [(p.devices[0].ids, p.numa) for p in group.placements] == [(["g0"], {"t": 0}), (["g1"], {"t": 1})]


def test_require_more_cores_than_one_numa_node_has() -> None:
    """6 cores fit the node's 8 but no NUMA node's 4 → numa-cores."""
    group = schedule(job("require", cores=6), inventory(), enterprise=True).groups[0]
    assert [(i.reason, i.dimension) for i in group.infeasible] == [
        ("numa-cores: task t needs 6 cores on one NUMA node, at most 4 free", "numa-cores")
    ]


def test_the_cli_refuses_numa_unless_enterprise(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Nomad CE's server refuses a numa block (HG289) when the profile says the cluster is
    Community Edition; --enterprise plans it; unstated, it is planned as CE plans it (ignored)."""
    path = tmp_path / "numa.hcl"
    path.write_text(JOB.replace("AFFINITY", "require").replace("CORES", "4"))
    nodes = tmp_path / "nodes.yaml"
    nodes.write_text(Inventory(nodes=[Node.model_validate(NODE)]).model_dump_json(by_alias=True))
    assert main(["plan", str(path), "--nodes", str(nodes), "--no-enterprise"]) == 1
    assert "HG289" in capsys.readouterr().err
    (tmp_path / "hclgpu.toml").write_text("enterprise = false\n")
    assert main(["plan", str(path), "--nodes", str(nodes)]) == 1
    assert "HG289" in capsys.readouterr().err
    (tmp_path / "hclgpu.toml").unlink()
    assert main(["plan", str(path), "--nodes", str(nodes)]) == 0  # both placed, the numa block ignored
    out, err = capsys.readouterr()
    assert "group g: 2/2 placed" in out and "HG289" not in err
    assert main(["plan", str(path), "--nodes", str(nodes), "--enterprise"]) == 1  # one of two placed
    out = capsys.readouterr().out
    assert "group g: 1/2 placed" in out and "HG289" not in out


def test_nomad_node_json_gives_the_topology() -> None:
    """`Processors.Topology`: usable cores per NUMA node (a disabled core left out), and each
    GPU's NUMA node from its PCI bus, compared without the domain's leading zeros."""
    from hclgpu.plan.inventory import convert

    cores = [{"NodeID": node, "ID": i, "Disable": i == 3} for i, node in enumerate([0, 0, 0, 0, 1, 1])]
    item = {
        "ID": "n-1",
        "Name": "n",
        "NodeResources": {
            "Cpu": {"CpuShares": 12000, "TotalCpuCores": 6},
            "Memory": {"MemoryMB": 8192},
            "Processors": {"Topology": {"Cores": cores, "BusAssociativity": {"0000:3b:00.0": 1}}},
            "Devices": [
                {
                    "Vendor": "nvidia",
                    "Type": "gpu",
                    "Name": "Tesla T4",
                    "Instances": [
                        {"ID": "g0", "Healthy": True, "Locality": {"PciBusID": "00000000:3b:00.0"}}
                    ],
                }
            ],
        },
    }
    inventory, _ = convert([item], "nomad")
    (node,) = inventory.nodes
    assert [(numa.id, numa.cores) for numa in node.numa] == [(0, 3), (1, 2)]
    assert node.devices[0].instances[0].numa_node == 1
    assert node.resources is not None and (node.resources.cpu, node.resources.cores) == (12000, 6)
