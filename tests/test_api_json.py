"""The Nomad back end against what Nomad's own parser printed for probes written here.

tests/data/api_json/NAME.oracle.json is jobspec2-oracle's output for NAME.nomad.hcl (see that
folder's README); the comparison is the conformance suite's: same keys in the same order,
same values and value types. config-null: a null argument of a schemaless body (task
`config`, scaling `policy`) is left out, a null inside a value kept. config-object: in JSON
syntax an object in `config` stays a map (native syntax wraps an object literal in a list).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hclgpu.backends.nomad.api import render
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile
from tests.conftest import ROOT
from tests.test_nomad_output import _difference

PROBES = sorted((ROOT / "tests" / "data" / "api_json").glob("*.nomad.*"))


def _name(probe: Path) -> str:
    return probe.name.rsplit(".nomad.", 1)[0]


@pytest.mark.parametrize("probe", PROBES, ids=_name)
def test_the_probe_renders_as_nomad_printed_it(probe: Path) -> None:
    options = EvalOptions(VariableInputs(env={}), base_dir=probe.parent)
    result = compile_source(SourceFile(probe.name, probe.read_text(encoding="utf-8")), options, checks=False)
    assert result.job is not None, [d.message for d in result.diagnostics]
    expected = json.loads(probe.with_name(_name(probe) + ".oracle.json").read_text())
    assert _difference(expected, json.loads(render(result.job))) == ""


def test_a_large_job_prints_as_json_dumps_indents_it() -> None:
    """Many groups: an array's items are joined into one string every few thousand pieces
    as they are written; the text must be the same as if they were not."""
    from hclgpu.backends.nomad.api import go_escape, to_api

    group = (
        'group "g{i}" {{\n count = {i}\n meta {{ a = "<{i}>" }}\n task "t" {{\n driver = "docker"\n }}\n }}\n'
    )
    text = 'job "big" {\n' + "".join(group.format(i=i) for i in range(400)) + "}\n"
    result = compile_source(SourceFile("big.nomad.hcl", text), checks=False)
    assert result.job is not None
    printed = render(result.job)
    assert printed == go_escape(json.dumps({"Job": to_api(result.job)}, indent=4)) + "\n"
    assert printed.count('"Name": "g') == 400 and "\\u003c399\\u003e" in printed
