"""What identifies the objects a group becomes: the workload kind its job type picks, and the
names and labels that tie the group's ConfigMap, workload, pods and Service together.

Every lowering module needs these, so they belong to none of them. ``Obj`` is the plain
dict all of them build; the templates turn it into YAML.
"""

from __future__ import annotations

import re
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


def object_name(job: m.Job, group: m.TaskGroup) -> str:
    """``<job>-<group>`` as a DNS label; 52 characters for a CronJob, whose Jobs add a suffix."""
    limit = 52 if workload_kind(job) == "CronJob" else 63
    return dns_label(f"{job_name(job)}-{group.name or ''}", limit)


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
