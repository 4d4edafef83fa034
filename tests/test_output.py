"""`--out` is a transaction: every artifact, or none, and a failure leaves the directory as it was."""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import shutil
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hclgpu.cli import main
from hclgpu.io import output
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


def visible(found: dict[str, tuple[str, bytes | None, int]]) -> dict[str, tuple[str, bytes | None, int]]:
    """A snapshot without hclgpu's temporary names (a clean-up that failed leaves them to the
    next run)."""
    return {name: entry for name, entry in found.items() if ".hg-" not in name}


def render(out: Path, *extra: str) -> int:
    return main(["render", str(SAMPLE), "--target", "oci", "--out", str(out), *extra])


def no_space() -> BaseException:
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


STEPS = ("open", "mkdir", "rmdir", "unlink", "rename", "replace", "link", "chmod", "fchmod", "fsync")
"""The calls a write consists of (besides the writer's exchange of two directories)."""


class Failing:
    """Makes the ``fail_at``-th step (0-based) of a write below ``place`` raise ``error()``
    (ENOSPC): a call naming a path below ``place``, or one on a file descriptor."""

    def __init__(self, place: Path, fail_at: int, error: Callable[[], BaseException] = no_space) -> None:
        self.place, self.fail_at, self.error, self.calls = str(place), fail_at, error, 0

    @contextlib.contextmanager
    def installed(self) -> Iterator[Failing]:
        with pytest.MonkeyPatch.context() as patch:
            for name in STEPS:
                patch.setattr(os, name, self.wrap(getattr(os, name)))
            patch.setattr(output, "_exchange", self.wrap(output._exchange))
            yield self

    def wrap(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if not args or isinstance(args[0], int) or os.fspath(args[0]).startswith(self.place):
                self.calls += 1
                if self.calls - 1 == self.fail_at:
                    raise self.error()
            return real(*args, **kwargs)

        return call


@pytest.fixture(params=["swap", "in-place"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways `--out` is written: a new directory swapped in, or in place with a journal
    (a mount point, the working directory)."""
    if request.param == "in-place":
        monkeypatch.setattr(output, "_swappable", lambda root: False)
    return str(request.param)


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


def copies(earlier: Path, tmp_path: Path) -> Iterator[Path]:
    """Fresh copies of the earlier rendering, each in a folder of its own."""
    for index in itertools.count():
        copy = tmp_path / f"copy{index}" / "out"
        shutil.copytree(earlier, copy, symlinks=True)
        yield copy


@pytest.mark.usefixtures("mode")
def test_a_failure_at_any_step_leaves_an_earlier_rendering_untouched_or_writes_everything(
    earlier: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A step that fails before the commit leaves the directory as it was and says which file
    failed; one after it (removing the old tree) costs nothing but a temporary the next run
    removes."""
    before, fresh = snapshot(earlier), copies(earlier, tmp_path)
    probe = next(fresh)
    with Failing(probe.parent, -1).installed() as counted:
        assert render(probe) == 0
    after = snapshot(probe)
    assert counted.calls >= 10, "the sample must render several files for this test to mean anything"
    failures = named = 0
    for fail_at in range(counted.calls):
        out = next(fresh)
        capsys.readouterr()
        with Failing(out.parent, fail_at).installed():
            status = render(out)
        if status == 2:
            failures += 1
            assert snapshot(out) == before, f"failing at step {fail_at}"
            [line] = [x for x in capsys.readouterr().err.splitlines() if x.startswith("hclgpu: cannot write")]
            assert "No space left on device" in line and f"cannot write {out}" in line
            assert ".hg-" not in line, "a temporary name means nothing to the user"
            named += "config.json" in line
        else:  # a clean-up step failed: what it left, the next run removes
            assert status == 0 and visible(snapshot(out)) == after, f"failing at step {fail_at}"
        assert render(out) == 0 and snapshot(out) == after
        assert [p.name for p in out.parent.iterdir()] == ["out"]
    assert failures > counted.calls // 2
    assert named > 0, "a failure while a file is written names the file"


@pytest.mark.usefixtures("mode")
def test_an_interrupt_at_any_step_leaves_an_earlier_rendering_untouched_or_writes_everything(
    earlier: Path, tmp_path: Path
) -> None:
    before, fresh = snapshot(earlier), copies(earlier, tmp_path)
    probe = next(fresh)
    with Failing(probe.parent, -1).installed() as counted:
        output.write_files(probe, rendered_files())
    after = snapshot(probe)
    for fail_at in range(counted.calls):
        out = next(fresh)
        interrupt = KeyboardInterrupt(f"at {fail_at}")
        failing = Failing(out.parent, fail_at, lambda raised=interrupt: raised)
        with failing.installed(), pytest.raises(KeyboardInterrupt) as raised:
            output.write_files(out, rendered_files())
        assert raised.value is interrupt, "the interrupt itself goes on, not a WriteFailed"
        assert visible(snapshot(out)) in (before, after), f"interrupted at step {fail_at}"
        output.write_files(out, rendered_files())
        assert [p.name for p in out.parent.iterdir()] == ["out"]


def rendered_files() -> list[tuple[str, str]]:
    """The artifacts `render` would write for the sample (as fresh text)."""
    from hclgpu.backends import registry
    from hclgpu.backends.target import Lowering
    from hclgpu.diagnostics import Sink
    from hclgpu.pipeline import compile_source
    from hclgpu.source import SourceFile

    source = SourceFile(str(SAMPLE), SAMPLE.read_text())
    result = compile_source(source)
    assert result.job is not None
    artifacts = registry.render(result.job, "oci", Lowering("oci", source, Sink()))
    return [(a.name, a.text) for a in artifacts]


def test_a_failure_midway_into_a_new_directory_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Failing(tmp_path, -1).installed() as counted:
        assert render(tmp_path / "probe" / "out") == 0
    for fail_at in range(counted.calls):
        with Failing(tmp_path / "new", fail_at).installed():
            status = render(tmp_path / "new" / "out")
        if status == 2:
            assert not (tmp_path / "new").exists()
        else:
            assert snapshot(tmp_path / "new") == snapshot(tmp_path / "probe")
            shutil.rmtree(tmp_path / "new")
    assert "cannot write" in capsys.readouterr().err


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
    with pytest.raises(output.WriteFailed, match=r"cannot write .*b\.txt"):
        output.write_files(tmp_path / "d", [("a.txt", "fine"), ("b.txt", "lone surrogate \ud800")])
    assert not (tmp_path / "d").exists()


def test_an_unwritable_directory_is_reported_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n")
    assert render(blocker / "out") == 2
    assert "cannot write" in capsys.readouterr().err
    assert blocker.read_text() == "not a directory\n"


@pytest.mark.parametrize(
    "name",
    ["{tmp}/abs/x.json", "", "../x.json", "a/../../x.json", "./x.json", "a//x.json", "a/", "a/./x", "a\0b"],
)
def test_a_name_leading_elsewhere_is_refused_before_anything_is_written(tmp_path: Path, name: str) -> None:
    name = name.replace("{tmp}", str(tmp_path))
    with pytest.raises(output.WriteFailed) as raised:
        output.write_files(tmp_path / "d" / "e", [("fine.txt", "x"), (name, "y")])
    assert repr(name) in str(raised.value)
    assert snapshot(tmp_path) == {}


def test_two_files_of_one_name_are_refused_and_the_existing_one_kept(tmp_path: Path) -> None:
    (tmp_path / "x.txt").write_text("original\n")
    before = snapshot(tmp_path)
    with pytest.raises(output.WriteFailed, match=r"x\.txt"):
        output.write_files(tmp_path, [("x.txt", "first"), ("y.txt", "y"), ("x.txt", "second")])
    assert snapshot(tmp_path) == before


def test_a_backup_never_replaces_a_file_of_the_users(tmp_path: Path) -> None:
    (tmp_path / "x.txt").write_text("old\n")
    for name in (f".x.txt.{os.getpid()}.bak", ".x.txt.bak"):
        (tmp_path / name).write_text("mine\n")
    output.write_files(tmp_path, [("x.txt", "new\n")])
    assert (tmp_path / "x.txt").read_text() == "new\n"
    assert (tmp_path / f".x.txt.{os.getpid()}.bak").read_text() == "mine\n"
    assert (tmp_path / ".x.txt.bak").read_text() == "mine\n"
    assert len(list(tmp_path.iterdir())) == 3


def test_a_directory_where_a_file_goes_is_an_error_and_nothing_changes(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text("old b\n")
    (tmp_path / "a.txt" / "inside").mkdir(parents=True)
    before = snapshot(tmp_path)
    with pytest.raises(output.WriteFailed, match=r"a\.txt"):
        output.write_files(tmp_path, [("b.txt", "new b"), ("a.txt", "a")])
    assert snapshot(tmp_path) == before


def test_a_name_of_245_bytes_is_written(tmp_path: Path) -> None:
    name = "é" * 100 + "n" * 41 + ".txt"
    assert len(name.encode()) == 245
    output.write_files(tmp_path, [(name, "x")])
    (tmp_path / name).write_text("y")
    output.write_files(tmp_path, [(name, "z")])  # replacing it needs a backup name too
    assert [p.name for p in tmp_path.iterdir()] == [name]
    assert (tmp_path / name).read_text() == "z"


def test_a_failure_names_the_file_the_system_call_was_about(tmp_path: Path) -> None:
    blocker = tmp_path / "a"
    blocker.write_text("a file\n")
    with pytest.raises(output.WriteFailed) as raised:
        output.write_files(tmp_path, [("a/b/c.txt", "x")])
    message = str(raised.value)
    assert "a/b/c.txt" in message and str(blocker / "b") in message and "Not a directory" in message
