"""Task `resources` that Nomad's server rejects (HG240-HG242).

Nomad checks a task's resources after the API client has filled in defaults
(`api.Resources.Canonicalize`: cpu 100 and memory 300 when unset, but cpu 0 when `cores`
is set), so the rules compare the values Nomad will see, not only the ones written.
Source: `Resources.Validate` and `MeetsMinResources` in nomad/structs/structs.go.
"""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.server import Condition, reject
from hclgpu.codes.base import Code, E
from hclgpu.diagnostics import Related
from hclgpu.ir import models as m
from hclgpu.ir.base import Node

HG240 = Code(
    "HG240",
    "memory-max-below-memory",
    E,
    summary="`memory_max` is below `memory`",
    doc="""What: a task's `resources { memory_max = N }` is smaller than its `memory`
(300 MB when `memory` is not set). 0 and -1 are exempt: they mean "no hard limit".

Why: Nomad rejects the job at registration: "MemoryMaxMB value (N) should be larger
than MemoryMB value (M)". `memory` is what the scheduler reserves; `memory_max` is the
ceiling the task may burst to, so it cannot be lower.

Example:
    resources {
      memory     = 1024
      memory_max = 512
    }

Fix: raise `memory_max` to at least `memory`, or lower `memory`.""",
)


HG241 = Code(
    "HG241",
    "cpu-and-cores",
    E,
    summary="A task asks for both `cpu` and `cores`",
    doc="""What: a task's `resources` sets both `cpu` (MHz) and `cores` (whole cores) above zero.

Why: Nomad rejects the job at registration: "Task can only ask for 'cpu' or 'cores'
resource, not both." With `cores` Nomad reserves whole cores and derives the CPU
share from them.

Example:
    resources {
      cpu   = 2000
      cores = 2
    }

Fix: keep one of them: `cores` to pin whole cores, `cpu` to share them.""",
)


HG242 = Code(
    "HG242",
    "resources-below-minimum",
    E,
    summary="`cpu` or `memory` is below Nomad's minimum",
    doc="""What: a task's effective `cpu` is below 1 MHz while it reserves no `cores`, or its
`memory` is below 10 MB. Unset values take Nomad's defaults (cpu 100, memory 300),
except that `cpu` is 0 when `cores` is set.

Why: Nomad rejects the job at registration: "minimum CPU value is 1; got 0",
"minimum MemoryMB value is 10; got 5".

Example:
    resources {
      cpu    = 0
      memory = 5
    }

Fix: request at least `cpu = 1` (or some `cores`) and `memory = 10`.""",
)

CPU_AND_CORES = Condition(
    "cpu-and-cores-both-set",
    code=HG241,
    nomad="Resources.Validate",
    source="nomad/structs/structs.go:2424",
    condition="`cpu` and `cores` both above 0",
    message="Task can only ask for 'cpu' or 'cores' resource, not both.",
)

MEMORY_MAX_BELOW_MEMORY = Condition(
    "memory-max-below-memory-mb",
    code=HG240,
    nomad="Resources.Validate",
    source="nomad/structs/structs.go:2466",
    condition="`memory_max` below `memory` (300 by default), other than 0 and -1",
    message="MemoryMaxMB value ({max}) should be larger than MemoryMB value ({memory})",
)

MINIMUM_CPU = Condition(
    "minimum-cpu",
    code=HG242,
    nomad="Resources.MeetsMinResources",
    source="nomad/structs/structs.go:2602",
    condition="`cpu` below 1 without `cores`",
    message="minimum CPU value is 1; got {cpu}",
)

MINIMUM_MEMORY = Condition(
    "minimum-memory",
    code=HG242,
    nomad="Resources.MeetsMinResources",
    source="nomad/structs/structs.go:2605",
    condition="`memory` below 10",
    message="minimum MemoryMB value is 10; got {memory}",
)


DEFAULT_CPU = 100
DEFAULT_MEMORY = 300
MIN_CPU = 1
MIN_MEMORY = 10
NO_MEMORY_LIMIT = (0, -1)
"""`memory_max` sentinels Nomad does not compare with `memory`."""


def effective_cpu(resources: m.Resources) -> int:
    """The CPU (MHz) Nomad validates: the default only applies when neither cpu nor cores is set."""
    if resources.cpu is not None:
        return resources.cpu
    return DEFAULT_CPU if resources.cores is None else 0


def effective_memory(resources: m.Resources) -> int:
    """The memory (MB) Nomad validates: unset means the 300 MB default."""
    return DEFAULT_MEMORY if resources.memory_mb is None else resources.memory_mb


def _task_resources(ctx: Context) -> list[tuple[m.Task, m.Resources]]:
    return [(task, task.resources) for _, task in ctx.tasks() if task.resources is not None]


@rule(HG240)
def memory_max_below_memory(ctx: Context) -> None:
    """`memory_max` is a ceiling above the reservation; below it Nomad refuses the job."""
    for task, resources in _task_resources(ctx):
        ceiling = resources.memory_max_mb
        memory = effective_memory(resources)
        if ceiling is None or ceiling in NO_MEMORY_LIMIT or ceiling >= memory:
            continue
        default = "" if resources.memory_mb is not None else ", Nomad's default"
        reject(
            ctx,
            MEMORY_MAX_BELOW_MEMORY,
            ctx.value_span(resources, "memory_max"),
            where=f"task `{task.name}`",
            max=ceiling,
            memory=memory,
            help=f"`memory_max` ({ceiling} MB) is below `memory` ({memory} MB{default}); "
            f"raise `memory_max` to at least {memory}, or remove it",
            related=set_here(ctx, resources, "memory"),
        )


@rule(HG241)
def cpu_and_cores(ctx: Context) -> None:
    """Nomad reserves either a CPU share or whole cores, never both."""
    for task, resources in _task_resources(ctx):
        if (resources.cores or 0) > 0 and (resources.cpu or 0) > 0:
            reject(
                ctx,
                CPU_AND_CORES,
                ctx.name_span(resources, "cpu"),
                where=f"task `{task.name}`",
                help="the task asks for both `cpu` and `cores`; remove `cpu`: with `cores` Nomad derives "
                "the CPU share from the reserved cores",
                related=set_here(ctx, resources, "cores"),
            )


@rule(HG242)
def resources_below_minimum(ctx: Context) -> None:
    """Nomad's minimums are 1 MHz of CPU (unless cores are reserved) and 10 MB of memory."""
    for task, resources in _task_resources(ctx):
        cpu = effective_cpu(resources)
        if cpu < MIN_CPU and (resources.cores or 0) == 0:
            written = "cpu" if resources.cpu is not None else "cores"
            reject(
                ctx,
                MINIMUM_CPU,
                ctx.value_span(resources, written),
                where=f"task `{task.name}`",
                cpu=cpu,
                help=f"the task reserves {cpu} MHz of CPU; set `cpu` to at least 1, or reserve whole `cores`",
            )
        memory = effective_memory(resources)
        if memory < MIN_MEMORY:
            reject(
                ctx,
                MINIMUM_MEMORY,
                ctx.value_span(resources, "memory"),
                where=f"task `{task.name}`",
                memory=memory,
                help=f"the task reserves {memory} MB of memory; set `memory` to at least {MIN_MEMORY}",
            )


def set_here(ctx: Context, node: Node, name: str) -> list[Related]:
    """A related "`name` is set here" pointing at the attribute, when the block writes it."""
    attribute = ctx.attribute(node, name)
    return [Related(attribute.span, f"`{name}` is set here")] if attribute is not None else []
