"""A container read back as a docker task: image, entrypoint/command/args, env, ports,
working directory, pull policy and security context.

The inverse of :mod:`hclgpu.backends.kubernetes.containers`; resources, mounts and probes
are read by their own modules. A field that has no docker-driver equivalent is left for
the leftover report (HG301).
"""

from __future__ import annotations

import re
from typing import Any

from hclgpu.backends.containers import without_nomad_drops
from hclgpu.backends.task_env import nomad_sets
from hclgpu.importers.common import whole_number
from hclgpu.importers.kubernetes.context import PodContext
from hclgpu.importers.kubernetes.mounts import read_mounts
from hclgpu.importers.kubernetes.probes import read_probes
from hclgpu.importers.kubernetes.resources import read_resources
from hclgpu.importers.kubernetes.source import Path, as_dict


def read_container(ctx: PodContext, path: Path, sidecar: bool | None) -> dict[str, Any]:
    """The task of the container at ``path`` (``sidecar``: None for a main container, else
    whether an init container keeps running)."""
    task: dict[str, Any] = {"Name": str(ctx.take(*path, "name") or "task"), "Driver": "docker"}
    config: dict[str, Any] = {"image": str(ctx.take(*path, "image") or "")}
    env = _env(ctx, path)
    provided = {name for name in env if nomad_sets(name)}
    _command(ctx, path, config)
    for key in ("entrypoint", "args"):
        if key in config:
            config[key] = [_nomad_references(word, provided) for word in config[key]]
    if "command" in config:
        config["command"] = _nomad_references(config["command"], provided)
    workdir = ctx.take(*path, "workingDir")
    if workdir:
        config["work_dir"] = str(workdir)
    _pull_policy(ctx, path, config)
    env = {name: _nomad_references(value, provided) for name, value in env.items() if name not in provided}
    if env:
        task["Env"] = env
    ports = _ports(ctx, path)
    if ports:
        config["ports"] = ports
    _security(ctx, path, config, task)
    _terminal(ctx, path, config)
    read_mounts(ctx, path, task, config)
    task["Config"] = config
    task["Resources"] = read_resources(ctx, path, task, config)
    checks = read_probes(ctx, path, probes=sidecar is None)
    if checks:
        task["_checks"] = checks
    if sidecar is not None:
        task["Lifecycle"] = {"Hook": "prestart", "Sidecar": sidecar}
    return task


_REFERENCE = re.compile(r"\$\((NOMAD_[A-Za-z0-9_]+)\)")


def _nomad_references(text: str, provided: set[str]) -> str:
    """The kubelet's ``$(NOMAD_X)``, for a variable the container's env defines and Nomad sets,
    as Nomad's ``${NOMAD_X}``."""
    return _REFERENCE.sub(lambda m: f"${{{m[1]}}}" if m[1] in provided else m[0], text)


def _command(ctx: PodContext, path: Path, config: dict[str, Any]) -> None:
    """``command`` replaces the image entrypoint; ``args`` are the docker command. Without an
    entrypoint the first argument reads best as `command`; with one, all are `args`."""
    entrypoint = ctx.take(*path, "command")
    if isinstance(entrypoint, list) and entrypoint:
        config["entrypoint"] = [str(v) for v in entrypoint]
    args = ctx.take(*path, "args")
    if not isinstance(args, list) or not args:
        return
    words = [str(v) for v in args]
    if "entrypoint" in config:
        config["args"] = words
        return
    config["command"] = words[0]
    if len(words) > 1:
        config["args"] = words[1:]


def _pull_policy(ctx: PodContext, path: Path, config: dict[str, Any]) -> None:
    policy = ctx.take(*path, "imagePullPolicy")
    if policy == "Always":
        config["force_pull"] = True
    elif policy == "Never":
        ctx.approximated((*path, "imagePullPolicy"), "Nomad's docker driver pulls a missing image")


def _env(ctx: PodContext, path: Path) -> dict[str, str]:
    """Literal values, and values from ConfigMaps in the input; other sources are reported."""
    env: dict[str, str] = {}
    for index, item in enumerate(ctx.items(*path, "env")):
        here: Path = (*path, "env", index)
        ctx.take(*here)
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"]:
            ctx.left_out(here, "an env entry needs a name")
            continue
        if "valueFrom" not in item:
            env[str(item["name"])] = _text(item.get("value", ""))
            continue
        value = _value_from(ctx, item["valueFrom"])
        if value is None:
            ctx.left_out(
                (*here, "valueFrom"), f"env `{item['name']}` comes from a source Nomad cannot read here"
            )
        else:
            env[str(item["name"])] = value
    if ctx.peek(*path, "envFrom"):
        ctx.take(*path, "envFrom")
        ctx.left_out((*path, "envFrom"), "envFrom is not kept: use a template with `env = true`")
    return env


def _value_from(ctx: PodContext, source: Any) -> str | None:
    """A ConfigMap key in the input, or a downward-API field Nomad has a variable for."""
    if not isinstance(source, dict):
        return None
    ref = source.get("configMapKeyRef")
    if isinstance(ref, dict):
        holder = ctx.config_maps.get(str(ref.get("name")))
        key = str(ref.get("key"))
        if holder is not None and isinstance(holder.peek("data", key), str):
            return str(holder.take("data", key))
    field = as_dict(source.get("fieldRef")).get("fieldPath")
    return {
        "metadata.name": "${NOMAD_ALLOC_NAME}",
        "metadata.namespace": "${NOMAD_NAMESPACE}",
        "spec.nodeName": "${node.unique.name}",
        "status.hostIP": "${attr.unique.network.ip-address}",
        "metadata.uid": "${NOMAD_ALLOC_ID}",
    }.get(str(field))


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _ports(ctx: PodContext, path: Path) -> list[str]:
    """Container ports as group network ports (``to``), published by the task's config."""
    labels = []
    for index, _ in enumerate(ctx.items(*path, "ports")):
        here: Path = (*path, "ports", index)
        number = whole_number(ctx.take(*here, "containerPort"), 1, 65535)
        if number is None:
            ctx.left_out(here, "a container port needs a containerPort from 1 to 65535")
            continue
        name = ctx.take(*here, "name")
        label = ctx.port_for(number, str(name).replace("-", "_") if name else None)
        host = whole_number(ctx.take(*here, "hostPort"), 1, 65535)
        if host is not None:
            ctx.ports[label]["Value"] = host
        protocol = ctx.take(*here, "protocol")
        if protocol not in (None, "TCP"):
            ctx.approximated((*here, "protocol"), f"Nomad ports carry no protocol: {protocol} is not kept")
        if label not in labels:
            labels.append(label)
    return labels


def _security(ctx: PodContext, path: Path, config: dict[str, Any], task: dict[str, Any]) -> None:
    base: Path = (*path, "securityContext")
    if ctx.take(*base, "privileged"):
        config["privileged"] = True
    for verb in ("add", "drop"):
        names = ctx.take(*base, "capabilities", verb)
        if isinstance(names, list) and verb == "drop":  # Nomad's docker driver drops NET_RAW itself
            names = without_nomad_drops(names)
        if isinstance(names, list) and names:
            config[f"cap_{verb}"] = [str(n) for n in names]
    if ctx.take(*base, "readOnlyRootFilesystem"):
        config["readonly_rootfs"] = True
    uid, gid = whole_number(ctx.take(*base, "runAsUser")), whole_number(ctx.take(*base, "runAsGroup"))
    if uid is not None:
        task["User"] = f"{uid}:{gid}" if gid is not None else str(uid)
    elif gid is not None:
        ctx.left_out((*base, "runAsGroup"), "a group without a user cannot be set on a Nomad task")


def _terminal(ctx: PodContext, path: Path, config: dict[str, Any]) -> None:
    if ctx.take(*path, "tty"):
        config["tty"] = True
    if ctx.take(*path, "stdin"):
        config["interactive"] = True
    for key in ("terminationMessagePath", "terminationMessagePolicy"):
        if ctx.peek(*path, key) in ("/dev/termination-log", "File"):
            ctx.take(*path, key)  # API server defaults
