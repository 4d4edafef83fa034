"""CI integrations: the pre-commit hooks (validated and run by pre-commit itself) and the
GitHub Actions workflow the README gives."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import ROOT, vendored

MANIFEST = ROOT / ".pre-commit-hooks.yaml"
PRE_COMMIT = [sys.executable, "-m", "pre_commit"]
BAD_JOB = """job "y" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        memory = 1
      }
    }
  }
}
"""
"""A job Nomad refuses: 1 MB of memory (HG242 at 6:18)."""


def hooks() -> dict[str, dict[str, Any]]:
    return {hook["id"]: hook for hook in yaml.safe_load(MANIFEST.read_text())}


def test_the_manifest_is_valid_for_pre_commit() -> None:
    done = subprocess.run([*PRE_COMMIT, "validate-manifest", str(MANIFEST)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert set(hooks()) == {"hclgpu-check", "hclgpu-fmt"}


def test_pre_commit_refuses_a_broken_manifest(tmp_path: Path) -> None:
    """The validation above can fail: a hook without an entry is refused."""
    broken = tmp_path / ".pre-commit-hooks.yaml"
    broken.write_text("- id: x\n  name: x\n  language: python\n")
    done = subprocess.run([*PRE_COMMIT, "validate-manifest", str(broken)], capture_output=True, text=True)
    assert done.returncode == 1 and "entry" in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("name", "matched"),
    [
        ("jobs/train.nomad", True),
        ("jobs/train.nomad.hcl", True),
        ("main.tf", False),
        ("terraform.hcl", True),  # read, and skipped with a note: no top-level `job` block
        ("train.nomad.bak", False),
    ],
)
def test_hooks_look_at_hcl_and_nomad_files(name: str, matched: bool) -> None:
    for hook in hooks().values():
        assert bool(re.search(hook["files"], name)) is matched
        assert hook["entry"].split()[0] == "hclgpu"  # the console script the package installs


def _git(repo: Path, *argv: str) -> None:
    subprocess.run(["git", "-C", str(repo), *argv], check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")
def test_the_hooks_run_under_pre_commit(tmp_path: Path) -> None:
    """`pre-commit try-repo` installs this checkout as pre-commit would install a release."""
    if not (ROOT / ".git").exists():
        pytest.skip("try-repo needs this project as a git checkout (not an unpacked sdist)")
    repo = tmp_path / "jobs"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "ugly.nomad").write_text('job "x" {\ntype="batch"\n}\n')
    (repo / "bad.nomad.hcl").write_text(BAD_JOB)
    (repo / "other.hcl").write_text("this is not { a job file\n")
    (repo / "prod.vars.hcl").write_text('image = "triton:24.05"\n')
    (repo / "client.hcl").write_text("client {\n  enabled = true\n}\n")
    (repo / "train.hcl").write_text(BAD_JOB)  # a job file named *.hcl is checked
    (repo / "hclgpu.toml").write_text('exclude = ["other.hcl"]\n')
    _git(repo, "add", ".")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "home"), "HCLGPU_NO_CACHE": "1"}
    done = subprocess.run(
        [*PRE_COMMIT, "try-repo", str(ROOT), "--all-files"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert re.search(r"hclgpu check\.+Failed", out) and re.search(r"hclgpu fmt\.+Failed", out), out
    assert "bad.nomad.hcl:6:18: error[HG242]" in out and "train.hcl:6:18: error[HG242]" in out, out
    assert "prod.vars.hcl: info[HG023]" in out and "client.hcl: info[HG023]" in out, out
    assert "other.hcl" not in out, out  # excluded by the configuration
    assert (repo / "ugly.nomad").read_text() == 'job "x" {\n  type = "batch"\n}\n'


# ---- the README's GitHub Actions workflow ----------------------------------------------


def readme_workflow() -> dict[str, Any]:
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.DOTALL)
    [workflow] = [yaml.safe_load(b) for b in blocks if "upload-sarif" in b]
    return workflow


def test_the_readme_workflow_uploads_sarif_even_when_the_check_fails() -> None:
    workflow = readme_workflow()
    assert workflow["permissions"]["security-events"] == "write"
    steps = workflow["jobs"]["hclgpu"]["steps"]
    [check] = [s for s in steps if "hclgpu check" in s.get("run", "")]
    [upload] = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
    assert steps.index(check) < steps.index(upload)
    assert upload["if"] == "always()"
    assert check["run"].endswith(f"> {upload['with']['sarif_file']}")


def test_the_readme_workflow_check_writes_valid_sarif_with_repository_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from jsonschema import Draft7Validator

    from hclgpu.cli import main

    step = next(s for s in readme_workflow()["jobs"]["hclgpu"]["steps"] if "hclgpu check" in s.get("run", ""))
    argv = shlex.split(step["run"].split(">")[0])[1:]
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "bad.nomad.hcl").write_text(BAD_JOB)
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "hclgpu.sarif"
    with out.open("w") as handle:
        monkeypatch.setattr("sys.stdout", handle)
        assert main(argv) == 1
    sarif = json.loads(out.read_text())
    schema = json.loads((vendored("schemas", "sarif") / "sarif-schema-2.1.0.json").read_text())
    assert list(Draft7Validator(schema).iter_errors(sarif)) == []
    [result] = sarif["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "jobs/bad.nomad.hcl"
    assert location["region"]["startLine"] == 6 and result["ruleId"] == "HG242"
