"""What one task knows about itself before its bundle is built: where it sits in the job,
its driver config, the ``NOMAD_*`` variables whose values are known without a cluster,
and how Nomad's ``${...}`` runtime interpolation is resolved with them.

Nomad fills ``${NOMAD_TASK_DIR}``, ``${NOMAD_JOB_NAME}``... in driver config and env when
it starts a task. A bundle is started by a plain OCI runtime that interpolates nothing,
so hclgpu substitutes every variable whose value is static here (names, limits, the task
directories as the docker driver mounts them) and leaves any other ``${...}`` as text,
with HG302 naming it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from hclgpu.backends.oci.reporting import approximated
from hclgpu.backends.target import Lowering
from hclgpu.ir import models as m

DEFAULT_CPU_MHZ = 100
"""Nomad reserves 100 MHz when a task sets no `cpu` (api.Resources.Canonicalize)."""
DEFAULT_MEMORY_MB = 300
"""Nomad reserves, and enforces, 300 MiB when a task sets no `memory`."""
TASK_DIRS = {"NOMAD_ALLOC_DIR": "/alloc", "NOMAD_TASK_DIR": "/local", "NOMAD_SECRETS_DIR": "/secrets"}
"""Where Nomad's docker driver mounts the allocation, task and secrets directories."""


@dataclass(slots=True)
class TaskScope:
    """One docker/podman task and everything its bundle is built from."""

    job: m.Job
    group: m.TaskGroup
    task: m.Task
    ctx: Lowering
    config: dict[str, Any] = field(init=False)
    nomad_env: dict[str, str] = field(init=False)

    def __post_init__(self) -> None:
        self.config = dict(self.task.config or {})
        self.nomad_env = _nomad_env(self.job, self.group, self.task, self.ctx)

    @property
    def where(self) -> str:
        return f'task "{self.task.name}"'

    def cpu_mhz(self) -> int:
        """Nomad's cpu reservation; `cores` counts at --cpu-mhz-per-core each."""
        res = self.task.resources
        if res is not None and res.cores:
            return res.cores * self.ctx.options.cpu_mhz_per_core
        return res.cpu if res is not None and res.cpu is not None else DEFAULT_CPU_MHZ

    def memory_mb(self) -> int:
        res = self.task.resources
        return res.memory_mb if res is not None and res.memory_mb is not None else DEFAULT_MEMORY_MB

    def memory_max_mb(self) -> int:
        res = self.task.resources
        return res.memory_max_mb if res is not None and res.memory_max_mb else 0

    def interpolate(self, field_name: str, values: Iterable[str]) -> list[str]:
        """``values`` with the static ``${NOMAD_*}`` references substituted; HG302 (once per
        field) naming the references that stay as text."""
        out: list[str] = []
        unknown: set[str] = set()
        for value in values:
            out.append(_REFERENCE.sub(lambda match: self._resolve(match, unknown), value))
        if unknown:
            approximated(
                self.ctx,
                f"{', '.join(sorted(unknown))} in `{field_name}` of {self.where} stays as text: an OCI "
                "runtime does not interpolate Nomad runtime variables",
                self.task,
                help="replace it with a literal value",
            )
        return out

    def _resolve(self, match: re.Match[str], unknown: set[str]) -> str:
        name = match.group(1).strip()
        value = self.nomad_env.get(name)
        if value is None:
            unknown.add(match.group(0))
            return match.group(0)
        return value


_REFERENCE = re.compile(r"\$\{([^}]*)\}")
_ENV_NAME_BAD = re.compile(r"[^A-Za-z0-9_]")


def _nomad_env(job: m.Job, group: m.TaskGroup, task: m.Task, ctx: Lowering) -> dict[str, str]:
    """The ``NOMAD_*`` variables Nomad sets whose values do not depend on the node or the
    allocation; NOMAD_ALLOC_INDEX is that of the first allocation."""
    job_id = job.id or job.name or ""
    env = dict(TASK_DIRS)
    env.update(
        {
            "NOMAD_JOB_ID": job_id,
            "NOMAD_JOB_NAME": job.name or job_id,
            "NOMAD_NAMESPACE": job.namespace or "default",
            "NOMAD_REGION": job.region or "global",
            "NOMAD_GROUP_NAME": group.name or "",
            "NOMAD_TASK_NAME": task.name,
            "NOMAD_ALLOC_INDEX": "0",
            "NOMAD_ALLOC_NAME": f"{job_id}.{group.name or ''}[0]",
        }
    )
    res = task.resources
    if res is not None and res.cores:
        env["NOMAD_CPU_LIMIT"] = str(res.cores * ctx.options.cpu_mhz_per_core)
    else:
        env["NOMAD_CPU_LIMIT"] = str(res.cpu if res is not None and res.cpu is not None else DEFAULT_CPU_MHZ)
    env["NOMAD_MEMORY_LIMIT"] = str(res.memory_mb if res and res.memory_mb is not None else DEFAULT_MEMORY_MB)
    if res is not None and res.memory_max_mb:
        env["NOMAD_MEMORY_MAX_LIMIT"] = str(res.memory_max_mb)
    for meta in (job.meta, group.meta, task.meta):  # the task's wins, as in Nomad
        for key, value in (meta or {}).items():
            clean = _ENV_NAME_BAD.sub("_", key)
            env[f"NOMAD_META_{clean}"] = value
            env[f"NOMAD_META_{clean.upper()}"] = value
    return env


def merged_blocks(value: object) -> dict[str, Any]:
    """A driver-config block (``ulimit { }``, ``sysctl { }``): HCL decodes a block as a list of
    maps, podman writes a map; either way one map, later keys winning."""
    if isinstance(value, dict):
        return dict(value)
    out: dict[str, Any] = {}
    if isinstance(value, list):
        for item in value:
            if isinstance(item, dict):
                out.update(item)
    return out
