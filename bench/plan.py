"""Benchmark `hclgpu plan`: a 3-group GPU job over 10,000 nodes with 80,000 GPUs.

The inventory (hclgpu's JSON format) has 10,000 nodes in 4 datacenters, each with 8 GPUs of
one of four models with realistic attributes (memory, power, clocks, driver version) and
a few unhealthy instances. The job has three groups with different device requests,
constraints, affinities and counts. Measured in process, best of N: loading the
inventory file alone (parse + validation into the model), and planning the job over the
loaded inventory. Target: planning takes at most 2x the load.

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
from hclgpu.plan.inventory import load_inventory  # noqa: E402
from hclgpu.plan.planner import plan  # noqa: E402
from hclgpu.source import SourceFile  # noqa: E402

NODES, GPUS = 10_000, 8
TARGET_RATIO = 2.0
MODELS = [
    ("NVIDIA A100-SXM4-40GB", 40960, 400, 1410, "550.54.15"),
    ("NVIDIA A100-SXM4-80GB", 81920, 400, 1410, "550.54.15"),
    ("NVIDIA H100 80GB HBM3", 81559, 700, 1980, "550.54.15"),
    ("Tesla T4", 15360, 70, 1590, "535.104.05"),
]

JOB = """
job "bench" {
  datacenters = ["dc1", "dc2"]
  type = "batch"
  group "train" {
    count = 50
    task "t" {
      driver = "docker"
      config { image = "trainer" }
      resources {
        device "nvidia/gpu" {
          count = 8
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
    count = 200
    task "t" {
      driver = "docker"
      config { image = "server" }
      resources {
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
    count = 100
    task "t" {
      driver = "docker"
      config { image = "tool" }
      resources {
        device "nvidia/gpu/Tesla T4" {}
      }
    }
  }
}
"""


def inventory() -> dict[str, object]:
    nodes = []
    for n in range(NODES):
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
                "datacenter": f"dc{n % 4 + 1}",
                "attributes": {
                    "kernel.name": "linux",
                    "cpu.arch": "amd64",
                    "unique.hostname": f"node-{n:05d}",
                },
                "devices": [device],
            }
        )
    return {"version": 1, "nodes": nodes}


def best(function: object, runs: int) -> tuple[float, object]:
    result: object = None
    fastest = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        result = function()  # type: ignore[operator]
        fastest = min(fastest, time.perf_counter() - start)
    return fastest * 1000, result


def main() -> None:
    job = compile_source(SourceFile("bench.nomad.hcl", JOB), checks=False).job
    assert job is not None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "inventory.json"
        path.write_text(json.dumps(inventory()))
        print(f"inventory: {NODES} nodes, {NODES * GPUS} GPUs, {path.stat().st_size / 1e6:.1f} MB of JSON")
        load_ms, loaded = best(lambda: load_inventory(path)[0], runs=3)
        plan_ms, plans = best(lambda: plan(job, loaded), runs=3)  # type: ignore[arg-type]
    placed = sum(len(p.placements) for p in plans)  # type: ignore[attr-defined]
    ratio = plan_ms / load_ms
    print(f"load inventory        {load_ms:9.1f} ms")
    print(f"plan 3 groups         {plan_ms:9.1f} ms   ({placed} allocations placed)")
    verdict = "PASS" if ratio <= TARGET_RATIO else "FAIL"
    print(f"plan / load = {ratio:.2f} (target <= {TARGET_RATIO:.0f}) {verdict}")


if __name__ == "__main__":
    main()
