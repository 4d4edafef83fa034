"""`hclgpu plan` of every sample job against the mixed cluster, in all three inventory formats.

The goldens (tests/golden/plan/<sample>.json) hold the reviewed placements: which node
each allocation lands on, its score and the GPU instances it gets. The Nomad-JSON copy
of the cluster must give exactly the same plans as hclgpu's own format.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hclgpu.cli import main
from tests.conftest import ROOT

SAMPLES = sorted((ROOT / "samples").glob("*.hcl"))
NODES = ROOT / "samples" / "nodes"
GOLDEN = ROOT / "tests" / "golden" / "plan"


def plan_json(capsys: pytest.CaptureFixture[str], sample: Path, nodes: Path) -> tuple[int, str]:
    status = main(["plan", str(sample), "--nodes", str(nodes), "--format", "json"])
    return status, capsys.readouterr().out


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_plan_against_the_mixed_cluster(
    sample: Path, capsys: pytest.CaptureFixture[str], update_golden: bool
) -> None:
    status, out = plan_json(capsys, sample, NODES / "cluster.yaml")
    assert status == 0, out
    golden = GOLDEN / f"{sample.name.removesuffix('.hcl').removesuffix('.nomad')}.json"
    if update_golden:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(out, encoding="utf-8")
    assert golden.exists(), f"{golden} is missing; run pytest --update-golden and review it"
    assert json.loads(out) == json.loads(golden.read_text(encoding="utf-8"))
    assert plan_json(capsys, sample, NODES / "cluster.nomad.json") == (0, out)


def test_plan_text_and_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    job = tmp_path / "big.hcl"
    job.write_text(
        'job "big" {\n  datacenters = ["dc1"]\n  group "g" {\n    task "t" {\n      driver = "docker"\n'
        '      config { image = "x" }\n      resources {\n        device "nvidia/gpu" {\n'
        '          constraint {\n            attribute = "${device.attr.memory}"\n'
        '            operator  = ">="\n            value     = "200 GiB"\n          }\n        }\n'
        "      }\n    }\n  }\n}\n"
    )
    status = main(["plan", str(job), "--nodes", str(NODES / "v100.yaml")])
    out = capsys.readouterr().out
    assert status == 1
    assert "`${device.attr.memory} >= 200 GiB` fails" in out and "16130 MiB" in out


def test_fingerprint_and_schema_commands(capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    status = main(
        [
            "fingerprint",
            "--from",
            str(ROOT / "tests" / "data" / "nvidia-smi" / "query-gpu.csv"),
            "--name",
            "n1",
        ]
    )
    node = yaml.safe_load(capsys.readouterr().out)["nodes"][0]
    assert status == 0 and node["name"] == "n1" and {g["model"] for g in node["devices"]}
    assert main(["schema", "inventory"]) == 0
    assert "nodes" in json.loads(capsys.readouterr().out)["properties"]
