"""Every input of the conformance corpora (tests/data/conformance) parses without syntax errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hclgpu.codes import Severity
from hclgpu.pipeline import check_source
from hclgpu.source import SourceFile
from tests.conftest import DATA, vendored


def _hcl2_inputs() -> list[str]:
    data = json.loads(vendored("conformance", "hcl2", "cases.json").read_text())
    return sorted({case["input"] for case in data["cases"] if case["kind"].startswith("hcl_to_json")})


def _nomad_inputs() -> list[Path]:
    root = vendored("conformance", "nomad")
    return sorted(p for p in root.rglob("*") if p.suffix in (".hcl", ".nomad") and p.is_file())


def _syntax_errors(path: Path) -> list[str]:
    result = check_source(SourceFile(str(path), path.read_text(encoding="utf-8")))
    return [f"{d.code} {d.message}" for d in result.diagnostics if d.severity is Severity.ERROR]


def test_hcl2_corpus_has_37_inputs() -> None:
    assert len(_hcl2_inputs()) == 37


REFUSED_BY_HCL = {
    "v7/terraform-config/backend.tf": ["HG009"],
}
"""python-hcl2 reads these; HCL itself (hashicorp/hcl, the parser of Nomad and Terraform)
refuses them: backend.tf opens a block on the next line ("Invalid block definition",
jobspec2-oracle at 2,15-3,1)."""


@pytest.mark.parametrize("relative", _hcl2_inputs())
def test_hcl2_input_parses(relative: str) -> None:
    path = vendored("conformance", "hcl2") / relative
    assert [error.split()[0] for error in _syntax_errors(path)] == REFUSED_BY_HCL.get(relative, [])


def test_nomad_corpus_has_155_job_files() -> None:
    assert len(_nomad_inputs()) == 155


SYNTAX_ERRORS = {
    "written/more/hcl1-quoted-keys.nomad.hcl": ["HG001"],
    "written/more/single-line-nested.nomad.hcl": ["HG001", "HG001"],
}
"""Job files refused on purpose by HCL's own syntax rules (their .error.txt says where)."""


@pytest.mark.parametrize("path", _nomad_inputs(), ids=lambda p: str(p.relative_to(DATA)))
def test_nomad_job_file_parses(path: Path) -> None:
    relative = path.relative_to(vendored("conformance", "nomad")).as_posix()
    assert [error.split()[0] for error in _syntax_errors(path)] == SYNTAX_ERRORS.get(relative, [])
