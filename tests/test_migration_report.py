"""`render --report md|json`: the migration report, by area."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hclgpu.cli import main
from tests.conftest import ROOT

SAMPLE = ROOT / "samples" / "tensorrt.nomad.hcl"


def _report(capsys: pytest.CaptureFixture[str], target: str, kind: str) -> tuple[str, str]:
    assert main(["render", str(SAMPLE), "--target", target, "--isolated", "--report", kind]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


@pytest.mark.parametrize("target", ["kubernetes", "docker", "compose", "oci"])
def test_every_finding_is_in_the_report_once_in_its_area(
    target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = _report(capsys, target, "json")
    [report] = json.loads(out)
    assert (report["job"], report["target"]) == ("tensorrt", target)
    assert list(report["areas"]) == [
        "gpu",
        "network",
        "storage",
        "secrets",
        "lifecycle",
        "scheduling",
        "task",
    ]
    listed = [
        (kind, item["text"])
        for kinds in report["areas"].values()
        for kind in ("approximate", "left_out")
        for item in kinds[kind]
    ]
    said = [line for line in err.splitlines() if "warning[HG30" in line]
    assert len(listed) == len(said)  # each finding once
    for line in said:
        kind = "left_out" if "HG301" in line else "approximate"
        assert (kind, line.split("]: ", 1)[1]) in listed


def test_the_device_and_its_constraints_are_the_gpu_area(capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = _report(capsys, "kubernetes", "json")
    gpu = json.loads(out)[0]["areas"]["gpu"]
    assert any(i["where"].endswith('device "nvidia/gpu"') for i in gpu["exact"])
    assert any("regexp" in i["text"] for i in gpu["left_out"])  # the device's affinity, line 99
    assert all(i["line"] > 0 for kind in gpu.values() for i in kind)


def test_markdown_and_beside_the_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = _report(capsys, "kubernetes", "md")
    assert out.startswith("# Migration of job `tensorrt` to kubernetes\n") and "| gpu |" in out
    folder = tmp_path / "out"
    argv = [
        "render",
        str(SAMPLE),
        "--target",
        "kubernetes",
        "--isolated",
        "--report",
        "md",
        "--out",
        str(folder),
    ]
    assert main(argv) == 0
    assert (folder / "migration-report.md").read_text(encoding="utf-8") == out
    assert any(p.name.startswith("deployment-") for p in folder.iterdir())
