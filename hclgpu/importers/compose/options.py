"""Engine settings of a service that become docker driver options: the one-to-one options
of :data:`~hclgpu.backends.docker.container.OPTIONS`, ports, volumes, the network mode,
logging, the pull policy, /dev/shm and ulimits.

Each is the inverse of what :mod:`hclgpu.backends.docker.options` and
:mod:`hclgpu.backends.docker.lowering` derive from the driver config, so a file the compose
back end wrote reads back into the same config.
"""

from __future__ import annotations

import re
from typing import Any

from hclgpu.backends.docker.container import Option
from hclgpu.backends.docker.options import ULIMITS
from hclgpu.importers.compose.draft import Draft, PortSpec
from hclgpu.importers.compose.findings import Findings
from hclgpu.importers.compose.values import key_values, mebibytes, scalar_text, size_bytes, string_list

_PORT = re.compile(
    r"(?:(?P<ip>\[[^\]]*\]|\d+\.[\d.]+):)?(?:(?P<host>\d*(?:-\d+)?):)?"
    r"(?P<container>\d+(?:-\d+)?)(?:/(?P<protocol>[a-z]+))?"
)
_LABEL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def one_to_one(draft: Draft, option: Option, value: Any, findings: Findings) -> None:
    """An option Compose and the docker driver both have (``user`` is a task field)."""
    converted = _converted(option, value)
    if converted is None:
        findings.left_out(
            draft.at(option.compose), f"`{option.compose}` is not a valid {option.kind}; left out"
        )
    elif option.key == "user":
        draft.task["User"] = converted
    elif converted is not False:
        draft.config[option.key] = converted


def _converted(option: Option, value: Any) -> Any:
    if option.kind == "bool":
        return value if isinstance(value, bool) else None
    if option.kind == "int":
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if option.kind == "str":
        return scalar_text(value)
    if option.kind == "list":
        if option.compose == "extra_hosts" and isinstance(value, dict):
            return [f"{host}:{ip}" for host, ip in value.items()]
        items = string_list(value)
        if items is not None and option.compose == "extra_hosts":
            return [item.replace("=", ":", 1) if "=" in item else item for item in items]
        return items
    pairs = key_values(value)
    if pairs is None or any(item is None for item in pairs.values()):
        return None
    return pairs


def ports(draft: Draft, value: Any, findings: Findings) -> None:
    """Short (``"8888:5000"``, ``"8000"``) and long syntax; each becomes a group port."""
    if not isinstance(value, list):
        findings.left_out(draft.at("ports"), "`ports` is not a list; left out")
        return
    for index, item in enumerate(value):
        found = _long_port(draft, index, item, findings) if isinstance(item, dict) else None
        if not isinstance(item, dict):
            found = _short_port(draft, index, item, findings)
        if found is not None:
            draft.ports += found


def _short_port(draft: Draft, index: int, item: Any, findings: Findings) -> list[PortSpec] | None:
    text = scalar_text(item)
    match = _PORT.fullmatch(text.strip()) if text is not None and not isinstance(item, bool) else None
    if match is None:
        findings.left_out(draft.at("ports", index), f"`{item}` is not a port mapping; left out")
        return None
    if match.group("ip"):
        findings.left_out(
            draft.at("ports", index),
            f"the host address {match.group('ip')} is left out: Nomad publishes on the node's address",
        )
    _protocol(draft, index, match.group("protocol"), findings)
    return _mapped(draft, index, match.group("host") or "", match.group("container"), "", findings)


def _long_port(draft: Draft, index: int, item: dict[str, Any], findings: Findings) -> list[PortSpec] | None:
    target = item.get("target")
    if not isinstance(target, int) or isinstance(target, bool):
        findings.left_out(draft.at("ports", index), "a port without a numeric `target` is left out")
        return None
    for key in sorted(str(k) for k in item):
        if key in ("host_ip", "app_protocol") or (key == "mode" and item[key] != "ingress"):
            findings.left_out(draft.at("ports", index, key), f"the port's `{key}` is left out")
        elif key not in ("target", "published", "protocol", "name", "mode"):
            findings.left_out(draft.at("ports", index, key), f"the port's `{key}` is not Compose; left out")
    _protocol(draft, index, scalar_text(item.get("protocol")), findings)
    published = scalar_text(item.get("published")) or ""
    name = str(item.get("name") or "")
    return _mapped(draft, index, published, str(target), name, findings)


def _protocol(draft: Draft, index: int, protocol: str | None, findings: Findings) -> None:
    if protocol not in (None, "", "tcp"):
        findings.approximated(
            draft.at("ports", index),
            f"{protocol} only: the docker driver publishes a port for both TCP and UDP",
        )


def _mapped(
    draft: Draft, index: int, host: str, container: str, name: str, findings: Findings
) -> list[PortSpec] | None:
    """``host`` and ``container`` may be equal-sized ranges; a container range with no host
    port publishes each on a port Docker picks."""
    containers = _range(container) or []
    hosts: list[int] | list[None] | None = _range(host) if host else [None] * len(containers)
    if not containers or hosts is None or len(hosts) != len(containers):
        findings.left_out(draft.at("ports", index), "a host port range that is not one per container port")
        return None
    if any(port <= 0 or port > 65535 for port in containers):
        findings.left_out(draft.at("ports", index), "the container port is out of range; left out")
        return None
    label = name if _LABEL.match(name) and len(containers) == 1 else ""
    return [PortSpec(c, h or None, label) for c, h in zip(containers, hosts, strict=True)]


def _range(text: str) -> list[int] | None:
    first, _, last = text.partition("-")
    try:
        low, high = int(first), int(last or first)
    except ValueError:
        return None
    return list(range(low, high + 1)) if 0 <= high - low < 1024 else None


def volumes(draft: Draft, value: Any, findings: Findings) -> None:
    """Bind mounts and named volumes, as the docker driver's `volumes` strings."""
    if not isinstance(value, list):
        findings.left_out(draft.at("volumes"), "`volumes` is not a list; left out")
        return
    out: list[str] = []
    for index, item in enumerate(value):
        text = _long_volume(draft, index, item, findings) if isinstance(item, dict) else scalar_text(item)
        if text is None:
            if not isinstance(item, dict):
                findings.left_out(draft.at("volumes", index), "not a volume; left out")
            continue
        source = text.split(":", 1)[0] if ":" in text else ""
        if _task_dir(text, source):
            continue  # Nomad's docker driver mounts the task's own directory there
        if source.startswith((".", "~")):
            findings.approximated(
                draft.at("volumes", index),
                f"the host path `{source}` is relative to the compose file there; Nomad resolves it in the "
                "task directory",
            )
        out.append(text)
    if out:
        draft.config["volumes"] = out


_TASK_DIRS = ("/alloc", "/local")
"""Where Nomad's docker driver mounts the allocation and task directories itself."""


def _task_dir(text: str, source: str) -> bool:
    """A volume (anonymous, or named: not a host path) on /alloc or /local, as the back end
    writes for a task that uses its directories."""
    target = text.split(":")[1] if ":" in text else text
    host = source.startswith(("/", ".", "~"))
    return target in _TASK_DIRS and not host and text.count(":") <= 1


def tmpfs(draft: Draft, value: Any, findings: Findings) -> None:
    """``/secrets`` in memory is Nomad's secrets directory, which the docker driver mounts
    itself; any other tmpfs has no docker driver form here."""
    paths = [value] if isinstance(value, str) else value if isinstance(value, list) else [None]
    for index, path in enumerate(paths):
        if path != "/secrets":
            where = draft.at("tmpfs", index) if isinstance(value, list) else draft.at("tmpfs")
            message = "a tmpfs mount is left out: mount one with the docker driver's `mount` block"
            findings.left_out(where, message)


def _long_volume(draft: Draft, index: int, item: dict[str, Any], findings: Findings) -> str | None:
    kind, source, target = item.get("type"), item.get("source"), item.get("target")
    if kind not in ("bind", "volume") or not isinstance(target, str):
        findings.left_out(draft.at("volumes", index), f"a `{kind}` mount has no docker driver volume form")
        return None
    for key in sorted(str(k) for k in item if k not in ("type", "source", "target", "read_only")):
        findings.left_out(draft.at("volumes", index, key), f"the mount's `{key}` is left out")
    text = f"{source}:{target}" if isinstance(source, str) and source else target
    return text + (":ro" if item.get("read_only") is True else "")


def network_mode(draft: Draft, value: Any, findings: Findings) -> None:
    """host, bridge and none are the docker driver's too; another container's namespace is not."""
    text = scalar_text(value) or ""
    if text in ("host", "bridge", "none"):
        draft.config["network_mode"] = text
    elif text != "default":
        findings.left_out(
            draft.at("network_mode"),
            f"network_mode `{text}` is left out: tasks share a namespace only within a group (bridge mode)",
        )


def networks(draft: Draft, value: Any, findings: Findings) -> None:
    """Only recorded: a group's own network is what the back end writes for it."""
    if isinstance(value, list):
        draft.networks = [str(item) for item in value]
    elif isinstance(value, dict):
        draft.networks = [str(name) for name in value]
        for name, spec in value.items():
            if spec:
                findings.left_out(
                    draft.at("networks", str(name)), "network aliases and addresses are left out"
                )
    else:
        findings.left_out(draft.at("networks"), "`networks` is neither a list nor a mapping; left out")


def logging(draft: Draft, value: Any, findings: Findings) -> None:
    """json-file rotation → the task's `logs`; `none` disables them; another driver is the docker
    driver's `logging` block."""
    if not isinstance(value, dict):
        findings.left_out(draft.at("logging"), "`logging` is not a mapping; left out")
        return
    driver = str(value.get("driver") or "json-file")
    opts = key_values(value.get("options") or {}) or {}
    for key in sorted(str(k) for k in value if k not in ("driver", "options")):
        findings.left_out(draft.at("logging", key), f"`{key}` of logging is left out")
    if driver == "none":
        draft.task["LogConfig"] = {"Disabled": True}
    elif driver == "json-file":
        draft.task["LogConfig"] = _rotation(draft, opts, findings)
    else:
        kept = {k: v for k, v in opts.items() if v is not None}
        draft.config["logging"] = [{"type": driver, **({"config": [kept]} if kept else {})}]


def _rotation(draft: Draft, opts: dict[str, str | None], findings: Findings) -> dict[str, int]:
    out: dict[str, int] = {}
    for key, item in opts.items():
        size = size_bytes(item) if key == "max-size" else None
        if key == "max-file" and item is not None and item.isdigit() and len(item) < 10:
            out["MaxFiles"] = int(item)
        elif size is not None:
            out["MaxFileSizeMB"], exact = mebibytes(size)
            if not exact:
                findings.approximated(draft.at("logging", "options", key), "rounded up to whole MiB")
        else:
            findings.left_out(draft.at("logging", "options", key), f"json-file option `{key}` is left out")
    return _fit_disk(draft, out, findings)


DEFAULT_DISK_MB = 300
"""A group's ephemeral disk when the job sets none; Nomad keeps the task logs on it."""


def _fit_disk(draft: Draft, rotation: dict[str, int], findings: Findings) -> dict[str, int]:
    """Nomad refuses logs that do not fit below the disk (`LogConfig.Validate`,
    nomad/structs/structs.go:7878): keep fewer or smaller files, and say so."""
    files, size = rotation.get("MaxFiles", 10), rotation.get("MaxFileSizeMB", 10)
    if files * size < DEFAULT_DISK_MB:
        return rotation
    fitted_size = min(size, DEFAULT_DISK_MB - 1)
    fitted_files = max(1, (DEFAULT_DISK_MB - 1) // fitted_size)
    findings.approximated(
        draft.at("logging", "options"),
        f"{files} log files of {size} MB do not fit on Nomad's {DEFAULT_DISK_MB} MB ephemeral disk;"
        f" kept {fitted_files} of {fitted_size} MB",
    )
    return {**rotation, "MaxFiles": fitted_files, "MaxFileSizeMB": fitted_size}


def pull_policy(draft: Draft, value: Any, findings: Findings) -> None:
    """always → force_pull; pulling when missing is what Nomad does anyway."""
    if value == "always":
        draft.config["force_pull"] = True
    elif value not in ("missing", "if_not_present", "if-not-present"):
        findings.left_out(
            draft.at("pull_policy"), f"pull_policy `{value}` is left out: Nomad pulls when missing"
        )


def shm_size(draft: Draft, value: Any, findings: Findings) -> None:
    size = size_bytes(value)
    if size is None or size == 0:
        findings.left_out(draft.at("shm_size"), f"`{value}` is not a size; left out")
    else:
        draft.config["shm_size"] = size


def ulimits(draft: Draft, value: Any, findings: Findings) -> None:
    """``name: n`` or ``name: {soft, hard}`` → ``ulimit { name = "n" | "soft:hard" }``."""
    if not isinstance(value, dict):
        findings.left_out(draft.at("ulimits"), "`ulimits` is not a mapping; left out")
        return
    limits: dict[str, str] = {}
    for name, item in value.items():
        pair = _ulimit(item)
        if str(name) not in ULIMITS or pair is None:
            findings.left_out(draft.at("ulimits", str(name)), f"ulimit `{name}` is not valid; left out")
            continue
        soft, hard = pair
        limits[str(name)] = str(soft) if soft == hard else f"{soft}:{hard}"
    if limits:
        draft.config["ulimit"] = [limits]


def _ulimit(item: Any) -> tuple[int, int] | None:
    if isinstance(item, int) and not isinstance(item, bool):
        return item, item
    if isinstance(item, dict) and set(item) == {"soft", "hard"}:
        soft, hard = item["soft"], item["hard"]
        if all(isinstance(v, int) and not isinstance(v, bool) for v in (soft, hard)):
            return soft, hard
    return None
