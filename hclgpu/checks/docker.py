"""What the docker driver makes of a task's `config` when the task starts (HG259).

Nomad's server never reads a driver's `config`: the client decodes it with the driver's
schema when it starts the task (`hclutils.ParseHclInterface` in the task runner), so a value
the server registers can still fail the task, or give it something other than what was
meant. The docker driver's schema is `configSpec` (drivers/docker/config.go), and
`createContainerConfig` (drivers/docker/driver.go) hands the values to dockerd, at
hashicorp/nomad aa026cc99c.
"""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.networks import config_value_span
from hclgpu.checks.server import Check
from hclgpu.codes.base import Code, W
from hclgpu.eval.functions.base import go_quote
from hclgpu.eval.values import EvalError, to_number

HG259 = Code(
    "HG259",
    "shm-size-not-in-bytes",
    W,
    summary="A docker `shm_size` that is not a size in bytes",
    doc="""What: a docker task's `config { shm_size }` is below 1 MiB, or a string that is
not a number (`"1024g"`).

Why: the docker driver reads `shm_size` as a number of bytes (`"shm_size":
hclspec.NewAttr("shm_size", "number", false)`, drivers/docker/config.go:447) and gives it
to dockerd unchanged (drivers/docker/driver.go:1247). `shm_size = 1024` meant as MB gives
the container a 1 KiB /dev/shm instead of Docker's 64 MiB: PyTorch data loaders and NCCL
then fail with "No space left on device" or a bus error. A string that does not convert
to a number fails the task before it starts: the client decodes `config` with the
driver's schema and emits "failed to parse config" (client/allocrunner/taskrunner/
task_runner.go:943). Nomad's server accepts both: it never reads a driver's `config`.

Example:
    config {
      image    = "nvcr.io/nvidia/tritonserver:24.08-py3"
      shm_size = 1024   # meant as 1 GB
    }

Fix: write the size in bytes: 1 GiB is `1073741824` (or `1024 * 1024 * 1024`).""",
)

NOT_A_NUMBER = Check(
    "shm-size-not-a-number",
    code=HG259,
    condition='a docker task\'s `config { shm_size }` is a string that is not a number (`"1024g"`):'
    " the driver cannot decode its config and the task fails to start",
)
BELOW_ONE_MIB = Check(
    "shm-size-below-one-mib",
    code=HG259,
    condition="a docker task's `config { shm_size }` is above 0 and below 1 MiB (1048576 bytes)",
)

MIB = 1024 * 1024


@rule(HG259)
def shm_size(ctx: Context) -> None:
    for _, task in ctx.tasks():
        value = (task.config or {}).get("shm_size")
        if task.driver != "docker" or value is None or isinstance(value, bool):
            continue
        span = config_value_span(ctx, task, "shm_size")
        if span is None:
            continue
        if isinstance(value, str):
            text = value
            try:
                value = to_number(text)  # as the driver's schema converts it
            except EvalError:
                ctx.report(
                    HG259,
                    f"task `{task.name}`: the docker driver reads `shm_size` as a number of bytes,"
                    f" and {go_quote(text)} is not a number: the task fails to start",
                    span,
                    help="write the size in bytes: 1 GiB is 1073741824",
                    check=NOT_A_NUMBER.id,
                )
                continue
        if isinstance(value, (int, float)) and 0 < value < MIB:
            ctx.report(
                HG259,
                f"task `{task.name}`: `shm_size` is in bytes: {value:g} gives the container a /dev/shm"
                f" of {value:g} bytes, not Docker's 64 MiB",
                span,
                help=f"if {value:g} meant MiB, write {int(value * MIB)}",
                check=BELOW_ONE_MIB.id,
            )
