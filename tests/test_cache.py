"""`hclgpu check` on many files: the content-hash cache (hits, and every invalidation the
issue names: content, version, variables, referenced files, configuration) and worker
processes (same output, same order, for any --jobs)."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from hclgpu.cli import cache as cache_module
from hclgpu.cli import main
from hclgpu.cli.batch import Options, check_all
from hclgpu.cli.cache import Cache, Inputs
from hclgpu.diagnostics import Sink
from hclgpu.io.inputs import collect
from tests.conftest import ROOT
from tests.work import children, cpu_seconds, reaped_cpu_seconds

SAMPLES = sorted((ROOT / "samples").glob("*.hcl"))
BROKEN = """job "b" {
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "busybox"
      }
      resources {
        memory = -1
      }
    }
  }
}
"""
WITH_FILE = """job "x" {
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "busybox"
      }
      template {
        data        = file("motd.txt")
        destination = "local/motd"
      }
    }
  }
}
"""


def _run(paths: list[Path], cache: Cache | None, jobs: int = 1, inputs: Inputs | None = None) -> list[str]:
    sink = Sink()
    items = list(collect([str(p) for p in paths], sink))
    given = inputs or Inputs()
    check_all([(item, given) for item in items], Options(jobs, cache, progress=False), sink)
    return [f"{d.path}:{d.span.start if d.span else '-'}:{d.code}:{d.message}" for d in sink]


def _corpus(directory: Path, copies: int) -> list[Path]:
    """``copies`` of each sample (renamed jobs), plus one file with an error per copy."""
    paths = []
    for index in range(copies):
        for sample in SAMPLES:
            path = directory / f"{index:03d}-{sample.name}"
            path.write_text(sample.read_text().replace('job "', f'job "c{index}-', 1))
            paths.append(path)
        broken = directory / f"{index:03d}-broken.nomad.hcl"
        broken.write_text(BROKEN.replace('"b"', f'"b{index}"'))
        paths.append(broken)
    return paths


def test_a_warm_run_reads_every_file_from_the_cache(tmp_path: Path) -> None:
    paths = _corpus(tmp_path, 2)
    store = Cache(tmp_path / "cache")
    cold = _run(paths, store)
    assert (store.hits, store.misses) == (0, len(paths))
    warm_store = Cache(tmp_path / "cache")
    assert _run(paths, warm_store) == cold
    assert (warm_store.hits, warm_store.misses) == (len(paths), 0)
    assert any(":HG2" in line for line in cold)  # the broken files' findings come back from the cache too


def test_a_changed_file_is_checked_again(tmp_path: Path) -> None:
    (path,) = _corpus(tmp_path, 1)[:1]
    store = Cache(tmp_path / "cache")
    _run([path], store)
    path.write_text(path.read_text() + "\n# edited\n")
    again = Cache(tmp_path / "cache")
    _run([path], again)
    assert (again.hits, again.misses) == (0, 1)


def test_a_new_version_of_hclgpu_checks_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _corpus(tmp_path, 1)
    _run(paths, Cache(tmp_path / "cache"))
    monkeypatch.setattr(cache_module, "__version__", "999.0.0")
    again = Cache(tmp_path / "cache")
    _run(paths, again)
    assert again.hits == 0


def test_variables_and_variable_files_are_part_of_the_key(tmp_path: Path) -> None:
    job = tmp_path / "v.nomad.hcl"
    job.write_text('variable "n" {\n  type = number\n}\n' + BROKEN.replace("memory = -1", "memory = var.n"))
    values = tmp_path / "n.vars.hcl"
    values.write_text("n = 512\n")
    inputs = Inputs(var_files=(str(values),))
    first = Cache(tmp_path / "cache")
    assert _run([job], first, inputs=inputs) == []
    values.write_text("n = -1\n")  # same file name, new value: a new key
    second = Cache(tmp_path / "cache")
    assert any(":HG242:" in line for line in _run([job], second, inputs=inputs))
    assert second.hits == 0
    third = Cache(tmp_path / "cache")
    _run([job], third, inputs=Inputs(variables=("n=3",), var_files=(str(values),)))
    assert third.hits == 0


def test_a_file_read_by_the_job_invalidates_its_entry(tmp_path: Path) -> None:
    job = tmp_path / "f.nomad.hcl"
    job.write_text(WITH_FILE)
    (tmp_path / "motd.txt").write_text("hello\n")
    beside = Inputs(file_base="job-folder")
    _run([job], Cache(tmp_path / "cache"), inputs=beside)
    hit = Cache(tmp_path / "cache")
    _run([job], hit, inputs=beside)
    assert hit.hits == 1
    (tmp_path / "motd.txt").write_text("changed\n")
    miss = Cache(tmp_path / "cache")
    _run([job], miss, inputs=beside)
    assert (miss.hits, miss.misses) == (0, 1)


def test_a_job_that_looks_for_files_is_never_cached(tmp_path: Path) -> None:
    job = tmp_path / "e.nomad.hcl"
    job.write_text(WITH_FILE.replace('file("motd.txt")', 'fileexists("motd.txt") ? "yes" : "no"'))
    _run([job], Cache(tmp_path / "cache"))
    again = Cache(tmp_path / "cache")
    _run([job], again)
    assert again.hits == 0


def test_the_configuration_applies_to_cached_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Diagnostics are cached before select/ignore: a new hclgpu.toml takes effect at once."""
    monkeypatch.delenv("HCLGPU_NO_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "b.nomad.hcl").write_text(
        'job "b" {\n  group "My_G" {\n    task "t" {\n      driver = "docker"\n    }\n  }\n}\n'
    )
    assert main(["check", "b.nomad.hcl", "--format", "json", "--target", "kubernetes"]) == 0
    assert '"HG267"' in capsys.readouterr().out
    entries = list((tmp_path / "xdg" / "hclgpu" / "check").rglob("*.json"))
    (tmp_path / "hclgpu.toml").write_text('targets = ["kubernetes"]\nignore = ["HG267"]\n')
    assert main(["check", "b.nomad.hcl", "--format", "json"]) == 0
    assert '"HG267"' not in capsys.readouterr().out
    assert entries and list((tmp_path / "xdg" / "hclgpu" / "check").rglob("*.json")) == entries  # a hit


def test_a_damaged_entry_is_a_miss(tmp_path: Path) -> None:
    paths = _corpus(tmp_path, 1)[:2]
    expected = _run(paths, Cache(tmp_path / "cache"))
    for entry in (tmp_path / "cache").rglob("*.json"):
        entry.write_text("{not json")
    damaged = Cache(tmp_path / "cache")
    assert _run(paths, damaged) == expected
    assert damaged.hits == 0


def test_workers_give_the_same_output_in_the_same_order(tmp_path: Path) -> None:
    paths = _corpus(tmp_path, 5)  # 35 files: enough for workers to start
    assert len(paths) >= 24
    assert _run(paths, None, jobs=2) == _run(paths, None, jobs=1)


def test_cli_jobs_and_no_cache(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _corpus(tmp_path, 4)
    assert main(["check", str(tmp_path), "--jobs", "2", "--no-cache", "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    # two errors per broken file: memory below Nomad's 10 MB, and below the secrets tmpfs (0 MB)
    assert report["summary"]["files"] == 28 and report["summary"]["errors"] == 8
    with pytest.raises(SystemExit) as exit_status:
        main(["check", str(tmp_path), "--jobs", "0"])
    assert exit_status.value.code == 2  # a usage error


# ---- the record of clean files: a warm check that reads nothing ----------------------------

CLEAN = """job "ok" {
  datacenters = ["dc1"]
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "busybox:1.36"
      }
    }
  }
}
"""


@pytest.fixture()
def clean_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """30 clean job files last modified a minute ago, and a cache of their own."""
    monkeypatch.delenv("HCLGPU_NO_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    tree = tmp_path / "jobs"
    (tree / "sub").mkdir(parents=True)
    for index in range(30):
        path = tree / ("sub" if index % 3 else "") / f"j{index:02d}.nomad.hcl"
        path.write_text(CLEAN.replace('"ok"', f'"ok{index}"'))
        _age(path)
    return tree


def _age(path: Path, seconds: int = 60) -> None:
    past = path.stat().st_mtime - seconds
    os.utime(path, (past, past))


class Reads:
    """Counts the files the slow path reads."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from hclgpu.io import inputs

        self.count = 0
        real = inputs.read_input

        def counting(*args: object) -> object:
            self.count += 1
            return real(*args)  # type: ignore[arg-type]

        monkeypatch.setattr(inputs, "read_input", counting)
        monkeypatch.setattr("hclgpu.cli.batch.read_input", counting)


def test_an_unchanged_clean_tree_is_not_read_again(
    clean_tree: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    reads = Reads(monkeypatch)
    assert main(["check", str(clean_tree)]) == 0
    assert reads.count == 30
    assert main(["check", str(clean_tree)]) == 0
    assert reads.count == 30  # the second check read no file
    assert capsys.readouterr().err.splitlines()[-1] == "All checks passed (30 files)."
    for output in ("json", "sarif", "github"):  # every format answers from the record alike
        assert main(["check", str(clean_tree), "--format", output]) == 0
    assert reads.count == 30
    out = capsys.readouterr().out
    assert '"files": 30' in out and '"results": []' in out


def test_an_edited_file_is_read_and_reported(
    clean_tree: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(clean_tree)]) == 0
    edited = clean_tree / "sub" / "j01.nomad.hcl"
    edited.write_text(
        CLEAN.replace("      }\n    }", "      }\n      resources {\n        memory = 1\n      }\n    }")
    )
    reads = Reads(monkeypatch)
    assert main(["check", str(clean_tree), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    [found] = report["diagnostics"]
    assert os.path.samefile(found["path"], edited) and found["code"] == "HG242"
    assert reads.count == 1  # only the edited file was read


def test_a_file_modified_just_before_its_check_is_not_recorded(
    clean_tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (clean_tree / "fresh.nomad.hcl").write_text(CLEAN)  # modified now: racily clean
    assert main(["check", str(clean_tree)]) == 0
    reads = Reads(monkeypatch)
    assert main(["check", str(clean_tree)]) == 0
    assert reads.count == 1  # only the unrecorded file was read (and the content cache answered)


def test_other_variables_or_a_damaged_record_mean_reading_again(
    clean_tree: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert main(["check", str(clean_tree)]) == 0
    reads = Reads(monkeypatch)
    monkeypatch.setenv("NOMAD_VAR_x", "1")  # a variable value: part of every key
    assert main(["check", str(clean_tree)]) == 0
    assert reads.count == 30
    index = tmp_path / "xdg" / "hclgpu" / "check" / "index.json"
    index.write_text("{damaged")
    assert main(["check", str(clean_tree)]) == 0
    assert reads.count == 60
    assert json.loads(index.read_text())["version"]  # rewritten whole


def test_a_new_version_reads_everything_again(clean_tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["check", str(clean_tree)]) == 0
    monkeypatch.setattr("hclgpu.cli.check.__version__", "999.0.0")
    monkeypatch.setattr(cache_module, "__version__", "999.0.0")
    reads = Reads(monkeypatch)
    assert main(["check", str(clean_tree)]) == 0
    assert reads.count == 30


def test_a_missing_path_is_still_reported_after_a_clean_check(
    clean_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(clean_tree)]) == 0
    assert main(["check", str(clean_tree), str(clean_tree / "gone.nomad")]) == 2
    assert "gone.nomad" in capsys.readouterr().err


def test_the_record_forgets_deleted_files(clean_tree: Path, tmp_path: Path) -> None:
    assert main(["check", str(clean_tree)]) == 0
    index = tmp_path / "xdg" / "hclgpu" / "check" / "index.json"
    gone = clean_tree / "j00.nomad.hcl"
    assert str(gone) in json.loads(index.read_text())
    gone.unlink()
    (clean_tree / "new.nomad.hcl").write_text(CLEAN)
    _age(clean_tree / "new.nomad.hcl")
    assert main(["check", str(clean_tree)]) == 0
    record = json.loads(index.read_text())
    assert str(gone) not in record and str(clean_tree / "new.nomad.hcl") in record


class Terminal(io.StringIO):
    """A standard error that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("output", ["text", "json", "sarif", "github"])
def test_a_progress_bar_only_on_a_terminal_with_text_output(
    output: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for index in range(60):  # PROGRESS_FROM is 50
        (tmp_path / f"j{index:02d}.nomad.hcl").write_text(CLEAN.replace('"ok"', f'"ok{index}"'))
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setenv("TERM", "xterm")
    assert main(["check", str(tmp_path), "--jobs", "1", "--format", output]) == 0
    shown = terminal.getvalue()
    if output == "text":
        assert "checking" in shown and "60/60" in shown
    else:
        assert "checking" not in shown and "\x1b" not in shown
        assert "checking" not in capsys.readouterr().out


# ---- answers that must never be stale ------------------------------------------------------

WITH_VARIABLE = """variable "gpus" {
  type    = number
  default = 1
}

job "v" {
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "busybox"
      }
      resources {
        device "nvidia/gpu" {
          count = var.gpus
        }
      }
    }
  }
}
"""


def _json_check(
    arguments: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[dict[str, object]]]:
    status = main(["check", "--format", "json", *arguments])
    return status, json.loads(capsys.readouterr().out)["diagnostics"]


@pytest.mark.parametrize("caching", [[], ["--no-cache"]])
def test_a_var_file_finding_is_located_in_the_var_file_and_reported_once(
    caching: list[str], clean_tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for index in range(3):
        (clean_tree / f"v{index}.nomad.hcl").write_text(WITH_VARIABLE.replace('"v"', f'"v{index}"'))
    var_file = tmp_path / "prod.vars.hcl"
    var_file.write_text('\n\ngpus = "many"\n')
    arguments = [str(clean_tree / f"v{i}.nomad.hcl") for i in range(3)] + ["--var-file", str(var_file)]
    for _ in range(2):  # the second run answers from the cache (unless it is off)
        status, found = _json_check([*arguments, *caching], capsys)
        assert status == 1
        assert [(d["path"], d["line"], d["column"], d["code"]) for d in found] == [
            (str(var_file), 3, 8, "HG112")
        ]


def test_a_file_that_could_not_be_read_is_read_again(
    clean_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (clean_tree / "motd.txt").mkdir()  # file() of a directory fails
    job = clean_tree / "x.nomad.hcl"
    job.write_text(WITH_FILE)
    beside = ["--file-base", "job-folder", str(job)]
    status, found = _json_check(beside, capsys)
    assert status == 1 and [d["code"] for d in found] == ["HG116"]
    (clean_tree / "motd.txt").rmdir()
    (clean_tree / "motd.txt").write_text("hello\n")
    assert _json_check(beside, capsys) == (0, [])


def test_files_read_by_a_job_are_found_from_any_working_directory(
    clean_tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    counted = WITH_VARIABLE.replace("var.gpus", 'parseint(trimspace(file("n")), 10)')
    (clean_tree / "count.nomad.hcl").write_text(counted)
    (clean_tree / "n").write_text("1\n")
    (tmp_path / "n").write_text("1\n")  # the same name beside the other working directory
    monkeypatch.chdir(clean_tree)
    beside = ["--file-base", "job-folder"]
    status, found = _json_check([*beside, "count.nomad.hcl"], capsys)
    assert (status, found) == (0, []), found
    (clean_tree / "n").write_text("0\n")
    monkeypatch.chdir(tmp_path)
    _, found = _json_check([*beside, str(clean_tree / "count.nomad.hcl")], capsys)
    assert [d["code"] for d in found] == ["HG203"]  # zero devices: the file it reads changed


def test_by_default_a_job_reads_the_working_directory_and_the_cache_keeps_them_apart(
    clean_tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nomad's CLI resolves `file("n")` from the working directory, not the job's folder
    (command/helpers.go:474, jobspec2/parse.go:127-128): the same job checked from two
    working directories reads two files, and neither run answers from the other's entry."""
    counted = WITH_VARIABLE.replace("var.gpus", 'parseint(trimspace(file("n")), 10)')
    job = clean_tree / "count.nomad.hcl"
    job.write_text(counted)
    (clean_tree / "n").write_text("1\n")
    (tmp_path / "n").write_text("0\n")
    monkeypatch.chdir(clean_tree)
    assert _json_check([str(job)], capsys) == (0, [])
    monkeypatch.chdir(tmp_path)
    _, found = _json_check([str(job)], capsys)
    assert [d["code"] for d in found] == ["HG203"]  # tmp_path's n: zero devices
    monkeypatch.chdir(clean_tree)
    assert _json_check([str(job)], capsys) == (0, [])


def test_a_file_changed_after_it_was_read_is_not_recorded_as_clean(
    clean_tree: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from hclgpu.io import inputs

    victim = clean_tree / "j00.nomad.hcl"
    real = inputs.read_input

    def read_then_break(path: str, shown: str, sink: Sink) -> object:
        item = real(path, shown, sink)
        if os.path.samefile(path, victim):  # a write lands while the check runs
            victim.write_text('job "broken" {\n')
            _age(victim)
        return item

    monkeypatch.setattr("hclgpu.cli.batch.read_input", read_then_break)
    assert main(["check", str(clean_tree)]) == 0  # the bytes it read were clean
    monkeypatch.setattr("hclgpu.cli.batch.read_input", real)
    status, found = _json_check([str(clean_tree)], capsys)
    assert status == 1 and [os.path.samefile(str(d["path"]), victim) for d in found] == [True]


def test_a_rewrite_keeping_size_and_time_is_noticed(
    clean_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(clean_tree)]) == 0
    victim = clean_tree / "j00.nomad.hcl"
    before = victim.stat()
    victim.write_text(victim.read_text().replace('job "', "job {", 1))  # same size, broken
    os.utime(victim, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert victim.stat().st_size == before.st_size and victim.stat().st_mtime_ns == before.st_mtime_ns
    status, found = _json_check([str(clean_tree)], capsys)
    assert status == 1 and found


def test_the_home_directory_is_an_input_with_allow_fs(
    clean_tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    job = clean_tree / "home.nomad.hcl"
    job.write_text(WITH_VARIABLE.replace("var.gpus", 'length(split("/", pathexpand("~"))) - 3'))
    _age(job)
    monkeypatch.setenv("HOME", "/a/b/c")  # count = 4 - 3 = 1
    assert _json_check([str(job), "--allow-fs"], capsys) == (0, [])
    monkeypatch.setenv("HOME", "/a/b")  # count = 0
    _, found = _json_check([str(job), "--allow-fs"], capsys)
    assert [d["code"] for d in found] == ["HG203"]


@pytest.mark.parametrize(
    "damage",
    [
        lambda index, path: index.write_text(json.dumps({"version": "0.1.0", path: 5})),
        lambda index, path: index.write_text(json.dumps({"version": "0.1.0", path: {"a": 1}})),
        lambda index, path: index.write_text(json.dumps({"version": "0.1.0", path: [None] * 7})),
    ],
)
def test_a_record_of_the_wrong_shape_is_ignored(
    damage: object, clean_tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(clean_tree)]) == 0
    index = tmp_path / "xdg" / "hclgpu" / "check" / "index.json"
    damage(index, str(clean_tree / "j00.nomad.hcl"))  # type: ignore[operator]
    assert _json_check([str(clean_tree)], capsys) == (0, [])


@pytest.mark.parametrize(
    "field, value",
    [
        ("span", [5]),
        ("span", ["a", "b"]),
        ("span", [0, 10**9]),
        ("message", 5),
        ("help", []),
        ("source", [1]),
    ],
)
def test_an_entry_of_the_wrong_shape_is_a_miss(field: str, value: object, tmp_path: Path) -> None:
    paths = _corpus(tmp_path, 1)
    broken = [p for p in paths if "broken" in p.name]
    expected = _run(broken, None)
    _run(broken, Cache(tmp_path / "cache"))
    for entry in (tmp_path / "cache").rglob("*.json"):
        if entry.name == "index.json":
            continue
        record = json.loads(entry.read_text())
        for item in record["diagnostics"]:
            item[field] = value
        entry.write_text(json.dumps(record))
    damaged = Cache(tmp_path / "cache")
    assert _run(broken, damaged) == expected
    assert damaged.hits == 0


HEAVY = """job "heavy" {
  meta {
    visited = length([for a in range(1000) : length([for b in range(999) : b])])
  }
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "busybox:1.36"
      }
    }
  }
}
"""
"""A job at the evaluation budget: a million loop iterations, seconds of work to check."""


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads child processes from /proc")
@pytest.mark.parametrize(
    ("stop", "status"),
    [("ctrl-c", 130), ("sigterm", 143)],  # a terminal signals the whole group; `kill` or CI the parent
)
def test_a_stopped_run_ends_its_workers_at_once_and_leaves_nothing_behind(
    stop: str, status: int, tmp_path: Path
) -> None:
    """Measured in work, not time: once stopped, the run (its workers included) uses less
    processor time than checking one more file takes, where finishing the files the workers
    were given would take twenty times that."""
    import signal
    import subprocess
    import sys
    import time

    from hclgpu.pipeline import compile_source
    from hclgpu.source import SourceFile

    started = time.process_time()
    assert compile_source(SourceFile("heavy.nomad.hcl", HEAVY)).job is not None
    one_file = time.process_time() - started
    tree = tmp_path / "jobs"
    tree.mkdir()
    for index in range(200):  # two workers, chunks of 25 files
        (tree / f"j{index:03d}.nomad.hcl").write_text(HEAVY.replace('"heavy"', f'"heavy{index}"'))
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    environment.pop("HCLGPU_NO_CACHE", None)
    before = reaped_cpu_seconds()
    command = [sys.executable, "-m", "hclgpu", "check", str(tree), "--jobs", "2"]
    check = subprocess.Popen(
        command, env=environment, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    workers: list[int] = []
    deadline = time.monotonic() + 120  # a guard against a hang, not a measurement
    while time.monotonic() < deadline:
        workers = children(check.pid)
        if len(workers) == 2 and min(cpu_seconds(pid) for pid in workers) > one_file / 2:
            break  # both are well into their first file
        time.sleep(0.02)
    used = sum(cpu_seconds(pid) for pid in [check.pid, *workers])
    if stop == "ctrl-c":
        os.killpg(check.pid, signal.SIGINT)
    else:
        os.kill(check.pid, signal.SIGTERM)
    _, errors = check.communicate(timeout=120)  # a guard against a hang
    after_interrupt = reaped_cpu_seconds() - before - used
    assert check.returncode == status, errors
    assert after_interrupt < one_file, (after_interrupt, one_file)
    assert errors == ""  # no traceback, from the pool's threads either
    assert not list((tmp_path / "xdg").rglob("*.tmp"))
    with pytest.raises(ProcessLookupError):  # no worker left running
        os.killpg(check.pid, 0)


def test_the_record_answers_for_any_spelling_of_the_same_files(
    clean_tree: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Paths are shown normalized and each file is checked once; the record is keyed by
    absolute path, so `.`, `./sub` or the absolute path all find the same entries."""
    assert main(["check", str(clean_tree)]) == 0
    monkeypatch.chdir(clean_tree)
    reads = Reads(monkeypatch)
    capsys.readouterr()
    for paths, summary in (
        (["."], "30 files"),
        (["./sub", "."], "30 files"),
        (["j00.nomad.hcl", "./j00.nomad.hcl"], "1 file"),
    ):
        assert main(["check", *paths]) == 0
        assert capsys.readouterr().err.splitlines()[-1] == f"All checks passed ({summary})."
    assert reads.count == 0
    (clean_tree / "broken.nomad.hcl").write_text(BROKEN)
    for _ in range(2):  # read and checked, then answered by the content cache
        assert main(["check", "--format", "json", ".", "./broken.nomad.hcl"]) == 1
        report = json.loads(capsys.readouterr().out)
        assert report["summary"]["files"] == 31
        assert {d["path"] for d in report["diagnostics"]} == {"broken.nomad.hcl"}
    assert reads.count == 2  # only the new file, once per check


def test_the_record_answers_for_a_directory_named_in_a_roundabout_way(
    clean_tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["check", str(clean_tree)]) == 0
    (clean_tree / "new.nomad.hcl").write_text(CLEAN)  # so that the fast answer cannot be given
    reads = Reads(monkeypatch)
    assert main(["check", f"{clean_tree}/./sub/.."]) == 0
    assert reads.count == 1  # the recorded files were found under their normalized names
