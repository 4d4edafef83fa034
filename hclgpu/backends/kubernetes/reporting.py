"""How the Kubernetes lowering says what it could not translate: HG301 when a field is left
out, HG302 when it is translated only approximately, each once, at the block that writes it.

:func:`report_leftovers` closes every translated block: it walks the fields the job sets
and reports each one the translator did not handle, so nothing is dropped silently.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from hclgpu.backends.target import Lowering
from hclgpu.ir.base import Hcl, Node


def _said(ctx: Lowering, code: str, message: str, node: Node | None) -> bool:
    """Whether this exact diagnostic was already reported: a job-level construct is read
    once per group, and is reported once."""
    return ctx.said(code, message, node)


def unsupported(ctx: Lowering, message: str, node: Node | None, help: str | None = None) -> None:
    """HG301 at ``node``, once."""
    if not _said(ctx, "HG301", message, node):
        ctx.unsupported(message, node, help=help)


def approximated(ctx: Lowering, message: str, node: Node | None, help: str | None = None) -> None:
    """HG302 at ``node``, once."""
    if not _said(ctx, "HG302", message, node):
        ctx.approximated(message, node, help=help)


HINTS = {
    "artifact": "download it in an init container, or bake it into the image",
    "vault": "use a Kubernetes Secret, or the Vault agent injector",
    "volume": "use a PersistentVolumeClaim (CSI) or a hostPath volume",
    "volume_mount": "mount a PersistentVolumeClaim or hostPath volume in the container",
    "consul": "Kubernetes Services replace Consul registration",
    "connect": "use a service mesh on Kubernetes",
    "scaling": "use a HorizontalPodAutoscaler",
    "logs": "the kubelet rotates container logs itself",
    "identity": "use a ServiceAccount token",
    "reschedule": "controllers replace failed pods on their own",
    "tags": "Kubernetes Services have no tags; use labels or annotations",
    "ulimit": "set limits in the image's entrypoint, or the container runtime's defaults",
}
"""What to use instead of a field (by HCL name) that has no Kubernetes equivalent."""


def is_set(value: object) -> bool:
    """A field written in the job: not Go's zero value, not an empty list or map."""
    return value not in (None, "", 0, False) and value != [] and value != {}


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


def report_leftovers(ctx: Lowering, node: Node, handled: Iterable[str], where: str) -> None:
    """HG301 for every field of ``node`` that is set but not in ``handled``.

    A nested block is reported at its own span (each one of a repeated block), a plain
    attribute at ``node``'s block: the user sees exactly what the output lacks.
    """
    done = set(handled)
    for name, hcl in _hcl_fields(type(node)):
        value = getattr(node, name)
        if name in done or not is_set(value):
            continue
        for at in _nodes(value) or [node]:
            message = f"`{hcl}` in {where} has no Kubernetes equivalent; it is left out"
            unsupported(ctx, message, at, help=HINTS.get(hcl))


def _nodes(value: object) -> list[Node]:
    if isinstance(value, Node):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, Node)]
    if isinstance(value, dict):
        return [v for v in value.values() if isinstance(v, Node)]
    return []
