"""How the OCI lowering says what a bundle cannot carry: HG301 when a field is left out,
HG302 when it is translated only approximately, each once, at the block that wrote it.

A bundle is one container on one host, started by hand: there is no scheduler, no
supervisor, no service catalogue and no network. Most of a Nomad job is therefore left
out, and :func:`report_leftovers` makes sure each such field is named at its own block
rather than dropped silently.
"""

from __future__ import annotations

from collections.abc import Iterable

from hclgpu.backends import reporting
from hclgpu.backends.reporting import approximated as approximated
from hclgpu.backends.reporting import is_set as is_set
from hclgpu.backends.reporting import unsupported as unsupported
from hclgpu.backends.target import Lowering
from hclgpu.ir.base import Node

_PLACEMENT = "a bundle runs on the host where you start it; pick that host yourself"

HINTS = {
    "datacenters": _PLACEMENT,
    "region": _PLACEMENT,
    "node_pool": _PLACEMENT,
    "constraint": _PLACEMENT,
    "affinity": _PLACEMENT,
    "spread": _PLACEMENT,
    "priority": "there is no scheduler to rank the bundle against others",
    "artifact": "download it into the rootfs (or a bind-mounted directory) before `runc run`",
    "template": "render the file into the rootfs (or a bind-mounted directory) before `runc run`",
    "service": "register the container with your service catalogue yourself",
    "vault": "put the secret into the rootfs or a bind-mounted file yourself",
    "consul": "a bundle has no Consul integration",
    "network": "a bundle has its own empty network namespace; configure it with a CNI tool or a hook",
    "volume": "add a bind mount (`mounts` in config.json) for the host directory",
    "volume_mount": "add a bind mount (`mounts` in config.json) for the host directory",
    "restart": "run the bundle under a supervisor (systemd, a shell loop) to restart it",
    "reschedule": "run the bundle under a supervisor (systemd, a shell loop) to restart it",
    "update": "a bundle is replaced by deleting it and running the new one",
    "logs": "the runtime passes stdout and stderr through; redirect them yourself",
    "kill_timeout": "give `runc kill` time yourself before `runc kill ... KILL`",
    "kill_signal": "send it with `runc kill <id> <signal>`",
    "ports": "a bundle has its own empty network namespace: nothing is published",
    "lifecycle": "start the bundles in the order you need yourself",
    "periodic": "start the bundle from cron or a systemd timer",
    "parameterized": "render one bundle per dispatch, with the payload in the rootfs",
    "ephemeral_disk": "bind-mount a host directory for the task's scratch data",
    "scaling": "run as many copies of the bundle as you need",
    "identity": "put the token into the rootfs or a bind-mounted file yourself",
}
"""What to do instead of a field (by HCL name) that a bare OCI bundle cannot express."""


def report_leftovers(ctx: Lowering, node: Node, handled: Iterable[str], where: str) -> None:
    """HG301 for every field of ``node`` that is set but not in ``handled`` (see
    :func:`hclgpu.backends.reporting.report_leftovers`): the user sees what the bundle lacks."""
    reporting.report_leftovers(ctx, node, handled, where, "no equivalent in an OCI bundle", HINTS)
