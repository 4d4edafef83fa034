"""File functions resolve relative paths as `nomad job run` does: from the working directory.

Nomad's CLI hands its parser the job file's base name as ``Path`` (hashicorp/nomad
command/helpers.go:474 and :567 at aa026cc99c) and the parser's ``BaseDir`` is
``filepath.Dir(Path)``, ``.`` (jobspec2/parse.go:127-128). tests/data/file_base/ holds what
Nomad's parser printed for tests/data/file_base/repo/jobs/web.nomad.hcl, which reads
``file("jobs/templates/web.tpl")``: run from repo/ (``nomad-from-root.json``) and from
repo/jobs/ (``nomad-from-jobs.error.txt``).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from hclgpu.cli import main
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data" / "file_base"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A copy of the repository the job lives in (tests may add a configuration to it)."""
    return Path(shutil.copytree(DATA / "repo", tmp_path / "repo"))


def _render(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["render", "--target", "nomad", *arguments])
    return status, capsys.readouterr().out


def _check(
    arguments: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[tuple[str, int, int]]]:
    status = main(["check", "--format", "json", *arguments])
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    return status, [(d["code"], d["line"], d["column"]) for d in found]


def test_from_the_repository_root_the_job_renders_as_nomad_printed_it(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(repo)
    status, out = _render(["jobs/web.nomad.hcl"], capsys)
    assert status == 0
    assert json.loads(out) == json.loads((DATA / "nomad-from-root.json").read_text(encoding="utf-8"))


def test_from_the_job_folder_the_file_is_missing_where_nomad_says(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(repo / "jobs")
    nomad = (DATA / "nomad-from-jobs.error.txt").read_text(encoding="utf-8")
    where = {(int(m[1]), int(m[2])) for m in re.finditer(r"web\.nomad\.hcl:(\d+),(\d+)-\d+: ", nomad)}
    status, found = _check(["web.nomad.hcl"], capsys)
    assert status == 1 and "no file exists at jobs/templates/web.tpl" in nomad
    assert {(line, column) for code, line, column in found if code == "HG116"} == where == {(12, 23)}


def test_the_job_folder_setting_reads_beside_the_job(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """For teams that run Nomad from the job's folder: the configuration says so once."""
    (repo / "hclgpu.toml").write_text('file-base = "job-folder"\n', encoding="utf-8")
    monkeypatch.chdir(repo)
    assert _check(["jobs/web.nomad.hcl"], capsys)[1] == [("HG116", 12, 23)]  # jobs/jobs/templates/...
    job = (repo / "jobs" / "web.nomad.hcl").read_text(encoding="utf-8")
    beside = job.replace("jobs/templates", "templates")
    (repo / "jobs" / "beside.nomad.hcl").write_text(beside, encoding="utf-8")
    assert _check(["jobs/beside.nomad.hcl"], capsys) == (0, [])
    flag = ["--file-base", "working-directory"]
    assert _check([*flag, "jobs/beside.nomad.hcl"], capsys)[1] == [("HG116", 12, 23)]


def test_the_working_directory_confines_the_reads(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --allow-fs, reads stay inside the folder paths resolve from: here the job's
    folder is inside it, and a path that climbs out of it is refused (HG107)."""
    outside = (repo / "jobs" / "web.nomad.hcl").read_text(encoding="utf-8").replace("jobs/templates", "../x")
    (repo / "jobs" / "out.nomad.hcl").write_text(outside, encoding="utf-8")
    monkeypatch.chdir(repo)
    assert _check(["jobs/out.nomad.hcl"], capsys)[1] == [("HG107", 12, 28)]
