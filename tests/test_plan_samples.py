"""`hclgpu plan` of every sample job against the mixed cluster, in all three inventory formats.

The goldens (tests/golden/plan/<sample>.json) hold the reviewed placements: which node
each allocation lands on, its score and the GPU instances it gets. The Nomad-JSON copy
of the cluster must give exactly the same plans as hclgpu's own format.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hclgpu.cli import main
from tests.conftest import ROOT, Golden

SAMPLES = sorted((ROOT / "samples").glob("*.hcl"))
NODES = ROOT / "samples" / "nodes"
GOLDEN = ROOT / "tests" / "golden" / "plan"


def plan_json(capsys: pytest.CaptureFixture[str], sample: Path, nodes: Path) -> tuple[int, str]:
    status = main(["plan", str(sample), "--nodes", str(nodes), "--format", "json"])
    return status, capsys.readouterr().out


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_plan_against_the_mixed_cluster(
    sample: Path, capsys: pytest.CaptureFixture[str], golden: Golden
) -> None:
    status, out = plan_json(capsys, sample, NODES / "cluster.yaml")
    assert status == 0, out
    golden(GOLDEN / f"{sample.name.removesuffix('.hcl').removesuffix('.nomad')}.json", out)
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


@pytest.mark.parametrize("color", ["never", "always"])
def test_the_text_plan_prints_its_tables(
    color: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    sample = ROOT / "samples" / "tensorrt.nomad.hcl"
    assert main(["plan", str(sample), "--nodes", str(NODES / "v100.yaml"), "--color", color]) == 0
    out = capsys.readouterr().out
    assert "rich.table" not in out and "object at 0x" not in out
    assert ("\x1b[" in out) is (color == "always")
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    lines = [line.rstrip() for line in plain.splitlines()]
    assert lines[0] == "group back: 1/1 placed"
    header = next(line for line in lines if "node" in line and "score" in line)
    assert [word for word in header.split() if word.isalpha()] == ["node", "score", "components", "devices"]
    assert any(line.lstrip().startswith("nomad-client-v100") for line in lines)
    # a long cell folds onto the next lines: the GPU's whole ID is there, never cut short
    assert "GPU-8f3c6d2a-1b7e-4c59-9e0a-5d2f41b6a7c3" in re.sub(r"[\s│]", "", plain)
    assert "group front: 1/1 placed" in lines


def test_the_text_plan_leaves_brackets_alone_and_honours_no_color(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reasons such as `datacenter x is not in [dc1]` are text, not rich markup; NO_COLOR
    leaves no colour even on a forced terminal (bold headers stay, as in diagnostics)."""
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("FORCE_COLOR", "1")
    sample = ROOT / "samples" / "tensorrt.nomad.hcl"
    assert main(["plan", str(sample), "--nodes", str(NODES / "cluster.yaml")]) == 0
    out = capsys.readouterr().out
    assert (
        "8 nodes outside the job's datacenters or pool "
        "(p4d-use1a-01: datacenter us-east-1a is not in [dc1], …)" in out
    )
    assert "\x1b[1m" in out
    assert re.search(r"\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7])m", out) is None
