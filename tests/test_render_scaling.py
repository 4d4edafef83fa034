"""Rendering work grows with the job, not its square: lines executed at two sizes."""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import hclgpu.backends
from hclgpu.backends import registry
from hclgpu.backends.target import Lowering
from hclgpu.diagnostics import Sink
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile

BACKENDS = str(Path(hclgpu.backends.__file__).parent)

GROUP = """  group "g{n}" {{
    restart {{ attempts = 2 }}
    task "t" {{
      driver = "docker"
      config {{ image = "x" }}
      resources {{ cpu = 500 }}
      service {{ name = "s{n}" }}
    }}
  }}
"""
"""A group each target reports something about (restart, service, cpu, no command)."""


def _lines_executed(target: str, groups: int) -> int:
    """Lines of the back ends executed rendering a job of ``groups`` groups: an operation
    count, exact where times are noisy (a loop's every turn is one more line)."""
    text = 'job "j" {\n' + "".join(GROUP.format(n=n) for n in range(groups)) + "}\n"
    result = compile_source(SourceFile("scale.nomad.hcl", text))
    assert result.job is not None
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        count += event == "line"
        return local

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename.startswith(BACKENDS) else None

    sink, previous = Sink(), sys.gettrace()
    sys.settrace(calls)
    try:
        registry.render(result.job, target, Lowering(target, result.source, sink))
    finally:
        sys.settrace(previous)
    assert len(sink) >= groups  # each group is reported on
    return count


@pytest.mark.parametrize("target", ["kubernetes", "oci", "docker", "compose"])
def test_render_work_grows_with_the_groups_not_their_square(target: str) -> None:
    """16x the groups: at most 16x the work when it is linear. Looking through the whole
    sink for what was already said, or through every container for a group's, made it
    20-100x here."""
    small, large = _lines_executed(target, 25), _lines_executed(target, 400)
    assert large < 18 * small, (small, large, round(large / small, 1))
