"""The task blocks whose errors Nomad words as the task's (HG278): `action`, `csi_plugin`, `schedule`.

`Task.Validate` (nomad/structs/structs.go) checks each `action` (`Action.Validate`: a
command, a name Nomad accepts, each name once), the `csi_plugin` block of a task that runs
a CSI plugin (an id, a type, a staging directory outside the mount directory) and, in
Nomad Enterprise, the task `schedule` (`TaskSchedule.Validate`,
nomad/structs/task_sched.go: the cron fields it allows). The task's rule in
:mod:`hclgpu.checks.tasks` runs these checks at their place in `Task.Validate`. The blocks
are read from the canonical job (CSI directories /csi and /local/csi by default).
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from hclgpu.checks.context import Context
from hclgpu.checks.server import Condition, at, reject
from hclgpu.codes.base import Code, E
from hclgpu.ir import models as m

HG278 = Code(
    "HG278",
    "invalid-task",
    E,
    summary="A task setting Nomad refuses",
    doc="""What: a task breaks a rule of `Task.Validate` or of a block it holds: no name or
`driver`, the name `alloc`, a negative `kill_timeout` or `shutdown_delay`, a
`kill_timeout` longer than the group's progress deadline (10m by default in service
jobs), two templates with one destination, a `distinct_hosts`/`distinct_property`
constraint at task level; an `action` without a command, with a name Nomad refuses or
defined twice; `resources` with negative `cores` or `secrets`, or `secrets` above
`memory`; a `csi_plugin` without `id`, of an unknown `type`, or staging inside its
`mount_dir`; a `schedule { cron }` whose `start` or `end` is not six and two fields
without steps or lists (checked by Nomad Enterprise; the Community Edition refuses any
schedule, HG289).

Why: Nomad rejects the job at registration ("Task web validation failed: ...").

Example:
    task "web" {
      kill_timeout = "15m"   # service job: progress_deadline defaults to 10m
    }

Fix: do what the message says; for kill_timeout, raise `update { progress_deadline }`
above it or shorten it.""",
)

S = "nomad/structs/structs.go"
SCHEDULE = "nomad/structs/task_sched.go"

ACTION_TWICE = Condition(
    "action-defined-twice",
    code=HG278,
    nomad="Task.Validate",
    source=f"{S}:8330",
    condition="two `action` blocks of a task have one name",
    message="Action {name} defined multiple times",
)
ACTION_COMMAND = Condition(
    "action-without-command",
    code=HG278,
    nomad="Action.Validate",
    source="nomad/structs/actions.go:86",
    condition="an `action` has an empty `command`",
    message="command cannot be empty",
)
ACTION_NAME = Condition(
    "action-name",
    code=HG278,
    nomad="Action.Validate",
    source="nomad/structs/actions.go:89",
    condition="an `action` label is empty, longer than 128 characters, or holds white space or a NUL",
    message="invalid name '{name}'",
    since=(1, 9, 4),
)
ACTION_NAME_LETTERS = Condition(
    "action-name-letters-digits-dashes",
    code=HG278,
    nomad="Action.Validate",
    source="nomad/structs/actions.go:89",
    condition="an `action` label is not 1-128 letters, digits and dashes",
    message="invalid name '{name}'",
    until=(1, 9, 4),
    tag="v1.9.0",
)
CSI_PLUGIN_ID = Condition(
    "csi-plugin-without-id",
    code=HG278,
    nomad="Task.Validate",
    source=f"{S}:8383",
    condition="a `csi_plugin` block has no `id`",
    message="CSIPluginConfig must have a non-empty PluginID",
)
CSI_PLUGIN_TYPE = Condition(
    "csi-plugin-type",
    code=HG278,
    nomad="Task.Validate",
    source=f"{S}:8387",
    condition="a `csi_plugin`'s `type` is not node, controller or monolith (it has no default)",
    message="CSIPluginConfig PluginType must be one of 'node', 'controller', or 'monolith', got: \"{type}\"",
)
CSI_STAGE_INSIDE_MOUNT = Condition(
    "csi-plugin-stage-inside-mount-dir",
    code=HG278,
    nomad="Task.Validate",
    source=f"{S}:8392",
    condition="a `csi_plugin`'s `stage_publish_base_dir` (/local/csi by default) is `mount_dir` (/csi by"
    " default) or a directory below it",
    message="CSIPluginConfig StagePublishBaseDir must not be a subdirectory of MountDir, got:"
    ' StagePublishBaseDir="{stage}" MountDir="{mount}"',
    since=(2, 0, 1),
)
CSI_STAGE_PREFIX = Condition(
    "csi-plugin-stage-starts-with-mount-dir",
    code=HG278,
    nomad="Task.Validate",
    source=f"{S}:8383",
    condition="a `csi_plugin`'s `stage_publish_base_dir` (/local/csi by default) starts with the text of"
    " `mount_dir` (/csi by default), so /csi-staging too",
    message="CSIPluginConfig StagePublishBaseDir must not be a subdirectory of MountDir, got:"
    ' StagePublishBaseDir="{stage}" MountDir="{mount}"',
    until=(2, 0, 1),
    tag="v1.9.0",
)
SCHEDULE_START_FIELDS = Condition(
    "schedule-cron-start-fields",
    code=HG278,
    nomad="TaskSchedule.Validate",
    source=f"{SCHEDULE}:77",
    condition="(Nomad Enterprise) a task's `schedule { cron { start } }` is not six fields, one space apart",
    message="cron.start must contain {count} fields",
)
SCHEDULE_END_FIELDS = Condition(
    "schedule-cron-end-fields",
    code=HG278,
    nomad="TaskSchedule.Validate",
    source=f"{SCHEDULE}:80",
    condition="(Nomad Enterprise) a task's `schedule { cron { end } }` is not two fields, one space apart",
    message="cron.end must contain {count} fields",
)
SCHEDULE_START_CHARACTERS = Condition(
    "schedule-cron-start-steps-or-lists",
    code=HG278,
    nomad="TaskSchedule.Validate",
    source=f"{SCHEDULE}:83",
    condition="(Nomad Enterprise) a task's `schedule { cron { start } }` holds / or ,",
    message="cron.start must not contain {characters!r}",
)
SCHEDULE_END_CHARACTERS = Condition(
    "schedule-cron-end-steps-or-lists",
    code=HG278,
    nomad="TaskSchedule.Validate",
    source=f"{SCHEDULE}:86",
    condition="(Nomad Enterprise) a task's `schedule { cron { end } }` holds / or ,",
    message="cron.end must not contain {characters!r}",
)


ACTION_NAME_PATTERN = re.compile(r"[^\x00\t\n\f\r ]{1,128}")
"""``^[^\\x00\\s]{1,128}$`` (Nomad 1.9.4 and later); RE2's ``\\s`` is ASCII white space only."""
ACTION_NAME_LETTERS_PATTERN = re.compile(r"[a-zA-Z0-9-]{1,128}")
"""``^[a-zA-Z0-9-]{1,128}$``, the rule before 1.9.4."""


def validate_actions(ctx: Context, task: m.Task, where: str) -> None:
    """Each `action`: `Action.Validate`, then a name used again (reported once per name)."""
    reported: dict[str, bool] = {}
    for action in task.actions or []:
        inside = f"{where}, action `{action.name}`"
        if not action.command:
            reject(
                ctx,
                ACTION_COMMAND,
                at(ctx, [action], "command"),
                where=inside,
                help="set the `command` the action runs",
            )
        for condition, pattern, allowed in (
            (ACTION_NAME, ACTION_NAME_PATTERN, "1-128 characters, no white space"),
            (ACTION_NAME_LETTERS, ACTION_NAME_LETTERS_PATTERN, "1-128 letters, digits and dashes"),
        ):
            if not pattern.fullmatch(action.name):
                reject(
                    ctx,
                    condition,
                    ctx.label_span(action),
                    where=inside,
                    name=action.name,
                    help=f"name the action with {allowed}",
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


CSI_PLUGIN_TYPES = ("node", "controller", "monolith")


def validate_csi_plugin(ctx: Context, plugin: m.TaskCSIPluginConfig, where: str) -> None:
    """The `csi_plugin` block: an id, a known type, staging kept out of the mount directory."""
    if not plugin.id:
        reject(
            ctx,
            CSI_PLUGIN_ID,
            ctx.header_span(plugin),
            where=where,
            help="set `id`: the name volumes use to find the plugin",
        )
    if plugin.type not in CSI_PLUGIN_TYPES:
        reject(
            ctx,
            CSI_PLUGIN_TYPE,
            at(ctx, [plugin], "type"),
            where=where,
            type=plugin.type,
            help='set `type = "node"`, `"controller"` or `"monolith"`',
        )
    stage, mount = plugin.stage_publish_base_dir, plugin.mount_dir
    if not stage or not mount:
        return
    for condition, inside in (
        (CSI_STAGE_INSIDE_MOUNT, is_subdirectory(mount, stage)),
        (CSI_STAGE_PREFIX, stage.startswith(mount)),  # strings.HasPrefix, before 2.0.1
    ):
        if inside:
            reject(
                ctx,
                condition,
                at(ctx, [plugin], "stage_publish_base_dir", "mount_dir"),
                where=where,
                stage=stage,
                mount=mount,
                help="keep `stage_publish_base_dir` out of `mount_dir`, e.g. the default /local/csi",
            )


def is_subdirectory(parent: str, path: str) -> bool:
    """``helper.IsSubdirectory``: ``filepath.Rel(parent, path)`` works and does not start with "..".

    So ``path`` equal to ``parent`` counts, a relative path and an absolute one never do,
    and neither does a path below ``parent`` whose first step is named like "..x"."""
    base, target = _go_clean(parent), _go_clean(path)
    if base == target:
        return True
    if base.startswith("/") != target.startswith("/"):
        return False  # Rel: can't make one relative to the other
    base_parts, target_parts = _parts(base), _parts(target)
    common = 0
    while common < min(len(base_parts), len(target_parts)) and base_parts[common] == target_parts[common]:
        common += 1
    if common < len(base_parts):
        return False  # Rel must go up (or fails, when that step is ".."): it starts with ".."
    return not "/".join(target_parts[common:]).startswith("..")


def _go_clean(path: str) -> str:
    """``filepath.Clean``: ``posixpath.normpath``, except that Go keeps no leading "//"."""
    cleaned = posixpath.normpath(path)
    return "/" + cleaned.lstrip("/") if cleaned.startswith("//") else cleaned


def _parts(cleaned: str) -> list[str]:
    relative = cleaned.lstrip("/")
    return [] if relative in ("", ".") else relative.split("/")


START_FIELDS, END_FIELDS, RESTRICTED = 6, 2, "/,"
_FIELDS = 'six fields one space apart, e.g. `start = "30 9 * * MON-FRI *"`'
_END_FIELDS = 'the minute and the hour one space apart, e.g. `end = "0 16"`'
_NO_STEPS = "ranges (1-5) instead of steps (*/2) and lists (1,3)"


def validate_schedule(ctx: Context, cron: m.TaskScheduleCron, where: str) -> None:
    """`TaskSchedule.Validate` (Enterprise), which stops at the first problem. Community
    Edition never calls it (nomad/structs/task_sched.go:65 at aa026cc99c is called only by
    Enterprise code): its server refuses any schedule instead (HG289), so a profile that
    says the cluster is not Enterprise gets that one error alone."""
    if ctx.profile.enterprise is False:
        return
    start, end = cron.start or "", cron.end or ""
    problems: list[tuple[Condition, str, bool, dict[str, Any], str]] = [
        (
            SCHEDULE_START_FIELDS,
            "start",
            start.count(" ") != START_FIELDS - 1,
            {"count": START_FIELDS},
            _FIELDS,
        ),
        (SCHEDULE_END_FIELDS, "end", end.count(" ") != END_FIELDS - 1, {"count": END_FIELDS}, _END_FIELDS),
        (SCHEDULE_START_CHARACTERS, "start", _restricted(start), {"characters": RESTRICTED}, _NO_STEPS),
        (SCHEDULE_END_CHARACTERS, "end", _restricted(end), {"characters": RESTRICTED}, _NO_STEPS),
    ]
    for condition, name, failed, values, fix in problems:
        if failed:
            reject(ctx, condition, at(ctx, [cron], name), where=where, help=f"write {fix}", **values)
            return


def _restricted(spec: str) -> bool:
    return any(character in RESTRICTED for character in spec)
