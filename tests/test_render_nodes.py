"""`hclgpu render --nodes INVENTORY --node NAME`: the container targets use the device IDs
the planner chose on that node instead of the host's first indexes."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
import yaml

from hclgpu.cli import main

ROOT = Path(__file__).resolve().parent.parent
JOB = str(ROOT / "samples" / "tensorrt.nomad.hcl")
NODES = ROOT / "samples" / "nodes" / "cluster.yaml"
NODE = "t4-dc1-01"
"""The node the planner picks for group "back" (its Tesla T4 matches the device affinity)."""
INFEASIBLE = "p5-use1a-01"
"""Outside the job's datacenters."""


def first_healthy_gpu(node: str) -> str:
    data = yaml.safe_load(NODES.read_text(encoding="utf-8"))
    entry = next(n for n in data["nodes"] if n["name"] == node)
    gpus = next(d for d in entry["devices"] if d["vendor"] == "nvidia" and d["type"] == "gpu")
    return next(i["id"] for i in gpus["instances"] if i.get("healthy", True))


def render(capsys: pytest.CaptureFixture[str], out: Path, target: str, *extra: str) -> tuple[int, str]:
    status = main(["render", JOB, "--target", target, "--out", str(out), *extra])
    return status, capsys.readouterr().err


def planned(capsys: pytest.CaptureFixture[str], out: Path, target: str) -> str:
    status, err = render(capsys, out, target, "--nodes", str(NODES), "--node", NODE)
    assert status == 0, err
    assert "the host's first" not in err and "first devices of the host" not in err
    return err


def test_docker_gpus_name_the_planned_uuid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    planned(capsys, tmp_path, "docker")
    script = (tmp_path / "back-rtserver.sh").read_text(encoding="utf-8")
    argv = shlex.split(next(line for line in script.splitlines() if line.startswith("docker run ")))
    assert argv[argv.index("--gpus") + 1] == f'"device={first_healthy_gpu(NODE)}"'


def test_compose_device_ids_are_the_planned_uuid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    planned(capsys, tmp_path, "compose")
    project = yaml.safe_load((tmp_path / "compose.yaml").read_text(encoding="utf-8"))
    (reservation,) = project["services"]["back-rtserver"]["deploy"]["resources"]["reservations"]["devices"]
    assert reservation["device_ids"] == [first_healthy_gpu(NODE)]
    assert "count" not in reservation


def test_oci_visible_devices_are_the_planned_uuid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    planned(capsys, tmp_path, "oci")
    config = json.loads((tmp_path / "back" / "rtserver" / "config.json").read_text(encoding="utf-8"))
    env = dict(entry.split("=", 1) for entry in config["process"]["env"])
    assert env["NVIDIA_VISIBLE_DEVICES"] == first_healthy_gpu(NODE)


@pytest.mark.parametrize("target", ["docker", "compose", "oci"])
def test_infeasible_node_writes_nothing(
    target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    status, err = render(capsys, out, target, "--nodes", str(NODES), "--node", INFEASIBLE)
    assert status == 1
    assert 'group "back"' in err and INFEASIBLE in err and "datacenter" in err
    assert not out.exists() or not any(out.iterdir())


def test_nodes_without_node_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    status, err = render(capsys, out, "docker", "--nodes", str(NODES))
    assert status == 2
    assert "--node" in err
    assert not out.exists()


NODE_JOB = """job "dns" {
  datacenters = ["dc1"]
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image       = "busybox"
        dns_servers = ["${attr.unique.hostname}", "1.1.1.1"]
        args        = ["--on", "${node.unique.name}"]
      }
      env { WHERE = "${attr.kernel.version}" }
      resources {
        device "nvidia/gpu" {}
      }
    }
  }
}
"""


@pytest.mark.parametrize("target", ["docker", "compose", "kubernetes"])
def test_a_node_attribute_is_never_written_as_text(
    target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    job = tmp_path / "dns.nomad.hcl"
    job.write_text(NODE_JOB, encoding="utf-8")
    assert main(["render", str(job), "--target", target, "--isolated", "--color", "never"]) == 0
    captured = capsys.readouterr()
    assert "${attr." not in captured.out and "${node." not in captured.out
    named = 2 if target == "kubernetes" else 3  # a pod has no dns_servers of its own: HG301 anyway
    assert captured.err.count("which only the node that runs it knows; it is left out") == named
    if target == "docker":  # the rest of the list stays
        assert "--dns 1.1.1.1" in captured.out
    if target == "kubernetes":
        return  # pods are placed by the scheduler: no one node's values are written
    # rendered for one node of the inventory, the node's own values
    argv = [
        "render",
        str(job),
        "--target",
        target,
        "--isolated",
        "--nodes",
        str(NODES),
        "--node",
        "t4-dc1-01",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "t4-dc1-01" in out and "5.15.0-105-generic" in out and "${attr." not in out
