"""How the Kubernetes lowering says what it could not translate: HG301 when a field is left
out, HG302 when it is translated only approximately, each once, at the block that writes it.

:func:`report_leftovers` closes every translated block: it walks the fields the job sets
and reports each one the translator did not handle, so nothing is dropped silently.
"""

from __future__ import annotations

from collections.abc import Iterable

from hclgpu.backends import reporting
from hclgpu.backends.reporting import approximated as approximated
from hclgpu.backends.reporting import is_set as is_set
from hclgpu.backends.reporting import unsupported as unsupported
from hclgpu.backends.target import Lowering
from hclgpu.ir.base import Node

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


def report_leftovers(ctx: Lowering, node: Node, handled: Iterable[str], where: str) -> None:
    """HG301 for every field of ``node`` that is set but not in ``handled`` (see
    :func:`hclgpu.backends.reporting.report_leftovers`)."""
    reporting.report_leftovers(ctx, node, handled, where, "no Kubernetes equivalent", HINTS)
