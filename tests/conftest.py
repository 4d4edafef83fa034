"""Shared helpers for the test suite."""

from __future__ import annotations

import atexit
import difflib
import gc
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.source import SourceFile
from hclgpu.syntax import ast
from hclgpu.syntax.parser import parse

ROOT = Path(__file__).resolve().parent.parent

GROUP = '  group "g" {\n    task "t" {\n      driver = "docker"\n    }\n  }\n'
"""The smallest group Nomad's server takes (a job needs a group, a group a task), for the
tests of other layers whose jobs would otherwise be only what they test."""
DATA = ROOT / "tests" / "data"
"""Third-party corpora and schemas kept with the tests (each folder's NOTICE.md or README.md
says where its files come from and under which licence): ``conformance/nomad`` (job files
with what Nomad's own parser printed), ``conformance/hcl2`` (python-hcl2's suite) and
``schemas/`` (OCI runtime spec, CDI, Compose, SARIF)."""
os.environ["HCLGPU_NO_CACHE"] = "1"
"""Tests check files afresh (and never touch the user's check cache); tests/test_cache.py
turns the cache on, in a directory of its own."""
_CACHE = tempfile.mkdtemp(prefix="hclgpu-tests-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)
"""What is kept whatever the check cache (the parser's tables, the summaries of the fleets
the tests' settings name) goes to a folder of the run's own, removed at its end: the tests'
temporary inventories would otherwise each leave a record in the user's cache."""


@pytest.fixture(autouse=True)
def _collectable() -> Iterator[None]:
    """A one-job command run in this process freezes what it built (``gc_pause.kept_for_good``),
    as its own process would end there; hand it back to the collector after each test."""
    yield
    gc.unfreeze()


def parse_text(text: str) -> tuple[ast.File | None, list[Diagnostic]]:
    sink = Sink()
    tree = parse(SourceFile("test.hcl", text), sink)
    return tree, sink.sorted()


def parse_ok(text: str) -> ast.File:
    tree, diagnostics = parse_text(text)
    assert not [d for d in diagnostics if d.severity == "error"], [d.message for d in diagnostics]
    assert tree is not None
    return tree


def vendored(*parts: str) -> Path:
    """A path below :data:`DATA`, which must exist: the suite carries its corpora."""
    path = DATA.joinpath(*parts)
    assert path.exists(), f"{path} is missing from the checkout"
    return path


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite tests/golden/ from the current output (review the diff before committing)",
    )


class Golden:
    """Compares output with its reviewed golden file, or rewrites the file under
    ``pytest --update-golden`` (the diff is then reviewed before it is committed)."""

    def __init__(self, update: bool) -> None:
        self.update = update

    def __call__(self, path: Path, actual: str) -> None:
        """``actual`` must be the text of ``path``; a failure shows the unified diff."""
        if self.update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(actual, encoding="utf-8")
            return
        assert path.exists(), f"{path} is missing; run pytest --update-golden and review it"
        _same(path.read_text(encoding="utf-8"), actual, str(path))

    def tree(self, folder: Path, files: dict[str, str]) -> None:
        """``files`` (relative name → text) must be exactly the files below ``folder``."""
        if self.update:
            for name, text in files.items():
                self(folder / name, text)
            return
        assert folder.exists(), f"{folder} is missing; run pytest --update-golden and review it"
        expected = {
            path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted(folder.rglob("*"))
            if path.is_file()
        }
        assert sorted(expected) == sorted(files), folder
        for name, text in files.items():
            _same(expected[name], text, str(folder / name))


def _same(expected: str, actual: str, name: str) -> None:
    if expected != actual:
        diff = difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), name, "actual")
        pytest.fail("".join(diff)[:6000])


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Golden:
    """The golden-file comparison of this run (see :class:`Golden`)."""
    return Golden(bool(request.config.getoption("--update-golden")))
