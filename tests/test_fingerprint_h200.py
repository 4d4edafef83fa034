"""`hclgpu fingerprint` against a real NVIDIA H200 capture (tests/data/nvidia-smi/h200).

The plugin's values were read through NVML on that machine (nvml.json); hclgpu's fingerprint
of the same machine's `nvidia-smi -q -x` must report them, and a node fingerprinted with the
host capture must carry CPU and memory that `plan` checks.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from hclgpu.cli import main
from hclgpu.plan import fingerprint as fp
from hclgpu.plan import host

H200 = Path(__file__).resolve().parent / "data" / "nvidia-smi" / "h200"
JOB = """job "big" {
  group "g" {
    task "t" {
      driver = "docker"
      config { image = "x" }
      resources {
        cpu    = %d
        memory = %d
        device "nvidia/gpu" { count = 1 }
      }
    }
  }
}
"""


def test_the_xml_gives_what_the_plugin_read_through_nvml() -> None:
    nvml = json.loads((H200 / "nvml.json").read_text(encoding="utf-8"))
    gpu = nvml["devices"][0]
    inventory = fp.fingerprint_xml((H200 / "nvsmi.xml").read_text(encoding="utf-8"), "h200")
    group = inventory.nodes[0].devices[0]
    assert group.model == gpu["name"] and [i.id for i in group.instances] == [gpu["uuid"]]
    assert group.attributes == {
        "memory": f"{gpu['memory_MiB']} MiB",
        "bar1": f"{gpu['bar1_MiB']} MiB",
        "power": f"{gpu['power_W_usage_plugin']} W",  # the draw (80 W), not the 700 W limit
        "cores_clock": f"{gpu['cores_clock_plugin_current']} MHz",  # current (345), not max
        "memory_clock": f"{gpu['memory_clock_plugin_current']} MHz",
        "pci_bandwidth": f"{gpu['pci_bandwidth_plugin']} MB/s",
        "driver_version": nvml["driver_version"],
        "display_state": str(gpu["display_mode"]),  # `%v` of NVML's EnableState: "1"
        "persistence_mode": str(gpu["persistence_mode"]),
    }


def test_the_host_capture_gives_nomads_cpu_memory_and_disk() -> None:
    facts = host.from_capture((H200 / "host.txt").read_text(encoding="utf-8"))
    resources, attributes = host.node_fields(facts)
    # no cpufreq in that VM: Nomad's fallback, 16 logical CPUs x cpuinfo's 2100 MHz
    assert resources == {
        "cpu": 16 * 2100,
        "memory": 131961976 // 1024,
        "cores": 16,
        "disk": 264212084 // 1024,
    }
    assert attributes["memory.totalbytes"] == str(131961976 * 1024)
    assert attributes["cpu.totalcompute"] == "33600" and attributes["cpu.numcores"] == "16"
    assert attributes["unique.storage.bytestotal"] == str(264212084 * 1024)


FINGERPRINT = [
    "fingerprint",
    "--from",
    str(H200 / "nvsmi.xml"),
    "--host",
    str(H200 / "host.txt"),
    "--name",
    "h200",
]
"""The H200 node fingerprinted from its captures."""


def test_the_cli_says_which_values_are_samples(capsys: pytest.CaptureFixture[str]) -> None:
    argv = FINGERPRINT
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("# power, cores_clock, memory_clock are samples")
    node = yaml.safe_load(out)["nodes"][0]
    assert node["resources"]["cpu"] == 33600 and node["resources"]["memory"] == 128869
    assert main([*argv, "--output", "json"]) == 0
    captured = capsys.readouterr()
    assert (
        "samples" in captured.err
        and json.loads(captured.out)["nodes"][0]["devices"][0]["attributes"]["power"] == "80 W"
    )


@pytest.mark.parametrize(
    ("cpu", "memory", "reason"),
    [
        (1000, 200_000, "memory: needs 200000 MB, 128869 MB free"),
        (40_000, 4096, "cpu: needs 40000 MHz, 33600 MHz free"),
    ],
)
def test_plan_checks_capacity_on_a_fingerprinted_node(
    cpu: int, memory: int, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nodes = tmp_path / "h200.yaml"
    argv = FINGERPRINT
    assert main(argv) == 0
    nodes.write_text(capsys.readouterr().out, encoding="utf-8")
    job = tmp_path / "big.nomad.hcl"
    job.write_text(JOB % (cpu, memory), encoding="utf-8")
    assert main(["plan", str(job), "--nodes", str(nodes), "--color", "never"]) == 1
    assert reason in capsys.readouterr().out
    job.write_text(JOB % (1000, 4096), encoding="utf-8")
    assert main(["plan", str(job), "--nodes", str(nodes), "--color", "never"]) == 0
    assert "1/1 placed" in capsys.readouterr().out


def test_deprecated_display_mode_falls_back_to_display_attached() -> None:
    text = (H200 / "nvsmi.xml").read_text(encoding="utf-8")
    detached = text.replace(
        "<display_attached>Yes</display_attached>", "<display_attached>No</display_attached>"
    )
    group = fp.fingerprint_xml(detached, "n").nodes[0].devices[0]
    assert group.attributes["display_state"] == "0"
    unknown = detached.replace("<display_attached>No</display_attached>", "")
    assert "display_state" not in fp.fingerprint_xml(unknown, "n").nodes[0].devices[0].attributes
