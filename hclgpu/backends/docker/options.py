"""The driver options of a docker/podman task that become engine settings: /dev/shm size,
ulimits, bind mounts and device mappings, network mode, force_pull and the one-to-one
options of :data:`~hclgpu.backends.docker.container.OPTIONS`.

Values the engine would reject (a ulimit it does not know, a size it cannot parse, a
relative host path, which Nomad resolves inside the task directory) are left out with
HG301 rather than written into a command that fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from hclgpu.backends import containers
from hclgpu.backends.containers import as_strings, nomad_cap_drop
from hclgpu.backends.docker.container import (
    OPTIONS,
    Container,
    ContainerLowering,
    approximated,
    as_mapping,
    is_set,
    target_name,
    unsupported,
)
from hclgpu.ir import models as m

HANDLED_CONFIG = frozenset(
    {
        "image",
        "command",
        "args",
        "entrypoint",
        "ports",
        "shm_size",
        "ulimit",
        "labels",
        "volumes",
        "devices",
        "network_mode",
        "force_pull",
        "cpu_hard_limit",
        *(o.key for o in OPTIONS if o.key != "user"),
    }
)

ULIMITS = frozenset(
    [
        "core",
        "cpu",
        "data",
        "fsize",
        "locks",
        "memlock",
        "msgqueue",
        "nice",
        "nofile",
        "nproc",
        "rss",
        "rtprio",
        "rttime",
        "sigpending",
        "stack",
    ]
)
"""The names `docker run --ulimit` knows (github.com/docker/go-units ulimit.go)."""


def lower_options(c: Container, config: Mapping[str, Any], ctx: ContainerLowering) -> None:
    """Every driver option the engine has, written into ``c``."""
    _shm(c, config, ctx)
    _ulimits(c, config, ctx)
    _mounts(c, config, ctx)
    _options(c, c.task, config, ctx)
    dropped = nomad_cap_drop(dict(config))
    if dropped and c.task.driver == "docker":  # its default allow_caps; see nomad_cap_drop
        c.options["cap_drop"] = [*c.options.get("cap_drop", []), *dropped]


def runtime_references(ctx: ContainerLowering, task: m.Task, where: str, values: Iterable[str]) -> None:
    """HG302 for Nomad runtime variables in ``values``: the engine does not interpolate them."""
    help = "replace it with a literal value, or set the variable in the container's environment"
    containers.runtime_references(ctx, task, where, values, target_name(ctx), help)


VOLUME_NAME = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9_.-]*")
"""A volume name as Docker (and Compose's `volumes` keys) accept it."""

_SIZE = re.compile(r"\d+(\.\d+)? ?[kKmMgGtTpP]?[iI]?[bB]?")
"""What go-units RAMInBytes (`--shm-size`, Compose `shm_size`) accepts."""


def _shm(c: Container, config: Mapping[str, Any], ctx: ContainerLowering) -> None:
    """Docker's `shm_size` is bytes; podman's a size such as "64m": both pass through."""
    size = config.get("shm_size")
    if not is_set(size):
        return
    if isinstance(size, int) and not isinstance(size, bool) and size > 0:
        c.shm_size = size
    elif isinstance(size, str) and _SIZE.fullmatch(size.strip()):
        c.shm_size = size.strip()
    else:
        unsupported(ctx, f'shm_size "{size}" of task "{c.task.name}" is not a size; it is left out', c.task)


def _ulimits(c: Container, config: Mapping[str, Any], ctx: ContainerLowering) -> None:
    """`ulimit { memlock = "-1" }`: "n" means soft = hard = n, "soft:hard" both; -1 is unlimited."""
    if not is_set(config.get("ulimit")):
        return
    limits = as_mapping(config["ulimit"])
    if limits is None:
        unsupported(ctx, f'`ulimit` of task "{c.task.name}" is not a block of limits; it is left out', c.task)
        return
    for name, value in limits.items():
        pair = _ulimit_pair(value)
        if name not in ULIMITS or pair is None:
            unsupported(
                ctx, f'ulimit {name} = "{value}" of task "{c.task.name}" is not valid; it is left out', c.task
            )
            continue
        c.ulimits[name] = pair


def _ulimit_pair(value: str) -> tuple[int, int] | None:
    soft, _, hard = value.strip().partition(":")
    try:
        return int(soft), int(hard or soft)
    except ValueError:
        return None


ENGINE_MODES = frozenset(
    {"ro", "rw", "z", "Z", "shared", "rshared", "slave", "rslave", "private", "rprivate", "nocopy",
     "consistent", "cached", "delegated"}
)  # fmt: skip
"""The options Docker's `-v source:target:options` takes (podman's `noexec`, `nosuid`... are
not among them: dockerd refuses the container, "invalid mode")."""


def _engine_modes(volume: str, c: Container, ctx: ContainerLowering) -> str:
    """``volume`` less the options Docker does not take (HG302 naming them)."""
    parts = volume.split(":")
    if len(parts) < 3:
        return volume
    modes = parts[2].split(",")
    kept = [mode for mode in modes if mode in ENGINE_MODES]
    if kept == modes:
        return volume
    dropped = ", ".join(mode for mode in modes if mode not in ENGINE_MODES)
    approximated(
        ctx,
        f'volume "{volume}" of task "{c.task.name}": Docker takes no `{dropped}` option on -v; '
        "it is left out",
        c.task,
        help="mount it with the `mount` block's options, or as a tmpfs",
    )
    return ":".join(parts[:2] + ([",".join(kept)] if kept else []))


def _mounts(c: Container, config: Mapping[str, Any], ctx: ContainerLowering) -> None:
    """Bind mounts and device mappings of the driver config. A relative host path is relative
    to the task directory in Nomad, which does not exist here: it is left out."""
    for volume in as_strings(config.get("volumes")):
        source = volume.split(":", 1)[0]
        if ":" in volume and not source.startswith(("/", ".", "~")) and not VOLUME_NAME.fullmatch(source):
            unsupported(
                ctx,
                f'volume "{volume}" of task "{c.task.name}": `{source}` is neither a host path nor a volume '
                "name the engine accepts; it is left out",
                c.task,
                help="a template placeholder left in the job? render it first",
            )
        elif ":" in volume and not source.startswith("/") and not config.get("volume_driver"):
            # Nomad reads a relative source, a bare name included, as a path in the task
            # directory unless a volume_driver is set (drivers/docker/driver.go:786-793 at v1.10.0)
            unsupported(
                ctx,
                f'volume "{volume}" of task "{c.task.name}": `{source}` is a path in the Nomad task '
                "directory, which does not exist here; it is left out",
                c.task,
                help="use an absolute host path, or set `volume_driver` for a named volume",
            )
        else:
            c.volumes.append(_engine_modes(volume, c, ctx))
    devices = config.get("devices")
    for device in devices if isinstance(devices, list) else []:
        host = str(device.get("host_path", "")) if isinstance(device, dict) else ""
        if not host:
            unsupported(ctx, f'a device of task "{c.task.name}" has no host_path; it is left out', c.task)
            continue
        mapping = f"{host}:{device.get('container_path') or host}"
        permissions = device.get("cgroup_permissions")
        c.devices.append(f"{mapping}:{permissions}" if permissions else mapping)


def _options(c: Container, task: m.Task, config: Mapping[str, Any], ctx: ContainerLowering) -> None:
    """The one-to-one options of :data:`OPTIONS`, the network mode and force_pull."""
    values: dict[str, Any] = {**config, "user": task.user}
    for option in OPTIONS:
        value = values.get(option.key)
        if not is_set(value):
            continue
        converted = _option_value(option.kind, value)
        if converted is None:
            unsupported(
                ctx,
                f'`{option.key}` of task "{task.name}" is not a valid {option.kind}; it is left out',
                task,
            )
            continue
        c.options[option.key] = converted
    texts = [v for v in c.options.values() if isinstance(v, str)] + c.volumes
    runtime_references(ctx, task, "the driver options", texts)
    c.network_mode = str(config.get("network_mode") or "")
    if not c.network_mode and any(n.mode == "none" for n in c.group.networks or []):
        c.network_mode = "none"
    c.pull_always = bool(config.get("force_pull"))


def _option_value(kind: str, value: object) -> object | None:
    """A driver option as the type its flag takes, or None when it is not one."""
    if kind == "map":
        return as_mapping(value)
    if kind == "list":
        return as_strings(value)
    if kind == "bool":
        return bool(value)
    if kind == "int":
        try:
            return int(str(value))
        except ValueError:
            return None
    return str(value)
