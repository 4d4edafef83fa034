"""The container's surroundings: ``root``, ``mounts``, and ``linux`` (namespaces, cgroup
resources, sysctls, masked and read-only paths).

The defaults are those of ``runc spec`` (mounts, namespaces, maskedPaths, readonlyPaths),
adjusted the way Nomad's docker driver configures a container:

* ``/dev/shm`` is ``shm_size`` bytes (docker: bytes; podman: "64m"), 64 MiB by default;
* memory: ``memory_max`` (MiB) is the limit and ``memory`` the reservation where the profile
  says the cluster enables memory oversubscription, else ``memory`` alone is the limit
  (Nomad ``memoryLimits``; :func:`hclgpu.backends.containers.memory_limit`); swap is not
  limited, because runc fails on hosts without swap accounting where docker silently drops
  the setting;
* cpu: shares = Nomad's cpu MHz, exactly as the docker driver sets ``CPUShares``; with
  ``cpu_hard_limit`` a CFS quota of cpu / --cpu-mhz-per-core cores;
* the task directories ``/alloc``, ``/local`` and ``/secrets`` (NOMAD_ALLOC_DIR...) are
  empty tmpfs mounts, so that paths the job names exist and are writable.
"""

from __future__ import annotations

import os
import re
from typing import Any

from hclgpu.backends.containers import memory_limit
from hclgpu.backends.oci.options import oci_options
from hclgpu.backends.oci.reporting import approximated, unsupported
from hclgpu.backends.oci.scope import TASK_DIRS, TaskScope, merged_blocks

MIB = 1024 * 1024
DEFAULT_SHM = "65536k"
"""docker's default /dev/shm size (64 MiB), as runc spec writes it."""
CFS_PERIOD = 100_000

MASKED_PATHS = [
    "/proc/acpi",
    "/proc/asound",
    "/proc/kcore",
    "/proc/keys",
    "/proc/latency_stats",
    "/proc/timer_list",
    "/proc/timer_stats",
    "/proc/sched_debug",
    "/sys/firmware",
    "/proc/scsi",
]
READONLY_PATHS = ["/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"]
"""``runc spec``'s maskedPaths and readonlyPaths."""


def root(scope: TaskScope) -> dict[str, Any]:
    """``rootfs`` inside the bundle, or the absolute path given with --rootfs."""
    given = oci_options(scope.ctx).rootfs
    path = os.path.abspath(given) if given else "rootfs"
    return {"path": path, "readonly": bool(scope.config.get("readonly_rootfs"))}


def mounts(scope: TaskScope) -> list[dict[str, Any]]:
    """runc's default mounts with the task's /dev/shm size, then the task directories."""
    out: list[dict[str, Any]] = [
        {"destination": "/proc", "type": "proc", "source": "proc"},
        _tmpfs("/dev", "tmpfs", ["nosuid", "strictatime", "mode=755", "size=65536k"]),
        {
            "destination": "/dev/pts",
            "type": "devpts",
            "source": "devpts",
            "options": ["nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620", "gid=5"],
        },
        _tmpfs("/dev/shm", "shm", ["nosuid", "noexec", "nodev", "mode=1777", f"size={_shm_size(scope)}"]),
        {
            "destination": "/dev/mqueue",
            "type": "mqueue",
            "source": "mqueue",
            "options": ["nosuid", "noexec", "nodev"],
        },
        {
            "destination": "/sys",
            "type": "sysfs",
            "source": "sysfs",
            "options": ["nosuid", "noexec", "nodev", "ro"],
        },
        {
            "destination": "/sys/fs/cgroup",
            "type": "cgroup",
            "source": "cgroup",
            "options": ["nosuid", "noexec", "nodev", "relatime", "ro"],
        },
    ]
    if scope.config.get("privileged") is True:  # Docker's privileged mode mounts /sys writable
        sysfs = next(m for m in out if m["destination"] == "/sys")
        sysfs["options"] = [o for o in sysfs["options"] if o != "ro"]
    for name, path in TASK_DIRS.items():
        options = ["nosuid", "nodev", "mode=1777"]
        out.append(_tmpfs(path, "tmpfs", [*options, "noexec"] if name == "NOMAD_SECRETS_DIR" else options))
    _note_task_dirs(scope)
    return out


def _tmpfs(destination: str, source: str, options: list[str]) -> dict[str, Any]:
    return {"destination": destination, "type": "tmpfs", "source": source, "options": options}


def _note_task_dirs(scope: TaskScope) -> None:
    """HG302 when the task names a task directory: it exists, but empty and private."""
    texts = [*map(str, scope.config.values()), *(scope.task.env or {}).values()]
    named = sorted(name for name in TASK_DIRS if any(name in text for text in texts))
    if named:
        paths = ", ".join(TASK_DIRS[n] for n in named)
        verb = "is an empty tmpfs" if len(named) == 1 else "are empty tmpfs"
        approximated(
            scope.ctx,
            f"{', '.join(named)} of {scope.where}: {paths} {verb} in the bundle, not shared with the "
            "group's other tasks and not kept after the container exits; artifacts and templates are not "
            "placed there",
            scope.task,
            help="bind-mount host directories there instead (`mounts` in config.json)",
        )


_SIZE = re.compile(r"(\d+)\s*([bkmg]?)b?", re.IGNORECASE)


def _shm_size(scope: TaskScope) -> str:
    """``size=`` of /dev/shm: the task's shm_size in bytes, else docker's 64 MiB."""
    size = scope.config.get("shm_size")
    if size in (None, "", 0):
        return DEFAULT_SHM
    match = _SIZE.fullmatch(str(size).strip())
    if match is None or int(match[1]) == 0:
        unsupported(
            scope.ctx,
            f'shm_size "{size}" of {scope.where} is not a size; /dev/shm keeps docker\'s 64 MiB',
            scope.task,
        )
        return DEFAULT_SHM
    return str(int(match[1]) * 1024 ** "bkmg".index(match[2].lower() or "b"))


def namespaces(scope: TaskScope) -> list[dict[str, str]]:
    """runc's namespaces; ``network_mode = "host"`` shares the host's network."""
    kinds = ["pid", "network", "ipc", "uts", "mount"]
    mode = str(scope.config.get("network_mode") or "")
    if mode == "host":
        kinds.remove("network")
    elif mode not in ("", "none", "bridge", "default"):
        unsupported(
            scope.ctx,
            f'network_mode "{mode}" of {scope.where}: the bundle has its own empty network namespace',
            scope.task,
            help="join another namespace with `linux.namespaces[].path` in config.json",
        )
    return [{"type": kind} for kind in kinds]


def resources(scope: TaskScope, device_rules: list[dict[str, Any]]) -> dict[str, Any]:
    """Memory and cpu as Nomad's docker driver sets them, pids, and the device cgroup."""
    limit, reservation = memory_limit(scope.ctx, scope.task)
    memory: dict[str, Any] = {"limit": limit * MIB}
    if reservation is not None:
        memory["reservation"] = reservation * MIB
    out: dict[str, Any] = {
        "devices": [{"allow": False, "access": "rwm"}, *device_rules],
        "memory": memory,
        "cpu": _cpu(scope),
    }
    pids = scope.config.get("pids_limit")
    if isinstance(pids, int) and pids > 0:
        out["pids"] = {"limit": pids}
    return out


def _cpu(scope: TaskScope) -> dict[str, int]:
    mhz = scope.cpu_mhz()
    cpu = {"shares": max(2, mhz)}
    res = scope.task.resources
    if res is not None and res.cores:
        approximated(
            scope.ctx,
            f"cores = {res.cores} of {scope.where} → linux.resources.cpu.shares {mhz} "
            f"({scope.ctx.options.cpu_mhz_per_core} MHz per core); the cores are not pinned (no cpus set)",
            res,
            help="set linux.resources.cpu.cpus to the cores the bundle may use",
        )
    if scope.config.get("cpu_hard_limit"):
        period = scope.config.get("cpu_cfs_period")
        period = period if isinstance(period, int) and 1000 <= period <= 1_000_000 else CFS_PERIOD
        cpu["period"] = period
        cpu["quota"] = max(1000, round(period * mhz / scope.ctx.options.cpu_mhz_per_core))
        approximated(
            scope.ctx,
            f"cpu_hard_limit of {scope.where} → a CFS quota of {mhz} MHz at "
            f"{scope.ctx.options.cpu_mhz_per_core} MHz per core; Nomad uses the node's real clock",
            scope.task,
            help="pass --cpu-mhz-per-core with the clock of the host that runs the bundle",
        )
    return cpu


def sysctl(scope: TaskScope) -> dict[str, str]:
    """docker ``sysctl { }`` as linux.sysctl (the runtime refuses those not namespaced)."""
    return {str(k): str(v) for k, v in merged_blocks(scope.config.get("sysctl")).items()}
