"""Rendering work grows with the job, not its square: counted operations at two sizes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from hclgpu.backends import render_target
from hclgpu.backends.target import Lowering
from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile, Span

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


class _Counted(list[Diagnostic]):
    """The sink's list, counting the diagnostics read back from it."""

    read = 0

    def __iter__(self) -> Iterator[Diagnostic]:
        for diagnostic in super().__iter__():
            _Counted.read += 1
            yield diagnostic


def _operations(target: str, groups: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """Diagnostics read back plus span comparisons and hashes, while rendering ``groups``."""
    text = 'job "j" {\n' + "".join(GROUP.format(n=n) for n in range(groups)) + "}\n"
    result = compile_source(SourceFile("scale.nomad.hcl", text))
    assert result.job is not None
    sink = Sink(items=_Counted())
    spans = 0
    equal, hashed = Span.__eq__, Span.__hash__

    def counted_eq(self: Span, other: Any) -> bool:
        nonlocal spans
        spans += 1
        return equal(self, other)

    def counted_hash(self: Span) -> int:
        nonlocal spans
        spans += 1
        return hashed(self)

    _Counted.read = 0
    with monkeypatch.context() as patch:
        patch.setattr(Span, "__eq__", counted_eq)
        patch.setattr(Span, "__hash__", counted_hash)
        render_target(result.job, target, Lowering(target, result.source, sink))
    assert len(sink) >= groups  # each group is reported on
    return spans + _Counted.read


@pytest.mark.parametrize("target", ["kubernetes", "oci", "docker", "compose"])
def test_reporting_each_thing_once_grows_with_the_groups_not_their_square(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """4x the groups: about 4x the work; looking for a diagnostic in the sink made it 16x."""
    small, large = (_operations(target, n, monkeypatch) for n in (50, 200))
    assert large < 6 * small, (small, large)
