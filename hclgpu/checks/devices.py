"""Device requests themselves: their names, counts and duplicates (HG201-HG204), a GPU
used without one (HG206), MIG profiles a GPU model does not have (HG208), and counts no node
of the fleet can hold (HG209)."""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.networks import config_value_span
from hclgpu.checks.server import Check, Condition, reject
from hclgpu.codes.base import Code, E, W
from hclgpu.diagnostics import Edit, Related
from hclgpu.eval.functions.base import go_quote
from hclgpu.ir import models as m
from hclgpu.source import Span

HG201 = Code(
    "HG201",
    "empty-device-name",
    E,
    summary="A device request has an empty name",
    doc="""What: `device "" { }` (or a name made only of slashes and spaces).

Why: Nomad rejects the job at registration: "device name must be given as one of
the following: type, vendor/type, or vendor/type/name".

Example:
    device "" { count = 1 }

Fix: name the device: `"gpu"`, `"nvidia/gpu"` or `"nvidia/gpu/Tesla T4"`.""",
)


HG202 = Code(
    "HG202",
    "malformed-device-name",
    W,
    summary="A device name has empty parts, extra parts or stray spaces",
    doc="""What: the name is split on `/` into vendor, type and model (the rest of the
name). An empty part matches anything, spaces are compared literally, and a fourth
part becomes part of the model (`a/b/c/d` asks for the model `c/d`).

Why: `nvidia//T4` asks for any device type, `nvidia /gpu` for a vendor named
`nvidia ` that no plugin reports: the request silently matches more, or nothing.

Example:
    device "nvidia /gpu" {}

Fix: write `type`, `vendor/type` or `vendor/type/model` without spaces around the
slashes.""",
)


HG203 = Code(
    "HG203",
    "zero-device-count",
    W,
    summary="A device request asks for zero devices",
    doc="""What: `count = 0` in a `device` block.

Why: Nomad accepts it, but the scheduler refuses to place it ("invalid request of
zero devices"): the job stays pending.

Example:
    device "nvidia/gpu" { count = 0 }

Fix: ask for at least one device, or remove the block.""",
)


HG204 = Code(
    "HG204",
    "duplicate-device-request",
    W,
    summary="A task requests the same device twice",
    doc="""What: two `device` blocks with the same name in one task.

Why: each block is a separate request; the task needs both satisfied, which is
rarely what was meant (usually `count` should have been raised).

Example:
    device "nvidia/gpu" {}
    device "nvidia/gpu" {}

Fix: merge the blocks and set `count`.""",
)

DEVICE_NAME_FORMAT = Condition(
    "device-name-format",
    code=HG201,
    nomad="RequestedDevice.Validate",
    source="nomad/structs/structs.go:3132",
    condition="a `device` label is empty or not type, vendor/type or vendor/type/name",
    message="device name must be given as one of the following: type, vendor/type, or vendor/type/name",
)


HG206 = Code(
    "HG206",
    "gpu-without-device-request",
    W,
    summary="A task uses NVIDIA GPUs without a `device` request",
    doc="""What: a docker task sets `runtime = "nvidia"`, or a task sets
`NVIDIA_VISIBLE_DEVICES` in its `env`, but no `resources { device "nvidia/gpu" {} }`
(or `"gpu"`) asks for a GPU.

Why: Nomad reserves only the devices a task requests. The NVIDIA runtime still hands
the container the GPUs `NVIDIA_VISIBLE_DEVICES` names (CUDA images set it to `all`), so
the task uses GPUs the scheduler believes are free and gives to other jobs: two jobs
share a GPU without knowing, and `nvidia-smi` in one shows the other's memory. With a
request, the device plugin sets `NVIDIA_VISIBLE_DEVICES` to the GPUs it reserved
(nomad-device-nvidia device.go:218).

Example:
    config {
      image   = "nvcr.io/nvidia/pytorch:24.08-py3"
      runtime = "nvidia"
    }

Fix: request the GPUs the task uses, `resources { device "nvidia/gpu" { count = 1 } }`,
and leave `NVIDIA_VISIBLE_DEVICES` to the device plugin. A monitoring task that must see
every GPU without reserving one (a DCGM exporter in a system job) is the exception:
suppress the check for it, `# hclgpu-ignore: nvidia-visible-devices-without-device`.""",
)

RUNTIME_WITHOUT_DEVICE = Check(
    "nvidia-runtime-without-device",
    code=HG206,
    condition='a docker task sets `config { runtime = "nvidia" }` and requests no GPU',
)
VISIBLE_DEVICES_WITHOUT_DEVICE = Check(
    "nvidia-visible-devices-without-device",
    code=HG206,
    condition='a task sets `env { NVIDIA_VISIBLE_DEVICES }` to GPUs (not "void" or "none") and'
    " requests no GPU",
)
NO_GPUS = ("", "void", "none")
"""`NVIDIA_VISIBLE_DEVICES` values that expose no GPU (nvidia-container-toolkit)."""


HG208 = Code(
    "HG208",
    "unknown-mig-profile",
    W,
    summary="A device request asks for a MIG profile its GPU model does not have",
    doc="""What: the model asked for, in the name `nvidia/gpu/<model>` or in an `=` constraint
on `${device.model}`, is a MIG instance, `<parent> MIG <profile>`, of a GPU model whose MIG
profiles are on record, and the profile is not one of them.

Why: since nomad-device-nvidia 1.1.0 each MIG instance is a GPU of its own whose model is
the name NVML gives it (nvml/driver_linux.go:141, fingerprint.go:81-96 and 166 at 05e83c3),
`<parent> MIG <profile>`, and a GPU has only the profiles NVIDIA's MIG user guide lists for
it ("Supported MIG Profiles"): an A100-SXM4-40GB has `1g.5gb` .. `7g.40gb`, the 80GB one
`1g.10gb` .. `7g.80gb`. Nomad compares the model literally, so no device ever matches and
the job stays pending.

Example:
    device "nvidia/gpu/NVIDIA A100-SXM4-40GB MIG 1g.10gbb" {}

Fix: use a profile of that GPU, as `nvidia-smi -L` lists its MIG devices
(`NVIDIA A100-SXM4-40GB MIG 1g.10gb`). The models on record are those of
`hclgpu.units.mig.MIG_PROFILES`.""",
)
HG209 = Code(
    "HG209",
    "device-count-exceeds-fleet",
    W,
    summary="A device request asks for more devices than any node of the fleet has",
    doc="""What: the profile names the fleet's node inventory (`nodes`, a file), and no node
of it has a device group matching the request's name with at least `count` healthy
instances.

Why: Nomad takes all the devices of one request from one device group of one node
(scheduler/device.go `createOffer`, lines 121-138 at v1.10.0: a group with fewer free
instances than the count is skipped). Eight GPUs spread over two four-GPU nodes are
not eight GPUs for one task: the job is accepted and stays pending. Constraints can only
narrow the groups, so the finding holds whatever they say.

Example:
    device "nvidia/gpu" { count = 8 }   # the fleet's nodes have 4 GPUs each

Fix: ask for at most as many devices as one node has (the finding names the node with
the most), and spread the work over more tasks or allocations; or add a larger node to the
inventory. `hclgpu plan` shows where each allocation would go.""",
)
FLEET_COUNT = Check(
    "count-above-every-node-group",
    code=HG209,
    condition="a device request's count is above the healthy instances of every matching device"
    " group on any one node of the `nodes` inventory",
)
FLEET_UNREADABLE = Check(
    "fleet-inventory-unreadable",
    code=HG209,
    condition="the `nodes` inventory file cannot be read, so device counts are not checked",
)


MODEL = "${device.model}"
EQUALS = ("=", "==", "is")
"""The operators that test equality (Nomad's aliases of `=`)."""


def pinned_models(device: m.RequestedDevice) -> list[tuple[str, m.Constraint | None]]:
    """The NVIDIA GPU models a request names: the one in its name (with no constraint) and the
    literal value of each `=` `${device.model}` constraint; none for a request that is not
    for an NVIDIA GPU or a bare `gpu`."""
    parts = device.name.split("/", 2)
    if len(parts) == 3:
        if parts[:2] != ["nvidia", "gpu"]:
            return []
        named: list[tuple[str, m.Constraint | None]] = [(parts[2], None)] if parts[2] else []
    elif device.name in ("gpu", "nvidia/gpu"):
        named = []
    else:
        return []
    literal = [c for c in device.constraints or [] if c.r_target and not c.r_target.startswith("${")]
    return named + [(c.r_target, c) for c in literal if c.l_target == MODEL and c.operand in EQUALS]


@rule(HG201)
def empty_device_name(ctx: Context) -> None:
    for _, _, device in ctx.devices():
        if device.name.replace("/", "").strip() == "":
            reject(
                ctx,
                DEVICE_NAME_FORMAT,
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


@rule(HG202)
def malformed_device_name(ctx: Context) -> None:
    for _, _, device in ctx.devices():
        if device.name.replace("/", "").strip() == "":
            continue
        problem = name_problem(device.name)
        if problem:
            ctx.report(
                HG202,
                f"the device name `{device.name}` {problem}",
                ctx.label_span(device),
                help="write `type`, `vendor/type` or `vendor/type/model`",
            )


@rule(HG203)
def zero_device_count(ctx: Context) -> None:
    for _, task, device in ctx.devices():
        if device.count == 0:
            ctx.report(
                HG203,
                f"task `{task.name}` asks for zero `{device.name}` devices, which Nomad never places",
                ctx.value_span(device, "count"),
                help="ask for at least one device, or remove the block",
            )


@rule(HG204)
def duplicate_device_request(ctx: Context) -> None:
    for _, task in ctx.tasks():
        seen: dict[str, m.RequestedDevice] = {}
        for device in (task.resources.devices or []) if task.resources else []:
            first = seen.setdefault(device.name, device)
            if first is not device:
                ctx.report(
                    HG204,
                    f"task `{task.name}` requests `{device.name}` twice; each block is a separate request",
                    ctx.label_span(device),
                    help="merge the blocks and raise `count`",
                    related=[Related(span, "first requested here")]
                    if (span := ctx.label_span(first)) is not None
                    else [],
                )


@rule(HG206)
def gpu_without_device_request(ctx: Context) -> None:
    for _, task in ctx.tasks():
        devices = task.resources.devices if task.resources is not None else None
        if any(_is_gpu(device.name) for device in devices or []):
            continue
        help = 'request the GPUs it uses: `resources { device "nvidia/gpu" { count = 1 } }`'
        if task.driver == "docker" and (task.config or {}).get("runtime") == "nvidia":
            ctx.report(
                HG206,
                f'task `{task.name}` runs with `runtime = "nvidia"` but requests no GPU: Nomad reserves'
                " none for it and places other jobs on the GPUs it uses",
                config_value_span(ctx, task, "runtime") or ctx.label_span(task),
                help=help,
                check=RUNTIME_WITHOUT_DEVICE.id,
            )
        visible = (task.env or {}).get("NVIDIA_VISIBLE_DEVICES")
        if isinstance(visible, str) and visible.strip().lower() not in NO_GPUS:
            ctx.report(
                HG206,
                f"task `{task.name}` sets NVIDIA_VISIBLE_DEVICES = {go_quote(visible)} but requests no"
                " GPU: Nomad reserves none for it and places other jobs on those GPUs",
                _env_span(ctx, task) or ctx.label_span(task),
                help=f"{help}, and remove NVIDIA_VISIBLE_DEVICES: the device plugin sets it",
                check=VISIBLE_DEVICES_WITHOUT_DEVICE.id,
            )


@rule(HG208)
def unknown_mig_profile(ctx: Context) -> None:
    for _, task, device in ctx.devices():
        for model, constraint in pinned_models(device):
            _check_mig_model(ctx, task, device, model, constraint)


def _check_mig_model(
    ctx: Context, task: m.Task, device: m.RequestedDevice, model: str, constraint: m.Constraint | None
) -> None:
    from difflib import get_close_matches

    from hclgpu.units.mig import MIG_PROFILES, parse_mig_model

    parsed = parse_mig_model(model)
    if parsed is None or parsed[0] not in MIG_PROFILES or parsed[1] in MIG_PROFILES[parsed[0]]:
        return
    parent, profile = parsed
    profiles = list(MIG_PROFILES[parent])
    close = get_close_matches(profile, profiles, n=1, cutoff=0.6)
    fixed = f"{parent} MIG {close[0]}" if close else ""
    ctx.report(
        HG208,
        f"task `{task.name}` asks for the MIG profile `{profile}`, which `{parent}` does not have:"
        " no device matches",
        ctx.label_span(device) if constraint is None else ctx.value_span(constraint, "value"),
        help=f"did you mean `{fixed}`?" if close else f"its profiles are {', '.join(profiles)}",
        fix=(
            ctx.written(constraint, "value", go_quote(fixed))
            if constraint
            else _label_profile(ctx, device, profile, close[0])
        )
        if close
        else (),
    )


def _label_profile(ctx: Context, device: m.RequestedDevice, profile: str, close: str) -> tuple[Edit, ...]:
    """The edit writing ``close`` for the misspelt ``profile`` that ends the device's label."""
    span = ctx.label_span(device)
    if span is None or not ctx.source.text[span.start : span.end].endswith(f' MIG {profile}"'):
        return ()
    return (Edit(Span(span.end - 1 - len(profile), span.end - 1), close),)


def _is_gpu(name: str) -> bool:
    """Whether a device request can be a GPU: type `gpu`, or any NVIDIA device."""
    parts = name.split("/")
    kind = parts[0] if len(parts) == 1 else parts[1]
    return kind.strip() == "gpu" or (len(parts) > 1 and parts[0].strip() == "nvidia")


def _env_span(ctx: Context, task: m.Task) -> Span | None:
    """The `NVIDIA_VISIBLE_DEVICES` entry of the task's `env` block or map, where written."""
    block = ctx.block_of(task)
    for env in block.body.blocks("env") if block is not None else []:
        for attribute in env.body.attributes():
            if attribute.name == "NVIDIA_VISIBLE_DEVICES":
                return attribute.span
    written = ctx.attribute(task, "env")
    return written.value.span if written is not None else None


@rule(HG209)
def device_count_exceeds_fleet(ctx: Context) -> None:
    if ctx.profile.nodes is None:
        return
    from hclgpu.plan.fleet import largest_group, load_fleet

    try:
        fleet = load_fleet(ctx.profile.nodes)
    except ValueError as error:
        ctx.report(
            HG209,
            f"the `nodes` inventory cannot be read, so device counts are not checked: {error}",
            ctx.label_span(ctx.job) or Span(0, 0),
            check=FLEET_UNREADABLE.id,
            help="fix the file, or remove `nodes` from the settings",
        )
        return
    for _, task, device in ctx.devices():
        count = 1 if device.count is None else device.count
        if count <= 0:
            continue  # HG203
        most = largest_group(device.name, fleet)
        if most is not None and most[3] >= count:
            continue
        if most is None:
            message = f"task `{task.name}` asks for `{device.name}` and no node of the fleet has one"
            advice = "name a device the fleet has (`hclgpu plan` lists where each group goes)"
        else:
            message = (
                f"task `{task.name}` asks for {count} `{device.name}` and the most on one node is {most[3]}"
                f" (`{'/'.join(most[:3])}` on {most[4]}): Nomad takes a request's devices from one"
                " group of one node"
            )
            advice = f"ask for at most {most[3]} and spread the work over more allocations"
        ctx.report(
            HG209,
            f"{message}, so it is never placed",
            ctx.value_span(device, "count") or ctx.label_span(device),
            check=FLEET_COUNT.id,
            help=advice,
        )
