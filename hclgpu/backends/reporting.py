"""How every back end says what its output cannot carry: HG301 when a field is left out,
HG302 when it is translated only approximately, each once, at the block that wrote it.

A job-level construct is read once per group or task, so each message is reported only
the first time. :func:`report_leftovers` closes every translated block: it walks the fields
the job sets and reports each one the translator did not handle, so nothing is dropped
silently. Each target words it (``no Kubernetes equivalent``) and says what to use instead
(its ``HINTS``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from hclgpu.backends.target import Lowering
from hclgpu.codes.targets import HG301, HG302
from hclgpu.ir.base import Hcl, Node


def unsupported(ctx: Lowering, message: str, node: Node | None, help: str | None = None) -> None:
    """HG301 at ``node``, once: something left out of the output."""
    if not ctx.said(HG301, message, node):
        ctx.unsupported(message, node, help=help)


def approximated(ctx: Lowering, message: str, node: Node | None, help: str | None = None) -> None:
    """HG302 at ``node``, once: something translated only approximately."""
    if not ctx.said(HG302, message, node):
        ctx.approximated(message, node, help=help)


def is_set(value: object) -> bool:
    """A field written in the job: not Go's zero value, not an empty list or map."""
    return value not in (None, "", 0, False) and value != [] and value != {}


def report_leftovers(
    ctx: Lowering,
    node: Node,
    handled: Iterable[str],
    where: str,
    lacking: str,
    hints: Mapping[str, str],
) -> None:
    """HG301 for every field of ``node`` that is set but not in ``handled``: "`field` in
    ``where`` has ``lacking``; it is left out", with the hint for the field.

    A nested block is reported at its own span (each one of a repeated block), a plain
    attribute at ``node``'s block: the user sees exactly what the output lacks.
    """
    done = set(handled)
    for name, hcl in _hcl_fields(type(node)):
        value = getattr(node, name)
        if name in done or not is_set(value):
            continue
        for at in _nodes(value) or [node]:
            unsupported(ctx, f"`{hcl}` in {where} has {lacking}; it is left out", at, help=hints.get(hcl))


@cache
def _hcl_fields(model: type[Node]) -> tuple[tuple[str, str], ...]:
    """(python name, HCL name) of each field HCL can set, labels excluded."""
    out = []
    for name, info in model.model_fields.items():
        marker = next((x for x in info.metadata if isinstance(x, Hcl)), None)
        if marker is not None and marker.kind != "label":
            out.append((name, marker.name))
        elif name == "identity" and marker is None:
            out.append((name, "identity"))  # a task's default `identity` block, stored untagged
    return tuple(out)


def _nodes(value: object) -> list[Node]:
    if isinstance(value, Node):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, Node)]
    if isinstance(value, dict):
        return [v for v in value.values() if isinstance(v, Node)]
    return []
