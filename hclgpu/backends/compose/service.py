"""A :class:`Container` as one Compose service mapping (compose-spec field names).

Lists stay lists (entrypoint, command, healthcheck test: no shell in between), the
environment and labels are mappings, sizes and durations are the strings Compose parses
(``8192m``, ``1m30s``). GPUs are a device reservation with either `count` or `device_ids`,
never both (the spec makes them exclusive; the schema does not check it).
"""

from __future__ import annotations

from typing import Any

from hclgpu.backends.docker.container import OPTIONS, Container, Gpus, duration

Obj = dict[str, Any]


def gpu_reservation(gpus: Gpus) -> Obj:
    """`deploy.resources.reservations.devices[]` for NVIDIA GPUs: count OR device_ids."""
    out: Obj = {"driver": "nvidia"}
    if gpus.ids:
        out["device_ids"] = list(gpus.ids)
    else:
        out["count"] = gpus.count
    out["capabilities"] = ["gpu"]
    return out


def service(c: Container, depends_on: Obj, networks: list[str]) -> Obj:
    """The service of one container; ``depends_on`` and ``networks`` come from the project."""
    out: Obj = {"image": c.image}
    if c.entrypoint is not None:
        out["entrypoint"] = list(c.entrypoint)
    if c.command:
        out["command"] = list(c.command)
    if c.env:
        out["environment"] = dict(c.env)
    out["labels"] = dict(c.labels)
    if c.ports:
        out["ports"] = [f"{p.host}:{p.container}" if p.host else str(p.container) for p in c.ports]
    if c.network_mode:
        out["network_mode"] = c.network_mode
    elif networks:
        out["networks"] = networks
    if depends_on:
        out["depends_on"] = depends_on
    if c.restart:
        out["restart"] = c.restart
    if c.health is not None:
        out["healthcheck"] = _healthcheck(c)
    if c.stop_signal:
        out["stop_signal"] = c.stop_signal
    if c.stop_grace is not None:
        out["stop_grace_period"] = duration(c.stop_grace)
    if c.shm_size is not None:
        out["shm_size"] = c.shm_size
    if c.ulimits:
        out["ulimits"] = {name: {"soft": soft, "hard": hard} for name, (soft, hard) in c.ulimits.items()}
    devices = [f"{node}:{node}" for node in c.device_nodes] + c.devices
    if devices:
        out["devices"] = devices
    if c.cpu_shares is not None:
        out["cpu_shares"] = c.cpu_shares
    if c.volumes:
        out["volumes"] = list(c.volumes)
    if c.tmpfs:
        out["tmpfs"] = list(c.tmpfs)
    out.update(_options(c))
    if c.log_driver:
        out["logging"] = {
            "driver": c.log_driver,
            **({"options": dict(c.log_options)} if c.log_options else {}),
        }
    out["deploy"] = _deploy(c)
    return out


def _healthcheck(c: Container) -> Obj:
    assert c.health is not None
    out: Obj = {"test": list(c.health.test)}
    if c.health.interval:
        out["interval"] = duration(c.health.interval)
    if c.health.timeout:
        out["timeout"] = duration(c.health.timeout)
    if c.health.retries:
        out["retries"] = c.health.retries
    return out


def _options(c: Container) -> Obj:
    """The one-to-one options under their Compose names, in the order of :data:`OPTIONS`."""
    out: Obj = {}
    for option in OPTIONS:
        value = c.options.get(option.key)
        if value is not None:
            out[option.compose] = list(value) if isinstance(value, list) else value
    if c.pull_always:
        out["pull_policy"] = "always"
    return out


def _deploy(c: Container) -> Obj:
    """Replicas, CPU and memory limits, the memory reservation and GPU reservations."""
    out: Obj = {}
    if c.replicas != 1:
        out["replicas"] = c.replicas
    limits: Obj = {}
    if c.cpus is not None:
        limits["cpus"] = int(c.cpus) if c.cpus.is_integer() else c.cpus
    if c.memory_mb is not None:
        limits["memory"] = f"{c.memory_mb}m"
    reservations: Obj = {}
    if c.memory_reservation_mb is not None:
        reservations["memory"] = f"{c.memory_reservation_mb}m"
    if c.gpus is not None:
        reservations["devices"] = [gpu_reservation(c.gpus)]
    resources = {k: v for k, v in (("limits", limits), ("reservations", reservations)) if v}
    if resources:
        out["resources"] = resources
    return out
