"""One document analysed as ``hclgpu check`` analyses a file found in its folder: with the
settings of the nearest configuration above it, the editor's settings over them (as a
command line's flags are over them), checked against the team's policies, and filtered by
`select`, `ignore` and `per-file-ignores`; plus what the editor features need (the syntax
tree, the evaluated variables, a line index).

Policies are compiled once per server and policy set (:func:`hclgpu.rego.engine.engine_for`);
a policy that does not compile is reported on the document, at its first character, with the
policy file's place in the message. A configuration that cannot be used is reported the
same way, and the document is checked with the editor's settings alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hclgpu.codes import Severity
from hclgpu.codes.syntax import HG020, HG023, HG901
from hclgpu.diagnostics import Diagnostic, Sink, wanted
from hclgpu.lsp.positions import LineIndex
from hclgpu.pipeline import Result
from hclgpu.rego.policies import PolicySet
from hclgpu.settings import Settings
from hclgpu.settings.files import ConfigError
from hclgpu.settings.resolve import Resolver
from hclgpu.source import SourceFile, Span


@dataclass(slots=True)
class Analysis:
    uri: str
    version: int | None
    path: str
    result: Result
    index: LineIndex
    diagnostics: list[Diagnostic]
    """What is published: the compile's diagnostics after the configuration's filters."""
    generation: int = 0
    """The server's settings generation it was made in (see hclgpu.lsp.documents.State)."""

    @property
    def text(self) -> str:
        return self.result.source.text


def analyse(
    uri: str, path: str, text: str, version: int | None, given: dict[str, object], root: str | None = None
) -> Analysis:
    """Compile the text as a file at ``path`` (its configuration is found from its folder),
    with the editor's ``given`` settings over its configuration. File functions resolve
    relative paths from the workspace ``root``, the editor's working directory (the server's
    own when the editor names none), unless `file-base` says the job file's folder."""
    from hclgpu.pipeline import compile_source, eval_options

    source = SourceFile(path or uri, text)
    settings, problems = _settings(path, given, source)
    try:
        policies, unusable = _policies(settings, source)
        options = eval_options(settings, path, workdir=root)
        result = compile_source(source, options, policies=policies, skip_non_jobs=True)
        if any(d.code == HG023 for d in result.diagnostics):
            result = _not_a_job(result)
    except Exception as error:  # a bug in hclgpu: report it in the editor, keep serving
        result = Result(source, None)
        result.diagnostics.append(
            Diagnostic(HG901, Severity.ERROR, f"internal error: {type(error).__name__}: {error}", source)
        )
        unusable = []
    selected, ignored = settings.selected, settings.ignored_for(path)
    shown = problems + unusable + [d for d in result.diagnostics if wanted(d, selected, ignored)]
    return Analysis(uri, version, path, result, LineIndex(text), shown)


def _not_a_job(skipped: Result) -> Result:
    """A document with no top-level `job` block, known by its content whatever its name: a
    variable file (attributes only) gets what `check` finds in a var file, any other HCL file
    (Terraform, declarations) its syntax errors only, never a job's errors."""
    from hclgpu.pipeline import check_source

    source, tree = skipped.source, skipped.tree
    if tree is not None and tree.body.blocks():
        return check_source(source)
    from hclgpu.eval.variables import var_file_values

    sink = Sink()
    var_file_values(source, sink)
    return Result(source, tree, sink.sorted())


def _settings(path: str, given: dict[str, object], document: SourceFile) -> tuple[Settings, list[Diagnostic]]:
    """The document's settings; a configuration that cannot be used is shown on the document
    (HG020, the file and key in its message), and the editor's settings apply alone."""
    folder = str(Path(path).parent) if path else None
    resolver = Resolver(given, origin="editor")
    try:
        return (resolver.for_folder(folder) if folder else resolver.for_file("")), []
    except ConfigError as error:
        problem = Diagnostic(
            HG020, Severity.ERROR, f"the configuration cannot be used: {error}", document, Span(0, 0),
            help="fix the configuration file; until then the editor's settings apply alone",
        )  # fmt: skip
        return Resolver(given, origin="editor", isolated=True).for_file(""), [problem]


def _policies(settings: Settings, document: SourceFile) -> tuple[PolicySet | None, list[Diagnostic]]:
    """The policy set that applies, and why it cannot be used (on ``document``) if so."""
    from hclgpu.cli.policy import policy_set

    sink = Sink()
    policies = policy_set(settings, sink)
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
