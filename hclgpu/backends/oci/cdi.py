"""``--cdi-spec FILE``: a Container Device Interface spec applied to config.json the way the
CDI library (``pkg/cdi`` ``ContainerEdits.Apply``) applies it when a runtime injects
devices, so the bundle runs with a plain runtime that knows nothing of CDI.

* the spec-level ``containerEdits`` once (when at least one of its devices is requested),
  then each requested device's edits;
* ``env``: an entry replaces the variable of the same name, else is appended;
* ``deviceNodes`` → ``linux.devices`` (replacing the same path) and, for ``b``/``c``
  nodes, a ``linux.resources.devices`` allow rule (``permissions``, default ``rwm``;
  ``none`` = an empty access). The library stats ``hostPath`` for a missing type, major
  or minor *on the host that runs the container*; hclgpu renders for another host, so it
  fills them only for nodes whose numbers the kernel drivers fix (NVIDIA ``/dev/nvidia<N>``
  195:N, ``/dev/nvidiactl`` 195:255, ``/dev/nvidia-modeset`` 195:254, DRM ``/dev/dri/card<N>``
  and ``renderD<N>`` 226:N) and leaves out the others (``/dev/nvidia-uvm``, whose major is
  assigned at boot) with HG302;
* ``mounts`` replace the same destination, are appended, and all mounts are then sorted
  (stably) by the depth of their destination; ``hooks`` are appended by ``hookName``;
  ``additionalGids`` (non-zero) are added to ``process.user``; ``intelRdt`` and
  ``netDevices`` are not applied (HG301).

A spec that cannot be read or lacks what the CDI schema requires is reported (HG301, at
the device blocks) and not applied; so is a requested device the spec does not define.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from hclgpu.backends.oci.reporting import approximated, unsupported
from hclgpu.backends.oci.scope import TaskScope
from hclgpu.ir import models as m

Obj = dict[str, Any]

HOOK_NAMES = ("prestart", "createRuntime", "createContainer", "startContainer", "poststart", "poststop")
_KIND = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*")
_EDIT_KEYS = {"env", "deviceNodes", "mounts", "hooks", "additionalGids", "intelRdt", "netDevices"}
_FIXED_NODES: tuple[tuple[re.Pattern[str], int, int | None], ...] = (
    (re.compile(r"/dev/nvidia(\d+)"), 195, None),
    (re.compile(r"/dev/nvidiactl"), 195, 255),
    (re.compile(r"/dev/nvidia-modeset"), 195, 254),
    (re.compile(r"/dev/dri/(?:card|renderD)(\d+)"), 226, None),
)
"""Character devices whose major (and minor) the kernel drivers fix; None = the path's number."""


def apply_spec(
    config: Obj, requests: list[tuple[str, m.RequestedDevice]], path: str, scope: TaskScope
) -> set[str]:
    """Apply the spec at ``path`` for the requested fully-qualified CDI names; the names applied.

    Those are no longer requested by annotation: a CDI-aware runtime would apply them twice."""
    devices: list[m.RequestedDevice] = []
    for _, device in requests:
        if all(device is not seen for seen in devices):
            devices.append(device)
    spec = _load(path)
    problems = [spec] if isinstance(spec, str) else check_spec(spec)
    if problems or isinstance(spec, str):
        for device in devices:
            unsupported(
                scope.ctx,
                f"CDI spec {path}: {problems[0]}; its edits are not applied",
                device,
                help="check it against the CDI schema (cdiVersion, kind, devices[].name/containerEdits)",
            )
        return set()
    kind = spec["kind"]
    by_name = {d["name"]: d for d in spec["devices"]}
    edits: list[tuple[Obj, m.RequestedDevice]] = []
    applied: set[str] = set()
    for qualified, device in requests:
        requested_kind, _, name = qualified.partition("=")
        found = by_name.get(name) if requested_kind == kind else None
        if found is None:
            unsupported(
                scope.ctx,
                f"CDI device {qualified} is not defined in {path} (kind {kind}); its edits are not applied",
                device,
            )
            continue
        edits.append((found["containerEdits"], device))
        applied.add(qualified)
    if edits:
        edits.insert(0, (spec.get("containerEdits") or {}, edits[0][1]))
    for container_edits, device in edits:
        _apply(config, container_edits, device, path, scope)
    return applied


def _load(path: str) -> Obj | str:
    """The spec as data (YAML, hence also JSON), or why it cannot be read."""
    import yaml

    from hclgpu.io.documents import DocumentError, load_yaml_document
    from hclgpu.io.files import NotUtf8, read_text

    try:
        data = load_yaml_document(read_text(path))  # at most 16 MiB, 256 levels, 4300-digit integers
    except DocumentError as error:
        return f"is beyond hclgpu's limits at line {error.line}, column {error.column} ({error})"
    except NotUtf8 as error:
        return f"is not UTF-8 text at line {error.line}, column {error.column} ({error})"
    except OSError as error:
        return f"cannot be read ({error.strerror or error})"
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        return f"is neither JSON nor YAML{where} ({problem})"
    return data if isinstance(data, dict) else "is not a mapping"


def check_spec(spec: Obj) -> list[str]:
    """What the CDI schema requires and ``spec`` lacks (the runtime check, without jsonschema)."""
    problems: list[str] = []
    if not isinstance(spec.get("cdiVersion"), str):
        problems.append("`cdiVersion` is missing")
    if not isinstance(spec.get("kind"), str) or not _KIND.fullmatch(spec["kind"]):
        problems.append("`kind` is missing or not `vendor/class`")
    devices = spec.get("devices")
    if not isinstance(devices, list) or not devices:
        problems.append("`devices` is missing or empty")
        devices = []
    for index, device in enumerate(devices):
        if not isinstance(device, dict) or not isinstance(device.get("name"), str):
            problems.append(f"devices[{index}] has no `name`")
            continue
        if not isinstance(device.get("containerEdits"), dict):
            problems.append(f"device {device['name']!r} has no `containerEdits`")
            continue
        problems.extend(_check_edits(device["containerEdits"], f"device {device['name']!r}"))
    if spec.get("containerEdits") is not None:
        edits = spec["containerEdits"]
        problems.extend(
            _check_edits(edits, "the spec") if isinstance(edits, dict) else ["bad `containerEdits`"]
        )
    return problems


def _check_edits(edits: Obj, where: str) -> list[str]:
    problems = [f"{where}: unknown containerEdits field `{key}`" for key in edits if key not in _EDIT_KEYS]
    for entry in edits.get("env") or []:
        if not isinstance(entry, str) or entry.find("=") <= 0:
            problems.append(f"{where}: env entry {entry!r} is not NAME=value")
    for node in edits.get("deviceNodes") or []:
        if not isinstance(node, dict) or not str(node.get("path", "")).startswith("/"):
            problems.append(f"{where}: a device node has no absolute `path`")
        elif node.get("type", "") not in ("", "b", "c", "u", "p"):
            problems.append(f"{where}: device node {node['path']} has type {node['type']!r}")
    for mount in edits.get("mounts") or []:
        if not isinstance(mount, dict) or not mount.get("hostPath") or not mount.get("containerPath"):
            problems.append(f"{where}: a mount lacks `hostPath` or `containerPath`")
    for hook in edits.get("hooks") or []:
        if not isinstance(hook, dict) or hook.get("hookName") not in HOOK_NAMES:
            problems.append(f"{where}: a hook has no valid `hookName` ({', '.join(HOOK_NAMES)})")
        elif not str(hook.get("path", "")).startswith("/"):
            problems.append(f"{where}: hook {hook['hookName']} has no absolute `path`")
    return problems


def _apply(config: Obj, edits: Obj, device: m.RequestedDevice, path: str, scope: TaskScope) -> None:
    process = config["process"]
    for entry in edits.get("env") or []:
        _set_env(process["env"], entry)
    for node in edits.get("deviceNodes") or []:
        _add_node(config, node, device, scope)
    if edits.get("mounts"):
        for mount in edits["mounts"]:
            _add_mount(config, mount)
        config["mounts"].sort(key=lambda mnt: posixpath.normpath(mnt["destination"]).count("/"))
    for hook in edits.get("hooks") or []:
        oci_hook = {"path": hook["path"]}
        oci_hook.update({key: hook[key] for key in ("args", "env", "timeout") if hook.get(key)})
        config.setdefault("hooks", {}).setdefault(hook["hookName"], []).append(oci_hook)
    gids = [gid for gid in edits.get("additionalGids") or [] if gid]
    user = process["user"]
    for gid in gids:
        if gid not in user.setdefault("additionalGids", []):
            user["additionalGids"].append(gid)
    for key in ("intelRdt", "netDevices"):
        if edits.get(key):
            unsupported(scope.ctx, f"`{key}` of CDI spec {path} is not applied to the bundle", device)


def _set_env(env: list[str], entry: str) -> None:
    name = entry.split("=", 1)[0]
    for index, existing in enumerate(env):
        if existing.split("=", 1)[0] == name:
            env[index] = entry
            return
    env.append(entry)


def _add_node(config: Obj, node: Obj, device: m.RequestedDevice, scope: TaskScope) -> None:
    filled = _fill(node)
    if filled is None:
        approximated(
            scope.ctx,
            f"CDI device node {node['path']} gives no type/major/minor; the CDI library reads them from "
            f"{node.get('hostPath') or node['path']} on the host that runs the container, which hclgpu "
            "cannot; it is left out of linux.devices",
            device,
            help="add type, major and minor to the spec, or run the bundle with a CDI-aware runtime",
        )
        return
    kind, major, minor = filled
    oci: Obj = {"path": node["path"], "type": kind}
    if kind != "p":
        oci.update(major=major, minor=minor)
    if node.get("fileMode") is not None:
        oci["fileMode"] = node["fileMode"]
    user = config["process"]["user"]
    for key, default in (("uid", user.get("uid", 0)), ("gid", user.get("gid", 0))):
        if node.get(key) is not None:
            oci[key] = node[key]
        elif default > 0:
            oci[key] = default
    linux = config["linux"]
    linux["devices"] = [d for d in linux.get("devices", []) if d["path"] != oci["path"]] + [oci]
    if kind in ("b", "c"):
        rule: Obj = {"allow": True, "type": kind, "major": major, "minor": minor}
        access = node.get("permissions") or "rwm"
        if access != "none":
            rule["access"] = access
        linux["resources"]["devices"].append(rule)


def _fill(node: Obj) -> tuple[str, int, int] | None:
    """(type, major, minor) as given, or as the kernel drivers fix them for the host path."""
    kind, major, minor = node.get("type") or "", node.get("major") or 0, node.get("minor") or 0
    if kind and (major or kind == "p"):
        return kind, major, minor
    host = node.get("hostPath") or node["path"]
    for pattern, fixed_major, fixed_minor in _FIXED_NODES:
        match = pattern.fullmatch(host)
        if match is not None and kind in ("", "c"):
            return "c", fixed_major, fixed_minor if fixed_minor is not None else int(match[1])
    return None


def _add_mount(config: Obj, mount: Obj) -> None:
    oci: Obj = {"destination": mount["containerPath"]}
    if mount.get("type"):
        oci["type"] = mount["type"]
    oci["source"] = mount["hostPath"]
    if mount.get("options"):
        oci["options"] = list(mount["options"])
    config["mounts"] = [x for x in config["mounts"] if x["destination"] != oci["destination"]] + [oci]
