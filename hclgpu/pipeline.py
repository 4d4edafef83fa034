"""From text to results, with no I/O: the one entry point every front end uses.

The CLI, the language server and the Python API all call :func:`check_source`, so
they report exactly the same diagnostics for the same text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.source import SourceFile
from hclgpu.syntax import ast


@dataclass(slots=True)
class Result:
    source: SourceFile
    tree: ast.File | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.tree is not None and not any(d.severity == "error" for d in self.diagnostics)


def check_source(source: SourceFile) -> Result:
    """Parse and check one source; never raises on bad input."""
    from hclgpu.syntax.parser import parse

    sink = Sink()
    try:
        tree = parse(source, sink)
    except RecursionError:
        sink.emit("HG012", "the file is nested too deeply to process", source, None)
        tree = None
    return Result(source, tree, sink.sorted())


def loads(text: str, path: str = "<string>") -> Result:
    """Check HCL text given as a string."""
    return check_source(SourceFile(path, text))
