"""Device requests themselves: their names, counts and duplicates (HG201-HG204)."""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.diagnostics import Related
from hclgpu.ir import models as m


@rule("HG201")
def empty_device_name(ctx: Context) -> None:
    for _, _, device in ctx.devices():
        if device.name.replace("/", "").strip() == "":
            ctx.report(
                "HG201",  # RequestedDevice.Validate, nomad/structs/structs.go:3132 at aa026cc99c
                "device name must be given as one of the following: type, vendor/type, or vendor/type/name",
                ctx.label_span(device),
                help='the device name is empty; name it `"gpu"`, `"nvidia/gpu"` or `"nvidia/gpu/<model>"`',
            )


def name_problem(name: str) -> str | None:
    """What is wrong with a non-empty device name's shape, as `RequestedDevice.ID()` splits it."""
    parts = name.split("/", 2)
    if any(part != part.strip() for part in parts):
        return "has spaces around a part, which Nomad compares literally"
    if any(part == "" for part in parts):
        return "has an empty part, which matches any value"
    if "/" in parts[-1] and len(parts) == 3:
        return f"has more than three parts: the model asked for is `{parts[2]}`"
    return None


@rule("HG202")
def malformed_device_name(ctx: Context) -> None:
    for _, _, device in ctx.devices():
        if device.name.replace("/", "").strip() == "":
            continue
        problem = name_problem(device.name)
        if problem:
            ctx.report(
                "HG202",
                f"the device name `{device.name}` {problem}",
                ctx.label_span(device),
                help="write `type`, `vendor/type` or `vendor/type/model`",
            )


@rule("HG203")
def zero_device_count(ctx: Context) -> None:
    for _, task, device in ctx.devices():
        if device.count == 0:
            ctx.report(
                "HG203",
                f"task `{task.name}` asks for zero `{device.name}` devices, which Nomad never places",
                ctx.value_span(device, "count"),
                help="ask for at least one device, or remove the block",
            )


@rule("HG204")
def duplicate_device_request(ctx: Context) -> None:
    for _, task in ctx.tasks():
        seen: dict[str, m.RequestedDevice] = {}
        for device in (task.resources.devices or []) if task.resources else []:
            first = seen.setdefault(device.name, device)
            if first is not device:
                ctx.report(
                    "HG204",
                    f"task `{task.name}` requests `{device.name}` twice; each block is a separate request",
                    ctx.label_span(device),
                    help="merge the blocks and raise `count`",
                    related=[Related(span, "first requested here")]
                    if (span := ctx.label_span(first)) is not None
                    else [],
                )
