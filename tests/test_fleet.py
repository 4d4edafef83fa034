"""`check` with the fleet's inventory (`nodes`): device counts no node can hold (HG209)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hclgpu.cli import main
from hclgpu.plan.fleet import fleet_groups
from hclgpu.plan.model import Inventory

JOB = """job "train" {
  group "g" {
    task "t" {
      driver = "docker"
      config { image = "x" }
      resources {
        device "nvidia/gpu" {
          count = %d
        }
      }
    }
  }
}
"""


def _node(name: str, healthy: int, unhealthy: int = 0) -> dict[str, object]:
    instances = [{"id": f"{name}-{i}", "healthy": i < healthy} for i in range(healthy + unhealthy)]
    group = {"vendor": "nvidia", "type": "gpu", "model": "Tesla T4", "instances": instances}
    return {"name": name, "devices": [group]}


def test_the_fleet_keeps_the_most_healthy_instances_of_a_group_on_one_node() -> None:
    inventory = Inventory.model_validate({"version": 1, "nodes": [_node("a", 2, 6), _node("b", 4)]})
    assert fleet_groups(inventory) == (("nvidia", "gpu", "Tesla T4", 4, "b"),)


def _check(tmp_path: Path, count: int, nodes: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    job = tmp_path / "train.nomad.hcl"
    job.write_text(JOB % count, encoding="utf-8")
    status = main(["check", str(job), "--nodes", nodes, "--color", "never"])
    return status, capsys.readouterr().err


def test_check_reads_the_inventory_and_a_changed_inventory_is_read_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nodes = tmp_path / "nodes.yaml"
    group = '{vendor: nvidia, type: gpu, model: "Tesla T4", instances: [{id: g0}, {id: g1}]}'
    nodes.write_text(f"version: 1\nnodes:\n- {{name: a, devices: [{group}]}}\n", encoding="utf-8")
    status, out = _check(tmp_path, 4, str(nodes), capsys)
    assert status == 0 and "HG209" in out and "the most on one node is 2" in out
    assert "= check: count-above-every-node-group" in out
    status, out = _check(tmp_path, 2, str(nodes), capsys)
    assert "HG209" not in out
    nodes.write_text(nodes.read_text().replace("{id: g1}]", "{id: g1}, {id: g2}, {id: g3}]x"))
    status, out = _check(tmp_path, 4, str(nodes), capsys)  # a broken file: said, not a traceback
    assert "the `nodes` inventory cannot be read" in out and "fleet-inventory-unreadable" in out
    nodes.write_text(nodes.read_text().replace("{id: g3}]x", "{id: g3}]"))
    status, out = _check(tmp_path, 4, str(nodes), capsys)  # the cache key has the fleet
    assert "HG209" not in out


def test_without_an_inventory_nothing_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    job = tmp_path / "train.nomad.hcl"
    job.write_text(JOB % 64, encoding="utf-8")
    assert main(["check", str(job), "--color", "never"]) == 0
    assert "HG209" not in capsys.readouterr().err


def _summary_test_inventory(tmp_path: Path, healthy: int, age_s: float = 60) -> Path:
    import json
    import os
    import time

    nodes = tmp_path / "nodes.json"
    nodes.write_text(json.dumps({"version": 1, "nodes": [_node("a", healthy)]}), encoding="utf-8")
    past = time.time() - age_s
    os.utime(nodes, (past, past))
    return nodes


def _fleet(nodes: Path) -> tuple[object, ...]:
    from hclgpu.plan.fleet import _load, load_fleet

    _load.cache_clear()  # each call as a new process makes it
    stat = nodes.stat()
    return load_fleet((str(nodes), stat.st_mtime_ns, stat.st_size))


def test_the_fleet_summary_is_kept_and_read_back_while_the_inventory_is_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The summary is read from its record, not from the inventory, while the file's size and
    times are those recorded; a changed inventory is read again."""
    import json

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    nodes = _summary_test_inventory(tmp_path, 4)
    assert _fleet(nodes) == (("nvidia", "gpu", "Tesla T4", 4, "a"),)
    [record] = (tmp_path / "cache" / "hclgpu" / "fleet").iterdir()
    data = json.loads(record.read_text(encoding="utf-8"))
    data["groups"] = [["nvidia", "gpu", "Tesla T4", 99, "recorded"]]
    record.write_text(json.dumps(data), encoding="utf-8")
    assert _fleet(nodes) == (("nvidia", "gpu", "Tesla T4", 99, "recorded"),)  # from the record
    nodes = _summary_test_inventory(tmp_path, 3, age_s=30)
    assert _fleet(nodes) == (("nvidia", "gpu", "Tesla T4", 3, "a"),)
    record.write_text("{not json", encoding="utf-8")
    assert _fleet(nodes) == (("nvidia", "gpu", "Tesla T4", 3, "a"),)  # a damaged record is a miss


def test_a_fleet_summary_is_not_recorded_for_a_file_written_just_now_and_errors_stay_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    nodes = _summary_test_inventory(tmp_path, 2, age_s=0)
    assert _fleet(nodes) == (("nvidia", "gpu", "Tesla T4", 2, "a"),)
    assert not (tmp_path / "cache" / "hclgpu" / "fleet").exists()
    nodes.write_text('{"version": 1, "nodes": [{"name": "a", "cpu": "many"}]}', encoding="utf-8")
    import os

    os.utime(nodes, (1_000_000, 1_000_000))
    for _ in range(2):  # computed, then from the record: the same error
        with pytest.raises(ValueError, match=r"nodes\.json"):
            _fleet(nodes)
