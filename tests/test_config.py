"""`[tool.hclgpu]` / `hclgpu.toml` configuration and how the command line overrides it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hclgpu.cli import main
from hclgpu.config import ConfigError, find_config
from tests.conftest import GROUP

# An unused suppression: one HG290 warning, on line 2.
JOB = 'job "j" {\n  # hclgpu-ignore: HG291\n  datacenters = ["dc1"]\n' + GROUP + "}\n"


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    status = main(["check", "--format", "json", *argv])
    out, _ = capsys.readouterr()
    return status, [d["code"] for d in json.loads(out)["diagnostics"]] if out else []


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "a.hcl").write_text(JOB)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_defaults_without_a_file(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert check(capsys, "jobs") == (0, ["HG290"])
    assert check(capsys, "--strict", "jobs") == (1, ["HG290"])


def test_pyproject_table(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.hclgpu]\nstrict = true\n')
    assert check(capsys, "jobs") == (1, ["HG290"])
    (project / "pyproject.toml").write_text('[tool.hclgpu]\nignore = ["HG290"]\n')
    assert check(capsys, "jobs") == (0, [])


def test_hclgpu_toml_wins_and_per_file_ignores(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "pyproject.toml").write_text("[tool.hclgpu]\nstrict = true\n")
    (project / "hclgpu.toml").write_text('[per-file-ignores]\n"jobs/a.hcl" = ["HG290"]\n')
    assert check(capsys, "jobs") == (0, [])
    (project / "jobs" / "b.hcl").write_text(JOB)
    assert check(capsys, "jobs") == (0, ["HG290"])


def test_command_line_overrides(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "hclgpu.toml").write_text('select = ["HG1"]\n')
    assert check(capsys, "jobs") == (0, [])
    assert check(capsys, "--select", "HG2", "jobs") == (0, ["HG290"])
    assert check(capsys, "--select", "HG2", "--ignore", "HG290", "jobs") == (0, [])


def test_errors_that_break_the_job_cannot_be_ignored(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "jobs" / "a.hcl").write_text('job "j" {\n  datacenter = ["dc1"]\n}\n')
    (project / "hclgpu.toml").write_text('ignore = ["HG101"]\n')
    assert check(capsys, "jobs") == (1, ["HG101"])


def test_bad_configuration_is_a_usage_error(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "hclgpu.toml").write_text("ignroe = []\n")
    with pytest.raises(ConfigError, match="unknown key `ignroe`"):
        find_config()
    assert main(["check", "jobs"]) == 2
    assert "hclgpu.toml: unknown key `ignroe`" in capsys.readouterr().err
