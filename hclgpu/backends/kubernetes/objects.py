"""What identifies the objects a group becomes: the workload kind its job type picks, and the
names and labels that tie the group's ConfigMap, workload, pods and Service together.

Every lowering module needs these, so they belong to none of them. ``Obj`` is the plain
dict all of them build; the templates turn it into YAML.

Groups whose names coincide as DNS labels (`a_b`, `a-b`, `A.B`) must still name distinct
objects: the first keeps ``<job>-<group>``, the next ones get ``-2``, ``-3``... Every object
of a group asks for its name, so :func:`naming` works the table out once for a job's lowering.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Literal

from hclgpu.backends.kubernetes.names import dns_label, port_name
from hclgpu.ir import models as m

Obj = dict[str, Any]
Kind = Literal["Deployment", "Job", "CronJob", "DaemonSet"]

MANAGED_BY = "hclgpu"
ANNOTATION_PREFIX = "hclgpu.io/"


def job_name(job: m.Job) -> str:
    return job.name or job.id or "job"


def workload_kind(job: m.Job) -> Kind:
    """Deployment for services, Job for batch (CronJob when periodic), DaemonSet per node."""
    kind = job.type or "service"
    if job.parameterized_job is not None:
        return "Job"
    if job.periodic is not None and kind in ("batch", "sysbatch"):
        return "CronJob"
    if kind in ("system", "sysbatch"):
        return "DaemonSet"
    return "Job" if kind == "batch" else "Deployment"


@dataclass(frozen=True, slots=True)
class GroupName:
    """The name of a group's objects, unique in its job."""

    name: str
    base: str
    """``<job>-<group>`` as a DNS label: the name, unless another group has it."""
    suffix: str = ""
    """What makes ``name`` unique (``-2``...), empty when it is ``base``."""
    owner: str | None = None
    """The group that has ``base``, when this one does not."""


def _limit(job: m.Job) -> int:
    """63 characters; 52 for a CronJob, whose Jobs add a suffix."""
    return 52 if workload_kind(job) == "CronJob" else 63


def _base_name(job: m.Job, group: m.TaskGroup, limit: int) -> str:
    return dns_label(f"{job_name(job)}-{group.name or ''}", limit)


def group_names(job: m.Job) -> dict[int, GroupName]:
    """Each group's name (by ``id`` of the group), in group order: a name another group
    already has, or that another group is named, gets the first free ``-N``."""
    limit = _limit(job)
    groups = job.task_groups or []
    bases = [_base_name(job, group, limit) for group in groups]
    owners: dict[str, m.TaskGroup] = {}
    for group, base in zip(groups, bases, strict=True):
        owners.setdefault(base, group)
    taken = set(owners)
    tried: dict[str, int] = {}
    """The last ``N`` given to each base, so that no name is tried twice."""
    names: dict[int, GroupName] = {}
    for group, base in zip(groups, bases, strict=True):
        owner = owners[base]
        if owner is group:
            names[id(group)] = GroupName(base, base)
            continue
        index = tried.get(base, 1)
        while True:
            index += 1
            suffix = f"-{index}"
            name = dns_label(base, limit - len(suffix)) + suffix
            if name not in taken:
                break
        tried[base] = index
        taken.add(name)
        names[id(group)] = GroupName(name, base, suffix, owner.name or "")
    return names


_NAMES: ContextVar[tuple[m.Job, dict[int, GroupName]] | None] = ContextVar("group_names", default=None)


@contextmanager
def naming(job: m.Job) -> Iterator[None]:
    """The names of ``job``'s groups, worked out once while its objects are built."""
    token = _NAMES.set((job, group_names(job)))
    try:
        yield
    finally:
        _NAMES.reset(token)


def group_name(job: m.Job, group: m.TaskGroup) -> GroupName:
    """The name of ``group``'s objects (from :func:`naming` when it is on for ``job``)."""
    current = _NAMES.get()
    names = current[1] if current is not None and current[0] is job else group_names(job)
    found = names.get(id(group))
    if found is None:  # a group that is not one of the job's: nothing to collide with
        base = _base_name(job, group, _limit(job))
        return GroupName(base, base)
    return found


def object_name(job: m.Job, group: m.TaskGroup) -> str:
    """``<job>-<group>`` as a DNS label, unique in the job; 52 characters for a CronJob."""
    return group_name(job, group).name


_LABEL_VALUE_BAD = re.compile(r"[^A-Za-z0-9._-]+")
_LABEL_NAME = re.compile(r"([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)")


def label_value(text: str) -> str:
    """The closest valid label value (at most 63 of ``[A-Za-z0-9._-]``, alphanumeric ends)."""
    value = _LABEL_VALUE_BAD.sub("-", text)[:63]
    return re.sub(r"^[^A-Za-z0-9]+|[^A-Za-z0-9]+$", "", value)


def is_label_value(text: str) -> bool:
    return text == "" or (len(text) <= 63 and bool(_LABEL_NAME.fullmatch(text)))


def is_label_key(key: str) -> bool:
    """``[prefix/]name``: a DNS subdomain prefix and a name of at most 63 characters."""
    prefix, _, name = key.rpartition("/")
    if prefix and not re.fullmatch(r"[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?", prefix):
        return False
    return 0 < len(name) <= 63 and bool(_LABEL_NAME.fullmatch(name))


def selector_labels(job: m.Job, group: m.TaskGroup) -> dict[str, str]:
    """The labels a controller selects its pods by (a subset of :func:`pod_labels`)."""
    return {
        "app.kubernetes.io/name": label_value(job_name(job)) or "job",
        "app.kubernetes.io/instance": object_name(job, group),
    }


def pod_labels(job: m.Job, group: m.TaskGroup) -> dict[str, str]:
    return {**selector_labels(job, group), "app.kubernetes.io/managed-by": MANAGED_BY}


def container_name(task: m.Task) -> str:
    return dns_label(task.name)


def container_port_name(label: str) -> str:
    """An IANA service name: at most 15 characters, with at least one letter."""
    name = port_name(label)
    return name if re.search("[a-z]", name) else port_name(f"p-{name}")


def config_map_name(job: m.Job, group: m.TaskGroup) -> str:
    return f"{object_name(job, group)}-templates"
