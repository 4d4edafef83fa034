"""One compose service read into a :class:`Draft`: each key goes to the Nomad field the
compose back end (:mod:`hclgpu.backends.compose.service`) writes it from, and every key
with no such field is reported where it is (HG301), so nothing is dropped silently.

Keys that need the other services (``depends_on``, ``restart``, ``networks``) are only
recorded here; :mod:`~hclgpu.importers.compose.grouping` resolves them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hclgpu.backends.containers import without_nomad_drops
from hclgpu.backends.docker.container import OPTIONS
from hclgpu.backends.task_env import nomad_sets
from hclgpu.importers.compose import deploy, devices, health, options
from hclgpu.importers.compose.draft import LABEL_PREFIX, Draft
from hclgpu.importers.compose.findings import Findings
from hclgpu.importers.compose.values import argv, duration_ns, key_values, scalar_text

Handler = Callable[[Draft, Any, Findings], None]

HINTS = {
    "build": "hclgpu cannot build images: build and push it, the job runs `image`",
    "env_file": "list the variables under `environment`, or render the file with a template (env = true)",
    "secrets": "render secrets with a template block (Vault or Nomad variables)",
    "configs": "render the file with a template block, or bake it into the image",
    "container_name": "Nomad names containers <task>-<allocation id>",
    "expose": "other groups reach the task through its group's ports and service discovery",
    "platform": "constrain the group with ${attr.cpu.arch} / ${attr.kernel.name}",
    "extends": "inline the extended service",
    "profiles": "a job runs all of its groups",
}


def read_service(name: str, data: dict[str, Any], findings: Findings, project: str) -> Draft:
    """The draft of one service; ``data`` has an image or a `build` (checked by the caller)."""
    built = data.get("image") is None
    image = f"{project}-{name}" if built else str(data["image"]).strip()
    draft = Draft(name, ("services", name), {"image": image})
    if built:  # docker/compose pkg/api/api.go GetImageNameOrDefault (e70e961): project + "-" + service
        findings.approximated(
            draft.at("build"),
            f"service `{name}` is built here and names no `image`; the job runs `{image}`, the name "
            "`docker compose build` gives the image: push it where the Nomad clients can pull it",
        )
    for key, value in data.items():
        key = str(key)
        if key == "image" or key.startswith("x-") or (key == "build" and built):
            continue  # extensions: Compose itself ignores them
        handler = HANDLERS.get(key) or _option_handler(key)
        if handler is not None:
            handler(draft, value, findings)
        else:
            hint = HINTS.get(key)
            message = f"`{key}` has no Nomad job equivalent; it is left out" + (f" ({hint})" if hint else "")
            findings.left_out(draft.at(key), message)
    deploy.settle_memory(draft, findings)
    _nomads_own_caps(draft)
    return draft


def _nomads_own_caps(draft: Draft) -> None:
    """NET_RAW in `cap_drop` is what Nomad's docker driver drops by itself (its default
    `allow_caps`), so the task need not say it."""
    dropped = draft.config.get("cap_drop")
    if isinstance(dropped, list):
        kept = without_nomad_drops(dropped)
        if kept:
            draft.config["cap_drop"] = kept
        else:
            del draft.config["cap_drop"]


def _cpu_shares(draft: Draft, value: Any, findings: Findings) -> None:
    """CPU shares are what Nomad's docker driver sets from `cpu` (MHz): the same number."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 2:
        draft.resources["CPU"] = value
    else:
        findings.left_out(draft.at("cpu_shares"), f"`{value}` is not a number of CPU shares; left out")


def _command(key: str) -> Handler:
    def handle(draft: Draft, value: Any, findings: Findings) -> None:
        words = argv(value)
        if words is None:
            findings.left_out(draft.at(key), f"`{key}` is neither a string nor a list of strings; left out")
        elif key == "entrypoint" and not words:
            findings.left_out(draft.at(key), "an empty entrypoint (clearing the image's) has no Nomad form")
        elif key == "entrypoint":
            draft.config["entrypoint"] = words
        elif words and words[0].startswith("-"):
            draft.config["args"] = words  # options for the image's entrypoint: no command to name
        elif words:
            draft.config["command"] = words[0]
            if words[1:]:
                draft.config["args"] = words[1:]

    return handle


def _environment(draft: Draft, value: Any, findings: Findings) -> None:
    pairs = key_values(value)
    if pairs is None:
        findings.left_out(draft.at("environment"), "`environment` is neither a mapping nor a list; left out")
        return
    for key, item in pairs.items():
        if item is None:
            findings.left_out(
                draft.at("environment", key),
                f"`{key}` takes its value from the shell running Compose; there is none here: left out",
            )
        elif not nomad_sets(key):  # NOMAD_* variables Nomad sets in every task itself
            draft.env[key] = item


def _labels(draft: Draft, value: Any, findings: Findings) -> None:
    """The back end's identity and meta labels come back as names and meta; the rest stay labels."""
    pairs = key_values(value)
    if pairs is None:
        findings.left_out(draft.at("labels"), "`labels` is neither a mapping nor a list; left out")
        return
    own: dict[str, str] = {}
    for key, item in pairs.items():
        if item is None:
            findings.left_out(draft.at("labels", key), f"label `{key}` has no value; left out")
        elif key.startswith(LABEL_PREFIX + "meta."):
            draft.meta[key.removeprefix(LABEL_PREFIX + "meta.")] = item
        elif key.removeprefix(LABEL_PREFIX) in ("job", "group", "task") and key.startswith(LABEL_PREFIX):
            draft.identity[key.removeprefix(LABEL_PREFIX)] = item
        else:
            own[key] = item
    if own:
        draft.config["labels"] = own


def _stop_signal(draft: Draft, value: Any, findings: Findings) -> None:
    text = scalar_text(value)
    if text is None:
        findings.left_out(draft.at("stop_signal"), "`stop_signal` is not a signal name; left out")
    else:
        draft.task["KillSignal"] = text


def _stop_grace(draft: Draft, value: Any, findings: Findings) -> None:
    ns = duration_ns(value)
    if ns is None:
        findings.left_out(draft.at("stop_grace_period"), f"`{value}` is not a duration; left out")
    else:
        draft.task["KillTimeout"] = ns


def _record(key: str) -> Handler:
    """Keys resolved once every service is read: kept raw, checked by the grouping."""

    def handle(draft: Draft, value: Any, findings: Findings) -> None:
        if key == "restart":
            text = scalar_text(value)
            draft.restart = text if text is not None else "?"
        elif key == "depends_on":
            _depends_on(draft, value, findings)
        elif key == "networks":
            options.networks(draft, value, findings)

    return handle


def _depends_on(draft: Draft, value: Any, findings: Findings) -> None:
    """The list form means `service_started`; the mapping form names the condition."""
    if isinstance(value, list):
        draft.depends_on = {str(name): "service_started" for name in value}
        return
    if not isinstance(value, dict):
        findings.left_out(draft.at("depends_on"), "`depends_on` is neither a list nor a mapping; left out")
        return
    for name, spec in value.items():
        condition = spec.get("condition", "service_started") if isinstance(spec, dict) else None
        if not isinstance(condition, str):
            findings.left_out(draft.at("depends_on", str(name)), "this dependency has no condition; left out")
            continue
        draft.depends_on[str(name)] = condition
        extra = sorted(str(k) for k in spec if k != "condition") if isinstance(spec, dict) else []
        for key in extra:
            findings.left_out(draft.at("depends_on", str(name), key), f"`{key}` of a dependency is left out")


def _option_handler(key: str) -> Handler | None:
    option = next((o for o in OPTIONS if o.compose == key), None)
    if option is None:
        return None

    def handle(draft: Draft, value: Any, findings: Findings) -> None:
        options.one_to_one(draft, option, value, findings)

    return handle


HANDLERS: dict[str, Handler] = {
    "entrypoint": _command("entrypoint"),
    "command": _command("command"),
    "environment": _environment,
    "labels": _labels,
    "ports": options.ports,
    "volumes": options.volumes,
    "tmpfs": options.tmpfs,
    "devices": devices.devices,
    "network_mode": options.network_mode,
    "logging": options.logging,
    "pull_policy": options.pull_policy,
    "shm_size": options.shm_size,
    "ulimits": options.ulimits,
    "stop_signal": _stop_signal,
    "stop_grace_period": _stop_grace,
    "healthcheck": health.healthcheck,
    "deploy": deploy.deploy,
    "gpus": devices.gpus,
    "cpus": deploy.legacy_cpus,
    "cpu_shares": _cpu_shares,
    "mem_limit": deploy.mem_limit,
    "mem_reservation": deploy.mem_reservation,
    "scale": deploy.scale,
    "restart": _record("restart"),
    "depends_on": _record("depends_on"),
    "networks": _record("networks"),
}
"""Compose keys with a Nomad form (besides the one-to-one options of :data:`OPTIONS`)."""
