"""One document analysed as ``hclgpu check`` would: compiled with the workspace's variable
files and filtered by the nearest configuration, plus what the editor features need (the
syntax tree, the evaluated variables, a line index)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from hclgpu.codes import Severity
from hclgpu.diagnostics import Diagnostic, wanted
from hclgpu.lsp.positions import LineIndex
from hclgpu.pipeline import Result
from hclgpu.source import SourceFile


@dataclass(slots=True)
class Settings:
    """Per workspace: variable files (``--var-file``), ``--var`` values and ``--allow-fs``."""

    var_files: list[str] = field(default_factory=list)
    variables: list[str] = field(default_factory=list)
    allow_fs: bool = False


@dataclass(slots=True)
class Analysis:
    uri: str
    version: int | None
    path: str
    result: Result
    index: LineIndex
    diagnostics: list[Diagnostic]
    """What is published: the compile's diagnostics after the configuration's filters."""

    @property
    def text(self) -> str:
        return self.result.source.text


def analyse(uri: str, path: str, text: str, version: int | None, settings: Settings) -> Analysis:
    """Compile the text as a file at ``path`` (relative paths, file functions and configuration
    resolve from its directory)."""
    from hclgpu.eval.program import EvalOptions
    from hclgpu.eval.variables import VariableInputs
    from hclgpu.pipeline import compile_source

    base = Path(path).parent if path else Path()
    inputs = VariableInputs(
        args=list(settings.variables), files=[Path(f) for f in settings.var_files], env=dict(os.environ)
    )
    options = EvalOptions(inputs, base_dir=base, allow_fs=settings.allow_fs)
    try:
        result = compile_source(SourceFile(path or uri, text), options)
    except Exception as error:  # a bug in hclgpu: report it in the editor, keep serving
        source = SourceFile(path or uri, text)
        result = Result(source, None)
        result.diagnostics.append(
            Diagnostic("HG901", Severity.ERROR, f"internal error: {type(error).__name__}: {error}", source)
        )
    return Analysis(uri, version, path, result, LineIndex(text), _filtered(result.diagnostics, path))


def _filtered(diagnostics: list[Diagnostic], path: str) -> list[Diagnostic]:
    """The nearest configuration's select/ignore/per-file-ignores, as `hclgpu check` applies them;
    syntax, evaluation and internal errors are never hidden."""
    from hclgpu.config import ConfigError, find_config

    try:
        config = find_config(Path(path).parent if path else None)
    except ConfigError:
        return diagnostics
    ignored = config.ignored_for(path)
    return [d for d in diagnostics if wanted(d, config.select, ignored)]
