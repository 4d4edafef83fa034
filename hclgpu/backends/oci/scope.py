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

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from hclgpu.backends.oci.reporting import approximated
from hclgpu.backends.target import Lowering
from hclgpu.backends.task_env import DEFAULT_CPU_MHZ, TASK_DIRS, nomad_env, substitute
from hclgpu.ir import models as m

__all__ = ["TASK_DIRS", "TaskScope", "merged_blocks"]


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
        self.nomad_env = nomad_env(
            self.job,
            self.group,
            self.task,
            self.ctx.options.cpu_mhz_per_core,
            self.ctx.options.memory_oversubscription,
        )

    @property
    def where(self) -> str:
        return f'task "{self.task.name}"'

    def cpu_mhz(self) -> int:
        """Nomad's cpu reservation; `cores` counts at --cpu-mhz-per-core each."""
        res = self.task.resources
        if res is not None and res.cores:
            return res.cores * self.ctx.options.cpu_mhz_per_core
        return res.cpu if res is not None and res.cpu is not None else DEFAULT_CPU_MHZ

    def interpolate(self, field_name: str, values: Iterable[str]) -> list[str]:
        """``values`` with the static ``${NOMAD_*}`` references substituted; HG302 (once per
        field) naming the references that stay as text."""
        out: list[str] = []
        unknown: set[str] = set()
        for value in values:
            out.append(substitute(value, self.nomad_env.get, unknown))
        if unknown:
            approximated(
                self.ctx,
                f"{', '.join(sorted(unknown))} in `{field_name}` of {self.where} stays as text: an OCI "
                "runtime does not interpolate Nomad runtime variables",
                self.task,
                help="replace it with a literal value",
            )
        return out


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
