"""A second real editor in the tests: Emacs in batch mode (Debian's 28 with elpa-eglot in CI)
loads the README's Emacs recipe, as written there, and drives `hclgpu lsp` through eglot with
tests/data/emacs/drive.el: a job named `job.hcl` gets the mode by its content and a Terraform
`.hcl` does not; a typo's diagnostic arrives; `${device.attr.pci` completes by the item's
textEdit; the quick fix applies."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

SCRIPT = ROOT / "tests" / "data" / "emacs" / "drive.el"


def readme_recipe() -> str:
    """The elisp block under the README's **Emacs** heading."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"\*\*Emacs\*\*.*?\n\n```elisp\n(.*?)```", readme, re.DOTALL)
    assert found, "the README has no Emacs recipe"
    return found.group(1)


def test_the_readme_recipe_attaches_eglot_to_job_files_only(tmp_path: Path) -> None:
    emacs = shutil.which("emacs")
    if emacs is None or not _has_eglot(emacs, tmp_path):
        pytest.skip("Emacs with eglot is not installed (`.ci/run` installs emacs-nox and elpa-eglot)")
    lines = (ROOT / "samples" / "tensorrt.nomad.hcl").read_text(encoding="utf-8").splitlines()
    typo = [line.replace("count = 1", "cuont = 1") for line in lines]
    (tmp_path / "job.hcl").write_text("\n".join(typo) + "\n", encoding="utf-8")
    (tmp_path / "main.hcl").write_text('terraform {\n  required_version = ">= 1.0"\n}\n', encoding="utf-8")
    seen = _drive(emacs, tmp_path)
    assert "error" not in seen, seen["error"]
    assert (seen["job_mode"], seen["terraform_mode"]) == ("nomad-mode", "fundamental-mode")
    assert seen["server"] is True
    assert "[HG101]" in seen["typo"] and "did you mean `count`?" in seen["typo"]
    [pci] = [line for line in lines if "${device.attr.memory}" in line]
    assert seen["completed"] == pci.replace("${device.attr.memory}", "${device.attr.pci_bandwidth}")
    assert seen["fix_title"] == "HG101: replace with `count`"
    assert seen["fixed"] == next(line for line in lines if line.strip() == "count = 1")


def _has_eglot(emacs: str, home: Path) -> bool:
    probe = "(progn (require 'package) (package-initialize) (kill-emacs (if (require 'eglot nil t) 0 1)))"
    done = subprocess.run(
        [emacs, "--batch", "--eval", probe], env=_env(home), capture_output=True, timeout=60, check=False
    )
    return done.returncode == 0


def _env(home: Path) -> dict[str, str]:
    """No user configuration: HOME (where Emacs keeps `.emacs.d`) is the test's own folder."""
    return {**os.environ, "HOME": str(home), "PYTHONDONTWRITEBYTECODE": "1"}


def _drive(emacs: str, directory: Path) -> dict[str, Any]:
    recipe, out = directory / "recipe.el", directory / "seen.json"
    recipe.write_text(readme_recipe(), encoding="utf-8")
    env = {
        **_env(directory),
        "HCLGPU_EMACS_RECIPE": str(recipe),
        "HCLGPU_EMACS_BIN": str(Path(sys.executable).parent),
        "HCLGPU_EMACS_DIR": str(directory),
        "HCLGPU_EMACS_OUT": str(out),
    }
    done = subprocess.run(
        [emacs, "--batch", "-l", str(SCRIPT)],
        env=env,
        cwd=directory,
        timeout=120,
        check=False,
        capture_output=True,
    )
    assert out.exists(), done.stderr.decode(errors="replace")
    seen: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return seen
