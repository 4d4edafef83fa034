"""Deep structures end in a located HG012 or evaluate fully, never in an unlocated error.

Python's recursion limit is not a place: a chain of locals each naming the next, or a JSON
job file of thousands of brackets, must either work or say where it goes too deep.
"""

from __future__ import annotations

import pytest

import hclgpu

JOB = """job "j" {{
  group "g" {{
    task "t" {{
      driver = "exec"
      meta {{ last = {} }}
    }}
  }}
}}
"""


@pytest.mark.parametrize("length", [50, 3000])
def test_a_long_chain_of_locals_naming_later_ones_evaluates(length: int) -> None:
    chain = [f"  l{i} = local.l{i + 1}" for i in range(length)] + [f'  l{length} = "end"']
    text = "locals {\n" + "\n".join(chain) + "\n}\n" + JOB.format("local.l0")
    result = hclgpu.loads(text, "chain.nomad.hcl")
    assert result.ok, result.diagnostics
    assert result.job is not None
    assert result.job.task_groups[0].tasks[0].meta == {"last": "end"}


def test_a_cycle_in_a_long_chain_is_reported_at_its_names() -> None:
    chain = [f"  l{i} = local.l{i + 1}" for i in range(2000)] + ["  l2000 = local.l1000"]
    text = "locals {\n" + "\n".join(chain) + "\n}\n" + JOB.format("local.l0")
    result = hclgpu.loads(text, "cycle.nomad.hcl")
    codes = {d.code for d in result.diagnostics}
    assert "HG012" not in codes and not result.ok
    assert all(d.span is not None for d in result.diagnostics)


@pytest.mark.parametrize(("opening", "closing"), [("[", "]"), ('{"a": ', "}")])
def test_a_json_job_nested_too_deeply_is_located(opening: str, closing: str) -> None:
    text = '{\n  "job": {"j": {"meta": ' + opening * 5000 + "1" + closing * 5000 + "}}}\n"
    result = hclgpu.loads(text, "deep.nomad.json")
    (found,) = [d for d in result.diagnostics if d.code == "HG012"]
    assert found.span is not None
    start = result.source.position(found.span.start)
    # the bracket 257 levels in: the file's object, two more, then the 254th opening
    prefix = '  "job": {"j": {"meta": '
    assert (start.line, start.column) == (2, len(prefix) + 1 + len(opening) * 253)
    assert found.message == "nesting is deeper than 256 levels"
