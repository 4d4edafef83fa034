"""One document analysed as ``hclgpu check`` would: compiled with the workspace's variable
files, checked against the team's policies and filtered by the nearest configuration, plus
what the editor features need (the syntax tree, the evaluated variables, a line index).

Policies come from the server's settings (``hclgpu lsp --policy DIR``, or ``policy`` in the
client's initializationOptions) or else from ``policy`` in the nearest configuration. They
are compiled once per server and policy set (:func:`hclgpu.rego.engine.engine_for`); a policy
that does not compile is reported on the document, at its first character, with the policy
file's place in the message.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from hclgpu.codes import Severity
from hclgpu.config import Config, ConfigError, find_config
from hclgpu.diagnostics import Diagnostic, Sink, wanted
from hclgpu.lsp.positions import LineIndex
from hclgpu.pipeline import Result
from hclgpu.rego.policies import PolicySet
from hclgpu.source import SourceFile, Span


@dataclass(slots=True)
class Settings:
    """Per workspace: variable files (``--var-file``), ``--var`` values, ``--allow-fs`` and the
    policies: directories, packages, every package, time limit (``--policy``, ``--namespace``,
    ``--all-namespaces``, ``--policy-timeout``). Unset, the policy settings come from the
    nearest configuration, as for ``check``."""

    var_files: list[str] = field(default_factory=list)
    variables: list[str] = field(default_factory=list)
    allow_fs: bool = False
    policy: list[str] = field(default_factory=list)
    policy_namespaces: list[str] = field(default_factory=list)
    all_namespaces: bool = False
    policy_timeout: float | None = None


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
    source = SourceFile(path or uri, text)
    config = _config(path)
    try:
        policies, problems = _policies(settings, config, source)
        result = compile_source(source, options, policies=policies)
    except Exception as error:  # a bug in hclgpu: report it in the editor, keep serving
        result = Result(source, None)
        result.diagnostics.append(
            Diagnostic("HG901", Severity.ERROR, f"internal error: {type(error).__name__}: {error}", source)
        )
        problems = []
    shown = problems + _filtered(result.diagnostics, path, config)
    return Analysis(uri, version, path, result, LineIndex(text), shown)


def _config(path: str) -> Config | None:
    try:
        return find_config(Path(path).parent if path else None)
    except ConfigError:
        return None


def _policies(
    settings: Settings, config: Config | None, document: SourceFile
) -> tuple[PolicySet | None, list[Diagnostic]]:
    """The policy set that applies, and why it cannot be used (on ``document``) if so."""
    from hclgpu.cli.policy import policy_set

    sink = Sink()
    chosen = (settings.policy, settings.policy_namespaces, settings.all_namespaces, settings.policy_timeout)
    policies = policy_set(*chosen, config, sink)
    if policies is not None:
        return policies, []
    return None, [_on_document(d, document) for d in sink.sorted()]


def _on_document(problem: Diagnostic, document: SourceFile) -> Diagnostic:
    """A policy's problem shown on the document the editor has open (an editor shows only the
    diagnostics of open documents), its own place in the message."""
    where = problem.source.path
    if problem.span is not None and problem.source.text:
        position = problem.source.position(problem.span.start)
        where = f"{where}:{position.line}:{position.column}"
    return Diagnostic(
        problem.code, problem.severity, f"{where}: {problem.message}", document, Span(0, 0), help=problem.help
    )


def _filtered(diagnostics: list[Diagnostic], path: str, config: Config | None) -> list[Diagnostic]:
    """The nearest configuration's select/ignore/per-file-ignores, as `hclgpu check` applies them;
    syntax, evaluation and internal errors are never hidden."""
    if config is None:
        return diagnostics
    ignored = config.ignored_for(path)
    return [d for d in diagnostics if wanted(d, config.select, ignored)]
