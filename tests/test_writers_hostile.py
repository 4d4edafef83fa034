"""The writers against a hostile or unlucky tree: links that lead out of it, folders that
cannot be listed, and a process killed (SIGKILL) or interrupted at any step.

A CI hook runs ``fmt`` and ``render --out`` on files a pull request brings, so a link in
the tree is the author's, not the user's: no writer follows one out of the tree it was
given. And the promise that ``--out`` holds every new file or none must survive a kill,
which no ``except`` clause sees: only the order of the steps on disk can keep it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hclgpu.cli import main
from hclgpu.io import output, walk
from hclgpu.printer import fmt as printer_fmt
from tests.conftest import GROUP, ROOT

UGLY = 'job "x" {\ntype="batch"\n' + GROUP + "}\n"
PRETTY = 'job "x" {\n  type = "batch"\n' + GROUP + "}\n"
SAMPLE = ROOT / "samples" / "mixed-service.nomad.hcl"

# ---- links that leave the tree -----------------------------------------------------------


@pytest.fixture()
def outside(tmp_path: Path) -> Path:
    """A file outside the repository a pull request would like rewritten."""
    etc = tmp_path / "etc"
    etc.mkdir()
    agent = etc / "agent.hcl"
    agent.write_text(UGLY)
    return agent


def test_fmt_of_a_folder_does_not_write_through_a_link_that_leaves_it(
    tmp_path: Path, outside: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "x.nomad.hcl").symlink_to(os.path.relpath(outside, repo))
    (repo / "y.nomad.hcl").write_text(UGLY)
    monkeypatch.chdir(tmp_path)
    assert main(["fmt", "--color", "never", "repo"]) == 2
    err = capsys.readouterr().err
    assert outside.read_text() == UGLY, "the file outside the tree is untouched"
    assert (repo / "x.nomad.hcl").is_symlink()
    assert (repo / "y.nomad.hcl").read_text() == PRETTY, "the other files are still formatted"
    assert "repo/x.nomad.hcl: error[HG022]" in err and "outside" in err
    assert sorted(p.name for p in outside.parent.iterdir()) == ["agent.hcl"]


def test_fmt_of_a_named_link_that_leaves_its_folder_and_the_working_directory_is_refused(
    tmp_path: Path, outside: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """pre-commit names the files of a pull request one by one, from the repository root."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "x.nomad.hcl").symlink_to(os.path.relpath(outside, repo))
    monkeypatch.chdir(repo)
    assert main(["fmt", "--color", "never", "x.nomad.hcl"]) == 2
    assert outside.read_text() == UGLY
    assert "x.nomad.hcl: error[HG022]" in capsys.readouterr().err


def test_fmt_follows_a_named_link_that_stays_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "common").mkdir()
    (tmp_path / "jobs").mkdir()
    (tmp_path / "common" / "x.hcl").write_text(UGLY)
    (tmp_path / "jobs" / "x.hcl").symlink_to(Path("..") / "common" / "x.hcl")
    monkeypatch.chdir(tmp_path)
    assert main(["fmt", os.path.join("jobs", "x.hcl")]) == 0
    assert (tmp_path / "common" / "x.hcl").read_text() == PRETTY
    assert (tmp_path / "jobs" / "x.hcl").is_symlink()


def test_fmt_of_a_folder_follows_a_link_that_stays_inside_it(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.hcl").write_text(UGLY)
    (tmp_path / "b.nomad.hcl").symlink_to(Path("real") / "a.hcl")
    assert main(["fmt", str(tmp_path)]) == 0
    assert (tmp_path / "real" / "a.hcl").read_text() == PRETTY
    assert (tmp_path / "b.nomad.hcl").is_symlink()


def test_render_does_not_write_through_a_link_in_the_output_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert render(out) == 0
    elsewhere = tmp_path / "elsewhere"
    shutil.move(out / "cache", elsewhere)
    (out / "cache").symlink_to(elsewhere)
    before, outside_before = tree(out), tree(elsewhere)
    assert render(out) == 2
    assert tree(elsewhere) == outside_before, "nothing is written outside the output directory"
    assert tree(out) == before
    assert (out / "cache").is_symlink()
    err = capsys.readouterr().err
    assert f"{out / 'cache'}" in err and "link" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "out"]


def test_render_replaces_a_link_where_a_file_goes_and_leaves_its_target_alone(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert render(out) == 0
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("outside\n")
    config = out / "cache" / "redis" / "config.json"
    config.unlink()
    config.symlink_to(elsewhere)
    assert render(out) == 0
    assert elsewhere.read_text() == "outside\n"
    assert not config.is_symlink() and config.read_text().startswith("{")


# ---- folders that cannot be listed ----------------------------------------------------------


@pytest.fixture()
def locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``jobs/`` with a job file in a subfolder ``team/`` that cannot be listed (simulated
    in-process: tests may run as root, whom permission bits do not stop)."""
    jobs = tmp_path / "jobs"
    (jobs / "team").mkdir(parents=True)
    (jobs / "a.nomad.hcl").write_text(PRETTY)
    (jobs / "team" / "b.nomad.hcl").write_text(PRETTY)
    monkeypatch.chdir(tmp_path)
    return jobs / "team"


def lock(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    real = os.scandir

    def scandir(path: Any = ".") -> Any:
        if isinstance(path, (str, os.PathLike)) and os.path.realpath(path) == str(folder.resolve()):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


@pytest.mark.parametrize("command", ["check", "fmt"])
def test_a_folder_that_cannot_be_listed_is_an_error(
    command: str, locked: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lock(monkeypatch, locked)
    assert main([command, "--color", "never", "jobs"]) == 2
    err = capsys.readouterr().err
    assert "jobs/team: error[HG020]" in err and "Permission denied" in err


def test_a_folder_given_that_cannot_be_listed_is_an_error_naming_it(
    locked: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lock(monkeypatch, locked)
    assert main(["check", "--color", "never", "jobs/team"]) == 2
    err = capsys.readouterr().err
    assert "jobs/team: error[HG020]" in err and "Permission denied" in err


def test_a_folder_that_cannot_be_listed_is_an_error_after_a_clean_check_too(
    locked: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The record of clean files must not answer "all clean" for a tree it could not walk."""
    monkeypatch.delenv("HCLGPU_NO_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert main(["check", "jobs"]) == 0
    lock(monkeypatch, locked)
    capsys.readouterr()
    assert main(["check", "--color", "never", "jobs"]) == 2
    assert "jobs/team: error[HG020]" in capsys.readouterr().err


def test_the_walk_says_which_folder_it_could_not_list(locked: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lock(monkeypatch, locked)
    failed: list[str] = []
    found = walk.walk("jobs", "jobs", unreadable=lambda shown, error: failed.append(shown))
    assert [shown for _, shown in found] == ["jobs/a.nomad.hcl"]
    assert failed == ["jobs/team"]
    assert walk.absolute_job_files("jobs") is None


# ---- killed at any step --------------------------------------------------------------------

MUTATING = ("open", "mkdir", "rmdir", "unlink", "remove", "rename", "replace", "link", "symlink",
            "chmod", "fchmod", "fsync")  # fmt: skip
"""The calls at whose every start a kill is tried (a kill after the last one is the run's end)."""

OLD = {"a.txt": "old a\n", "sub/b.txt": "old b\n", "gone/c.txt": "old c\n"}
NEW = {"a.txt": "new a\n", "sub/b.txt": "new b\n", "sub/deeper/d.txt": "new d\n", "e.txt": "new e\n"}
MINE = {"notes.txt": "mine\n", "sub/mine.txt": "also mine\n"}


def tree(folder: Path) -> dict[str, str]:
    """Every file below ``folder`` (links as ``-> target``), by relative name."""
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*")) if folder.exists() else []:
        name = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[name] = "-> " + os.readlink(path)
        elif path.is_file():
            found[name] = path.read_text()
    return found


def render(out: Path) -> int:
    return main(["render", str(SAMPLE), "--target", "oci", "--out", str(out), "--color", "never"])


def fill(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def leftovers(folder: Path) -> list[str]:
    """hclgpu's temporary names anywhere below ``folder``."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if ".hg-" in p.name)


@contextlib.contextmanager
def patched(wrap: Callable[[Callable[..., Any]], Callable[..., Any]]) -> Iterator[None]:
    """Every call of :data:`MUTATING` (and the writer's exchange of two directories) made
    through ``wrap``, until the block ends."""
    with pytest.MonkeyPatch.context() as patch:
        for name in MUTATING:
            if hasattr(os, name):
                patch.setattr(os, name, wrap(getattr(os, name)))
        if hasattr(output, "_exchange"):
            patch.setattr(output, "_exchange", wrap(output._exchange))
        yield


def killed_at(step: int, action: Callable[[], None]) -> None:
    """Run ``action`` in a child process that is ended (``os._exit``, as by SIGKILL: no
    clean-up runs) just before its ``step``-th mutating call."""
    calls = [0]

    def wrap(real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if calls[0] == step:
                os._exit(137)
            calls[0] += 1
            return real(*args, **kwargs)

        return call

    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        try:
            with patched(wrap):
                action()
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def interrupted_after(step: int, action: Callable[[], None]) -> None:
    """Run ``action`` with SIGINT sent as its ``step``-th mutating call returns (where Python
    acts on it is up to the interpreter: anywhere after)."""
    calls = [0]

    def wrap(real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            result = real(*args, **kwargs)
            calls[0] += 1
            if calls[0] == step:
                os.kill(os.getpid(), signal.SIGINT)
            return result

        return call

    with contextlib.suppress(KeyboardInterrupt), patched(wrap):
        action()
        for _ in range(1000):  # a signal acted on after the call returned
            pass


def count_steps(action: Callable[[], None]) -> int:
    calls = [0]

    def wrap(real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls[0] += 1
            return real(*args, **kwargs)

        return call

    with patched(wrap):
        action()
    return calls[0]


@pytest.fixture(params=["swap", "in-place"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways `--out` can be written: a new directory swapped in (the rule), and in place
    with a journal (the output directory is a mount point, or holds the working directory)."""
    if request.param == "in-place":
        monkeypatch.setattr(output, "_swappable", lambda root: False)
    return str(request.param)


def prepared(tmp_path: Path, name: str) -> Path:
    """An output directory holding an earlier rendering (:data:`OLD`) and the user's files."""
    out = tmp_path / name / "out"
    out.mkdir(parents=True)
    fill(out, {**OLD, **MINE})
    return out


def write_new(out: Path) -> Callable[[], None]:
    return lambda: output.write_files(out, list(NEW.items()))


def test_a_kill_at_any_step_leaves_the_old_files_or_the_new_ones(tmp_path: Path, mode: str) -> None:
    """Swapped in, the directory is old or new at every instant; written in place, the
    journal lets the next run (here :func:`output.recover`) undo a half-done commit."""
    old, new = {**OLD, **MINE}, {**OLD, **NEW, **MINE}
    steps = count_steps(write_new(prepared(tmp_path, "probe")))
    assert steps >= 8
    seen = set()
    for step in range(steps + 1):
        out = prepared(tmp_path, f"run{step}")
        killed_at(step, write_new(out))
        if mode == "swap":
            assert tree(out) in (old, new), f"a mix after a kill at step {step}"
        output.recover(out)
        found = tree(out)
        assert found in (old, new), f"a mix after a kill at step {step}, recovered"
        assert leftovers(out.parent) == [], f"temporaries left after a kill at step {step}"
        seen.add("new" if found == new else "old")
        write_new(out)()
        assert tree(out) == new and sorted(p.name for p in out.parent.iterdir()) == ["out"]
    assert seen == {"old", "new"}


def test_a_kill_into_a_new_directory_leaves_nothing_or_everything(tmp_path: Path) -> None:
    steps = count_steps(write_new(tmp_path / "probe" / "out"))
    for step in range(steps + 1):
        out = tmp_path / f"run{step}" / "out"
        killed_at(step, write_new(out))
        assert tree(out) in ({}, NEW), f"a part of the files after a kill at step {step}"
        write_new(out)()
        assert tree(out) == NEW
        assert sorted(p.name for p in out.parent.iterdir()) == ["out"], f"after a kill at step {step}"


def test_fmt_killed_at_any_step_leaves_the_file_old_or_new_and_the_next_run_no_temporary(
    tmp_path: Path,
) -> None:
    probe = tmp_path / "probe.hcl"
    probe.write_text(UGLY)
    steps = count_steps(lambda: printer_fmt.write_atomically(probe, PRETTY))
    assert steps >= 3
    for step in range(steps + 1):
        folder = tmp_path / f"run{step}"
        folder.mkdir()
        path = folder / "a.hcl"
        path.write_text(UGLY)
        killed_at(step, lambda path=path: printer_fmt.write_atomically(path, PRETTY))  # type: ignore[misc]
        assert path.read_text() in (UGLY, PRETTY)
        assert main(["fmt", str(path)]) == 0
        assert [p.name for p in folder.iterdir()] == ["a.hcl"], f"after a kill at step {step}"


# ---- interrupted at any step ----------------------------------------------------------------


def test_an_interrupt_at_any_step_leaves_the_old_or_the_new_files_and_no_temporary(
    tmp_path: Path, mode: str
) -> None:
    old, new = {**OLD, **MINE}, {**OLD, **NEW, **MINE}
    steps = count_steps(write_new(prepared(tmp_path, "probe")))
    for step in range(1, steps + 1):
        out = prepared(tmp_path, f"run{step}")
        interrupted_after(step, write_new(out))
        assert tree(out) in (old, new), f"interrupted after step {step}"
        assert leftovers(out.parent) == [], f"temporaries left, interrupted after step {step}"


def test_fmt_interrupted_at_any_step_leaves_no_temporary(tmp_path: Path) -> None:
    probe = tmp_path / "probe.hcl"
    probe.write_text(UGLY)
    steps = count_steps(lambda: printer_fmt.write_atomically(probe, PRETTY))
    for step in range(1, steps + 1):
        folder = tmp_path / f"run{step}"
        folder.mkdir()
        path = folder / "a.hcl"
        path.write_text(UGLY)
        interrupted_after(step, lambda path=path: printer_fmt.write_atomically(path, PRETTY))  # type: ignore[misc]
        assert path.read_text() in (UGLY, PRETTY)
        assert [p.name for p in folder.iterdir()] == ["a.hcl"], f"interrupted after step {step}"


# ---- durable before it is visible ------------------------------------------------------------


class Synced:
    """Records, in order, the inodes fsync'ed and the renames whose destination lies in ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = str(root)
        self.events: list[tuple[str, object]] = []

    @contextlib.contextmanager
    def recording(self) -> Iterator[None]:
        real_fsync, events = os.fsync, self.events

        def fsync(fd: int) -> None:
            events.append(("fsync", os.fstat(fd).st_ino))
            real_fsync(fd)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(os, "fsync", fsync)
            for name in ("replace", "rename"):
                patch.setattr(os, name, self.renaming(getattr(os, name)))
            if hasattr(output, "_exchange"):
                patch.setattr(output, "_exchange", self.renaming(output._exchange))
            yield

    def renaming(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(source: Any, destination: Any, *args: Any, **kwargs: Any) -> Any:
            if os.fspath(destination).startswith(self.root):
                self.events.append(("rename", os.fspath(destination)))
            return real(source, destination, *args, **kwargs)

        return call

    def synced_before_visible(self, inode: int) -> bool:
        first = next((i for i, event in enumerate(self.events) if event[0] == "rename"), len(self.events))
        return ("fsync", inode) in self.events[:first]

    def synced(self, inode: int) -> bool:
        return ("fsync", inode) in self.events


@pytest.mark.usefixtures("mode")
def test_render_syncs_every_file_before_it_is_visible_and_the_directories_after(tmp_path: Path) -> None:
    out = prepared(tmp_path, "x")
    synced = Synced(out)
    with synced.recording():
        write_new(out)()
    for name in NEW:
        assert synced.synced_before_visible((out / name).stat().st_ino), name
        assert synced.synced((out / name).parent.stat().st_ino), f"the folder of {name}"


def test_fmt_syncs_the_file_before_the_rename_and_the_folder_after(tmp_path: Path) -> None:
    path = tmp_path / "a.hcl"
    path.write_text(UGLY)
    synced = Synced(tmp_path)
    with synced.recording():
        printer_fmt.write_atomically(path, PRETTY)
    assert synced.synced_before_visible(path.stat().st_ino)
    last_rename = max(i for i, event in enumerate(synced.events) if event[0] == "rename")
    assert ("fsync", tmp_path.stat().st_ino) in synced.events[last_rename:]


# ---- what the swap must keep -----------------------------------------------------------------


def test_the_users_files_keep_their_identity_and_the_old_files_their_permissions(tmp_path: Path) -> None:
    out = prepared(tmp_path, "x")
    (out / "a.txt").chmod(0o640)
    identity = (out / "notes.txt").stat().st_ino
    output.write_files(out, list(NEW.items()))
    assert (out / "notes.txt").stat().st_ino == identity
    assert (out / "a.txt").stat().st_mode & 0o777 == 0o640
    assert tree(out) == {**OLD, **NEW, **MINE}


def test_an_output_directory_that_is_a_link_stays_a_link(tmp_path: Path) -> None:
    real = prepared(tmp_path, "x")
    link = tmp_path / "link"
    link.symlink_to(real)
    output.write_files(link, list(NEW.items()))
    assert link.is_symlink() and tree(real) == {**OLD, **NEW, **MINE}
    assert sorted(p.name for p in real.parent.iterdir()) == ["out"]


def test_the_working_directory_is_written_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A directory swapped away under a shell would leave it in a deleted folder."""
    out = prepared(tmp_path, "x")
    identity = out.stat().st_ino
    monkeypatch.chdir(out)
    output.write_files(".", list(NEW.items()))
    assert out.stat().st_ino == identity
    assert tree(out) == {**OLD, **NEW, **MINE} and leftovers(tmp_path) == []


def test_a_directory_of_more_entries_than_a_rendering_makes_is_written_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--out ~`: a swap would hard-link every file of the home directory into a new tree."""
    monkeypatch.setattr(output, "MAX_MIRRORED", 20)
    out = prepared(tmp_path, "x")
    for index in range(30):
        (out / f"photo{index}.jpg").write_text("x")
    identity = out.stat().st_ino
    output.write_files(out, list(NEW.items()))
    assert out.stat().st_ino == identity
    assert {**OLD, **NEW, **MINE}.items() <= tree(out).items() and leftovers(tmp_path) == []


@pytest.mark.parametrize("errno_name", ["EINVAL", "EBUSY", "EXDEV"])
def test_a_file_system_without_an_exchange_is_written_all_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, errno_name: str
) -> None:
    """EINVAL: no RENAME_EXCHANGE there (two renames, the next run repairs a kill between);
    EBUSY, EXDEV: a mount point, an overlay's lower directory (written in place)."""
    import errno

    def refuse(source: object, destination: object) -> None:
        code = getattr(errno, errno_name)
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(output, "_exchange", refuse)
    out = prepared(tmp_path, "x")
    output.write_files(out, list(NEW.items()))
    assert tree(out) == {**OLD, **NEW, **MINE}
    assert sorted(p.name for p in out.parent.iterdir()) == ["out"]


def refusing(code: int) -> Callable[..., None]:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(code, os.strerror(code))

    return refuse


@pytest.mark.parametrize(
    ("call", "code"),
    [("link", "EPERM"), ("link", "EXDEV"), ("chown", "EPERM")],
    ids=["protected-hardlinks", "another-file-system", "someone-elses-folder"],
)
def test_a_directory_that_cannot_be_rebuilt_alike_is_written_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, call: str, code: str
) -> None:
    """Hard links refused (``fs.protected_hardlinks``, a mount below), or a folder of
    someone else's that a new one could not be given: the directory keeps its identity."""
    import errno

    out = prepared(tmp_path, "x")
    if call == "chown":
        if os.geteuid() != 0:
            pytest.skip("only root can give the folder to another owner for this test")
        os.chown(out, 65534, os.getgid())  # nobody's; the new folder is refused the same owner
    identity = out.stat().st_ino
    monkeypatch.setattr(os, call, refusing(getattr(errno, code)))
    output.write_files(out, list(NEW.items()))
    assert out.stat().st_ino == identity
    assert tree(out) == {**OLD, **NEW, **MINE}
    assert sorted(p.name for p in out.parent.iterdir()) == ["out"] and leftovers(out) == []


# ---- one file the user names ------------------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "import"])
def test_a_named_output_file_leaves_its_folder_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """`--output-file` and `import --output` name one file in any folder (the home directory,
    /tmp): the folder is not rebuilt around it, and keeps its identity and the rest."""
    home = tmp_path / "home"
    (home / "projects" / "deep").mkdir(parents=True)
    (home / "projects" / "deep" / "notes.txt").write_text("mine")
    job = tmp_path / "job.nomad.hcl"
    job.write_text(PRETTY)
    before = os.lstat(home).st_ino, os.lstat(home / "projects").st_ino
    monkeypatch.chdir(tmp_path)
    if command == "check":
        argv = [
            "check",
            "--no-cache",
            "--format",
            "json",
            "--output-file",
            str(home / "report.json"),
            str(job),
        ]
    else:
        nomad_json = tmp_path / "job.json"
        nomad_json.write_text('{"Job": {"ID": "x", "Name": "x", "TaskGroups": []}}')
        argv = ["import", str(nomad_json), "--from", "nomad-json", "--output", str(home / "report.json")]
    assert main(argv) == 0
    assert (home / "report.json").is_file()
    assert (os.lstat(home).st_ino, os.lstat(home / "projects").st_ino) == before
    assert (home / "projects" / "deep" / "notes.txt").read_text() == "mine"
    assert [p.name for p in home.iterdir() if p.name.startswith(".hg-")] == []
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".hg-")) == []


def test_a_temporary_a_killed_report_left_is_removed_by_the_next(tmp_path: Path) -> None:
    stale = tmp_path / ".hg-abcd1234.part"
    stale.write_text("half a report")
    output.write_file(tmp_path / "report.txt", "whole")
    assert (tmp_path / "report.txt").read_text() == "whole"
    assert not stale.exists()


def test_a_named_output_file_that_cannot_be_written_is_said(tmp_path: Path) -> None:
    (tmp_path / "report.txt").mkdir()
    with pytest.raises(output.WriteFailed, match=r"cannot write .*report.txt: Is a directory"):
        output.write_file(tmp_path / "report.txt", "text")
    assert [p.name for p in tmp_path.iterdir()] == ["report.txt"]
