"""A real editor in the tests: a headless Neovim (Debian's 0.7.2 in CI, any later one too)
drives `hclgpu lsp` with tests/data/neovim/drive.lua, as a user would: it opens a sample job
and waits for its diagnostics, types a typo and sees its diagnostic, completes
`"${device.attr.mem` by applying the item as Neovim applies one, and applies the quick fix.
The Lua script writes what the editor saw; this test reads it back. Protocol tests cannot see
what an editor makes of an answer: an edit range that doubles the typed prefix is valid LSP."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

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
    sample = ROOT / "samples" / "tensorrt.nomad.hcl"
    job = tmp_path / "tensorrt.nomad.hcl"
    shutil.copyfile(sample, job)
    seen = _drive(nvim, job, tmp_path)
    assert "error" not in seen, seen["error"]
    assert seen["started"] and seen["opened"] and seen["diagnosed"], seen
    assert seen["typo_code"] == "HG101" and "did you mean `count`?" in seen["typo_message"]
    lines = sample.read_text(encoding="utf-8").splitlines()
    [memory] = [line for line in lines if "${device.attr.memory}" in line]
    assert memory.strip() == 'attribute = "${device.attr.memory}"'
    assert seen["completed"] == memory, seen  # the original indentation, the target once
    assert seen["completed"].count("${device.attr.memory}") == 1
    assert seen["fix_title"] == "HG101: replace with `count`"
    assert seen["fixed"] == next(line for line in lines if line.strip() == "count = 1")


def _drive(nvim: str, job: Path, tmp_path: Path) -> dict[str, Any]:
    """Run drive.lua on ``job`` in a headless Neovim with no user configuration, every file it
    or the server writes (Neovim's log, hclgpu's cache) under ``tmp_path``; what it saw."""
    out = tmp_path / "seen.json"
    env = {
        **os.environ,
        "HCLGPU_NVIM_OUT": str(out),
        "HCLGPU_NVIM_JOB": str(job),
        "HCLGPU_NVIM_SERVER": _server(),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    argv = [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {SCRIPT}"]
    done = subprocess.run(argv, env=env, cwd=tmp_path, timeout=60, check=False, capture_output=True)
    assert out.exists(), done.stderr.decode(errors="replace")
    seen: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return seen
