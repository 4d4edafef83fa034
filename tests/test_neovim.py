"""A real editor in the tests: a headless Neovim (Debian's 0.7.2 in CI, any later one too)
drives `hclgpu lsp` with tests/data/neovim/drive.lua, as a user would: it opens a sample job,
types a typo and sees its diagnostic, completes `${device.attr.mem` and applies the quick fix.
The Lua script writes what the editor saw; this test reads it back."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

SCRIPT = ROOT / "tests" / "data" / "neovim" / "drive.lua"


def _server() -> str:
    """The `hclgpu` command of the Python that runs the tests."""
    found = Path(sys.executable).with_name("hclgpu")
    assert found.exists(), found
    return str(found)


def test_neovim_shows_a_diagnostic_completes_and_applies_a_quick_fix(tmp_path: Path) -> None:
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("Neovim is not installed (`.ci/run` installs Debian's neovim)")
    job = tmp_path / "tensorrt.nomad.hcl"
    shutil.copyfile(ROOT / "samples" / "tensorrt.nomad.hcl", job)
    out = tmp_path / "seen.json"
    env = {
        **os.environ,
        "HCLGPU_NVIM_OUT": str(out),
        "HCLGPU_NVIM_JOB": str(job),
        "HCLGPU_NVIM_SERVER": _server(),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    argv = [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {SCRIPT}"]
    subprocess.run(argv, env=env, cwd=tmp_path, timeout=60, check=False, capture_output=True)
    seen = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in seen, seen["error"]
    assert seen["started"] and seen["diagnosed"], seen
    assert seen["typo_code"] == "HG101" and "did you mean `count`?" in seen["typo_message"]
    assert seen["completed"] == '            attribute = "${device.attr.memory}"'
    assert seen["fix_title"] == "HG101: replace with `count`"
    assert seen["fixed"] == "          count = 1"
