"""The top level of a job file: variables, locals and the one `job` block.

jobspec2 reads a file in this order: variable declarations, their values from every
source, locals (in dependency order, whatever order they are written in), then the
job with ``var`` and ``local`` in scope. This module does the same and hands the
decoder an evaluator and a scope.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from hclgpu.codes import Severity
from hclgpu.codes.evaluation import HG101, HG102, HG104, HG105, HG108, HG114, HG120
from hclgpu.codes.syntax import HG012
from hclgpu.diagnostics import Related, Sink
from hclgpu.eval.declarations import Declarations
from hclgpu.eval.expr import Evaluator, Failure, Scope, did_you_mean
from hclgpu.eval.references import references
from hclgpu.eval.values import UNSET, Value
from hclgpu.eval.variables import VariableInputs, resolve
from hclgpu.settings.profile import Profile
from hclgpu.source import SourceFile, Span
from hclgpu.syntax import ast

TOP_LEVEL_BLOCKS = ("variable", "variables", "locals", "job")


@dataclass(slots=True)
class EvalOptions:
    """What evaluation needs from outside the file."""

    variables: VariableInputs = field(default_factory=VariableInputs)
    base_dir: Path = field(default_factory=Path)
    allow_fs: bool = False
    profile: Profile = field(default_factory=Profile)
    """The cluster the rules check the job for (the settings' profile)."""


@dataclass(slots=True)
class Prepared:
    evaluator: Evaluator
    scope: Scope
    job: ast.Block | None


def prepare(tree: ast.File, source: SourceFile, options: EvalOptions, sink: Sink) -> Prepared:
    """Check the top level, resolve variables and locals, and find the job block."""
    from hclgpu.eval.functions import all_functions

    functions = all_functions(options.base_dir, options.allow_fs)
    evaluator = Evaluator(source, functions)
    _check_top_level(tree.body, source, sink)
    declarations = Declarations(source, sink)
    declarations.read(tree.body.blocks())
    validation = Evaluator(source, all_functions(options.base_dir, False))
    variables = resolve(declarations, options.variables, validation)
    scope: dict[str, Value] = {"var": variables, "local": {}}
    scope["local"] = Locals(evaluator, sink).evaluate(tree.body.blocks("locals"), scope)
    return Prepared(evaluator, scope, _job_block(tree, source, sink))


def _check_top_level(body: ast.Body, source: SourceFile, sink: Sink) -> None:
    for item in body.items:
        if isinstance(item, ast.Attribute):
            sink.emit(
                HG101,
                f"an argument named `{item.name}` is not expected at the top level",
                source,
                item.name_span,
                help="a job file holds `variable`, `variables`, `locals` and one `job` block",
            )
        elif item.type not in TOP_LEVEL_BLOCKS:
            sink.emit(
                HG102,
                f"blocks of type `{item.type}` are not expected at the top level",
                source,
                item.type_span,
                help=did_you_mean(item.type, list(TOP_LEVEL_BLOCKS))
                or "a job file holds `variable`, `variables`, `locals` and one `job` block",
            )


def _job_block(tree: ast.File, source: SourceFile, sink: Sink) -> ast.Block | None:
    jobs = tree.body.blocks("job")
    if not jobs:
        where = Span(0, min(1, len(source.text)))
        sink.emit(HG108, "the file has no `job` block", source, where, help='add `job "name" { ... }`')
        return None
    for extra in jobs[1:]:
        sink.emit(
            HG104,
            "only one `job` block is allowed in a file",
            source,
            extra.type_span,
            related=[Related(jobs[0].type_span, "the first job is here")],
        )
    job = jobs[0]
    if len(job.labels) != 1:
        span = job.labels[1].span if len(job.labels) > 1 else job.type_span
        sink.emit(HG105, "a `job` block needs exactly one label: the job's ID", source, span)
        return None
    return job


class Locals:
    """Evaluates `locals` in dependency order, reporting cycles at the names involved."""

    def __init__(self, evaluator: Evaluator, sink: Sink) -> None:
        self.evaluator = evaluator
        self.sink = sink
        self.source = evaluator.source
        self.exprs: dict[str, ast.Attribute] = {}
        self.values: dict[str, Value] = {}
        self.failed: set[str] = set()
        self.depends: dict[str, set[str]] = {}

    def evaluate(self, blocks: list[ast.Block], scope: dict[str, Value]) -> dict[str, Value]:
        self._collect(blocks)
        scope["local"] = self.values
        state: dict[str, int] = {}
        for name in self.exprs:
            self._visit(name, scope, state)
        return self.values

    def _collect(self, blocks: list[ast.Block]) -> None:
        for block in blocks:
            for item in block.body.items:
                if isinstance(item, ast.Block):
                    self.sink.emit(
                        HG102,
                        f"blocks of type `{item.type}` are not expected in `locals`",
                        self.source,
                        item.type_span,
                    )
                elif item.name in self.exprs:
                    # jobspec2 decodes each `locals` block into one map, a later definition
                    # over an earlier one: Nomad accepts the job with the last value
                    first = self.exprs[item.name]
                    self.sink.emit(
                        HG120,
                        f"local value `{item.name}` is defined more than once; "
                        "Nomad uses this last definition",
                        self.source,
                        item.name_span,
                        related=[Related(first.name_span, "first defined here")],
                        severity=Severity.WARNING,
                    )
                    self.exprs[item.name] = item
                else:
                    self.exprs[item.name] = item

    def _visit(self, root: str, scope: dict[str, Value], state: dict[str, int]) -> None:
        """Depth-first: 1 = in progress, 2 = done. A name met while in progress closes a cycle.
        The walk keeps its own stack: a chain of thousands of locals, each naming the next,
        is as deep as it is long."""
        if state.get(root) is not None:
            return
        state[root] = 1
        path = [root]
        pending = [iter(self._depends(root))]
        while pending:
            name = path[-1]
            for local in pending[-1]:
                if local not in self.exprs or state.get(local) == 2:
                    continue
                if state.get(local) == 1:
                    self._cycle(path[path.index(local) :])
                    continue
                state[local] = 1
                path.append(local)
                pending.append(iter(self._depends(local)))
                break
            else:
                pending.pop()
                path.pop()
                state[name] = 2
                self._evaluate(name, self.exprs[name], scope)

    def _evaluate(self, name: str, attribute: ast.Attribute, scope: dict[str, Value]) -> None:
        if self._depends(name) & self.failed:
            self.failed.add(name)
            self.values[name] = UNSET
            return
        try:
            self.values[name] = self.evaluator.eval(attribute.value, scope)
        except Failure as failure:
            self.failed.add(name)
            self.values[name] = UNSET
            if not failure.silent:
                self.sink.emit(
                    failure.code,
                    failure.message,
                    self.source,
                    failure.span,
                    help=failure.help,
                    fix=failure.fix,
                )
        except RecursionError:
            self.failed.add(name)
            self.values[name] = UNSET
            self.sink.emit(
                HG012, "the expression is nested too deeply to evaluate", self.source, attribute.span
            )

    def _depends(self, name: str) -> set[str]:
        """The locals a local refers to (computed once per local)."""
        depends = self.depends.get(name)
        if depends is None:
            refs = references(self.exprs[name].value)
            depends = self.depends[name] = {attr for root, attr, _ in refs if root == "local" and attr}
        return depends

    def _cycle(self, names: list[str]) -> None:
        """One error per local of the cycle, at its reference to the next: jobspec2 gives up on
        one of them, which one depends on Go's map order (`JustAttributes`), so each is where
        Nomad may report it (jobConfig.evaluateLocalVariables, types.config.go:192-230)."""
        for name in names:
            self.failed.add(name)
            self.values[name] = UNSET
        for index, name in enumerate(names):
            following = names[(index + 1) % len(names)]
            place = next(
                (
                    span
                    for root, attr, span in references(self.exprs[name].value)
                    if root == "local" and attr == following
                ),
                self.exprs[name].name_span,
            )
            order = names[index:] + names[:index]
            chain = " -> ".join(f"local.{n}" for n in [*order, name])
            self.sink.emit(
                HG114,
                f"local values refer to each other in a cycle: {chain}",
                self.source,
                place,
                help="break the cycle so that each local can be computed from variables and earlier locals",
            )
