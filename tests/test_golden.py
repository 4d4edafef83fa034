"""Golden output: every sample rendered for Nomad, compared with reviewed files.

`pytest --update-golden` rewrites tests/golden/ from the current output; review the diff
before committing it. A failure shows the unified diff of expected and actual output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hclgpu.backends.nomad.api import render
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile
from tests.conftest import ROOT, Golden

SAMPLES = sorted((ROOT / "samples").glob("*.hcl"))
GOLDEN = ROOT / "tests" / "golden"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_sample_renders_to_golden_nomad_json(sample: Path, golden: Golden) -> None:
    options = EvalOptions(VariableInputs(env={}), base_dir=sample.parent)
    result = compile_source(SourceFile(sample.name, sample.read_text(encoding="utf-8")), options)
    assert result.job is not None, [f"{d.code} {d.message}" for d in result.diagnostics]
    name = sample.name.removesuffix(".hcl").removesuffix(".nomad")
    golden(GOLDEN / "nomad" / f"{name}.json", render(result.job))
