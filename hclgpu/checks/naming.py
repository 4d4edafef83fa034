"""Names Nomad refuses, and names other back ends must rewrite (HG265-HG267).

Sources: `Service.ValidateName` and `Service.Canonicalize` (nomad/structs/services.go),
the default service name of `api.Service.Canonicalize` (api/services.go), `Job.Validate`,
`TaskGroup.Validate` and `Task.Validate` (nomad/structs/structs.go). Kubernetes names
objects and containers with RFC 1123 DNS labels.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.server import Condition, reject
from hclgpu.codes.base import INFO, Code, E
from hclgpu.ir import models as m
from hclgpu.ir.base import Node
from hclgpu.ir.service_names import RUNTIME_VARIABLE  # what Nomad replaces before checking a name
from hclgpu.source import Span

HG265 = Code(
    "HG265",
    "invalid-service-name",
    E,
    summary="A service name is not a valid RFC 1123 name",
    doc="""What: a service name (or the default `<job>-<group>-<task>` name of a service
without `name`) is not 1-63 letters, digits and dashes, starting and ending with a
letter or digit. `${...}` runtime variables are allowed and checked as Nomad does,
as if they were a plain word.

Why: Nomad rejects the job at registration: "Service name must be valid per RFC 1123
and can contain only alphanumeric characters or dashes and must be no longer than 63
characters". A default name inherits underscores or dots from the job, group or task
names. Nomad's parser accepts such files; its server does not (`Service.ValidateName`,
nomad/structs/services.go:954).

Example:
    job "web_app" {
      group "api" {
        service { port = "http" }     # named "web_app-api"
      }
    }

Fix: set `name` to a valid name, e.g. `name = "web-app-api"`.""",
)


HG266 = Code(
    "HG266",
    "invalid-nomad-name",
    E,
    summary="A job ID or task name that Nomad rejects",
    doc="""What: the job ID (the `job` label) contains a space or a NUL character, a group
or job name contains a NUL character, or a task name contains `/` or `\\`.

Why: Nomad rejects the job at registration: "Job ID contains a space", "Task name
cannot include slashes" (the task name becomes a directory of the allocation).

Example:
    task "fetch/unpack" { }

Fix: use dashes instead: `task "fetch-unpack"`.""",
)


HG267 = Code(
    "HG267",
    "name-not-dns-label",
    INFO,
    summary="A job, group or task name is not a DNS label",
    doc="""What: a job, group or task name is not an RFC 1123 DNS label: at most 63 lowercase
letters, digits and dashes, starting and ending with a letter or digit.

Why: Nomad accepts it, but Kubernetes object and container names must be DNS labels,
so the Kubernetes back end has to rewrite the name (lowercase, other characters
replaced by dashes), and the objects it creates will not carry the name written here.
Reported only where the job goes to Kubernetes: `targets = ["kubernetes"]` in the
configuration, `check --target kubernetes`, or `render --target kubernetes`.

Example:
    group "Web_API" { }

Fix: nothing is required; to keep the same name on every back end, use a DNS label
such as `group "web-api"`.""",
)

SERVICE_NAME_VALID = Condition(
    "service-name",
    code=HG265,
    nomad="Service.ValidateName",
    source="nomad/structs/services.go:954",
    condition="a service name (or its default) outside RFC 1123 letters, digits and dashes",
    message="Service name must be valid per RFC 1123 and can contain only alphanumeric characters or dashes"
    " and must be no longer than 63 characters: {name!r}",
)

JOB_ID_SPACE = Condition(
    "job-id-space",
    code=HG266,
    nomad="Job.Validate",
    source="nomad/structs/structs.go:4746",
    condition="the job ID contains a space",
    message="Job ID contains a space",
)

JOB_ID_NUL = Condition(
    "job-id-nul",
    code=HG266,
    nomad="Job.Validate",
    source="nomad/structs/structs.go:4748",
    condition="the job ID contains a NUL character",
    message="Job ID contains a null character",
)

JOB_NAME_NUL = Condition(
    "job-name-nul",
    code=HG266,
    nomad="Job.Validate",
    source="nomad/structs/structs.go:4753",
    condition="the job `name` contains a NUL character (a name left to the ID is reported as the ID)",
    message="Job Name contains a null character",
)

GROUP_NAME_NUL = Condition(
    "group-name-nul",
    code=HG266,
    nomad="TaskGroup.Validate",
    source="nomad/structs/structs.go:7117",
    condition="a group name contains a NUL character",
    message="Task group name contains null character",
)

TASK_NAME_SLASH = Condition(
    "task-name-slash",
    code=HG266,
    nomad="Task.Validate",
    source="nomad/structs/structs.go:8216",
    condition="a task name contains / or \\",
    message="Task name cannot include slashes",
)

TASK_NAME_NUL = Condition(
    "task-name-nul",
    code=HG266,
    nomad="Task.Validate",
    source="nomad/structs/structs.go:8218",
    condition="a task name contains a NUL character (and no slash)",
    message="Task name cannot include null characters",
)


SERVICE_NAME = re.compile(r"(?i:[a-z0-9]|[a-z0-9][a-z0-9\-]{0,61}[a-z0-9])")
"""Nomad's service name rule (RFC 952/1123/2782), letters of either case."""
DNS_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")
_NOT_LABEL = re.compile(r"[^a-z0-9]+")
MAX_LABEL = 63


def dns_label(name: str) -> str:
    """A DNS label close to ``name``: lowercase, other characters as dashes, at most 63 long."""
    label = _NOT_LABEL.sub("-", name.lower()).strip("-")[:MAX_LABEL].rstrip("-")
    return label or "x"


def service_name(job: m.Job, group: m.TaskGroup, task: m.Task | None, service: m.Service) -> str:
    """The name Nomad validates: the default when unset, then its `${JOB}`-style variables replaced."""
    job_name = job.name or job.id or ""
    group_name = group.name or ""
    name = service.name or "-".join([job_name, group_name, *([task.name] if task else [])])
    task_name = task.name if task is not None else "group"
    values = {
        "JOB": job_name,
        "TASKGROUP": group_name,
        "TASK": task_name,
        "BASE": f"{job_name}-{group_name}-{task_name}",
    }
    name = RUNTIME_VARIABLE.sub(lambda match: values.get(match[0][2:-1], match[0]), name)
    return RUNTIME_VARIABLE.sub("ENV-VAR", name)


def _services(ctx: Context) -> Iterator[tuple[m.TaskGroup, m.Task | None, m.Service]]:
    for group in ctx.groups():
        for service in group.services or []:
            yield group, None, service
        for task in group.tasks or []:
            for service in task.services or []:
                yield group, task, service


@rule(HG265)
def invalid_service_name(ctx: Context) -> None:
    """Nomad refuses service names that are not RFC 1123 names, defaults included."""
    for group, task, service in _services(ctx):
        name = service_name(ctx.job, group, task, service)
        if SERVICE_NAME.fullmatch(name):
            continue
        what = f"service name `{service.name}`" if service.name else f"the default service name `{name}`"
        reject(
            ctx,
            SERVICE_NAME_VALID,
            ctx.value_span(service, "name"),
            name=name,
            help=f"{what} is not a valid service name: {_service_name_problem(name)}; "
            f'set `name = "{_service_name_like(name)}"`',
        )


def _service_name_problem(name: str) -> str:
    if len(name) > MAX_LABEL:
        return f"it is {len(name)} characters long, the limit is {MAX_LABEL}"
    bad = sorted({c for c in name if not (c.isascii() and (c.isalnum() or c == "-"))})
    if bad:
        return "Nomad allows only letters, digits and dashes, not " + ", ".join(f"`{c}`" for c in bad)
    return "it must start and end with a letter or digit"


def _service_name_like(name: str) -> str:
    label = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")[:MAX_LABEL].rstrip("-")
    return label or "service"


@rule(HG266)
def invalid_nomad_name(ctx: Context) -> None:
    """Job IDs with spaces and task names with slashes are refused at registration."""
    for _, kind, name, span in _names(ctx):
        problem = _nomad_name_problem(kind, name)
        if problem:
            condition, why = problem
            help = f"the {kind} `{name}` {why}; {_rename_help(kind, name)}"
            reject(ctx, condition, span, help=help)


def _nomad_name_problem(kind: str, name: str) -> tuple[Condition, str] | None:
    """The check Nomad refuses a name by (Job.Validate and Task.Validate,
    nomad/structs/structs.go:4746-4753 and :8216-8218, TaskGroup.Validate :7117 at aa026cc99c;
    its message is Nomad's words) and hclgpu's reason."""
    if kind == "task" and ("/" in name or "\\" in name):
        return TASK_NAME_SLASH, "contains a slash (it becomes a directory name)"
    if "\0" in name and kind in _NUL_CHECKS:
        return _NUL_CHECKS[kind], "contains a NUL character"
    if kind == "job ID" and " " in name:
        return JOB_ID_SPACE, "contains a space"
    return None


_NUL_CHECKS = {"job ID": JOB_ID_NUL, "job name": JOB_NAME_NUL, "group": GROUP_NAME_NUL, "task": TASK_NAME_NUL}


@rule(HG267, target="kubernetes")
def name_not_dns_label(ctx: Context) -> None:
    """Kubernetes names must be DNS labels; the back end will have to rename these."""
    for _, kind, name, span in _names(ctx):
        if DNS_LABEL.fullmatch(name) or _nomad_name_problem(kind, name):
            continue
        ctx.report(
            HG267,
            f"{kind} `{name}` is not a DNS label; the Kubernetes back end has to rename it",
            span,
            help=f"Kubernetes names are lowercase letters, digits and dashes, e.g. `{dns_label(name)}`",
        )


def _names(ctx: Context) -> Iterator[tuple[Node, str, str, Span | None]]:
    """Every job, group and task name with where it is written."""
    job = ctx.job
    if job.id:
        written = ctx.attribute(job, "id") is not None
        yield job, "job ID", job.id, ctx.value_span(job, "id") if written else ctx.label_span(job)
    if job.name and job.name != job.id and ctx.attribute(job, "name") is not None:
        yield job, "job name", job.name, ctx.value_span(job, "name")
    for group in ctx.groups():
        if group.name:
            yield group, "group", group.name, ctx.label_span(group)
        for task in group.tasks or []:
            if task.name:
                yield task, "task", task.name, ctx.label_span(task)


def _rename_help(kind: str, name: str) -> str:
    return f"rename the {kind.removesuffix(' ID')} to e.g. `{_service_name_like(name)}`"
