"""What the rules' context answers: attributes by node, and values derived once per run."""

from __future__ import annotations

from hclgpu.checks.context import Context
from hclgpu.diagnostics import Sink
from hclgpu.ir import models as m
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile

JOB = """job "j" {
  group "g" {
    count = 2
    dynamic "constraint" {
      for_each = ["linux"]
      content {
        attribute = "${attr.kernel.name}"
        value     = constraint.value
      }
    }
    task "t" {
      driver = "exec"
    }
  }
}
"""


def _context() -> Context:
    source = SourceFile("job.nomad.hcl", JOB)
    result = compile_source(source, checks=False)
    assert result.job is not None and result.tree is not None
    return Context(result.job, source, result.tree, Sink())


def test_attribute_is_found_in_the_nodes_block() -> None:
    ctx = _context()
    assert ctx.job.task_groups is not None
    group = ctx.job.task_groups[0]
    count = ctx.attribute(group, "count")
    assert count is not None and ctx.source.text[count.value.span.start : count.value.span.end] == "2"
    assert ctx.attribute(group, "name") is None
    assert ctx.attribute(m.Constraint.build(), "attribute") is None  # no span: not from the file


def test_attribute_of_a_dynamic_block_is_read_in_its_content() -> None:
    ctx = _context()
    assert ctx.job.task_groups is not None and ctx.job.task_groups[0].constraints
    constraint = ctx.job.task_groups[0].constraints[0]
    value = ctx.attribute(constraint, "value")
    assert value is not None
    assert ctx.source.text[value.value.span.start : value.value.span.end] == "constraint.value"


def test_shared_derives_once_per_run() -> None:
    calls: list[Context] = []

    def derive(ctx: Context) -> list[str]:
        calls.append(ctx)
        return ["derived"]

    first, second = _context(), _context()
    assert first.shared(derive) is first.shared(derive)
    assert second.shared(derive) == ["derived"] and second.shared(derive) is not first.shared(derive)
    assert calls == [first, second]
