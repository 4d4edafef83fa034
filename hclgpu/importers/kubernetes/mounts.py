"""Volume mounts read back: a memory emptyDir on /dev/shm as ``shm_size``, ConfigMap files as
``template`` blocks, other emptyDirs and hostPaths as docker ``volumes``.

A template lands where the back end mounts it from: ``/local/x`` is ``local/x`` in the task
directory. A file mounted elsewhere is rendered into ``local/`` and bind-mounted to its
path, the Nomad idiom for config files at fixed paths.
"""

from __future__ import annotations

import re
from typing import Any

from hclgpu.importers.kubernetes.context import PodContext
from hclgpu.importers.kubernetes.source import Manifest, Path
from hclgpu.units.quantities import quantity, whole

_TASK_DIRS = ("/local/", "/secrets/", "/alloc/")


def read_mounts(ctx: PodContext, path: Path, task: dict[str, Any], config: dict[str, Any]) -> None:
    volumes = {str(v.get("name")): i for i, v in enumerate(ctx.items("volumes")) if isinstance(v, dict)}
    for index, mount in enumerate(ctx.items(*path, "volumeMounts")):
        here: Path = (*path, "volumeMounts", index)
        if not isinstance(mount, dict):
            continue
        position = volumes.get(str(mount.get("name")))
        if position is None:
            ctx.left_out(here, f"volume `{mount.get('name')}` is not declared by the pod")
            ctx.take(*here)
            continue
        volume = ctx.peek("volumes", position)
        if _mount(ctx, here, (("volumes", position)), volume, mount, task, config):
            ctx.take(*here)
            ctx.take("volumes", position)


def _mount(
    ctx: PodContext,
    here: Path,
    at: Path,
    volume: dict[str, Any],
    mount: dict[str, Any],
    task: dict[str, Any],
    config: dict[str, Any],
) -> bool:
    """Read one mount; False when it is left for the leftover report."""
    target = str(mount.get("mountPath") or "")
    if (
        isinstance(volume.get("emptyDir"), dict)
        and volume["emptyDir"].get("medium") == "Memory"
        and target == "/dev/shm"
    ):
        return _shm(ctx, at, volume["emptyDir"], config)
    if isinstance(volume.get("configMap"), dict):
        return _config_map(ctx, here, volume, mount, task, config)
    if isinstance(volume.get("emptyDir"), dict) and target in ("/alloc", "/local", "/secrets"):
        return True  # where Nomad's docker driver mounts the task's own directories
    if isinstance(volume.get("emptyDir"), dict):
        ctx.approximated(at, "an emptyDir is the allocation directory in Nomad (shared by the group's tasks)")
        _bind(config, f"../alloc/{volume.get('name')}", target, mount)
        return True
    host = volume.get("hostPath")
    if isinstance(host, dict) and host.get("path") and host.get("type") == "CharDevice":
        # a device node, as the back end writes a docker `devices` entry
        config.setdefault("devices", []).append({"host_path": str(host["path"]), "container_path": target})
        return True
    if isinstance(volume.get("hostPath"), dict) and volume["hostPath"].get("path"):
        ctx.approximated(
            at, "a hostPath is a docker bind mount: the client must allow `volumes` in its docker plugin"
        )
        _bind(config, str(volume["hostPath"]["path"]), target, mount)
        return True
    kind = next((k for k in volume if k != "name"), "volume")
    ctx.left_out(
        at, f"a `{kind}` volume has no Nomad equivalent here (use a `volume` block with CSI or host volumes)"
    )
    return True


def _bind(config: dict[str, Any], source: str, target: str, mount: dict[str, Any]) -> None:
    suffix = ":ro" if mount.get("readOnly") else ""
    config.setdefault("volumes", []).append(f"{source}:{target}{suffix}")


def _shm(ctx: PodContext, at: Path, empty: dict[str, Any], config: dict[str, Any]) -> bool:
    size = quantity(empty.get("sizeLimit"))
    if size is None:
        ctx.approximated(at, "/dev/shm without a sizeLimit: docker's default size (64 MiB) applies")
        return True
    config["shm_size"] = whole(size)[0]
    return True


def _config_map(
    ctx: PodContext,
    here: Path,
    volume: dict[str, Any],
    mount: dict[str, Any],
    task: dict[str, Any],
    config: dict[str, Any],
) -> bool:
    name = str(volume["configMap"].get("name"))
    holder = ctx.config_maps.get(name)
    if holder is None:
        ctx.left_out(here, f"ConfigMap `{name}` is not in the input, so its files cannot be templates")
        return True
    target = str(mount.get("mountPath") or "")
    key = mount.get("subPath")
    files = (
        [(str(key), target)] if key else [(k, f"{target.rstrip('/')}/{k}") for k in holder.mapping("data")]
    )
    bind_whole = not key and not target.startswith(_TASK_DIRS)
    for file_key, file_path in files:
        data = holder.take("data", file_key)
        if not isinstance(data, str):
            ctx.left_out(here, f"ConfigMap `{name}` has no key `{file_key}`")
            continue
        _template(ctx, holder, task, config, data, file_key, file_path, mount, bind_whole, name)
    if bind_whole:
        _bind(config, f"local/{_safe(name)}", target, mount)
    return True


def _template(
    ctx: PodContext,
    holder: Manifest,
    task: dict[str, Any],
    config: dict[str, Any],
    data: str,
    key: str,
    path: str,
    mount: dict[str, Any],
    bind_whole: bool,
    name: str,
) -> None:
    if path.startswith(_TASK_DIRS):
        dest = path.lstrip("/")
    elif bind_whole:
        dest = f"local/{_safe(name)}/{key}"
    else:
        dest = f"local/{_safe(key)}"
        _bind(config, dest, path, mount)
    task.setdefault("Templates", []).append({"EmbeddedTmpl": data, "DestPath": dest})
    if "{{" in data and not _generated(holder):
        ctx.findings.approximated(
            holder,
            ("data", key),
            "Nomad renders template data as a Go template: `{{` in it is not literal text",
        )


def _generated(holder: Manifest) -> bool:
    return bool(holder.peek("metadata", "labels", "app.kubernetes.io/managed-by") == "hclgpu")


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text) or "file"
