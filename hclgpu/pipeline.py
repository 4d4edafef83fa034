"""From text to results, with no I/O: the one entry point every front end uses.

The CLI, the language server and the Python API all call :func:`check_source` (parse
only) or :func:`compile_source` (parse, evaluate, decode to the IR job), so they report
exactly the same diagnostics for the same text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hclgpu.codes import Severity
from hclgpu.codes.syntax import HG012, HG023
from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.source import SourceFile, looks_like_json
from hclgpu.syntax import ast

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from hclgpu.eval.program import EvalOptions
    from hclgpu.ir.models import Job
    from hclgpu.rego.policies import PolicySet
    from hclgpu.settings import Settings
    from hclgpu.settings.profile import Profile


@dataclass(slots=True)
class Result:
    source: SourceFile
    tree: ast.File | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    job: Job | None = None
    scope: dict[str, Any] | None = None
    """The evaluated ``var`` and ``local`` values (for editors), when evaluation got that far."""

    @property
    def ok(self) -> bool:
        return self.tree is not None and not any(d.severity == "error" for d in self.diagnostics)


def _parse(source: SourceFile, sink: Sink) -> ast.File | None:
    """Native syntax, or HCL JSON syntax when the file starts with `{` (as Nomad decides)."""
    from hclgpu.syntax.parser import parse
    from hclgpu.syntax.redefined import check_redefined

    try:
        if looks_like_json(source.text):
            from hclgpu.ir.json_syntax import parse_json_job

            tree = parse_json_job(source, sink)
        else:
            tree = parse(source, sink)
        if tree is not None:
            check_redefined(tree, source, sink)
        return tree
    except RecursionError:
        sink.emit(HG012, "the file is nested too deeply to process", source, None)
        return None


def check_source(source: SourceFile, skip_non_jobs: bool = False) -> Result:
    """Parse one source and report syntax problems; never raises on bad input.
    ``skip_non_jobs``: see :func:`compile_source`."""
    sink = Sink()
    tree = _parse(source, sink)
    if skip_non_jobs and not is_job_file(source, tree):
        return _skipped(source, tree)
    return Result(source, tree, sink.sorted())


def is_job_file(source: SourceFile, tree: ast.File | None) -> bool:
    """Whether the file is a job file: it has a top-level `job` block, or, when it does not
    parse, one of its lines starts with `job` (or `"job":` in JSON), so that a job with a
    syntax error is still reported as one."""
    if tree is not None:
        return bool(tree.body.blocks("job"))
    import re

    return re.search(r'(?m)^[ \t{]*(?:job\b|"job"[ \t]*:)', source.text) is not None


def _skipped(source: SourceFile, tree: ast.File | None) -> Result:
    """HG023: a file a folder's walk found that is not a job file (a variable file, agent
    configuration), noted in one line and not checked (its syntax tree kept, for an editor)."""
    sink = Sink()
    sink.emit(HG023, "skipped: not a job file (no top-level `job` block)", source)
    return Result(source, tree, sink.sorted())


def compile_source(
    source: SourceFile,
    options: EvalOptions | None = None,
    checks: bool = True,
    policies: PolicySet | None = None,
    skip_non_jobs: bool = False,
) -> Result:
    """Parse, evaluate and decode one job file to the IR job; never raises on bad input.

    The job is returned only when there are no errors: a job with an error somewhere
    in it is not what Nomad would run, so no back end may render it. ``checks=False``
    stops after decoding (no HG2xx rules), to see exactly what Nomad's parser produces.
    ``policies`` are the team's
    Rego rules (``check --policy``), run on every job that decodes, before suppressions apply.
    ``skip_non_jobs``: a file that is not a job file (:func:`is_job_file`) is only noted
    (HG023), as for a file a folder's walk found.
    """
    from hclgpu.gc_pause import paused_gc

    with paused_gc():  # the IR is a large acyclic tree: collecting while building it only costs time
        return _compile(source, options, checks, policies, skip_non_jobs)


def _compile(
    source: SourceFile,
    options: EvalOptions | None,
    checks: bool,
    policies: PolicySet | None,
    skip_non_jobs: bool,
) -> Result:
    from hclgpu.eval.program import EvalOptions, prepare
    from hclgpu.ir.build import build_job

    sink = Sink()
    tree = _parse(source, sink)
    if skip_non_jobs and not is_job_file(source, tree):
        return _skipped(source, tree)
    if tree is None or sink.has_errors:
        return Result(source, tree, sink.sorted())
    scope = None
    try:
        prepared = prepare(tree, source, options or EvalOptions(), sink)
        scope = dict(prepared.scope)
        job = build_job(prepared, sink)
    except RecursionError:
        sink.emit(HG012, "the file is nested too deeply to evaluate", source, None)
        job = None
    checked = checks and job is not None and not sink.has_errors
    if checked:
        from hclgpu.checks import run_checks

        assert job is not None
        run_checks(job, tree, source, sink, (options or EvalOptions()).profile)
        if policies is not None:
            from hclgpu.rego.findings import check_policies

            check_policies(job, tree, source, sink, policies)
    ran = checked and policies is not None
    diagnostics = _suppress(tree, source, sink, checked, ran)
    failed = any(d.severity is Severity.ERROR for d in diagnostics)
    return Result(source, tree, diagnostics, None if failed else job, scope)


def _suppress(
    tree: ast.File, source: SourceFile, sink: Sink, checked: bool, policies_ran: bool
) -> list[Diagnostic]:
    """Apply `# hclgpu-ignore` comments (only files that have comments pay for this)."""
    if not tree.comments:
        return _unique(sink.sorted())
    from hclgpu.checks.suppress import apply_suppressions, read_suppressions

    suppressions = read_suppressions(tree, source, sink)
    return apply_suppressions(
        _unique(sink.sorted()), suppressions, source, report_unused=checked, policies_ran=policies_ran
    )


def _unique(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Drop repeats: an expression inside a loop fails once per element, reported once."""
    seen: set[tuple[str, int | None, str]] = set()
    unique = []
    for d in diagnostics:
        key = (d.code, d.span.start if d.span else None, d.message)
        if key not in seen:
            seen.add(key)
            unique.append(d)
    return unique


def eval_options(
    settings: Settings,
    path: str,
    profile: Profile | None = None,
    environment: bool = True,
    workdir: str | None = None,
) -> EvalOptions:
    """Evaluation inputs from the settings and (with ``environment``) the environment's
    NOMAD_VAR_* variables; ``profile`` replaces the settings' own (a command that names a
    target); ``workdir`` stands for the working directory (an editor's workspace root)."""
    chosen = profile or settings.profile
    base = file_base_dir(path, settings.file_base, workdir)
    return evaluation(path, settings.var, settings.var_file, settings.allow_fs, chosen, environment, base)


def file_base_dir(path: str, file_base: str, workdir: str | None = None) -> Path:
    """The folder file functions resolve relative paths from. Nomad's CLI hands its parser
    the job file's base name as ``Path`` (hashicorp/nomad command/helpers.go:474 and :567 at
    aa026cc99c), and the parser's ``BaseDir`` is ``filepath.Dir(Path)``, ``.``
    (jobspec2/parse.go:127-128): `file("x")` reads the working directory's ``x``, wherever
    the job file is. ``job-folder`` reads from the job file's folder instead."""
    from pathlib import Path

    if file_base == "job-folder" and path and not path.startswith("<"):
        return Path(path).parent
    return Path(workdir) if workdir else Path()


def evaluation(
    path: str,
    variables: Sequence[str],
    var_files: Sequence[str],
    allow_fs: bool,
    profile: Profile,
    environment: bool = True,
    base: Path | None = None,
) -> EvalOptions:
    """Evaluation inputs of the file at ``path``: file functions read from ``base`` (the
    working directory when not given), ``--var`` values, var-files and (with
    ``environment``) NOMAD_VAR_* variables."""
    import os
    from pathlib import Path

    from hclgpu.eval.program import EvalOptions
    from hclgpu.eval.variables import VariableInputs

    env = dict(os.environ) if environment else {}
    inputs = VariableInputs(args=list(variables), files=[Path(f) for f in var_files], env=env)
    return EvalOptions(inputs, base_dir=base or Path(), allow_fs=allow_fs, profile=profile)


def loads(text: str, path: str = "<string>") -> Result:
    """Compile HCL text given as a string (file functions resolve against the current directory)."""
    return compile_source(SourceFile(path, text))
