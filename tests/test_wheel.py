"""The built wheel carries the grammar and runs from outside the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(ROOT)],
        check=True, capture_output=True,
    )  # fmt: skip
    (built,) = out.glob("hclgpu-*.whl")
    return built


def test_wheel_contains_grammar_templates_and_entry_point(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "hclgpu/_grammar/hcl.lark" in names
    assert any(name.startswith("hclgpu/_templates/") for name in names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "hclgpu = hclgpu.cli:run" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_installed_wheel_checks_a_sample_from_elsewhere(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(wheel)],
        check=True, capture_output=True,
    )  # fmt: skip
    elsewhere = tmp_path / "work"
    elsewhere.mkdir()
    sample = ROOT / "samples" / "tensorrt.nomad.hcl"
    env = {**os.environ, "PYTHONPATH": str(target), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    code = "import hclgpu, sys; print(hclgpu.__file__); sys.exit(__import__('hclgpu.cli').cli.main())"
    process = subprocess.run(
        [sys.executable, "-c", code, "check", str(sample)],
        cwd=elsewhere, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert process.returncode == 0, process.stderr
    assert process.stdout.startswith(str(target))
    assert "All checks passed (1 file)" in process.stderr
    assert list((tmp_path / "cache" / "hclgpu").glob("tables-*.marshal"))
    argv = ["render", str(sample), "--target", "kubernetes", "--unsupported", "ignore"]
    rendered = subprocess.run(  # the Kubernetes templates come from hclgpu/_templates in the wheel
        [sys.executable, "-c", code, *argv],
        cwd=elsewhere, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert rendered.returncode == 0, rendered.stderr
    assert "\nkind: Deployment\n" in rendered.stdout
