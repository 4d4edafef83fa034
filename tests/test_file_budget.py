"""The file functions against hostile patterns: every step counted, no walk outside the tree.

A job file from a pull request can ask ``fileset`` for twenty ``{a,b}`` groups (a million
patterns) or for ``../../../**/*`` (the runner's whole disk, its names in the error). These
tests bound such calls in counted work (directory listings, probes, budget steps), never in
seconds.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import hclgpu
from hclgpu.eval import budget as budget_module
from hclgpu.eval.budget import SPENDING, Budget, TooMuchWork
from hclgpu.eval.functions import FunctionError, file_functions
from hclgpu.eval.functions import fs as fs_module


@pytest.fixture
def job_dir(tmp_path: Path) -> Path:
    """A job directory with a few files, next to a secret it must never name."""
    job = tmp_path / "job"
    (job / "conf").mkdir(parents=True)
    for name in ("a.hcl", "b.hcl", "c.tpl"):
        (job / "conf" / name).write_text(name, encoding="utf-8")
    (job / "hello.txt").write_text("Hello World", encoding="utf-8")
    (tmp_path / "secret-outside.txt").write_text("outside", encoding="utf-8")
    (tmp_path / "sibling").mkdir()
    (tmp_path / "sibling" / "private-key.pem").write_text("key", encoding="utf-8")
    return job


class Probes:
    """Every directory listed and every path probed by the walk, counted."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.listed: list[str] = []
        self.probed: list[str] = []
        real_listdir, real_lexists = os.listdir, os.path.lexists

        def listdir(path: str) -> list[str]:
            self.listed.append(os.path.realpath(path))
            return real_listdir(path)

        def lexists(path: str) -> bool:
            self.probed.append(os.path.realpath(path))
            return real_lexists(path)

        monkeypatch.setattr(fs_module.os, "listdir", listdir)
        monkeypatch.setattr(fs_module.os.path, "lexists", lexists)

    def outside(self, tree: Path) -> list[str]:
        """What was listed or probed outside ``tree``."""
        root = str(tree.resolve())
        return [p for p in self.listed + self.probed if p != root and not p.startswith(root + "/")]


@pytest.fixture
def spent() -> Iterator[Budget]:
    """A budget standing for one file's evaluation, as the evaluator sets it for a call."""
    budget = Budget()
    token = SPENDING.set(budget)
    yield budget
    SPENDING.reset(token)


def fileset(base: Path, allow_fs: bool, directory: str, pattern: str) -> object:
    return file_functions(base, allow_fs)["fileset"].impl(directory, pattern)


@pytest.mark.parametrize("groups", [20, 30, 200])
def test_a_brace_bomb_is_refused_before_one_pattern_is_walked(
    job_dir: Path, monkeypatch: pytest.MonkeyPatch, spent: Budget, groups: int
) -> None:
    probes = Probes(monkeypatch)
    with pytest.raises(TooMuchWork, match="file functions of this file take more than 1,000,000 steps"):
        fileset(job_dir, False, ".", "{a,b}" * groups)
    assert probes.listed == [] and probes.probed == []
    assert spent.file_steps == 2**groups  # counted, not made


def test_braces_are_counted_as_the_patterns_they_stand_for(job_dir: Path, spent: Budget) -> None:
    assert fileset(job_dir, False, "conf", "{a,b,{c,d}}.{hcl,tpl}") == ["a.hcl", "b.hcl", "c.tpl"]
    # 8 patterns, 8 probes of a literal path, 3 files looked at
    assert spent.file_steps == 8 + 8 + 3
    assert fs_module._count_expansions("{a,{b,{c,d}}}x{1,2,3}") == 12
    assert fs_module._count_expansions(r"\{a,b}") == 1


@pytest.mark.parametrize(
    ("directory", "pattern"),
    [
        (".", "../../../../../../../**/*"),
        (".", "../**/*"),
        (".", "../*"),
        (".", "../sibling/*.pem"),
        (".", "../secret-outside.txt"),
        ("conf", "../../*"),
        (".", "{conf,..}/*"),
    ],
)
def test_a_pattern_that_climbs_out_fails_without_looking_there(
    job_dir: Path, monkeypatch: pytest.MonkeyPatch, spent: Budget, directory: str, pattern: str
) -> None:
    probes = Probes(monkeypatch)
    with pytest.raises(FunctionError) as info:
        fileset(job_dir, False, directory, pattern)
    assert info.value.code == "HG107"
    assert "reaches outside" in info.value.message
    assert "--allow-fs" in info.value.message
    said = info.value.message.replace(pattern, "PATTERN")  # the pattern itself may be quoted
    assert "secret-outside" not in said and "private-key" not in said
    assert probes.outside(job_dir) == []


def test_a_linked_directory_leading_out_is_not_listed(
    job_dir: Path, monkeypatch: pytest.MonkeyPatch, spent: Budget
) -> None:
    (job_dir / "escape").symlink_to(job_dir.parent / "sibling")
    probes = Probes(monkeypatch)
    for pattern in ("escape/*", "*/*.pem", "escape/private-key.pem"):
        with pytest.raises(FunctionError, match="reaches outside"):
            fileset(job_dir, False, ".", pattern)
    assert probes.outside(job_dir) == []


def test_allow_fs_walks_anywhere_but_within_the_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spent: Budget
) -> None:
    for index in range(40):
        (tmp_path / f"d{index}").mkdir()
        (tmp_path / f"d{index}" / "f").write_text("x", encoding="utf-8")
    monkeypatch.setattr(budget_module, "MAX_FILE_STEPS", 60)
    probes = Probes(monkeypatch)
    with pytest.raises(TooMuchWork, match="more than 60 steps"):
        fileset(tmp_path / "d0", True, "..", "**/*")
    assert len(probes.listed) + len(probes.probed) <= 60


def test_the_bytes_read_add_up(job_dir: Path, monkeypatch: pytest.MonkeyPatch, spent: Budget) -> None:
    monkeypatch.setattr(budget_module, "MAX_FILE_BYTES", 30)
    read = file_functions(job_dir, False)["file"].impl
    assert read("hello.txt") == read("hello.txt") == "Hello World"
    with pytest.raises(TooMuchWork, match="read more than 0 MiB"):
        read("hello.txt")
    assert spent.file_bytes == 33


def test_a_brace_bomb_in_a_job_is_a_located_error(tmp_path: Path) -> None:
    text = 'locals {\n  a = fileset(".", "' + "{a,b}" * 30 + '")\n}\njob "j" {}\n'
    result = hclgpu.loads(text, str(tmp_path / "bomb.nomad.hcl"))
    found = [d for d in result.diagnostics if d.code == "HG117"]
    assert len(found) == 1, result.diagnostics
    assert "1,000,000 steps" in found[0].message
    assert found[0].span is not None
    start = result.source.position(found[0].span.start)
    assert (start.line, start.column) == (2, 7)


def test_file_in_a_loop_stops_at_the_byte_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "big.txt").write_text("x" * 4096, encoding="utf-8")
    monkeypatch.setattr(budget_module, "MAX_FILE_BYTES", 100 * 4096)
    text = 'locals {\n  a = [for i in range(1000) : file("big.txt")]\n}\njob "j" {}\n'
    (tmp_path / "loop.nomad.hcl").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # file() reads from the working directory, as Nomad's CLI does
    result = hclgpu.load("loop.nomad.hcl")
    found = [d for d in result.diagnostics if d.code == "HG117"]
    assert len(found) == 1 and "read more than" in found[0].message, result.diagnostics


def test_the_editor_analysis_of_a_brace_bomb_ends_with_the_error(tmp_path: Path) -> None:
    """What the language server runs on every change: bounded in counted steps, not minutes."""
    from hclgpu.lsp.analysis import analyse

    path = tmp_path / "bomb.nomad.hcl"
    text = 'locals {\n  a = fileset(".", "' + "{a,b}" * 30 + '")\n}\njob "j" {}\n'
    analysis = analyse(path.as_uri(), str(path), text, 1, {})
    assert [d.code for d in analysis.diagnostics if d.code.startswith(("HG1", "HG9"))] == ["HG117"]
