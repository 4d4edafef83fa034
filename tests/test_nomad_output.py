"""The Nomad back end prints exactly what Nomad's own parser printed for 155 job files.

The fixtures in tests/data/conformance/nomad (Nomad's parser fixtures, and job files written
for this suite: its README.md) carry Nomad's output (NAME.json), the -var arguments it was
given (NAME.args) or the error it reported (NAME.error.txt). A file
Nomad accepted must render to the same JSON — same keys in the same order, same value
types; a file Nomad rejected must fail with an error on every line Nomad names.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hclgpu.backends.nomad.api import render
from hclgpu.codes import Severity
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.pipeline import Result, compile_source
from hclgpu.source import SourceFile
from tests.conftest import vendored

ROOT = vendored("conformance", "nomad")


def _fixtures(kind: str) -> list[str]:
    files = sorted(p for p in ROOT.rglob("*") if p.suffix in (".hcl", ".nomad") and p.is_file())
    return [str(p.relative_to(ROOT)) for p in files if p.with_name(p.name + kind).exists()]


def _compile(path: Path) -> Result:
    argfile = path.with_name(path.name + ".args")
    words = [w for w in argfile.read_text().split("\n") if w] if argfile.exists() else []
    assignments = [value for flag, value in zip(words[::2], words[1::2], strict=True) if flag == "-var"]
    options = EvalOptions(VariableInputs(args=assignments, env={}), base_dir=path.parent)
    # what Nomad's parser prints, before its server validates anything: many parser fixtures
    # are not valid jobs (no driver, a service job with `periodic`), and say so in
    # tests/golden/conformance/ (test_checks_corpus.py)
    return compile_source(SourceFile(path.name, path.read_text(encoding="utf-8")), options, checks=False)


def test_corpus_counts() -> None:
    assert (len(_fixtures(".json")), len(_fixtures(".error.txt"))) == (128, 27)


@pytest.mark.parametrize("relative", _fixtures(".json"))
def test_accepted_job_renders_like_nomad(relative: str) -> None:
    path = ROOT / relative
    result = _compile(path)
    errors = [f"{d.code}@{d.span} {d.message}" for d in result.diagnostics if d.severity is Severity.ERROR]
    assert not errors and result.job is not None
    expected = json.loads(path.with_name(path.name + ".json").read_text(encoding="utf-8"))
    assert _difference(expected, json.loads(render(result.job))) == ""


def _difference(want: object, got: object, where: str = "$") -> str:
    """The first place two JSON documents differ in key order, type or value ("" if none)."""
    if type(want) is not type(got):
        return f"{where}: want {want!r}, got {got!r}"
    if isinstance(want, dict) and isinstance(got, dict):
        if list(want) != list(got):
            return f"{where}: want keys {list(want)}, got {list(got)}"
        return next((d for k in want if (d := _difference(want[k], got[k], f"{where}.{k}"))), "")
    if isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            return f"{where}: want {len(want)} items, got {len(got)}"
        return next(
            (
                d
                for i, (w, g) in enumerate(zip(want, got, strict=True))
                if (d := _difference(w, g, f"{where}[{i}]"))
            ),
            "",
        )
    return "" if want == got else f"{where}: want {want!r}, got {got!r}"


_LOCATION = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+),\d+-\d+: ", re.MULTILINE)


@pytest.mark.parametrize("relative", _fixtures(".error.txt"))
def test_rejected_job_fails_on_the_lines_nomad_names(relative: str) -> None:
    path = ROOT / relative
    result = _compile(path)
    assert result.job is None
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    assert errors
    ours = {result.source.position(d.span.start).line for d in errors if d.span is not None}
    nomad = {int(m["line"]) for m in _LOCATION.finditer(path.with_name(path.name + ".error.txt").read_text())}
    assert nomad <= ours, f"Nomad names lines {sorted(nomad)}, hclgpu reports {sorted(ours)}"
