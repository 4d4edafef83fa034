"""How the OCI lowering says what a bundle cannot carry: HG301 when a field is left out,
HG302 when it is translated only approximately, each once, at the block that wrote it.

A bundle is one container on one host, started by hand: there is no scheduler, no
supervisor, no service catalogue and no network. Most of a Nomad job is therefore left
out, and :func:`report_leftovers` makes sure each such field is named at its own block
rather than dropped silently.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from hclgpu.backends.target import Lowering
from hclgpu.ir.base import Hcl, Node


def _said(ctx: Lowering, code: str, message: str, node: Node | None) -> bool:
    """Whether this exact diagnostic was already reported: a job-level construct is read
    once per task, and is reported once."""
    return ctx.said(code, message, node)


def unsupported(ctx: Lowering, message: str, node: Node | None, help: str | None = None) -> None:
    """HG301 at ``node``, once."""
    if not _said(ctx, "HG301", message, node):
        ctx.unsupported(message, node, help=help)


def approximated(ctx: Lowering, message: str, node: Node | None, help: str | None = None) -> None:
    """HG302 at ``node``, once."""
    if not _said(ctx, "HG302", message, node):
        ctx.approximated(message, node, help=help)


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
    "privileged": "add the capabilities and devices the task needs to config.json instead",
    "lifecycle": "start the bundles in the order you need yourself",
    "periodic": "start the bundle from cron or a systemd timer",
    "parameterized": "render one bundle per dispatch, with the payload in the rootfs",
    "ephemeral_disk": "bind-mount a host directory for the task's scratch data",
    "scaling": "run as many copies of the bundle as you need",
    "identity": "put the token into the rootfs or a bind-mounted file yourself",
}
"""What to do instead of a field (by HCL name) that a bare OCI bundle cannot express."""


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
    attribute at ``node``'s block: the user sees exactly what the bundle lacks.
    """
    done = set(handled)
    for name, hcl in _hcl_fields(type(node)):
        value = getattr(node, name)
        if name in done or not is_set(value):
            continue
        for at in _nodes(value) or [node]:
            message = f"`{hcl}` in {where} has no equivalent in an OCI bundle; it is left out"
            unsupported(ctx, message, at, help=HINTS.get(hcl))


def _nodes(value: object) -> list[Node]:
    if isinstance(value, Node):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, Node)]
    if isinstance(value, dict):
        return [v for v in value.values() if isinstance(v, Node)]
    return []
