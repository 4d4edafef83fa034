"""A task's own settings as Nomad's server validates them (HG205, HG278-HG280, HG285, HG289).

`Task.Validate` (nomad/structs/structs.go) and the `Validate` of the small blocks it holds:
the task's name, driver, kill timeout and shutdown delay, its constraints and affinities,
one template per destination, `resources` and its `numa` (which the Community Edition
refuses), `lifecycle`, `logs` and `volume_mount`. The blocks with checks of their own are
elsewhere: `action`, `csi_plugin` and (Nomad Enterprise) `schedule` in
:mod:`hclgpu.checks.task_blocks`, whose errors Nomad words as the task's; `template` and
`artifact` in :mod:`hclgpu.checks.task_files`; identities, `vault` and `secret` blocks in
:mod:`hclgpu.checks.secrets`. The rules read the canonical job (the agent's defaults filled
in, such as log rotation 10 x 10 MB), because that is what the server checks.
"""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.jobs import HG289
from hclgpu.checks.server import Condition, at, go_duration, reject
from hclgpu.checks.task_blocks import HG278, validate_actions, validate_csi_plugin, validate_schedule
from hclgpu.codes.base import Code, E
from hclgpu.ir import models as m

HG205 = Code(
    "HG205",
    "invalid-numa",
    E,
    summary="A `numa` block Nomad refuses",
    doc="""What: a task's `resources { numa { ... } }` names an affinity other than `none`,
`prefer` or `require`, or lists in `devices` a device the task does not request.

Why: Nomad rejects the job at registration: "numa affinity must be one of none, prefer,
or require", "numa device \"amd/gpu\" not requested as task resource"
(`Resources.Validate`, `NUMA.Validate`).

Example:
    resources {
      numa {
        affinity = "sometimes"
        devices  = ["amd/gpu"]
      }
    }

Fix: use one of the three affinities, and list only devices the task asks for in a
`device` block.""",
)


HG279 = Code(
    "HG279",
    "invalid-lifecycle",
    E,
    summary="A `lifecycle` block Nomad refuses",
    doc="""What: a task's `lifecycle { hook }` is not prestart, poststart or poststop.

Why: Nomad rejects the job at registration (`TaskLifecycleConfig.Validate`: "invalid
hook: ...").

Example:
    lifecycle {
      hook = "before"
    }

Fix: use prestart, poststart or poststop.""",
)


HG280 = Code(
    "HG280",
    "invalid-logs-or-disk",
    E,
    summary="A `logs` or `ephemeral_disk` setting Nomad refuses",
    doc="""What: `logs { max_files }` is below 1 or `max_file_size` below 1 MB, the logs of the
group's tasks (files x size) do not fit below `ephemeral_disk { size }`, or that size is
under 10 MB.

Why: Nomad rejects the job at registration (`LogConfig.Validate`,
`EphemeralDisk.Validate`).

Example:
    ephemeral_disk { size = 5 }

Fix: raise the disk size, or keep fewer or smaller log files.""",
)


HG285 = Code(
    "HG285",
    "invalid-volume",
    E,
    summary="A `volume` or `volume_mount` Nomad refuses",
    doc="""What: a group volume has no `source`, uses `per_alloc` in a system job, with canaries
or with `sticky`; a host volume has `mount_options`, an access mode other than the
single-node ones (before 1.10: any access or attachment mode), or a reader mode without
`read_only`; a CSI volume lacks `access_mode` or `attachment_mode`, is a block device with
`mount_options`, has a read-only mode without `read_only`, or has a single-claim mode in a
group of several allocations without `per_alloc`; or a task's `volume_mount` names a
volume the group does not declare, or has an unknown `propagation_mode`.

Why: Nomad rejects the job at registration (`VolumeRequest.Validate`,
`VolumeMount.Validate`, `Task.Validate`).

Example:
    volume_mount {
      volume      = "data"   # no volume \"data\" in the group
      destination = "/data"
    }

Fix: declare the volume in the group, or mount one that is declared.""",
)


S = "nomad/structs/structs.go"

NUMA_AFFINITY = Condition(
    "numa-affinity",
    code=HG205,
    nomad="NUMA.Validate",
    source="nomad/structs/numa.go:87",
    condition="`numa { affinity }` is not none, prefer or require",
    message="numa affinity must be one of none, prefer, or require",
)
NUMA_DEVICE = Condition(
    "numa-device-not-requested",
    code=HG205,
    nomad="Resources.Validate",
    source=f"{S}:2453",
    condition="`numa { devices }` names a device no `device` block of the task requests",
    message="numa device {device!r} not requested as task resource",
    since=(2, 0, 0),
)
NUMA_ENTERPRISE = Condition(
    "numa-requires-enterprise",
    code=HG289,
    nomad="jobNumaHook.Validate",
    source="nomad/job_endpoint_hook_numa_ce.go:20",
    condition="a task's `numa { affinity }` is prefer or require (Community Edition)",
    message="numa scheduling requires Nomad Enterprise",
    fact="enterprise",
)
TASK_NAMELESS = Condition(
    "task-missing-name",
    code=HG278,
    nomad="Task.Validate",
    source=f"{S}:8205",
    condition='a task is labelled with the empty string (`task "" {}`; its group reports it too)',
    message="Missing task name",
)
MISSING_DRIVER = Condition(
    "task-missing-driver",
    code=HG278,
    nomad="Task.Validate",
    source=f"{S}:8221",
    condition="a task has no `driver`",
    message="Missing task driver",
)
NAMED_ALLOC = Condition(
    "task-named-alloc",
    code=HG278,
    nomad="Task.Validate",
    source=f"{S}:8211",
    condition='a task is named "alloc"',
    message='Task cannot be named "alloc"',
    since=(1, 11, 0),
)
KILL_TIMEOUT_NEGATIVE = Condition(
    "kill-timeout-negative",
    code=HG278,
    nomad="Task.Validate",
    source=f"{S}:8224",
    condition="`kill_timeout` < 0",
    message="KillTimeout must be a positive value",
)
KILL_TIMEOUT_DEADLINE = Condition(
    "kill-timeout-over-progress-deadline",
    code=HG278,
    nomad="Task.Validate",
    source=f"{S}:8236",
    condition="a service job's task has a `kill_timeout` longer than its group's `update"
    " { progress_deadline }`"
    " (10m by default)",
    message="KillTimout ({kill}) longer than the group's ProgressDeadline ({deadline})",
)
TASK_SHUTDOWN_DELAY = Condition(
    "task-shutdown-delay-negative",
    code=HG278,
    nomad="Task.Validate",
    source=f"{S}:8241",
    condition="a task's `shutdown_delay` < 0",
    message="ShutdownDelay must be a positive value",
)
DISTINCT_AT_TASK = Condition(
    "distinct-constraint-in-task",
    code=HG278,
    nomad="Task.Validate",
    source=f"{S}:8267",
    condition="a task-level constraint uses `distinct_hosts` or `distinct_property`",
    message="Constraint {index} has disallowed Operand at task level: {operator}",
)
TASK_SYSTEM_AFFINITY = Condition(
    "system-task-affinity",
    code=HG278,
    nomad="Task.Validate",
    source=f"{S}:8274",
    condition="a task of a system job has an `affinity` block",
    message="System jobs may not have an affinity block",
)
SAME_DESTINATION = Condition(
    "template-same-destination",
    code=HG278,
    nomad="Task.Validate",
    source=f"{S}:8314",
    condition="two templates of a task write to one `destination`",
    message="Template {index} has same destination as {other}",
)
CORES_NEGATIVE = Condition(
    "resources-negative-cores",
    code=HG278,
    nomad="Resources.Validate",
    source=f"{S}:2428",
    condition="`resources { cores }` < 0",
    message="cores value ({cores}) cannot be negative",
    since=(2, 0, 5),
)
SECRETS_ABOVE_MEMORY = Condition(
    "resources-secrets-above-memory",
    code=HG278,
    nomad="Resources.Validate",
    source=f"{S}:2470",
    condition="`resources { secrets }` (the secrets tmpfs, in MB) is larger than `memory` (300 by default)",
    message="SecretsMB value ({secrets}) cannot be larger than MemoryMB value ({memory})",
    since=(1, 9, 0),
)
SECRETS_NEGATIVE = Condition(
    "resources-negative-secrets",
    code=HG278,
    nomad="Resources.Validate",
    source=f"{S}:2473",
    condition="`resources { secrets }` < 0",
    message="SecretsMB value ({secrets}) cannot be negative",
    since=(1, 9, 0),
)
LIFECYCLE_EMPTY = Condition(
    "lifecycle-without-hook",
    code=HG279,
    nomad="TaskLifecycleConfig.Validate",
    source=f"{S}:6187",
    condition='`lifecycle { hook = "" }`',
    message="no lifecycle hook provided",
)
LIFECYCLE_HOOK = Condition(
    "lifecycle-invalid-hook",
    code=HG279,
    nomad="TaskLifecycleConfig.Validate",
    source=f"{S}:6189",
    condition="`lifecycle { hook }` is not prestart, poststart or poststop",
    message="invalid hook: {hook}",
)
LOG_FILES = Condition(
    "logs-max-files",
    code=HG280,
    nomad="LogConfig.Validate",
    source=f"{S}:7869",
    condition="`logs { max_files }` < 1",
    message="minimum number of files is 1; got {value}",
)
LOG_SIZE = Condition(
    "logs-max-file-size",
    code=HG280,
    nomad="LogConfig.Validate",
    source=f"{S}:7872",
    condition="`logs { max_file_size }` < 1",
    message="minimum file size is 1MB; got {value}",
)
LOG_DISK = Condition(
    "logs-exceed-disk",
    code=HG280,
    nomad="LogConfig.Validate",
    source=f"{S}:7878",
    condition="a task's log files (max_files x max_file_size, 10 x 10 MB by default) do not fit below the"
    " group's"
    " `ephemeral_disk { size }` (300 MB by default)",
    message="log storage ({usage} MB) must be less than requested disk capacity ({disk} MB)",
)
MOUNT_UNDEFINED = Condition(
    "volume-mount-undefined-volume",
    code=HG285,
    nomad="Task.Validate",
    source=f"{S}:8372",
    condition="a `volume_mount` names a volume the group does not declare",
    message="Volume Mount ({index}) references undefined volume {volume}",
)
MOUNT_PROPAGATION = Condition(
    "volume-mount-propagation",
    code=HG285,
    nomad="VolumeMount.Validate",
    source="nomad/structs/volumes.go:335",
    condition="`propagation_mode` is not private, host-to-task or bidirectional",
    message="volume mount has an invalid propagation mode: {mode!r}",
)
MOUNT_EMPTY_VOLUME = Condition(
    "volume-mount-empty-volume",
    code=HG285,
    nomad="VolumeMount.Validate",
    source="nomad/structs/volumes.go:331",
    condition='`volume_mount { volume = "" }` (a mount without `volume` is dropped by the agent)',
    message="volume mount references an empty volume",
)
MOUNT_SELINUX = Condition(
    "volume-mount-selinux-label",
    code=HG285,
    nomad="VolumeMount.Validate",
    source="nomad/structs/volumes.go:339",
    condition="`selinux_label` is not z, Z or empty",
    message='volume mount has an invalid SELinux label: "{label}"',
)


@rule(HG205)
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
                help="only Nomad Enterprise schedules by NUMA node; on Enterprise, say so:"
                " `enterprise = true`",
            )


@rule(HG278)
def task_settings(ctx: Context) -> None:
    """`Task.Validate`'s own checks, in its order, then those of the blocks it reports as HG278."""
    job_type = ctx.canonical.type or "service"
    for group, task in ctx.canonical_tasks():
        where = f"task `{task.name}`" if task.name else f"group `{group.name}`, a task without a name"
        _task_name(ctx, task, where)
        if not task.driver:
            reject(
                ctx,
                MISSING_DRIVER,
                ctx.label_span(task),
                where=where,
                help='set `driver = "docker"` (or the driver that runs the task)',
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
        if task.resources is not None:
            _resources(ctx, task.resources, where)
        _task_constraints(ctx, task, job_type, where)
        _destinations(ctx, task, where)
        validate_actions(ctx, task, where)
        if task.csi_plugin_config is not None:
            validate_csi_plugin(ctx, task.csi_plugin_config, f"{where}, csi_plugin")
        if task.schedule is not None and task.schedule.cron is not None:
            validate_schedule(ctx, task.schedule.cron, f"{where}, schedule")


def _task_name(ctx: Context, task: m.Task, where: str) -> None:
    """The name checks; slashes and NUL characters are HG266's (hclgpu.checks.naming)."""
    if not task.name:
        reject(ctx, TASK_NAMELESS, ctx.label_span(task), where=where, help="give the task a name")
    if task.name == "alloc":
        reject(
            ctx,
            NAMED_ALLOC,
            ctx.label_span(task),
            where=where,
            help="rename the task: `alloc` is the shared allocation directory",
        )


def _task_constraints(ctx: Context, task: m.Task, job_type: str, where: str) -> None:
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


def _resources(ctx: Context, resources: m.Resources, where: str) -> None:
    """The checks of `Resources.Validate` no older rule makes (HG240-HG242 make the others)."""
    cores = resources.cores or 0
    if cores < 0:
        reject(
            ctx,
            CORES_NEGATIVE,
            at(ctx, [resources], "cores"),
            where=where,
            cores=cores,
            help="reserve 1 or more whole cores, or remove `cores`",
        )
    secrets, memory = resources.secrets_mb or 0, resources.memory_mb or 0
    if secrets > memory:
        reject(
            ctx,
            SECRETS_ABOVE_MEMORY,
            at(ctx, [resources], "secrets"),
            where=where,
            secrets=secrets,
            memory=memory,
            help=f"the secrets directory is held in memory: raise `memory` to {secrets} or more,"
            " or lower `secrets`",
        )
    if secrets < 0:
        reject(
            ctx,
            SECRETS_NEGATIVE,
            at(ctx, [resources], "secrets"),
            where=where,
            secrets=secrets,
            help="use a size of 0 or more (MB)",
        )


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


@rule(HG279)
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


@rule(HG280)
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


@rule(HG285)
def volume_mounts(ctx: Context) -> None:
    """`Task.Validate`'s mount loop; a mount without `volume` never reaches it (the agent drops it)."""
    for group, task in ctx.canonical_tasks():
        declared = set(group.volumes or {})
        for index, mount in enumerate(task.volume_mounts or []):
            if mount.volume is None:
                continue
            where = f"task `{task.name}`"
            if mount.volume not in declared:
                reject(
                    ctx,
                    MOUNT_UNDEFINED,
                    at(ctx, [mount], "volume"),
                    where=where,
                    index=index,
                    volume=mount.volume,
                    help=f'declare `volume "{mount.volume}" {{ ... }}` in group `{group.name}`'
                    if mount.volume
                    else "name the group volume to mount",
                )
            _volume_mount(ctx, mount, f"{where}, volume mount {index}")


def _volume_mount(ctx: Context, mount: m.VolumeMount, where: str) -> None:
    """`VolumeMount.Validate`."""
    if mount.volume == "":
        reject(
            ctx,
            MOUNT_EMPTY_VOLUME,
            at(ctx, [mount], "volume"),
            where=where,
            help="name the group volume to mount",
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
    if mount.selinux_label not in (None, "", "z", "Z"):
        reject(
            ctx,
            MOUNT_SELINUX,
            at(ctx, [mount], "selinux_label"),
            where=where,
            label=mount.selinux_label,
            help='use `"z"` (shared between containers) or `"Z"` (private to the task)',
        )
