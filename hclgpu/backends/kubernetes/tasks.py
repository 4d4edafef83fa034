"""What the lowering reads from a group's tasks and network before it builds anything: which
tasks become containers (and why the others do not), the ports the group declares, and how
Nomad encodes values (driver-config lists, durations in nanoseconds).

Containers, probes, templates, placement and the workload all ask these questions, so the
answers live here rather than in any one of them.
"""

from __future__ import annotations

import math

from hclgpu.backends.containers import CONTAINER_DRIVERS, SECOND, port_number
from hclgpu.backends.kubernetes.reporting import approximated, unsupported
from hclgpu.backends.target import Lowering
from hclgpu.ir import models as m


def seconds(ns: int) -> int:
    """Nanoseconds as whole seconds, rounded up."""
    return math.ceil(ns / SECOND)


def translatable(task: m.Task) -> bool:
    """A task that becomes a container: a container driver and a hook Kubernetes has."""
    hook = task.lifecycle.hook if task.lifecycle else ""
    return task.driver in CONTAINER_DRIVERS and hook in ("", "prestart")


def report_skipped(task: m.Task, ctx: Lowering) -> None:
    """HG301 for a task that does not become a container, at the reason (driver or hook)."""
    if task.driver not in CONTAINER_DRIVERS:
        unsupported(
            ctx,
            f'task "{task.name}" uses the `{task.driver}` driver; only docker and podman tasks '
            "become containers, so it is left out",
            task,
            help="run the program from a container image",
        )
    elif task.lifecycle is not None:
        unsupported(
            ctx,
            f'`{task.lifecycle.hook}` lifecycle hook of task "{task.name}": Kubernetes has no '
            "container that starts after the others or runs after they stop; the task is left out",
            task,
            help="run it as a regular container, or as a separate Job",
        )


def note_static_port(ctx: Lowering, port: m.Port) -> None:
    """HG302 for a static port: Kubernetes does not reserve it on the node."""
    approximated(
        ctx,
        f'port "{port.label}": `static = {port.value}` is not reserved on the node (no hostPort); it is '
        f"containerPort {port_number(port)}, and port {port.value} of the group's ClusterIP Service when a "
        "service uses it",
        port,
        help="use a NodePort or LoadBalancer Service for traffic from outside the cluster",
    )
