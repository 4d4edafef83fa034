"""What every back end shares: options, the lowering context that reports HG301/HG302 at
the construct concerned, and the artifacts it produces.

A back end lowers the IR to plain data (dicts, lists, str, int); templates only place
those values; every artifact is parsed back before it is written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from hclgpu.codes import Severity
from hclgpu.codes.base import Code
from hclgpu.codes.targets import HG301, HG302
from hclgpu.diagnostics import Related, Sink
from hclgpu.digests import sha256_hex
from hclgpu.ir.base import Node
from hclgpu.source import SourceFile, Span

Unsupported = Literal["ignore", "warn", "error"]


@dataclass(slots=True)
class RenderOptions:
    """Options of `hclgpu render`: those every target reads, and the target's own."""

    templates: str | None = None
    """A directory whose `<target>/*.j2` files replace the built-in templates."""
    unsupported: Unsupported = "warn"
    cpu_mhz_per_core: int = 1000
    """Nomad `cpu` is in MHz; Kubernetes, OCI and docker want cores. One core is this many MHz."""
    device_ids: dict[tuple[str, str, int], list[str]] | None = None
    """The device instance IDs a node inventory's plan chose (`--nodes`/`--node`), keyed by
    (group name, task name, index of the request in the task's `resources.devices`); the
    container targets use them instead of the host's first indexes."""
    device_node: str | None = None
    """The node those IDs are on (for messages)."""
    node_values: dict[str, str] | None = None
    """`${attr.*}`, `${meta.*}` and `${node.*}` of the node the containers run on (`--node`),
    by target name without `${}`; None without one, and such references are left out."""
    memory_oversubscription: bool | None = None
    """The profile's `memory-oversubscription`: only then does Nomad honour `memory_max`."""
    target: Any = None
    """The target's own options (its registry entry's ``Options``); None for its defaults."""


@dataclass(slots=True)
class Artifact:
    """One output file: its name under --out, and its text."""

    name: str
    text: str


MAX_FILE_NAME = 200
"""Bytes of UTF-8 in an artifact's file name: well under the 255 file systems allow, so that
a longer name is cut by hclgpu, keeping it distinct, rather than refused by the system."""

_NOT_IN_FILE_NAME = re.compile(r"[/\\\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""Path separators (both systems'), control characters and lone surrogates (no encoding)."""


def file_name(stem: str, extension: str) -> str:
    """``stem + extension`` as one file name inside --out, whatever the job calls things:
    separators and control characters become ``_``; a name over :data:`MAX_FILE_NAME`
    bytes is cut and ends in a hash of the whole stem, so distinct stems stay distinct."""
    safe = _NOT_IN_FILE_NAME.sub("_", stem) or "_"
    if len((safe + extension).encode()) <= MAX_FILE_NAME:
        return safe + extension
    digest = sha256_hex(stem.encode("utf-8", "surrogatepass"))[:8]
    room = MAX_FILE_NAME - len(f"-{digest}{extension}".encode())
    cut = safe.encode()[:room].decode("utf-8", "ignore")
    return f"{cut}-{digest}{extension}"


def unique_name(name: str, taken: set[str]) -> str:
    """``name``, or ``name-2``, ``name-3``...: the first one not in ``taken``, which it joins.
    Names that coincide once made valid for a target (`a_b` and `A.B`) stay apart."""
    unique, index = name, 2
    while unique in taken:
        unique, index = f"{name}-{index}", index + 1
    taken.add(unique)
    return unique


@dataclass(slots=True)
class Lowering:
    """The state of one translation: where to report, and what the user asked for."""

    target: str
    source: SourceFile
    sink: Sink
    options: RenderOptions = field(default_factory=RenderOptions)
    _said: set[tuple[str, str, Span | None]] = field(default_factory=set, init=False, repr=False)
    _asked: set[str] = field(default_factory=set, init=False, repr=False)

    @property
    def source_name(self) -> str:
        """The job file's name, as outputs mention it: never its folder, so that no output
        carries where the file was on the machine that rendered it."""
        return self.source.path.replace("\\", "/").rsplit("/", 1)[-1]

    def said(self, code: Code, message: str, node: Node | Span | None) -> bool:
        """Whether this translation already reported exactly this at ``node``: a job-level
        construct is read once per group or task, and reported once. A set lookup, not a
        scan of the sink, which holds thousands of diagnostics for thousands of groups."""
        return (code, message, _span(node)) in self._said

    def first_time(self, key: str) -> bool:
        """True the first time ``key`` is asked: for what is said once per job although each
        task's message has its own figures (the MHz per core of every cpu conversion)."""
        if key in self._asked:
            return False
        self._asked.add(key)
        return True

    def unsupported(self, message: str, node: Node | Span | None, help: str | None = None) -> None:
        """HG301: something left out of the output (severity follows --unsupported)."""
        if self.options.unsupported == "ignore":
            return
        severity = Severity.ERROR if self.options.unsupported == "error" else None
        self._emit(HG301, message, node, help, severity)

    def refused(self, message: str, node: Node | Span | None, help: str | None = None) -> None:
        """HG301 as an error, whatever --unsupported says: the target cannot say what the job
        means, and writing something else would run the job differently (nothing is written)."""
        self._emit(HG301, message, node, help, Severity.ERROR)

    def approximated(self, message: str, node: Node | Span | None, help: str | None = None) -> None:
        """HG302: something translated only approximately; the message names the target field."""
        if self.options.unsupported != "ignore":
            self._emit(HG302, message, node, help, None)

    def _emit(
        self,
        code: Code,
        message: str,
        node: Node | Span | None,
        help: str | None,
        severity: Severity | None,
        related: Iterable[Related] = (),
    ) -> None:
        span = _span(node)
        self._said.add((code, message, span))
        self.sink.emit(
            code,
            message,
            self.source,
            span,
            help=help,
            related=related,
            severity=severity,
            target=self.target,
        )


def _span(node: Node | Span | None) -> Span | None:
    return node if isinstance(node, Span) or node is None else node.span
