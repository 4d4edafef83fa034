"""Nomad's server-side validation, one declared condition per check in Nomad's source.

`nomad job validate` and `nomad job run` send the job to the agent, which canonicalizes it
(`api.Job.Canonicalize`: the defaults of :mod:`hclgpu.ir.canonical`) and hands it to the
server. The server runs its admission hooks (`nomad/job_endpoint_hooks.go`: mutators, then
validators, all of whose errors are collected) and `structs.Job.Validate`, which walks the
job through `TaskGroup.Validate`, `Task.Validate` and the `Validate` of every block.

Each check hclgpu mirrors is a :class:`Condition`: the hclgpu code it reports, the Nomad
function and the file:line of the check at :data:`NOMAD_COMMIT`, Nomad's own message, and
the releases that have it. Rules report a condition with :func:`reject`, which words the
finding in Nomad's terms and leaves it out when the release chosen with ``--nomad-version``
does not have the check. docs/validation.md is this registry as a table (a test keeps the
two equal, row for row).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import KW_ONLY, dataclass

from hclgpu.checks.context import Context
from hclgpu.codes.base import Code
from hclgpu.diagnostics import Edit, Related
from hclgpu.eval.functions.base import go_quote
from hclgpu.ir.base import Node
from hclgpu.settings.releases import Release
from hclgpu.source import Span
from hclgpu.units.durations import go_duration

NOMAD_COMMIT = "aa026cc99cfb74a77e519a1c1f0c78ba1b452705"
"""The hashicorp/nomad commit (2.0.6) whose file:line every condition cites."""


CONDITIONS: dict[str, Condition] = {}
"""Every declared condition by id, in declaration order (filled as rule modules load)."""


@dataclass(frozen=True, slots=True)
class Condition:
    """One check of Nomad's server, as hclgpu reports it."""

    id: str
    """A stable kebab-case name, unique over all conditions, never a code's name."""
    _: KW_ONLY
    nomad: str
    """The Go function, e.g. ``RestartPolicy.Validate``."""
    source: str
    """``path:line`` in hashicorp/nomad at :data:`NOMAD_COMMIT`, or at :attr:`tag`."""
    condition: str
    """When it fails, in job-file terms."""
    message: str
    """Nomad's words, with ``{name}`` placeholders for what Nomad formats in."""
    code: Code | None = None
    """The code its findings are reported under; none for a check hclgpu cannot make
    offline (:attr:`needs`), documented only."""
    since: Release | None = None
    until: Release | None = None
    """The first release without the check (exclusive), when it was removed."""
    tag: str = ""
    """The release tag (``v1.9.0``) :attr:`source` is read at, for a check gone since."""
    needs: str = ""
    """What of the cluster's configuration decides the check, for one hclgpu cannot make
    offline (a namespace that must exist, an enabled Vault cluster): such a condition is
    documented and never reported."""
    fact: str = ""
    """The profile's cluster fact that decides the check (``memory-oversubscription``,
    ``enterprise``): reported only when the profile states that fact as false, never on a
    guess (see :class:`hclgpu.settings.Profile`)."""

    def __post_init__(self) -> None:
        if self.id in CONDITIONS or self.id in OWN_CHECKS:
            raise ValueError(f"condition {self.id} is declared twice")
        CONDITIONS[self.id] = self

    def holds_in(self, release: Release) -> bool:
        return (self.since is None or release >= self.since) and (self.until is None or release < self.until)

    @property
    def location(self) -> str:
        """Where the check is, as docs/validation.md writes it."""
        return f"{self.source} @ {self.tag}" if self.tag else self.source

    @property
    def releases(self) -> str:
        """Which releases have the check, as docs/validation.md writes it."""
        since = ".".join(map(str, self.since)) if self.since else ""
        until = ".".join(map(str, self.until)) if self.until else ""
        if since and until:
            return f">= {since}, < {until}"
        return f">= {since}" if since else (f"< {until}" if until else "all")


@dataclass(frozen=True, slots=True)
class Check:
    """One of hclgpu's own checks, in a code that has several (the rest of its findings come
    from Nomad's checks, or it groups related problems hclgpu finds): named so that a finding
    says which check found it and `ignore` can take exactly that check. A code with a single
    check needs none: its check is the code's name."""

    id: str
    _: KW_ONLY
    code: Code
    condition: str
    """When it fails, in job-file terms."""

    def __post_init__(self) -> None:
        if self.id in CONDITIONS or self.id in OWN_CHECKS:
            raise ValueError(f"check {self.id} is declared twice")
        OWN_CHECKS[self.id] = self


OWN_CHECKS: dict[str, Check] = {}
"""Every declared :class:`Check` by name (filled as rule modules load)."""


def reject(
    ctx: Context,
    condition: Condition,
    span: Span | None,
    *,
    where: str = "",
    help: str,
    related: Iterable[Related] = (),
    fix: Iterable[Edit] = (),
    fix_safe: bool = False,
    **values: object,
) -> None:
    """Report ``condition`` in Nomad's words (its message, formatted with ``values``),
    prefixed by where in the job it is: the one way a rule reports one of Nomad's checks."""
    if condition.code is None or condition.needs or not condition.holds_in(ctx.profile.release):
        return
    if condition.fact and ctx.profile.fact(condition.fact) is not False:
        return  # the cluster's configuration decides, and the profile does not say it is off
    text = _go_format(condition.message, values)
    message = f"{where}: {text}" if where else text
    ctx.report(
        condition.code,
        message,
        span,
        help=help,
        related=related,
        fix=fix,
        check=condition.id,
        fix_safe=fix_safe,
    )


def _go_format(message: str, values: dict[str, object]) -> str:
    """``str.format`` where ``!r`` quotes like Go's ``%q`` (double quotes, Go escapes); the
    messages name plain fields only, so the C formatter does the work."""
    if "!r" not in message:
        return message.format(**values)
    return message.format(**{name: _GoQuoted(value) for name, value in values.items()})


class _GoQuoted:
    """A value whose ``repr`` is Go's ``%q`` of its text, and which formats as itself."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __repr__(self) -> str:
        return go_quote(str(self.value))

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


SECOND = 1_000_000_000


def at(ctx: Context, nodes: list[Node | None], *names: str) -> Span | None:
    """Where to point: the first of ``names`` written in the first node that writes one,
    else the header of the first node that came from the file.

    ``nodes`` run from the most specific (a group's ``update`` block) to the most general
    (the job's), so a merged or defaulted value is blamed on the block that set it."""
    header: Span | None = None
    for node in nodes:
        if node is None or node.span is None:
            continue
        for name in names:
            attribute = ctx.attribute(node, name)
            if attribute is not None:
                return attribute.value.span
        if header is None:
            header = ctx.header_span(node)
    return header


__all__ = ["CONDITIONS", "NOMAD_COMMIT", "OWN_CHECKS", "Check", "Condition", "at", "go_duration", "reject"]


def parse_uint_reason(text: str, base: int = 10, bits: int = 64) -> str | None:
    """Why Go's ``strconv.ParseUint(text, base, bits)`` fails (``invalid syntax``, ``value
    out of range``), or None when it parses. No sign, no underscores (base 0 only), digits
    of ``base`` only."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"[:base]
    if not text or not text.isascii() or any(char not in digits for char in text.lower()):
        return "invalid syntax"
    return "value out of range" if int(text, base) >= 1 << bits else None


def parse_uint_error(text: str, base: int = 10, bits: int = 64) -> str | None:
    """The error of ``strconv.ParseUint`` as Nomad prints it (``strconv.ParseUint: parsing
    "x": invalid syntax``), or None when it parses."""
    reason = parse_uint_reason(text, base, bits)
    return f"strconv.ParseUint: parsing {go_quote(text)}: {reason}" if reason else None


_ALLOC_DIR = "/alloc-dir/alloc-id"


def escapes_allocation(prefix: str, path: str) -> bool:
    """``escapingfs.PathEscapesAllocViaRelative``: does ``<alloc>/<prefix>/<path>`` leave ``<alloc>``?

    Go's ``filepath.Join`` keeps an absolute ``path`` under the prefix, so only ``..`` escapes."""
    full = posixpath.normpath("/".join((_ALLOC_DIR, prefix, path)))
    return full != _ALLOC_DIR and not full.startswith(_ALLOC_DIR + "/")  # relpath starts with ".."
