"""A :class:`Container` as the argv of one `docker run`.

The argv is a list of plain words; quoting is the renderer's business
(:mod:`hclgpu.backends.docker`). Only the `--gpus` value needs quotes of its own: the CLI
reads it as CSV, so ``device=0,1`` must reach it as ``"device=0,1"`` or the ``1`` becomes
a count and only GPU 0 is passed (backends.md 4.2).

Containers start detached, except those that must finish before the next step (prestart,
poststart and poststop tasks that are not sidecars): pasted in order, the commands then
run as Nomad would start them.
"""

from __future__ import annotations

import math
import shlex

from hclgpu.backends.containers import SECOND
from hclgpu.backends.docker.container import (
    OPTIONS,
    Container,
    ContainerLowering,
    Gpus,
    approximated,
    duration,
)


def gpus_value(gpus: Gpus) -> str:
    """The `--gpus` value: a count, or the quoted device list."""
    if gpus.ids:
        return f'"device={",".join(gpus.ids)}"'
    return str(gpus.count)


def run_argv(c: Container, ctx: ContainerLowering) -> list[str]:
    """`docker run [options] image [command...]` for one container."""
    argv = ["docker", "run"]
    if not c.one_shot:
        argv.append("-d")
    argv += ["--name", c.name]
    if c.restart:
        argv += ["--restart", c.restart]
    argv += _pairs("--label", c.labels)
    argv += _pairs("-e", c.env)
    for port in c.ports:
        argv += ["-p", f"{port.host}:{port.container}" if port.host else str(port.container)]
    if c.network_mode:
        argv += ["--network", c.network_mode]
    argv += _resources(c)
    argv += _options(c)
    argv += _health(c, ctx)
    argv += _stop_and_logs(c)
    if c.entrypoint:
        argv += ["--entrypoint", c.entrypoint[0]]
    argv.append(c.image)
    argv += (c.entrypoint or [])[1:] + c.command
    _note_driver(c, ctx)
    return argv


def _pairs(flag: str, values: dict[str, str]) -> list[str]:
    return [word for key, value in values.items() for word in (flag, f"{key}={value}")]


def _resources(c: Container) -> list[str]:
    """CPU, memory, GPUs and devices, /dev/shm and ulimits (soft:hard; -1 is unlimited)."""
    out: list[str] = []
    if c.cpu_shares is not None:
        out += ["--cpu-shares", str(c.cpu_shares)]
    if c.cpus is not None:
        out += ["--cpus", f"{c.cpus:g}"]
    if c.memory_mb is not None:
        out += ["--memory", f"{c.memory_mb}m"]
    if c.memory_reservation_mb is not None:
        out += ["--memory-reservation", f"{c.memory_reservation_mb}m"]
    if c.gpus is not None:
        out += ["--gpus", gpus_value(c.gpus)]
    for node in c.device_nodes:
        out += ["--device", node]
    for device in c.devices:
        out += ["--device", device]
    if c.shm_size is not None:
        out += ["--shm-size", str(c.shm_size)]
    for name, (soft, hard) in c.ulimits.items():
        out += ["--ulimit", f"{name}={soft}:{hard}"]
    for volume in c.volumes:
        out += ["-v", volume]
    for path in c.tmpfs:
        out += ["--tmpfs", path]
    return out


def _options(c: Container) -> list[str]:
    """The one-to-one options, in the order of :data:`OPTIONS`."""
    out: list[str] = []
    for option in OPTIONS:
        value = c.options.get(option.key)
        if value is None:
            continue
        if option.kind == "bool":
            out += [option.flag] if value else []
        elif option.kind == "list":
            out += [w for item in value for w in (option.flag, item)]
        elif option.kind == "map":
            out += _pairs(option.flag, value)
        else:
            out += [option.flag, str(value)]
    if c.pull_always:
        out += ["--pull", "always"]
    return out


def _health(c: Container, ctx: ContainerLowering) -> list[str]:
    """`--health-cmd` is always run by the container's shell: an exec-form test is joined."""
    if c.health is None:
        return []
    kind, *words = c.health.test
    if kind == "CMD":
        approximated(
            ctx,
            f'the script check of task "{c.task.name}" → --health-cmd runs through /bin/sh in the container',
            c.task,
        )
    out = ["--health-cmd", words[0] if kind == "CMD-SHELL" else shlex.join(words)]
    if c.health.interval:
        out += ["--health-interval", duration(c.health.interval)]
    if c.health.timeout:
        out += ["--health-timeout", duration(c.health.timeout)]
    if c.health.retries:
        out += ["--health-retries", str(c.health.retries)]
    return out


def _stop_and_logs(c: Container) -> list[str]:
    out: list[str] = []
    if c.stop_signal:
        out += ["--stop-signal", c.stop_signal]
    if c.stop_grace is not None:
        out += ["--stop-timeout", str(math.ceil(c.stop_grace / SECOND))]
    if c.log_driver:
        out += ["--log-driver", c.log_driver]
    out += _pairs("--log-opt", c.log_options)
    return out


def _note_driver(c: Container, ctx: ContainerLowering) -> None:
    """What the command line cannot say about how Nomad runs the task."""
    if c.hook == "poststop" and c.task.lifecycle is not None:
        approximated(
            ctx,
            f'poststop task "{c.task.name}": run its command after the main tasks stop; pasted with the '
            "others it runs right after they start",
            c.task.lifecycle,
        )
    if c.task.driver == "podman":
        approximated(
            ctx,
            f'task "{c.task.name}" uses the podman driver; it is written as `docker run`, and `podman run` '
            "takes the same options",
            c.task,
            help="podman passes GPUs through CDI: --device nvidia.com/gpu=<index>",
        )
