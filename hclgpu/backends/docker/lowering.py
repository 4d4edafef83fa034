"""One docker/podman task as Docker Engine settings (:class:`Container`): image, entrypoint
and command, environment, labels, published ports, restart and stop behaviour, logging.

Driver options (shm size, ulimits, mounts, the one-to-one flags) come from
:mod:`~hclgpu.backends.docker.options`, resources and devices from
:mod:`~hclgpu.backends.docker.resources`, the healthcheck from
:mod:`~hclgpu.backends.docker.checks`. Every task field and driver option that the
container does not carry is reported (HG301), every bent one too (HG302).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hclgpu.backends.containers import (
    SECOND,
    Check,
    as_strings,
    network_ports,
    port_number,
    process_environment,
)
from hclgpu.backends.docker.checks import lower_health
from hclgpu.backends.docker.container import (
    Container,
    ContainerLowering,
    PortMap,
    approximated,
    as_mapping,
    engine_name,
    field,
    is_set,
    report_leftovers,
    target_name,
    unsupported,
)
from hclgpu.backends.docker.options import HANDLED_CONFIG, lower_options, runtime_references
from hclgpu.backends.docker.resources import lower_resources
from hclgpu.backends.target import unique_name
from hclgpu.backends.task_env import (
    TASK_DIRS,
    named_dirs,
    nomad_env,
    nomad_sets,
    substitute,
    without_node,
)
from hclgpu.ir import models as m

LABEL_PREFIX = "io.hclgpu."
"""Docker's convention for label keys is reverse DNS."""

_TASK_FIELDS = (
    "driver",
    "user",
    "lifecycle",
    "config",
    "env",
    "services",
    "resources",
    "restart_policy",
    "meta",
    "kill_timeout",
    "kill_signal",
    "log_config",
)


def lower_task(
    job: m.Job,
    group: m.TaskGroup,
    task: m.Task,
    checks: list[Check],
    ctx: ContainerLowering,
    names: tuple[str, str],
) -> Container | None:
    """The container of one docker/podman task, or None (reported) when it has no image.

    ``names`` is the (container name, Compose service name) the caller made unique.
    """
    nomad = _TaskEnv(job, group, task, ctx)
    config = nomad.config(task.config or {})
    image = str(config.get("image") or "").removeprefix("docker://")  # podman's transport prefix
    if not image:
        unsupported(ctx, f'task "{task.name}" has no `image`; it is left out', task)
        return None
    hook = task.lifecycle.hook if task.lifecycle else ""
    c = Container(
        group, task, names[0], names[1], image, hook, bool(task.lifecycle and task.lifecycle.sidecar)
    )
    c.replicas = 1 if group.count is None else group.count
    _command(c, config, ctx)
    c.env = {**nomad.variables(group), **nomad.env(process_environment(ctx, task, f'task "{task.name}"'))}
    runtime_references(ctx, task, "env", c.env.values())
    c.labels = _labels(job, group, task, config, ctx)
    c.ports = _ports(task, group, ctx)
    lower_options(c, config, ctx)
    lower_resources(c, ctx)
    c.restart = _restart(job, c, ctx)
    c.health = lower_health(c, checks, ctx)
    _stop(c, ctx)
    _logs(c, ctx)
    _report_task(task, config, ctx)
    nomad.mount(c, job)
    return c


class _TaskEnv:
    """Nomad's static task environment (:mod:`hclgpu.backends.task_env`) substituted into a
    task's driver config and env, which neither docker nor Compose interpolates; the task
    directories it names are mounted where the docker driver mounts them."""

    def __init__(self, job: m.Job, group: m.TaskGroup, task: m.Task, ctx: ContainerLowering) -> None:
        self.task, self.ctx = task, ctx
        self.node = ctx.options.node_values or {}
        options = ctx.options
        self.values = nomad_env(job, group, task, options.cpu_mhz_per_core, options.memory_oversubscription)
        self.used: set[str] = set()

    def _value(self, name: str) -> str | None:
        if name in TASK_DIRS:
            self.used.add(name)
        return self.values.get(name, self.node.get(name))

    def text(self, value: str) -> str:
        """``value`` with the static ``${NOMAD_*}`` written out, and the node's attributes where
        `--node` names the node (the rest stays, reported)."""
        return substitute(value, self._value, set())

    def kept(self, where: str, value: str) -> bool:
        return without_node(self.ctx, self.task, where, value)

    def config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """The driver config with every string, and every string in a list, substituted; a
        value naming the node is left out (an item of a list, or the option)."""
        out: dict[str, Any] = {}
        for key, value in config.items():
            if isinstance(value, str):
                value = self.text(value)
                if not self.kept(f"`{key}`", value):
                    continue
            elif isinstance(value, list):
                texts = [self.text(v) if isinstance(v, str) else v for v in value]
                value = [v for v in texts if not isinstance(v, str) or self.kept(f"`{key}`", v)]
            out[key] = value
        return out

    def variables(self, group: m.TaskGroup) -> dict[str, str]:
        """The static ``NOMAD_*`` variables, which Nomad sets in every task (a script in the
        container may read them); the index and name of an allocation only for a group of one."""
        per_allocation = ("NOMAD_ALLOC_INDEX", "NOMAD_ALLOC_NAME") if (group.count or 1) > 1 else ()
        return {name: value for name, value in sorted(self.values.items()) if name not in per_allocation}

    def env(self, env: Mapping[str, str]) -> dict[str, str]:
        """The task's env substituted; a variable whose value names the node is left out."""
        texts = {name: self.text(value) for name, value in env.items()}
        return {name: value for name, value in texts.items() if self.kept(f"env {name}", value)}

    def mount(self, c: Container, job: m.Job) -> None:
        """/alloc as a volume the group's containers share, /local as the container's own
        volume, /secrets in memory (tmpfs), for the directories the task names (by variable
        or by path), unless the task mounts something there itself."""
        workdir = c.options.get("work_dir")
        own_env = [value for name, value in c.env.items() if not nomad_sets(name)]
        texts = [*(c.entrypoint or []), *c.command, *own_env]
        texts += [workdir] if isinstance(workdir, str) else []
        taken = {volume.split(":")[1] if ":" in volume else volume for volume in c.volumes}
        for name in sorted(self.used | named_dirs(texts)):
            if TASK_DIRS[name] in taken:
                continue
            path = TASK_DIRS[name]
            if name == "NOMAD_ALLOC_DIR":
                shared = engine_name(f"{job.name or job.id or 'job'}-{c.group.name or 'group'}-alloc")
                c.volumes.append(f"{shared}:{path}")
            elif name == "NOMAD_SECRETS_DIR":
                c.tmpfs.append(path)
            else:
                c.volumes.append(path)


def _command(c: Container, config: Mapping[str, Any], ctx: ContainerLowering) -> None:
    """Nomad's entrypoint (a list), command (one word) and args; without `command`, args
    replace the image's CMD, as the Nomad docker driver does."""
    c.entrypoint = as_strings(config.get("entrypoint")) or None  # empty: the image's, as in Nomad
    command = str(config["command"]) if is_set(config.get("command")) else None
    c.command = ([command] if command is not None else []) + as_strings(config.get("args"))
    runtime_references(ctx, c.task, "image", [c.image])
    runtime_references(ctx, c.task, "entrypoint", c.entrypoint or [])
    runtime_references(ctx, c.task, "command/args", c.command)


def _labels(
    job: m.Job, group: m.TaskGroup, task: m.Task, config: Mapping[str, Any], ctx: ContainerLowering
) -> dict[str, str]:
    """Job, group and task identity, then meta (the task's over the group's over the job's,
    as in Nomad), then the driver's own `labels`."""
    labels = {
        f"{LABEL_PREFIX}job": job.name or job.id or "",
        f"{LABEL_PREFIX}group": group.name or "",
        f"{LABEL_PREFIX}task": task.name,
    }
    meta: dict[str, str] = {}
    for level in (job.meta, group.meta, task.meta):
        meta.update(level or {})
    labels.update({f"{LABEL_PREFIX}meta.{k}": str(v) for k, v in sorted(meta.items())})
    if is_set(config.get("labels")):
        extra = as_mapping(config["labels"])
        if extra is None:
            unsupported(ctx, f'`labels` of task "{task.name}" is not a map; it is left out', task)
        else:
            labels.update(extra)
    return labels


# --------------------------------------------------------------------------- ports


def _ports(task: m.Task, group: m.TaskGroup, ctx: ContainerLowering) -> list[PortMap]:
    """The group ports the task's `ports` lists."""
    ports = network_ports(group)
    out: list[PortMap] = []
    for label in as_strings((task.config or {}).get("ports")):
        port = ports.get(label)
        if port is None:
            unsupported(ctx, f'port "{label}" of task "{task.name}" is not in the group network', task)
            continue
        mapped = publish(port, ctx)
        if mapped is not None:
            add_port(out, mapped, port, ctx)
    return out


def add_port(ports: list[PortMap], mapped: PortMap, port: m.Port, ctx: ContainerLowering) -> None:
    """Publish ``mapped`` unless the container already does: two ports of a group with the
    same `to` and no `static` are one published port here (Compose refuses a port listed
    twice; Nomad would give each its own host port), HG302."""
    if mapped not in ports:
        ports.append(mapped)
        return
    approximated(
        ctx,
        f'port "{port.label}" publishes container port {mapped.container} as another port of the '
        "group does: one published port serves both",
        port,
    )


def publish(port: m.Port, ctx: ContainerLowering) -> PortMap | None:
    """A static port on its host port; a dynamic one on a host port Docker picks (HG302);
    None (HG301) when the container port is not fixed."""
    number = port_number(port)
    if number is None:
        unsupported(
            ctx,
            f'port "{port.label}" has neither `to` nor `static`: Nomad gives the container the host port '
            "it picks; a container port must be fixed, so it is left out",
            port,
            help="set `to` to the port the program listens on",
        )
        return None
    if port.value > 0:
        return PortMap(number, port.value)
    approximated(
        ctx,
        f'dynamic port "{port.label}" → {field(ctx, "ports")} {number}: Docker picks the host port, and no '
        f"NOMAD_HOST_PORT_{port.label} tells the program which",
        port,
        help="set `static` for a fixed host port",
    )
    return PortMap(number, None)


# --------------------------------------------------------------------------- lifecycle


def _restart(job: m.Job, c: Container, ctx: ContainerLowering) -> str:
    """A service keeps running (unless-stopped); a batch task is restarted on failure
    `attempts` times; a task that runs to completion before others is never restarted."""
    blocks = [p for p in (c.group.restart_policy, c.task.restart_policy) if p is not None]
    attempts: int | None = None
    mode = "fail"
    for policy in blocks:
        attempts = policy.attempts if policy.attempts is not None else attempts
        mode = policy.mode or mode
    batch = (job.type or "service") in ("batch", "sysbatch")
    if c.one_shot:
        value = ""
    elif not batch:
        value = "unless-stopped"
    elif mode == "delay":
        value = "on-failure"
    else:
        count = 3 if attempts is None else attempts
        value = f"on-failure:{count}" if count > 0 else ""
    for policy in blocks:
        _report_restart(policy, value, batch, c, ctx)
    return value


def _report_restart(
    policy: m.RestartPolicy, value: str, batch: bool, c: Container, ctx: ContainerLowering
) -> None:
    """What of a restart block the engine's restart policy does not say: a batch task's
    `attempts` and `mode = "fail"` are its `on-failure:N`; `mode = "delay"` (restart after
    the interval, without end) is plain `on-failure`, which has neither."""
    counted = batch and value != "on-failure"
    ignored = ["interval", "delay"] + ([] if counted else ["attempts", "mode"])
    details = [f"`{f}`" for f in ignored if is_set(getattr(policy, f))]
    if details:
        approximated(
            ctx,
            f"restart {', '.join(details)}: the engine restarts with its own back-off "
            f"({field(ctx, 'restart')} {value or 'no'})",
            policy,
        )
    report_leftovers(ctx, policy, ("attempts", "interval", "delay", "mode"), "a restart block")


def _stop(c: Container, ctx: ContainerLowering) -> None:
    """kill_timeout → the grace period before SIGKILL; kill_signal → the stop signal."""
    c.stop_signal = c.task.kill_signal
    c.stop_grace = c.task.kill_timeout
    if c.stop_grace is not None and c.stop_grace % SECOND and ctx.flavour.whole_second_stop:
        approximated(ctx, f"kill_timeout is rounded up to whole seconds ({field(ctx, 'stop')})", c.task)


def _logs(c: Container, ctx: ContainerLowering) -> None:
    """Nomad rotates task logs (max_files, max_file_size MiB): json-file's max-file/max-size."""
    logs = c.task.log_config
    if logs is None:
        return
    if logs.disabled or logs.enabled is False:
        c.log_driver = "none"
    else:
        if logs.max_files:
            c.log_options["max-file"] = str(logs.max_files)
        if logs.max_file_size_mb:
            c.log_options["max-size"] = f"{logs.max_file_size_mb}m"
        c.log_driver = "json-file" if c.log_options else ""
    report_leftovers(ctx, logs, ("max_files", "max_file_size_mb", "enabled", "disabled"), "the logs block")


def _report_task(task: m.Task, config: Mapping[str, Any], ctx: ContainerLowering) -> None:
    """The task's own fields and driver options that the container does not carry."""
    where = f'task "{task.name}"'
    report_leftovers(ctx, task, _TASK_FIELDS, where)
    for key in sorted(config):
        if key not in HANDLED_CONFIG and is_set(config[key]):
            unsupported(
                ctx,
                f"`{key}` in the {task.driver} config of {where} has no {target_name(ctx)} equivalent; "
                "it is left out",
                task,
            )


def container_names(
    job: m.Job, group: m.TaskGroup, task: m.Task, ctx: ContainerLowering, taken: set[str]
) -> tuple[str, str]:
    """(container name ``<job>-<group>-<task>``, service name ``<group>-<task>``), unique in
    the job; HG302 when the one this target writes differs from the Nomad names."""
    wanted_service = f"{group.name}-{task.name}"
    wanted_name = f"{job.name or job.id}-{wanted_service}"
    service = unique_name(engine_name(wanted_service), taken)
    name = engine_name(f"{job.name or job.id}") + "-" + service
    shown, wanted = (service, wanted_service) if ctx.flavour.by_service else (name, wanted_name)
    if shown != wanted:
        approximated(ctx, f'task "{task.name}" is `{shown}` ({field(ctx, "name")})', task)
    return name, service
