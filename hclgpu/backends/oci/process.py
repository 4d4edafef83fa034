"""``process`` of config.json: what runs (args, cwd, user), with which environment,
capabilities and resource limits.

Decisions, each because a bundle carries no image config (ENTRYPOINT, CMD, ENV, USER and
WORKDIR of the image are unknown to hclgpu):

* ``args`` = docker ``entrypoint`` + ``command`` + ``args``. With ``command`` but no
  ``entrypoint`` the image's ENTRYPOINT (usually a wrapper that execs its arguments) is
  not run. With neither, the image's own ENTRYPOINT/CMD would run and cannot be known:
  ``args`` starts with what the task gives, or is ``["sh"]`` when it gives nothing, and
  HG302 says so. A runtime refuses empty args, so ``sh`` stands in rather than nothing.
* ``env``: a default ``PATH``, the static ``NOMAD_*`` values, the device variables, then
  the task's ``env`` (which wins, except over the device assignments such as
  ``NVIDIA_VISIBLE_DEVICES``, which Nomad's device plugin sets after the task env).
* ``user``: numeric ``uid[:gid]`` only; a name would need the image's /etc/passwd (HG302, root).
* capabilities: the docker defaults that Nomad's docker plugin allows (``allow_caps``,
  which drops NET_RAW), plus ``cap_add`` and minus ``cap_drop``.
* ``rlimits``: docker ``ulimit`` as Nomad parses it: ``"soft:hard"`` or one value for
  both; ``-1`` is unlimited (RLIM_INFINITY = 2^64-1), names become ``RLIMIT_<NAME>``.
"""

from __future__ import annotations

import posixpath
from typing import Any

from hclgpu.backends.containers import as_strings, process_environment
from hclgpu.backends.oci.reporting import approximated, unsupported
from hclgpu.backends.oci.scope import TaskScope, merged_blocks

DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
UNLIMITED = 2**64 - 1
"""RLIM_INFINITY, what docker's ulimit ``-1`` becomes once cast to the OCI uint64."""

_ULIMIT_NAMES = (
    "as", "core", "cpu", "data", "fsize", "locks", "memlock", "msgqueue",
    "nice", "nofile", "nproc", "rss", "rtprio", "rttime", "sigpending", "stack",
)  # fmt: skip
RLIMITS = {name: f"RLIMIT_{name.upper()}" for name in _ULIMIT_NAMES}
"""docker ``ulimit`` names (go-units) → the OCI rlimit type."""

DEFAULT_CAPS = (
    "CAP_AUDIT_WRITE", "CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_FSETID", "CAP_KILL",
    "CAP_MKNOD", "CAP_NET_BIND_SERVICE", "CAP_SETFCAP", "CAP_SETGID", "CAP_SETPCAP", "CAP_SETUID",
    "CAP_SYS_CHROOT",
)  # fmt: skip
"""Docker's default capabilities that Nomad's default ``allow_caps`` keeps (all but NET_RAW)."""

ALL_CAPS = (
    *DEFAULT_CAPS,
    "CAP_DAC_READ_SEARCH", "CAP_LINUX_IMMUTABLE", "CAP_NET_BROADCAST", "CAP_NET_ADMIN", "CAP_NET_RAW",
    "CAP_IPC_LOCK", "CAP_IPC_OWNER", "CAP_SYS_MODULE", "CAP_SYS_RAWIO", "CAP_SYS_PTRACE", "CAP_SYS_PACCT",
    "CAP_SYS_ADMIN", "CAP_SYS_BOOT", "CAP_SYS_NICE", "CAP_SYS_RESOURCE", "CAP_SYS_TIME",
    "CAP_SYS_TTY_CONFIG", "CAP_LEASE", "CAP_AUDIT_CONTROL", "CAP_MAC_OVERRIDE", "CAP_MAC_ADMIN",
    "CAP_SYSLOG", "CAP_WAKE_ALARM", "CAP_BLOCK_SUSPEND", "CAP_AUDIT_READ", "CAP_PERFMON", "CAP_BPF",
    "CAP_CHECKPOINT_RESTORE",
)  # fmt: skip
"""Every Linux capability (5.9+), for ``cap_add = ["all"]``."""


def lower_process(scope: TaskScope, assigned: dict[str, str], defaults: dict[str, str]) -> dict[str, Any]:
    """``process`` for the task; ``assigned`` and ``defaults`` are the device variables
    (the first win over the task's env, the second do not)."""
    process: dict[str, Any] = {
        "terminal": False,
        "user": _user(scope),
        "args": _args(scope),
        "env": _env(scope, assigned, defaults),
        "cwd": _cwd(scope),
        "capabilities": _capabilities(scope),
    }
    rlimits = _rlimits(scope)
    if rlimits:
        process["rlimits"] = rlimits
    return process


def _args(scope: TaskScope) -> list[str]:
    config = scope.config
    entrypoint = as_strings(config.get("entrypoint"))
    command = as_strings(config.get("command"))
    args = as_strings(config.get("args"))
    argv = scope.interpolate("entrypoint/command/args", [*entrypoint, *command, *args])
    if entrypoint or command:
        return argv
    if argv:
        message = (
            f"{scope.where} sets neither `entrypoint` nor `command`: the image's ENTRYPOINT and CMD are "
            "unknown here, so process.args starts with the task's `args`"
        )
    else:
        message = (
            f"{scope.where} sets no `entrypoint`, `command` or `args`: the image's ENTRYPOINT and CMD are "
            'unknown here, so process.args is ["sh"]'
        )
        argv = ["sh"]
    approximated(
        scope.ctx, message, scope.task, help="set `command` (and `entrypoint`) to what the image runs"
    )
    return argv


def _env(scope: TaskScope, assigned: dict[str, str], defaults: dict[str, str]) -> list[str]:
    task_env = {
        key: scope.interpolate("env", [value])[0]
        for key, value in process_environment(scope.ctx, scope.task, scope.where).items()
    }
    env: dict[str, str] = {} if "PATH" in task_env else {"PATH": DEFAULT_PATH}
    env.update(scope.nomad_env)
    env.update(defaults)
    env.update(assigned)
    for key, value in task_env.items():
        if key in assigned:
            if value != assigned[key]:
                approximated(
                    scope.ctx,
                    f"env {key} = {value!r} of {scope.where} is replaced by the device assignment "
                    f"{key}={assigned[key]}, as Nomad's device plugin replaces it",
                    scope.task,
                )
            continue
        env[key] = value
    return [f"{key}={value}" for key, value in env.items()]


def _cwd(scope: TaskScope) -> str:
    workdir = scope.config.get("work_dir") or scope.config.get("working_dir")
    if not workdir:
        return "/"
    cwd = scope.interpolate("work_dir", [str(workdir)])[0]
    if not cwd.startswith("/"):
        unsupported(
            scope.ctx,
            f'work_dir "{cwd}" of {scope.where} is not an absolute path; process.cwd is "/"',
            scope.task,
        )
        return "/"
    return posixpath.normpath(cwd)


def _user(scope: TaskScope) -> dict[str, int]:
    user = scope.task.user
    if not user:
        return {"uid": 0, "gid": 0}
    uid, _, gid = user.partition(":")
    if uid.isdigit() and (gid == "" or gid.isdigit()):
        return {"uid": int(uid), "gid": int(gid or 0)}
    approximated(
        scope.ctx,
        f'user "{user}" of {scope.where}: an OCI bundle names the user by number and the image\'s '
        "/etc/passwd is not read here, so process.user is uid 0 (root)",
        scope.task,
        help='write the numeric "uid:gid"',
    )
    return {"uid": 0, "gid": 0}


def _capability(name: str) -> str:
    upper = name.strip().upper()
    return upper if upper.startswith("CAP_") else f"CAP_{upper}"


def privileged(scope: TaskScope) -> bool:
    """`privileged = true`: Docker's privileged mode (moby daemon/oci_linux.go: every
    capability, every device allowed in the cgroup, no masked or read-only paths, /sys
    writable), which Nomad's docker driver asks for where the client allows it."""
    return scope.config.get("privileged") is True


def _capabilities(scope: TaskScope) -> dict[str, list[str]]:
    if privileged(scope):  # docker run --privileged: every capability
        return {"bounding": list(ALL_CAPS), "effective": list(ALL_CAPS), "permitted": list(ALL_CAPS)}
    caps = list(DEFAULT_CAPS)
    for verb in ("add", "drop"):
        for name in as_strings(scope.config.get(f"cap_{verb}")):
            cap = _capability(name)
            chosen = list(ALL_CAPS) if cap == "CAP_ALL" else [cap]
            if cap != "CAP_ALL" and cap not in ALL_CAPS:
                unsupported(
                    scope.ctx, f'cap_{verb} "{name}" of {scope.where} is not a capability', scope.task
                )
                continue
            if verb == "add":
                caps.extend(c for c in chosen if c not in caps)
            else:
                caps = [c for c in caps if c not in chosen]
    return {"bounding": caps, "effective": list(caps), "permitted": list(caps)}


def _rlimits(scope: TaskScope) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name, raw in merged_blocks(scope.config.get("ulimit")).items():
        kind = RLIMITS.get(str(name).lower())
        pair = _limit_pair(str(raw))
        if kind is None or pair is None:
            what = f"ulimit {name}" if kind is None else f'ulimit {name} = "{raw}"'
            unsupported(
                scope.ctx,
                f"{what} of {scope.where} is not a docker ulimit; it is left out",
                scope.task,
                help='write `name = "soft:hard"` or one number for both; -1 is unlimited; names: '
                + ", ".join(RLIMITS),
            )
            continue
        soft, hard = pair
        out.append({"type": kind, "hard": hard, "soft": soft})
    return out


def _limit_pair(text: str) -> tuple[int, int] | None:
    """``"soft:hard"`` or one value for both, as Nomad's docker driver splits them; soft must
    not exceed hard (docker refuses it)."""
    soft_text, _, hard_text = text.strip().partition(":")
    values = []
    for part in (soft_text, hard_text or soft_text):
        try:
            number = int(part.strip())
        except ValueError:
            return None
        if number < -1:
            return None
        values.append(UNLIMITED if number == -1 else number)
    soft, hard = values
    return (soft, hard) if soft <= hard else None
