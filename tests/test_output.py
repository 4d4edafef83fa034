"""`--out` is a transaction: every artifact, or none, and a failure leaves the directory as it was."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hclgpu import output
from hclgpu.cli import main
from tests.conftest import ROOT

SAMPLE = ROOT / "samples" / "mixed-service.nomad.hcl"


def snapshot(directory: Path) -> dict[str, tuple[str, bytes | None, int]]:
    """Every path below ``directory``: its kind, bytes and permissions."""
    found: dict[str, tuple[str, bytes | None, int]] = {}
    if not directory.exists():
        return found
    for path in sorted(directory.rglob("*")):
        mode = stat.S_IMODE(path.lstat().st_mode)
        name = str(path.relative_to(directory))
        found[name] = ("dir", None, mode) if path.is_dir() else ("file", path.read_bytes(), mode)
    return found


def render(out: Path, *extra: str) -> int:
    return main(["render", str(SAMPLE), "--target", "oci", "--out", str(out), *extra])


class Failing:
    """Wraps a function so that its ``fail_at``-th call (0-based) raises ENOSPC."""

    def __init__(self, real: Callable[..., Any], fail_at: int) -> None:
        self.real, self.fail_at, self.calls = real, fail_at, 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.calls - 1 == self.fail_at:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return self.real(*args, **kwargs)


def count_calls(monkeypatch: pytest.MonkeyPatch, name: str, out: Path) -> int:
    """How many times one rendering into ``out`` calls ``os.<name>`` inside the writer."""
    probe = Failing(getattr(os, name), fail_at=-1)
    monkeypatch.setattr(output.os, name, probe)
    assert render(out) == 0
    monkeypatch.undo()
    return probe.calls


@pytest.fixture()
def earlier(tmp_path: Path) -> Path:
    """An --out directory holding an earlier rendering (edited, so a new one would change it)
    and a file of the user's own."""
    out = tmp_path / "out"
    assert render(out) == 0
    for config in out.rglob("config.json"):
        config.write_text('{"earlier": true}\n')
        config.chmod(0o640)
    (out / "notes.txt").write_text("mine\n")
    return out


@pytest.mark.parametrize("function", ["replace", "fdopen", "chmod"])
def test_a_failure_at_any_step_leaves_an_earlier_rendering_untouched(
    function: str,
    earlier: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = snapshot(earlier)
    steps = count_calls(monkeypatch, function, tmp_path / "probe")
    assert steps >= 2, "the sample must render several files for this test to mean anything"
    for fail_at in range(steps):
        monkeypatch.setattr(output.os, function, Failing(getattr(os, function), fail_at))
        assert render(earlier) == 2
        monkeypatch.undo()
        assert snapshot(earlier) == before, f"os.{function} failing at call {fail_at}"
        assert "No space left on device" in capsys.readouterr().err


def test_a_failure_midway_into_a_new_directory_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    steps = count_calls(monkeypatch, "replace", tmp_path / "probe")
    for fail_at in range(steps):
        monkeypatch.setattr(output.os, "replace", Failing(os.replace, fail_at))
        assert render(tmp_path / "new" / "out") == 2
        monkeypatch.undo()
        assert not (tmp_path / "new").exists()
    assert "cannot write into" in capsys.readouterr().err


def test_success_replaces_files_keeping_their_permissions_and_leaves_no_temporaries(earlier: Path) -> None:
    assert render(earlier) == 0
    configs = sorted(earlier.rglob("config.json"))
    assert len(configs) >= 2
    for config in configs:
        assert config.read_text().startswith("{\n") and "earlier" not in config.read_text()
        assert stat.S_IMODE(config.stat().st_mode) == 0o640
    assert (earlier / "notes.txt").read_text() == "mine\n"
    leftovers = [p.name for p in earlier.rglob(".*")]
    assert leftovers == []


def test_new_files_get_the_permissions_open_would_give(tmp_path: Path) -> None:
    mask = os.umask(0o027)
    try:
        output.write_files(tmp_path / "d", [("a/b.txt", "x"), ("c.txt", "y")])
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "d" / "a" / "b.txt").stat().st_mode) == 0o640
    assert (tmp_path / "d" / "c.txt").read_text() == "y"


def test_text_that_cannot_be_encoded_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(output.WriteFailed, match="cannot write into"):
        output.write_files(tmp_path / "d", [("a.txt", "fine"), ("b.txt", "lone surrogate \ud800")])
    assert not (tmp_path / "d").exists()


def test_an_unwritable_directory_is_reported_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n")
    assert render(blocker / "out") == 2
    assert "cannot write into" in capsys.readouterr().err
    assert blocker.read_text() == "not a directory\n"
