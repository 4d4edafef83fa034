"""What every container target (Kubernetes, OCI, docker run, Compose) reads from a group the
same way: which tasks run an image, the ports the group declares and the one a container
listens on, which task each service check probes, the devices a node plan chose, and how
Nomad encodes driver-config values.

Each answer is Nomad's, so it is written once here; what a target makes of it (a
containerPort, a healthcheck, an OCI device) stays with the target.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from hclgpu.backends.reporting import approximated, unsupported
from hclgpu.backends.target import Lowering
from hclgpu.backends.task_env import DEFAULT_MEMORY_MB
from hclgpu.ir import models as m

CONTAINER_DRIVERS = frozenset({"docker", "podman"})
"""The drivers whose tasks run a container image, and so become containers."""
SECOND = 1_000_000_000
"""Nomad durations are in nanoseconds."""

Check = tuple[m.Service, m.ServiceCheck]
"""A check with the service it belongs to (the service names the port by default)."""


def network_ports(group: m.TaskGroup) -> dict[str, m.Port]:
    """Every port label of the group's networks (static and dynamic), the first one kept."""
    ports: dict[str, m.Port] = {}
    for network in group.networks or []:
        for port in [*(network.reserved_ports or []), *(network.dynamic_ports or [])]:
            ports.setdefault(port.label, port)
    return ports


def port_number(port: m.Port) -> int | None:
    """The port the container listens on: ``to``, else the static port, else unknown."""
    if port.to > 0:
        return port.to
    return port.value if port.value > 0 else None


def as_strings(value: object) -> list[str]:
    """A driver-config value as strings: a list item by item, a scalar alone, ``None`` as none."""
    if isinstance(value, list):
        return [str(v) for v in value]
    return [] if value is None else [str(value)]


def process_environment(ctx: Lowering, task: m.Task, where: str) -> dict[str, str]:
    """The task's `env` as its process sees it, by variable name, sorted.

    Nomad hands a task its environment as ``KEY=VALUE`` strings (``TaskEnv.List``,
    client/taskenv/env.go:213-224 at aa026cc99c), so a key holding ``=`` names the variable
    before its first ``=`` and the rest joins the value: ``"A=B" = "x"`` is ``A`` set to
    ``B=x``. Each target writes that variable, said once here; a key that names no variable
    (empty, or starting with ``=``) is left out, and of two keys naming one variable the
    first in sorted order is kept (Nomad sets both, in no fixed order)."""
    env: dict[str, str] = {}
    for key, value in sorted((task.env or {}).items()):
        name, equals, rest = key.partition("=")
        text = f"{rest}={value}" if equals else str(value)
        if not name:
            unsupported(ctx, f'env "{key}" of {where} names no variable; it is left out', task)
        elif name in env:
            unsupported(
                ctx,
                f'env "{key}" of {where} sets {name} again, as Nomad does in no fixed order; '
                "the first is kept",
                task,
            )
        else:
            if equals:
                approximated(
                    ctx,
                    f'env "{key}" of {where} holds `=`: the process sees {name}={text!r}, '
                    "as under Nomad, and it is written so",
                    task,
                )
            env[name] = text
    return env


def checks_by_task(
    group: m.TaskGroup,
    tasks: list[m.Task],
    ctx: Lowering,
    each_service: Callable[[m.Service], None] | None = None,
) -> dict[str, list[Check]]:
    """Each check of the group with the task it probes, among ``tasks`` (those that become
    containers): a task's own services probe that task; a group service's check the task
    it (or its service) names, else the task whose driver config publishes its port, else
    the first main task. HG301 for a check no container can run. ``each_service`` is called
    once per service, task services first, for what a target says about services."""
    out: dict[str, list[Check]] = {}
    for task in tasks:
        for service in task.services or []:
            if each_service is not None:
                each_service(service)
            out.setdefault(task.name, []).extend((service, check) for check in service.checks or [])
    main = next((t for t in tasks if t.lifecycle is None), None)
    for service in group.services or []:
        if each_service is not None:
            each_service(service)
        for check in service.checks or []:
            owner = _check_owner(service, check, tasks, main)
            if owner is None:
                unsupported(ctx, f'no container runs the check of service "{service.name}"', check)
            else:
                out.setdefault(owner.name, []).append((service, check))
    return out


def _check_owner(
    service: m.Service, check: m.ServiceCheck, tasks: list[m.Task], main: m.Task | None
) -> m.Task | None:
    label = check.port_label or service.port_label
    named = check.task_name or service.task_name
    owner = next((t for t in tasks if t.name == named), None) if named else None
    return owner or next((t for t in tasks if label in as_strings((t.config or {}).get("ports"))), main)


def planned_ids(ctx: Lowering, group: m.TaskGroup, task: m.Task, index: int) -> list[str] | None:
    """The device IDs the node plan (`render --nodes/--node`) chose for request ``index`` of
    the task's `resources.devices`, or None without a plan for it."""
    planned = ctx.options.device_ids
    if planned is None:
        return None
    return planned.get((group.name or "", task.name, index))


_RUNTIME = re.compile(r"\$\{[^}]*\}")


def runtime_references(
    ctx: Lowering, task: m.Task, where: str, values: Iterable[str], target: str, help: str
) -> None:
    """HG302 for the ``${NOMAD_*}``, ``${attr.*}``... in ``values``: Nomad interpolates them
    when it starts a task; ``target`` (as messages name it) does not."""
    found = sorted({ref for value in values for ref in _RUNTIME.findall(value)})
    if found:
        approximated(
            ctx,
            f'{", ".join(found)} in `{where}` of task "{task.name}" stays as text: {target} '
            "does not interpolate Nomad runtime variables",
            task,
            help=help,
        )


def memory_limit(ctx: Lowering, task: m.Task) -> tuple[int, int | None]:
    """(the memory limit, the reservation under it or None) in MiB, as Nomad enforces them.

    Nomad honours `memory_max` only where the scheduler enables memory oversubscription
    (`memory_oversubscription_enabled`, off by default; nomad/structs/operator.go
    SchedulerConfiguration): elsewhere `memory` is the hard limit and `memory_max` is
    ignored, said here (HG302) unless the profile states that the cluster enables it."""
    res = task.resources
    memory = res.memory_mb if res is not None and res.memory_mb is not None else DEFAULT_MEMORY_MB
    maximum = res.memory_max_mb if res is not None and res.memory_max_mb else 0
    if maximum <= memory:
        return memory, None
    if ctx.options.memory_oversubscription:
        return maximum, memory
    stated = "does not enable" if ctx.options.memory_oversubscription is False else "is not stated to enable"
    approximated(
        ctx,
        f'memory_max = {maximum} of task "{task.name}" is left out: the cluster {stated} memory '
        f"oversubscription, without which Nomad ignores it and enforces memory = {memory}",
        res,
        help="set memory-oversubscription = true in the profile where the cluster enables it",
    )
    return memory, None


NOMAD_DROPPED_CAPS = ("NET_RAW",)
"""What Docker grants a container and Nomad's docker driver does not: its default
`allow_caps` (drivers/shared/capabilities/defaults.go:15-38 at v1.10.0, "excludes NET_RAW for
security reasons") is Docker's defaults less NET_RAW, so the driver drops it
(capabilities.Delta)."""


def nomad_cap_drop(config: dict[str, object]) -> list[str]:
    """The capabilities the container must also drop to start as Nomad starts it: NET_RAW,
    unless the task adds it back (`cap_add`, which the client's `allow_caps` must allow) or
    already drops it (or all)."""
    named = {verb: {capability(c) for c in as_strings(config.get(f"cap_{verb}"))} for verb in ("add", "drop")}
    return [c for c in NOMAD_DROPPED_CAPS if c not in named["add"] and not named["drop"] & {c, "ALL"}]


def capability(name: object) -> str:
    """A capability as Kubernetes and Docker's cap lists write it: upper case, no `CAP_`."""
    return str(name).upper().removeprefix("CAP_")


def without_nomad_drops(names: list[object]) -> list[object]:
    """``names`` (a cap_drop list) less what Nomad's docker driver drops by itself, which an
    imported task need not say."""
    return [name for name in names if capability(name) not in NOMAD_DROPPED_CAPS]
