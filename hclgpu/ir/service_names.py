"""A service's name as Nomad's server sees it, for the IR's admission changes and the rules.

`Service.Canonicalize` (nomad/structs/services.go) replaces ``${JOB}``, ``${TASKGROUP}``,
``${TASK}`` and ``${BASE}`` in every service name; for a sidecar or gateway service of a
group with a network, the connect mutator (nomad/job_endpoint_hook_connect.go) then
replaces the task environment's variables known at submission.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from hclgpu.ir import models as m

RUNTIME_VARIABLE = re.compile(r"\$\{[a-zA-Z0-9_\-.]+\}")
"""``${name}`` as `helper/args.ReplaceEnv` finds it."""


def server_service_name(
    job: m.Job, group: m.TaskGroup, task: m.Task | None, service: m.Service, *, mutated: bool = True
) -> str:
    """A service's name as the validators see it: `Service.Canonicalize` replaces `${JOB}`,
    `${TASKGROUP}`, `${TASK}` and `${BASE}`; for a sidecar or gateway service of a group
    with a network the connect mutator then replaces the task environment's variables it
    knows at submission (job and group names, region, alloc index, meta). Unknown ones stay.
    ``mutated=False`` gives the name before the mutator, which default check names use."""
    if "${" not in service.name:
        return service.name  # nothing to replace, the usual case
    job_name, group_name = job.name or job.id or "", group.name or ""
    task_name = task.name if task is not None else "group"
    canonical = {
        "JOB": job_name,
        "TASKGROUP": group_name,
        "TASK": task_name,
        "BASE": f"{job_name}-{group_name}-{task_name}",
    }
    name = replace_env(service.name, canonical)
    connect = service.connect
    envoy = connect is not None and (connect.sidecar_service is not None or connect.gateway is not None)
    if mutated and task is None and group.networks and envoy:
        name = replace_env(name, submission_env(job, group))
    return name


def replace_env(text: str, values: dict[str, str]) -> str:
    """`helper/args.ReplaceEnv`: `${name}` from ``values``, the others left as written."""
    return RUNTIME_VARIABLE.sub(lambda found: values.get(found[0][2:-1], found[0]), text)


def submission_env(job: m.Job, group: m.TaskGroup) -> dict[str, str]:
    """The environment `taskenv` builds from an allocation that has only the job and group."""
    env = {
        "NOMAD_JOB_ID": job.id or "",
        "NOMAD_JOB_NAME": job.name or "",
        "NOMAD_GROUP_NAME": group.name or "",
        "NOMAD_ALLOC_INDEX": "0",
    }
    if job.region:
        env["NOMAD_REGION"] = job.region
    for key, value in {**(job.meta or {}), **(group.meta or {})}.items():
        env[f"NOMAD_META_{key.upper()}"] = value
        env[f"NOMAD_META_{key}"] = value
    return env


def server_check_name(service_name: str, check: m.ServiceCheck) -> str:
    """`ServiceCheck.Canonicalize`: an unnamed check is `service: "<service>" check`."""
    return check.name or f"service: {json.dumps(service_name, ensure_ascii=False)} check"


def group_services(group: m.TaskGroup) -> Iterator[tuple[m.Task | None, m.Service]]:
    """A group's services with their task (None for a group service), group services first."""
    for service in group.services or []:
        yield None, service
    for task in group.tasks or []:
        for service in task.services or []:
            yield task, service


def job_services(job: m.Job) -> Iterator[tuple[m.TaskGroup, m.Task | None, m.Service]]:
    """Every service of the job with its group and task (None for a group service)."""
    for group in job.task_groups or []:
        for task, service in group_services(group):
            yield group, task, service
