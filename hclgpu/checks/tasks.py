"""A task's blocks as Nomad's server validates them (HG205, HG278-HG282, HG285, HG286, HG289).

`Task.Validate` (nomad/structs/structs.go) and the `Validate` of each block it holds:
resources' `numa`, `logs`, `template`, `artifact`, `lifecycle`, `vault`, `identity`,
`action` and `volume_mount`. The rules read the canonical job (the agent's defaults filled
in: log rotation 10 x 10 MB, template change mode `restart`, artifact mode `any`), because
that is what the server checks.
"""

from __future__ import annotations

import posixpath
import re

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.server import Condition, at, go_duration, reject
from hclgpu.ir import models as m

S = "nomad/structs/structs.go"

NUMA_AFFINITY = Condition(
    "numa-affinity",
    "HG205",
    "NUMA.Validate",
    "nomad/structs/numa.go:87",
    "`numa { affinity }` is not none, prefer or require",
    "numa affinity must be one of none, prefer, or require",
)
NUMA_DEVICE = Condition(
    "numa-device-not-requested",
    "HG205",
    "Resources.Validate",
    f"{S}:2453",
    "`numa { devices }` names a device no `device` block of the task requests",
    "numa device {device!r} not requested as task resource",
    since=(2, 0, 0),
)
NUMA_ENTERPRISE = Condition(
    "numa-requires-enterprise",
    "HG289",
    "jobNumaHook.Validate",
    "nomad/job_endpoint_hook_numa_ce.go:20",
    "a task's `numa { affinity }` is prefer or require (Community Edition)",
    "numa scheduling requires Nomad Enterprise",
)
MISSING_DRIVER = Condition(
    "task-missing-driver",
    "HG278",
    "Task.Validate",
    f"{S}:8221",
    "a task has no `driver`",
    "Missing task driver",
)
NAMED_ALLOC = Condition(
    "task-named-alloc",
    "HG278",
    "Task.Validate",
    f"{S}:8211",
    'a task is named "alloc"',
    'Task cannot be named "alloc"',
    since=(1, 11, 0),
)
KILL_TIMEOUT_NEGATIVE = Condition(
    "kill-timeout-negative",
    "HG278",
    "Task.Validate",
    f"{S}:8224",
    "`kill_timeout` < 0",
    "KillTimeout must be a positive value",
)
KILL_TIMEOUT_DEADLINE = Condition(
    "kill-timeout-over-progress-deadline",
    "HG278",
    "Task.Validate",
    f"{S}:8236",
    "a service job's task has a `kill_timeout` longer than its group's `update { progress_deadline }`"
    " (10m by default)",
    "KillTimout ({kill}) longer than the group's ProgressDeadline ({deadline})",
)
TASK_SHUTDOWN_DELAY = Condition(
    "task-shutdown-delay-negative",
    "HG278",
    "Task.Validate",
    f"{S}:8241",
    "a task's `shutdown_delay` < 0",
    "ShutdownDelay must be a positive value",
)
DISTINCT_AT_TASK = Condition(
    "distinct-constraint-in-task",
    "HG278",
    "Task.Validate",
    f"{S}:8267",
    "a task-level constraint uses `distinct_hosts` or `distinct_property`",
    "Constraint {index} has disallowed Operand at task level: {operator}",
)
TASK_SYSTEM_AFFINITY = Condition(
    "system-task-affinity",
    "HG278",
    "Task.Validate",
    f"{S}:8274",
    "a task of a system job has an `affinity` block",
    "System jobs may not have an affinity block",
)
SAME_DESTINATION = Condition(
    "template-same-destination",
    "HG278",
    "Task.Validate",
    f"{S}:8314",
    "two templates of a task write to one `destination`",
    "Template {index} has same destination as {other}",
)
ACTION_TWICE = Condition(
    "action-defined-twice",
    "HG278",
    "Task.Validate",
    f"{S}:8330",
    "two `action` blocks of a task have one name",
    "Action {name} defined multiple times",
)
ACTION_COMMAND = Condition(
    "action-without-command",
    "HG286",
    "Action.Validate",
    "nomad/structs/actions.go:86",
    "an `action` has an empty `command`",
    "command cannot be empty",
)
LIFECYCLE_EMPTY = Condition(
    "lifecycle-without-hook",
    "HG279",
    "TaskLifecycleConfig.Validate",
    f"{S}:6187",
    '`lifecycle { hook = "" }`',
    "no lifecycle hook provided",
)
LIFECYCLE_HOOK = Condition(
    "lifecycle-invalid-hook",
    "HG279",
    "TaskLifecycleConfig.Validate",
    f"{S}:6189",
    "`lifecycle { hook }` is not prestart, poststart or poststop",
    "invalid hook: {hook}",
)
LOG_FILES = Condition(
    "logs-max-files",
    "HG280",
    "LogConfig.Validate",
    f"{S}:7869",
    "`logs { max_files }` < 1",
    "minimum number of files is 1; got {value}",
)
LOG_SIZE = Condition(
    "logs-max-file-size",
    "HG280",
    "LogConfig.Validate",
    f"{S}:7872",
    "`logs { max_file_size }` < 1",
    "minimum file size is 1MB; got {value}",
)
LOG_DISK = Condition(
    "logs-exceed-disk",
    "HG280",
    "LogConfig.Validate",
    f"{S}:7878",
    "a task's log files (max_files x max_file_size, 10 x 10 MB by default) do not fit below the group's"
    " `ephemeral_disk { size }` (300 MB by default)",
    "log storage ({usage} MB) must be less than requested disk capacity ({disk} MB)",
)
TEMPLATE_SOURCE = Condition(
    "template-without-source",
    "HG281",
    "Template.Validate",
    f"{S}:8938",
    "a template has neither `source` nor `data`",
    "Must specify a source path or have an embedded template",
)
TEMPLATE_DESTINATION = Condition(
    "template-without-destination",
    "HG281",
    "Template.Validate",
    f"{S}:8943",
    "a template has no `destination`",
    "Must specify a destination for the template",
)
TEMPLATE_ESCAPES = Condition(
    "template-destination-escapes",
    "HG281",
    "Template.Validate",
    f"{S}:8951",
    "a template's `destination` leads out of the allocation directory",
    "destination escapes allocation directory",
)
TEMPLATE_SIGNAL = Condition(
    "template-signal-without-signal",
    "HG281",
    "Template.Validate",
    f"{S}:8959",
    '`change_mode = "signal"` without `change_signal`',
    "Must specify signal value when change mode is signal",
)
TEMPLATE_SIGNAL_ENV = Condition(
    "template-signal-with-env",
    "HG281",
    "Template.Validate",
    f"{S}:8962",
    '`change_mode = "signal"` with `env = true`',
    "cannot use signals with env var templates",
)
TEMPLATE_SCRIPT = Condition(
    "template-script-without-script",
    "HG281",
    "Template.Validate",
    f"{S}:8966",
    '`change_mode = "script"` without a `change_script` block',
    "must specify change script configuration value when change mode is script",
)
TEMPLATE_MODE = Condition(
    "template-change-mode",
    "HG281",
    "Template.Validate",
    f"{S}:8973",
    "`change_mode` is not noop, restart, signal or script",
    "Invalid change mode. Must be one of the following: noop, signal, script, restart",
)
TEMPLATE_SPLAY = Condition(
    "template-negative-splay",
    "HG281",
    "Template.Validate",
    f"{S}:8978",
    "`splay` < 0",
    "Must specify positive splay value",
)
TEMPLATE_PERMS = Condition(
    "template-perms-not-octal",
    "HG281",
    "Template.Validate",
    f"{S}:8984",
    "`perms` is not an octal number of at most 12 bits",
    "Failed to parse {perms!r} as octal",
)
TEMPLATE_WAIT = Condition(
    "template-wait-min-above-max",
    "HG281",
    "WaitConfig.Validate",
    f"{S}:9126",
    "`wait { min }` > `wait { max }`",
    "wait min {min} is greater than max {max}",
)
ARTIFACT_SOURCE = Condition(
    "artifact-without-source",
    "HG282",
    "TaskArtifact.Validate",
    f"{S}:9893",
    "an artifact has an empty `source`",
    "source must be specified",
)
ARTIFACT_MODE = Condition(
    "artifact-mode",
    "HG282",
    "TaskArtifact.Validate",
    f"{S}:9903",
    "an artifact's `mode` is not any, file or dir",
    "invalid artifact mode {mode!r}; must be one of: any, file, dir",
)
ARTIFACT_ESCAPES = Condition(
    "artifact-destination-escapes",
    "HG282",
    "TaskArtifact.Validate",
    f"{S}:9911",
    "an artifact's `destination` leads out of the allocation directory",
    "destination escapes allocation directory",
)
MOUNT_UNDEFINED = Condition(
    "volume-mount-undefined-volume",
    "HG285",
    "Task.Validate",
    f"{S}:8372",
    "a `volume_mount` names a volume the group does not declare",
    "Volume Mount ({index}) references undefined volume {volume}",
)
MOUNT_PROPAGATION = Condition(
    "volume-mount-propagation",
    "HG285",
    "VolumeMount.Validate",
    "nomad/structs/volumes.go:335",
    "`propagation_mode` is not private, host-to-task or bidirectional",
    "volume mount has an invalid propagation mode: {mode!r}",
)
VAULT_SIGNAL = Condition(
    "vault-signal-without-signal",
    "HG286",
    "Vault.Validate",
    f"{S}:10530",
    'a `vault` block has `change_mode = "signal"` without `change_signal`',
    'Signal must be specified when using change mode "signal"',
)
VAULT_MODE = Condition(
    "vault-change-mode",
    "HG286",
    "Vault.Validate",
    f"{S}:10534",
    "a `vault` block's `change_mode` is not noop, restart or signal",
    "Unknown change mode {mode!r}",
)
IDENTITY_NAME = Condition(
    "identity-name",
    "HG286",
    "WorkloadIdentity.Validate",
    "nomad/structs/workload_id.go:459",
    "an `identity` name does not match ^[a-zA-Z0-9-_]{1,128}$",
    "invalid name {name!r}. Must match regex ^[a-zA-Z0-9-_]{{1,128}}$",
)
IDENTITY_AUDIENCE = Condition(
    "identity-empty-audience",
    "HG286",
    "WorkloadIdentity.Validate",
    "nomad/structs/workload_id.go:465",
    "an `identity { aud }` holds an empty string",
    "an empty string is an invalid audience ({index})",
)
IDENTITY_SIGNAL_MODE = Condition(
    "identity-signal-without-mode",
    "HG286",
    "WorkloadIdentity.Validate",
    "nomad/structs/workload_id.go:473",
    '`change_signal` on an identity whose `change_mode` is not "signal"',
    'can only use change_signal={signal!r} with change_mode="signal"',
)
IDENTITY_SIGNAL = Condition(
    "identity-signal-without-signal",
    "HG286",
    "WorkloadIdentity.Validate",
    "nomad/structs/workload_id.go:478",
    '`change_mode = "signal"` on an identity without `change_signal`',
    'change_signal must be specified when using change_mode="signal"',
)
IDENTITY_MODE = Condition(
    "identity-change-mode",
    "HG286",
    "WorkloadIdentity.Validate",
    "nomad/structs/workload_id.go:482",
    "an identity's `change_mode` is not restart, signal or empty",
    "invalid change_mode: {mode}",
)
IDENTITY_TTL = Condition(
    "identity-negative-ttl",
    "HG286",
    "WorkloadIdentity.Validate",
    "nomad/structs/workload_id.go:490",
    "an identity's `ttl` < 0",
    "ttl must be >= 0",
)


def escapes_allocation(prefix: str, path: str) -> bool:
    """``escapingfs.PathEscapesAllocViaRelative``: does ``<alloc>/<prefix>/<path>`` leave ``<alloc>``?

    Go's ``filepath.Join`` keeps an absolute ``path`` under the prefix, so only ``..`` escapes."""
    full = posixpath.normpath("/".join(("/alloc-dir/alloc-id", prefix, path)))
    return posixpath.relpath(full, "/alloc-dir/alloc-id").startswith("..")


@rule("HG205")
def numa_blocks(ctx: Context) -> None:
    """`numa` needs a known affinity and devices the task requests; CE refuses any request."""
    for _, task in ctx.canonical_tasks():
        numa = task.resources.numa if task.resources is not None else None
        if numa is None:
            continue
        where = f"task `{task.name}`"
        if numa.affinity not in ("", "none", "prefer", "require"):  # "" is none (NUMA.Canonicalize)
            reject(
                ctx,
                NUMA_AFFINITY,
                at(ctx, [numa], "affinity"),
                where=where,
                help='write `affinity = "none"`, `"prefer"` or `"require"`',
            )
        requested = {device.name for device in (task.resources.devices or [])} if task.resources else set()
        for device in numa.devices or []:
            if device not in requested:
                reject(
                    ctx,
                    NUMA_DEVICE,
                    at(ctx, [numa], "devices"),
                    where=where,
                    device=device,
                    help=f'add `device "{device}" {{}}` to the task\'s resources,'
                    " or remove it from `devices`",
                )
        if numa.affinity not in ("", "none"):
            reject(
                ctx,
                NUMA_ENTERPRISE,
                at(ctx, [numa], "affinity"),
                where=where,
                help="only Nomad Enterprise schedules by NUMA node; on Enterprise, ignore HG289",
            )


@rule("HG278")
def task_settings(ctx: Context) -> None:
    """`Task.Validate`'s own checks, in its order."""
    job_type = ctx.canonical.type or "service"
    for group, task in ctx.canonical_tasks():
        where = f"task `{task.name}`"
        if not task.driver:
            reject(
                ctx,
                MISSING_DRIVER,
                ctx.label_span(task),
                where=where,
                help='set `driver = "docker"` (or the driver that runs the task)',
            )
        if task.name == "alloc":
            reject(
                ctx,
                NAMED_ALLOC,
                ctx.label_span(task),
                where=where,
                help="rename the task: `alloc` is the shared allocation directory",
            )
        _kill_timeout(ctx, group, task, job_type, where)
        if (task.shutdown_delay or 0) < 0:
            reject(
                ctx,
                TASK_SHUTDOWN_DELAY,
                at(ctx, [task], "shutdown_delay"),
                where=where,
                help="use a delay of 0 or more",
            )
        for index, constraint in enumerate(task.constraints or [], 1):
            if constraint.operand in ("distinct_hosts", "distinct_property"):
                reject(
                    ctx,
                    DISTINCT_AT_TASK,
                    ctx.header_span(constraint),
                    where=where,
                    index=index,
                    operator=constraint.operand,
                    help="move the constraint to the group or the job",
                )
        if job_type == "system" and task.affinities:
            reject(
                ctx,
                TASK_SYSTEM_AFFINITY,
                ctx.header_span(task.affinities[0]),
                where=where,
                help="remove the affinity: a system job runs on every eligible node",
            )
        _destinations(ctx, task, where)
        _actions(ctx, task, where)


def _kill_timeout(ctx: Context, group: m.TaskGroup, task: m.Task, job_type: str, where: str) -> None:
    kill = task.kill_timeout or 0
    if kill < 0:
        reject(
            ctx,
            KILL_TIMEOUT_NEGATIVE,
            at(ctx, [task], "kill_timeout"),
            where=where,
            help="use a timeout of 0 or more",
        )
        return
    deadline = group.update.progress_deadline if group.update is not None else None
    if job_type == "service" and deadline is not None and deadline > 0 and kill > deadline:
        reject(
            ctx,
            KILL_TIMEOUT_DEADLINE,
            at(ctx, [task], "kill_timeout"),
            where=where,
            kill=go_duration(kill),
            deadline=go_duration(deadline),
            help=f"raise the group's `update {{ progress_deadline }}` above {go_duration(kill)},"
            " or shorten `kill_timeout`",
        )


def _destinations(ctx: Context, task: m.Task, where: str) -> None:
    seen: dict[str, int] = {}
    for index, template in enumerate(task.templates or [], 1):
        destination = template.dest_path or ""
        if destination in seen:
            reject(
                ctx,
                SAME_DESTINATION,
                at(ctx, [template], "destination"),
                where=where,
                index=index,
                other=seen[destination],
                help="give each template its own destination",
            )
        else:
            seen[destination] = index


def _actions(ctx: Context, task: m.Task, where: str) -> None:
    reported: dict[str, bool] = {}
    for action in task.actions or []:
        if not action.command:
            reject(
                ctx,
                ACTION_COMMAND,
                at(ctx, [action], "command"),
                where=f"{where}, action `{action.name}`",
                help="set the `command` the action runs",
            )
        if reported.get(action.name) is False:
            reject(
                ctx,
                ACTION_TWICE,
                ctx.label_span(action),
                where=where,
                name=action.name,
                help="give each action its own name",
            )
            reported[action.name] = True
        reported.setdefault(action.name, False)


@rule("HG279")
def lifecycle_hooks(ctx: Context) -> None:
    for _, task in ctx.canonical_tasks():
        lifecycle = task.lifecycle
        if lifecycle is None or lifecycle.hook in ("prestart", "poststart", "poststop"):
            continue
        condition = LIFECYCLE_EMPTY if lifecycle.hook == "" else LIFECYCLE_HOOK
        reject(
            ctx,
            condition,
            at(ctx, [lifecycle], "hook"),
            where=f"task `{task.name}`",
            hook=lifecycle.hook,
            help='use `hook = "prestart"`, `"poststart"` or `"poststop"`',
        )


@rule("HG280")
def log_rotation(ctx: Context) -> None:
    """`LogConfig.Validate`, with the group's ephemeral disk (`EphemeralDisk.Validate` is in groups)."""
    for group, task in ctx.canonical_tasks():
        logs = task.log_config
        if logs is None:
            continue
        where = f"task `{task.name}`"
        files, size = logs.max_files or 0, logs.max_file_size_mb or 0
        if files < 1:
            reject(
                ctx,
                LOG_FILES,
                at(ctx, [logs], "max_files"),
                where=where,
                value=files,
                help="keep at least one log file",
            )
        if size < 1:
            reject(
                ctx,
                LOG_SIZE,
                at(ctx, [logs], "max_file_size"),
                where=where,
                value=size,
                help="use a file size of at least 1 (MB)",
            )
        disk = group.ephemeral_disk
        if disk is not None and (disk.size_mb or 0) <= files * size:
            reject(
                ctx,
                LOG_DISK,
                at(ctx, [logs, disk], "max_files", "size"),
                where=where,
                usage=files * size,
                disk=disk.size_mb or 0,
                help=f"raise `ephemeral_disk {{ size }}` above {files * size}, or keep fewer or smaller logs",
            )


@rule("HG281")
def templates(ctx: Context) -> None:
    for _, task in ctx.canonical_tasks():
        for index, template in enumerate(task.templates or [], 1):
            _template(ctx, template, f"task `{task.name}`, template {index}")


def _template(ctx: Context, template: m.Template, where: str) -> None:
    if not template.source_path and not template.embedded_tmpl:
        reject(
            ctx,
            TEMPLATE_SOURCE,
            ctx.header_span(template),
            where=where,
            help="set `data` (the template text) or `source` (a file to render)",
        )
    if not template.dest_path:
        reject(
            ctx,
            TEMPLATE_DESTINATION,
            ctx.header_span(template),
            where=where,
            help='set `destination`, e.g. `"local/config.txt"`',
        )
    elif escapes_allocation("task", template.dest_path):
        reject(
            ctx,
            TEMPLATE_ESCAPES,
            at(ctx, [template], "destination"),
            where=where,
            help="keep the destination inside the task directory (local/, secrets/, alloc/)",
        )
    _change_mode(ctx, template, where)
    if (template.splay or 0) < 0:
        reject(
            ctx, TEMPLATE_SPLAY, at(ctx, [template], "splay"), where=where, help="use a splay of 0 or more"
        )
    if template.perms and not _octal_12_bits(template.perms):
        reject(
            ctx,
            TEMPLATE_PERMS,
            at(ctx, [template], "perms"),
            where=where,
            perms=template.perms,
            help='write the mode in octal, e.g. `perms = "0644"`',
        )
    wait = template.wait
    if wait is not None and wait.min is not None and wait.max is not None and wait.min > wait.max:
        reject(
            ctx,
            TEMPLATE_WAIT,
            at(ctx, [wait], "min"),
            where=where,
            min=go_duration(wait.min),
            max=go_duration(wait.max),
            help="keep `min` at or below `max`",
        )


def _change_mode(ctx: Context, template: m.Template, where: str) -> None:
    mode = template.change_mode
    span = at(ctx, [template], "change_mode")
    if mode == "signal":
        if not template.change_signal:
            reject(
                ctx, TEMPLATE_SIGNAL, span, where=where, help='add `change_signal = "SIGHUP"` (or the signal)'
            )
        if template.envvars:
            reject(
                ctx,
                TEMPLATE_SIGNAL_ENV,
                span,
                where=where,
                help='an env template cannot be re-read by a signal: use `change_mode = "restart"`',
            )
    elif mode == "script":
        if template.change_script is None:
            reject(
                ctx, TEMPLATE_SCRIPT, span, where=where, help="add a `change_script { command = ... }` block"
            )
    elif mode not in ("noop", "restart"):
        reject(ctx, TEMPLATE_MODE, span, where=where, help="use noop, restart, signal or script")


def _octal_12_bits(text: str) -> bool:
    """``strconv.ParseUint(text, 8, 12)`` succeeds."""
    return re.fullmatch(r"[0-7]+", text) is not None and int(text, 8) < 1 << 12


@rule("HG282")
def artifacts(ctx: Context) -> None:
    for _, task in ctx.canonical_tasks():
        for index, artifact in enumerate(task.artifacts or [], 1):
            where = f"task `{task.name}`, artifact {index}"
            if not artifact.getter_source:
                reject(
                    ctx,
                    ARTIFACT_SOURCE,
                    at(ctx, [artifact], "source"),
                    where=where,
                    help="set `source`: the URL or path go-getter fetches",
                )
            if artifact.getter_mode not in (None, "any", "file", "dir"):
                reject(
                    ctx,
                    ARTIFACT_MODE,
                    at(ctx, [artifact], "mode"),
                    where=where,
                    mode=artifact.getter_mode,
                    help='use `mode = "any"`, `"file"` or `"dir"`',
                )
            if artifact.relative_dest and escapes_allocation("task", artifact.relative_dest):
                reject(
                    ctx,
                    ARTIFACT_ESCAPES,
                    at(ctx, [artifact], "destination"),
                    where=where,
                    help="keep the destination inside the task directory",
                )


@rule("HG285")
def volume_mounts(ctx: Context) -> None:
    for group, task in ctx.canonical_tasks():
        declared = set(group.volumes or {})
        for index, mount in enumerate(task.volume_mounts or []):
            where = f"task `{task.name}`"
            if mount.volume and mount.volume not in declared:
                reject(
                    ctx,
                    MOUNT_UNDEFINED,
                    at(ctx, [mount], "volume"),
                    where=where,
                    index=index,
                    volume=mount.volume,
                    help=f'declare `volume "{mount.volume}" {{ ... }}` in group `{group.name}`',
                )
            if mount.propagation_mode not in (None, "", "private", "host-to-task", "bidirectional"):
                reject(
                    ctx,
                    MOUNT_PROPAGATION,
                    at(ctx, [mount], "propagation_mode"),
                    where=where,
                    mode=mount.propagation_mode,
                    help="use private, host-to-task or bidirectional",
                )


@rule("HG286")
def identities_and_vault(ctx: Context) -> None:
    for _, task in ctx.canonical_tasks():
        where = f"task `{task.name}`"
        if task.vault is not None:
            _vault(ctx, task.vault, where)
        for identity in [*([task.identity] if task.identity else []), *(task.identities or [])]:
            _identity(ctx, identity, f"{where}, identity `{identity.name or 'default'}`")


def _vault(ctx: Context, vault: m.Vault, where: str) -> None:
    span = at(ctx, [vault], "change_mode")
    if vault.change_mode == "signal" and not vault.change_signal:
        reject(ctx, VAULT_SIGNAL, span, where=where, help='add `change_signal = "SIGHUP"` (or the signal)')
    elif vault.change_mode not in (None, "noop", "restart", "signal"):
        reject(ctx, VAULT_MODE, span, where=where, mode=vault.change_mode, help="use noop, restart or signal")


IDENTITY_NAME_PATTERN = re.compile(r"[a-zA-Z0-9\-_]{1,128}")


def _identity(ctx: Context, identity: m.WorkloadIdentity, where: str) -> None:
    if identity.name and not IDENTITY_NAME_PATTERN.fullmatch(identity.name):
        reject(
            ctx,
            IDENTITY_NAME,
            at(ctx, [identity], "name"),
            where=where,
            name=identity.name,
            help="use letters, digits, - and _ only",
        )
    for index, audience in enumerate(identity.audience or []):
        if audience == "":
            reject(
                ctx,
                IDENTITY_AUDIENCE,
                at(ctx, [identity], "aud"),
                where=where,
                index=index,
                help="remove the empty audience",
            )
    mode = identity.change_mode
    if identity.change_signal and mode != "signal":
        reject(
            ctx,
            IDENTITY_SIGNAL_MODE,
            at(ctx, [identity], "change_signal"),
            where=where,
            signal=identity.change_signal,
            help='set `change_mode = "signal"`, or remove `change_signal`',
        )
    if mode == "signal" and not identity.change_signal:
        reject(
            ctx,
            IDENTITY_SIGNAL,
            at(ctx, [identity], "change_mode"),
            where=where,
            help='add `change_signal = "SIGHUP"` (or the signal)',
        )
    elif mode not in ("", "restart", "signal"):
        reject(
            ctx,
            IDENTITY_MODE,
            at(ctx, [identity], "change_mode"),
            where=where,
            mode=mode,
            help="use restart or signal",
        )
    if (identity.ttl or 0) < 0:
        reject(ctx, IDENTITY_TTL, at(ctx, [identity], "ttl"), where=where, help="use a ttl of 0 or more")
