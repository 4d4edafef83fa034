"""The semantic rules on real jobs: Nomad's accepted fixtures raise no error, samples are clean.

Warnings on the fixtures are allowed (Nomad accepts much it never schedules) and are
listed by `python -m tests.test_checks_corpus`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hclgpu.codes import Severity
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.pipeline import Result, compile_source
from hclgpu.source import SourceFile
from tests.conftest import ROOT, SHARED

FIXTURES = SHARED / "conformance" / "nomad"


def _accepted() -> list[str]:
    if not FIXTURES.exists():
        return []
    files = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".hcl", ".nomad") and p.is_file())
    return [str(p.relative_to(FIXTURES)) for p in files if p.with_name(p.name + ".json").exists()]


def compile_file(path: Path) -> Result:
    argfile = path.with_name(path.name + ".args")
    words = [w for w in argfile.read_text().split("\n") if w] if argfile.exists() else []
    assignments = [value for flag, value in zip(words[::2], words[1::2], strict=True) if flag == "-var"]
    options = EvalOptions(VariableInputs(args=assignments, env={}), base_dir=path.parent)
    return compile_source(SourceFile(path.name, path.read_text(encoding="utf-8")), options)


@pytest.mark.parametrize("relative", _accepted())
def test_accepted_fixture_has_no_error(relative: str) -> None:
    result = compile_file(FIXTURES / relative)
    errors = [f"{d.code} {d.message}" for d in result.diagnostics if d.severity is Severity.ERROR]
    assert errors == []


@pytest.mark.parametrize("sample", sorted((ROOT / "samples").glob("*.hcl")), ids=lambda p: p.name)
def test_sample_is_clean(sample: Path) -> None:
    result = compile_file(sample)
    assert [f"{d.code} {d.message}" for d in result.diagnostics] == []


if __name__ == "__main__":  # list the warnings the rules give on the fixtures
    for relative in _accepted():
        for d in compile_file(FIXTURES / relative).diagnostics:
            line = d.source.position(d.span.start).line if d.span else 0
            sys.stdout.write(f"{relative}:{line}: {d.severity} {d.code} {d.message}\n")
