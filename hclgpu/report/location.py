"""Line/column ranges of diagnostics, shared by the machine-readable formats."""

from __future__ import annotations

from dataclasses import dataclass

from hclgpu.diagnostics import Diagnostic
from hclgpu.source import SourceFile, Span


@dataclass(frozen=True, slots=True)
class Region:
    line: int
    column: int
    end_line: int
    end_column: int

    def as_dict(self) -> dict[str, int]:
        return {
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
        }


def region(source: SourceFile, span: Span | None) -> Region | None:
    if span is None:
        return None
    start = source.position(span.start)
    end = source.position(max(span.end, span.start))
    return Region(start.line, start.column, end.line, end.column)


def diagnostic_region(diagnostic: Diagnostic) -> Region | None:
    return region(diagnostic.source, diagnostic.span)
