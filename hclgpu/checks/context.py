"""What a rule sees: the job, its source, and ways to point at the right characters.

IR nodes keep the span of the block they were decoded from. A rule usually wants to
point at one attribute of that block (`value = "4 gb"`), so the context indexes the
syntax tree's blocks by position and finds attributes in them; when a block came from a
`dynamic` block the attribute is looked up in its `content`. Walkers give every device,
constraint and affinity with where it sits, so rules stay short.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Literal, TypeVar

from hclgpu.codes import Code, Severity
from hclgpu.diagnostics import Edit, Related, Sink
from hclgpu.ir import models as m
from hclgpu.ir.base import Node
from hclgpu.settings.profile import Profile
from hclgpu.source import SourceFile, Span
from hclgpu.syntax import ast

Scope = Literal["job", "group", "task", "device"]
T = TypeVar("T")


@dataclass(slots=True)
class Placed:
    """A constraint or affinity and where it is: its scope and the nodes around it."""

    node: m.Constraint | m.Affinity
    scope: Scope
    group: m.TaskGroup | None = None
    task: m.Task | None = None
    device: m.RequestedDevice | None = None


@dataclass(slots=True)
class Context:
    job: m.Job
    source: SourceFile
    tree: ast.File
    sink: Sink
    profile: Profile = field(default_factory=Profile)
    """The cluster the job is checked for: its Nomad release, its facts, the targets named."""
    _blocks: dict[int, ast.Block] | None = field(default=None, repr=False)
    _attributes: dict[int, dict[str, ast.Attribute]] = field(default_factory=dict, repr=False)
    """The attributes of each node's block by name (the first of a name), by the node's start."""
    _shared: dict[Callable[[Context], object], object] = field(default_factory=dict, repr=False)

    # ---- reporting --------------------------------------------------------------

    def report(
        self,
        code: Code,
        message: str,
        span: Span | None,
        *,
        help: str | None = None,
        related: Iterable[Related] = (),
        fix: Iterable[Edit] = (),
        severity: Severity | None = None,
        check: str | None = None,
        fix_safe: bool = False,
    ) -> None:
        """Report a finding; ``severity`` overrides the code's default (a code whose rule
        covers both what the server refuses and what it only lets fail later), ``check`` names
        which of the code's checks found it: a code with named checks must name one."""
        if check is None and code in _named_codes():
            raise ValueError(f"a finding of {code} must name its check (hclgpu.checks.registry.checks_of)")
        self.sink.emit(
            code, message, self.source, span, help=help, related=related, fix=fix, severity=severity,
            check=check, fix_safe=fix_safe,
        )  # fmt: skip

    # ---- locating -----------------------------------------------------------------

    def block_of(self, node: Node) -> ast.Block | None:
        """The syntax block a node was decoded from (the `content` of a `dynamic` block)."""
        if node.span is None:
            return None
        if self._blocks is None:
            self._blocks = _index(self.tree)
        block = self._blocks.get(node.span.start)
        if block is not None and block.type == "dynamic":
            contents = block.body.blocks("content")
            return contents[0] if contents else block
        return block

    def attribute(self, node: Node, name: str) -> ast.Attribute | None:
        """The attribute ``name`` the node's block sets (the first, if set twice)."""
        span = node.span
        if span is None:
            return None
        named = self._attributes.get(span.start)
        if named is None:
            named = self._attributes[span.start] = _attributes_of(self.block_of(node))
        return named.get(name)

    def written(self, node: Node, name: str, text: str) -> tuple[Edit, ...]:
        """The fix that writes ``text`` as the value of ``name``: only where the file sets it
        with an attribute (a fix must never replace a block header)."""
        attribute = self.attribute(node, name)
        return (Edit(attribute.value.span, text),) if attribute is not None else ()

    def deleted(self, node: Node | None, name: str = "") -> tuple[Edit, ...]:
        """The fix that deletes the lines of ``name``'s attribute, or without ``name`` of the
        node's whole block (none where something else shares those lines, or the file does
        not write it)."""
        from hclgpu.ir.moves import replace_lines

        written = None if node is None else self.attribute(node, name) if name else self.block_of(node)
        return replace_lines(self.source.text, written.span, []) if written is not None else ()

    def value_span(self, node: Node, *names: str) -> Span | None:
        """The value of the first of ``names`` the node's block sets, else its header."""
        for name in names:
            attribute = self.attribute(node, name)
            if attribute is not None:
                return attribute.value.span
        return self.header_span(node)

    def name_span(self, node: Node, name: str) -> Span | None:
        attribute = self.attribute(node, name)
        return attribute.name_span if attribute is not None else self.header_span(node)

    def header_span(self, node: Node) -> Span | None:
        """`device "nvidia/gpu"`: the block type and its labels."""
        block = self.block_of(node)
        if block is None:
            return node.span
        end = block.labels[-1].span.end if block.labels else block.type_span.end
        return Span(block.type_span.start, end)

    def label_span(self, node: Node) -> Span | None:
        block = self.block_of(node)
        if block is not None and block.labels:
            return block.labels[0].span
        return self.header_span(node)

    def shared(self, derive: Callable[[Context], T]) -> T:
        """``derive(self)``, derived once per run: what several rules read alike (the ports
        of every network, the literal sides of device constraints) costs the first only."""
        if derive not in self._shared:
            self._shared[derive] = derive(self)
        value: T = self._shared[derive]  # type: ignore[assignment]
        return value

    # ---- walking ------------------------------------------------------------------

    @property
    def canonical(self) -> m.Job:
        """The job as Nomad's server receives it: after the agent's ``Canonicalize`` defaults.

        Its nodes keep the spans of the blocks they came from; a block the defaults created
        has none, so rules point at the enclosing block instead."""
        return self.shared(_canonicalized)

    @property
    def admitted(self) -> m.Job:
        """The canonical job with what Nomad's connect mutator adds before it validates:
        the Envoy tasks and ports of Connect services (hclgpu.ir.admission), which
        ``TaskGroup.Validate`` and ``Job.Warnings`` count. Computed once."""
        return self.shared(_admitted)

    def canonical_tasks(self) -> list[tuple[m.TaskGroup, m.Task]]:
        """Every task of the canonical job with its group (listed once per run, only read)."""
        return self.shared(_canonical_tasks)

    def groups(self) -> list[m.TaskGroup]:
        return self.job.task_groups or []

    def tasks(self) -> list[tuple[m.TaskGroup, m.Task]]:
        """Every task with its group (listed once per run, only read)."""
        return self.shared(_tasks)

    def devices(self) -> list[tuple[m.TaskGroup, m.Task, m.RequestedDevice]]:
        """Every device request with its group and task (listed once per run, only read)."""
        return self.shared(_devices)

    def placed(self, kind: Literal["constraints", "affinities"]) -> list[Placed]:
        """Every constraint (or affinity) of the job, with its scope (collected once per run)."""
        return self.shared(_constraints if kind == "constraints" else _affinities)

    def _collect(self, kind: Literal["constraints", "affinities"]) -> Iterator[Placed]:
        for node in getattr(self.job, kind) or []:
            yield Placed(node, "job")
        for group in self.groups():
            for node in getattr(group, kind) or []:
                yield Placed(node, "group", group)
            for task in group.tasks or []:
                for node in getattr(task, kind) or []:
                    yield Placed(node, "task", group, task)
                if task.resources is not None:
                    for device in task.resources.devices or []:
                        for node in getattr(device, kind) or []:
                            yield Placed(node, "device", group, task, device)

    def all_placed(self) -> list[Placed]:
        """Every constraint, then every affinity (listed once per run, only read)."""
        return self.shared(_all_placed)

    def validated(self, kind: Literal["constraints", "affinities"] | None = None) -> list[Placed]:
        """The constraints and affinities (or one kind) whose `Validate` Nomad's server runs:
        not the job's, groups' and tasks' affinities of a system job, which it refuses whole
        instead ("System jobs may not have an affinity block", nomad/structs/structs.go:4785,
        :7153, :8272 at aa026cc99c); a device's are validated all the same."""
        found = self.placed(kind) if kind else self.all_placed()
        if self.job.type != "system":
            return found
        return [p for p in found if p.scope == "device" or p.node.__class__.__name__ != "Affinity"]


def _canonicalized(ctx: Context) -> m.Job:
    from hclgpu.ir.canonical import canonicalize

    return canonicalize(ctx.job)


def _admitted(ctx: Context) -> m.Job:
    from hclgpu.ir.admission import with_connect_tasks

    return with_connect_tasks(ctx.canonical)


def _constraints(ctx: Context) -> list[Placed]:
    return list(ctx._collect("constraints"))


def _affinities(ctx: Context) -> list[Placed]:
    return list(ctx._collect("affinities"))


def _all_placed(ctx: Context) -> list[Placed]:
    return ctx.placed("constraints") + ctx.placed("affinities")


def _canonical_tasks(ctx: Context) -> list[tuple[m.TaskGroup, m.Task]]:
    return [(group, task) for group in ctx.canonical.task_groups or [] for task in group.tasks or []]


def _tasks(ctx: Context) -> list[tuple[m.TaskGroup, m.Task]]:
    return [(group, task) for group in ctx.job.task_groups or [] for task in group.tasks or []]


def _devices(ctx: Context) -> list[tuple[m.TaskGroup, m.Task, m.RequestedDevice]]:
    return [
        (group, task, device)
        for group, task in ctx.tasks()
        if task.resources is not None
        for device in task.resources.devices or []
    ]


def _attributes_of(block: ast.Block | None) -> dict[str, ast.Attribute]:
    named: dict[str, ast.Attribute] = {}
    if block is not None:
        attribute = ast.Attribute
        for item in block.body.items:
            if type(item) is attribute and item.name not in named:  # (no class derives from Attribute)
                named[item.name] = item
    return named


def _index(tree: ast.File) -> dict[int, ast.Block]:
    """Every block of the file by the offset where it starts."""
    found: dict[int, ast.Block] = {}
    block = ast.Block
    stack = [tree.body]
    while stack:
        for item in stack.pop().items:
            if type(item) is block:  # (no class derives from Block)
                found[item.span.start] = item
                stack.append(item.body)
    return found


@cache
def _named_codes() -> frozenset[str]:
    """The codes whose findings must name their check, from the index (no rule imported)."""
    from hclgpu.codes import CHECKS

    return frozenset(CHECKS.values())
