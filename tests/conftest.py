"""Shared helpers for the test suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.source import SourceFile
from hclgpu.syntax import ast
from hclgpu.syntax.parser import parse

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
os.environ["HCLGPU_NO_CACHE"] = "1"
"""Tests check files afresh (and never touch the user's check cache); tests/test_cache.py
turns the cache on, in a directory of its own."""


def parse_text(text: str) -> tuple[ast.File | None, list[Diagnostic]]:
    sink = Sink()
    tree = parse(SourceFile("test.hcl", text), sink)
    return tree, sink.sorted()


def parse_ok(text: str) -> ast.File:
    tree, diagnostics = parse_text(text)
    assert not [d for d in diagnostics if d.severity == "error"], [d.message for d in diagnostics]
    assert tree is not None
    return tree


def shared_dir(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is not present (the shared corpora live beside the checkout)")
    return path


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite tests/golden/ from the current output (review the diff before committing)",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))
