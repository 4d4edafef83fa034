"""Benchmark `hclgpu plan`: a 3-group GPU job over 10,000 nodes, 80,000 GPUs, 1,000 allocations.

The inventory (hclgpu's JSON format) has nodes in 4 datacenters (dc1..dc4), each with an ID,
CPU, memory, disk and cores, a reservation, its drivers and 8 GPUs of one of four models with
realistic attributes (memory, power, clocks, driver version), a few of them unhealthy. One
node in 10 already runs an allocation of another job (Nomad's
`/v1/allocations?resources=true` shape, converted with `convert_allocations`) holding CPU,
memory, disk and 1 to 4 of the node's GPUs. The job has three groups: the main one
(`count = 50`, 2 GPUs of at least 80 GiB each, a device affinity and a `spread` over
`${node.datacenter}`), one with a node affinity, and one asking for a T4; with more than one
allocation per group, job anti-affinity is scored too.

Measured in process, best of N:

* loading the 10,000-node inventory file alone (parse + validation into the model), and
  planning the job over the loaded inventory and the allocations. Target: planning takes at
  most 2x the load.
* planning the same job at 1,000, 10,000 and 50,000 nodes (the same node shape, one
  allocation per 10 nodes). Target: linear in nodes, i.e. the time per node at 50,000 nodes
  is at most 2x that at 1,000. The 1,000 and 50,000-node inventories are converted from
  parsed data (`convert`), since 50,000 nodes are more JSON than hclgpu reads from a file.

Run from the project root: ``.venv/bin/python bench/plan.py``.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hclgpu.pipeline import compile_source  # noqa: E402
from hclgpu.plan.allocs import convert_allocations  # noqa: E402
from hclgpu.plan.inventory import convert, load_inventory  # noqa: E402
from hclgpu.plan.planner import plan  # noqa: E402
from hclgpu.source import SourceFile  # noqa: E402

NODES, GPUS = 10_000, 8
SIZES = (1_000, 10_000, 50_000)
RUNS = {1_000: 5, 10_000: 3, 50_000: 1}
NODES_PER_ALLOCATION = 10
TARGET_RATIO = 2.0
TARGET_LINEAR = 2.0
MODELS = [
    ("NVIDIA A100-SXM4-40GB", 40960, 400, 1410, "550.54.15"),
    ("NVIDIA A100-SXM4-80GB", 81920, 400, 1410, "550.54.15"),
    ("NVIDIA H100 80GB HBM3", 81559, 700, 1980, "550.54.15"),
    ("Tesla T4", 15360, 70, 1590, "535.104.05"),
]

JOB = """
job "bench" {
  datacenters = ["dc1", "dc2", "dc3"]
  type = "batch"
  group "train" {
    count = 50
    spread {
      attribute = "${node.datacenter}"
    }
    task "t" {
      driver = "docker"
      config { image = "trainer" }
      resources {
        cpu    = 8000
        memory = 65536
        device "nvidia/gpu" {
          count = 2
          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "80 GiB"
          }
          affinity {
            attribute = "${device.model}"
            value     = "NVIDIA H100 80GB HBM3"
            weight    = 50
          }
        }
      }
    }
  }
  group "infer" {
    count = 10
    affinity {
      attribute = "${meta.rack}"
      value     = "r1"
      weight    = 50
    }
    task "t" {
      driver = "docker"
      config { image = "server" }
      resources {
        cpu    = 2000
        memory = 8192
        device "nvidia/gpu" {
          count = 1
          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "16 GiB"
          }
        }
      }
    }
  }
  group "small" {
    count = 5
    task "t" {
      driver = "docker"
      config { image = "tool" }
      resources {
        cpu    = 500
        memory = 1024
        device "nvidia/gpu/Tesla T4" {}
      }
    }
  }
}
"""


def inventory(count: int) -> dict[str, object]:
    nodes = []
    for n in range(count):
        model, memory, power, clock, driver = MODELS[n % len(MODELS)]
        instances = [{"id": f"GPU-{n:05d}-{g}", "healthy": (n * GPUS + g) % 97 != 0} for g in range(GPUS)]
        attributes = {
            "memory": f"{memory} MiB",
            "power": f"{power} W",
            "cores_clock": f"{clock} MHz",
            "driver_version": driver,
        }
        device = {
            "vendor": "nvidia",
            "type": "gpu",
            "model": model,
            "instances": instances,
            "attributes": attributes,
        }
        nodes.append(
            {
                "name": f"node-{n:05d}",
                "id": f"id-{n:05d}",
                "datacenter": f"dc{n // 4 % 4 + 1}",  # every model in every datacenter
                "attributes": {
                    "kernel.name": "linux",
                    "cpu.arch": "amd64",
                    "unique.hostname": f"node-{n:05d}",
                },
                "meta": {"rack": f"r{n // 40 % 8}"},
                "resources": {"cpu": 128_000, "memory": 1_048_576, "disk": 2_000_000, "cores": 64},
                "reserved": {"cpu": 1000, "memory": 4096, "disk": 10_000},
                "drivers": ["docker", "exec"],
                "devices": [device],
            }
        )
    return {"version": 1, "nodes": nodes}


def allocations(count: int) -> list[dict[str, object]]:
    """One running allocation of another job per 10 nodes, holding 1 to 4 of its node's GPUs."""
    out: list[dict[str, object]] = []
    for i in range(count // NODES_PER_ALLOCATION):
        n = i * NODES_PER_ALLOCATION + i % NODES_PER_ALLOCATION
        model = MODELS[n % len(MODELS)][0]
        gpus = 1 + i % 4
        task = {
            "Cpu": {"CpuShares": 4000 * gpus},
            "Memory": {"MemoryMB": 16384 * gpus},
            "Devices": [
                {
                    "Vendor": "nvidia",
                    "Type": "gpu",
                    "Name": model,
                    "DeviceIDs": [f"GPU-{n:05d}-{g}" for g in range(gpus)],
                }
            ],
        }
        out.append(
            {
                "ID": f"alloc-{i:05d}",
                "NodeID": f"id-{n:05d}",
                "JobID": f"other-{i % 20}",
                "Namespace": "default",
                "TaskGroup": "work",
                "DesiredStatus": "run",
                "ClientStatus": "running",
                "AllocatedResources": {
                    "Tasks": {"work": task},
                    "TaskLifecycles": {"work": None},
                    "Shared": {"DiskMB": 5000, "Ports": []},
                },
            }
        )
    return out


def best(function: object, runs: int) -> tuple[float, object]:
    result: object = None
    fastest = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        result = function()  # type: ignore[operator]
        fastest = min(fastest, time.perf_counter() - start)
    return fastest * 1000, result


def placed(plans: object) -> int:
    return sum(len(p.placements) for p in plans)  # type: ignore[attr-defined]


def main() -> None:
    job = compile_source(SourceFile("bench.nomad.hcl", JOB), checks=False).job
    assert job is not None
    asked = sum(g.count or 0 for g in job.task_groups or [])
    existing = tuple(convert_allocations(allocations(NODES)))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "inventory.json"
        path.write_text(json.dumps(inventory(NODES), separators=(",", ":")))
        size = path.stat().st_size / 1e6
        held = len(existing)
        print(f"inventory: {NODES} nodes, {NODES * GPUS} GPUs, {held} allocations, {size:.1f} MB of JSON")
        load_ms, loaded = best(lambda: load_inventory(path)[0], runs=3)
    plan_ms, plans = best(lambda: plan(job, loaded, existing), runs=3)  # type: ignore[arg-type]
    ratio = plan_ms / load_ms
    print(f"load inventory        {load_ms:9.1f} ms")
    print(f"plan 3 groups         {plan_ms:9.1f} ms   ({placed(plans)} of {asked} allocations placed)")
    verdict = "PASS" if ratio <= TARGET_RATIO else "FAIL"
    print(f"plan / load = {ratio:.2f} (target <= {TARGET_RATIO:.0f}) {verdict}")

    per_node: dict[int, float] = {}
    for count in SIZES:
        if count == NODES:
            nodes, allocs = loaded, existing
        else:
            nodes = convert(inventory(count))[0]
            allocs = tuple(convert_allocations(allocations(count)))
        ms, plans = best(lambda: plan(job, nodes, allocs), runs=RUNS[count])  # type: ignore[arg-type]  # noqa: B023
        per_node[count] = ms * 1000 / count
        print(
            f"plan at {count:6d} nodes   {ms:9.1f} ms   {per_node[count]:6.1f} us/node   "
            f"({len(allocs)} allocations, {placed(plans)} of {asked} placed)"
        )
    low, high = SIZES[0], SIZES[-1]
    for count in SIZES[1:]:
        print(f"time per node {count} / {low} = {per_node[count] / per_node[low]:.2f}")
    linear = per_node[high] / per_node[low]
    verdict = "PASS" if linear <= TARGET_LINEAR else "FAIL"
    print(
        f"linear in nodes: {high} / {low} per node = {linear:.2f} (target <= {TARGET_LINEAR:.0f}) {verdict}"
    )


if __name__ == "__main__":
    main()
