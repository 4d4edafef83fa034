"""A group's `volume` requests as Nomad's server validates them (HG285).

`VolumeRequest.Validate` (nomad/structs/volumes.go), called by `TaskGroup.Validate` with the
job type, the group's count and its canaries, and wrapped as "Task group volume validation
for <name> failed". The agent drops every volume whose type is not host or csi before the
server sees the job, so only those two are checked. The rules read the canonical job: the
group count defaults to `scaling { min }` (else 1) and the canaries come from the group's
update strategy merged over the job's.

The host-volume rules changed in Nomad 1.10 with dynamic host volumes: before, a host volume
could have no access or attachment mode at all; since, it may name a single-node access
mode, and a read-only one must be mounted read-only.
"""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.server import Condition, at, reject
from hclgpu.checks.tasks import HG285
from hclgpu.ir import models as m
from hclgpu.source import Span

V = "nomad/structs/volumes.go"

VOLUME_SOURCE = Condition(
    "volume-without-source",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:159",
    condition="a host or csi `volume` has an empty `source`",
    message="volume has an empty source",
)
PER_ALLOC_SYSTEM = Condition(
    "volume-per-alloc-in-system-job",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:163",
    condition="`per_alloc = true` in a system or sysbatch job",
    message="volume cannot be per_alloc for system or sysbatch jobs",
)
PER_ALLOC_CANARY = Condition(
    "volume-per-alloc-with-canaries",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:166",
    condition="`per_alloc = true` while the group's update strategy has canaries",
    message="volume cannot be per_alloc when canaries are in use",
)
PER_ALLOC_STICKY = Condition(
    "volume-per-alloc-and-sticky",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:169",
    condition="`per_alloc = true` and `sticky = true`",
    message="volume cannot be per_alloc and sticky at the same time",
    since=(1, 10, 0),
)
HOST_MOUNT_OPTIONS = Condition(
    "host-volume-mount-options",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:177",
    condition="a host `volume` has a `mount_options` block",
    message="host volumes cannot have mount options",
)
HOST_READER_WRITABLE = Condition(
    "host-volume-reader-not-read-only",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:183",
    condition='a host `volume` with `access_mode = "single-node-reader-only"` lacks `read_only = true`',
    message="{mode} volumes must be read-only",
    since=(1, 10, 0),
)
HOST_ACCESS_MODE = Condition(
    "host-volume-access-mode",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:193",
    condition="a host `volume`'s `access_mode` is not single-node-reader-only, single-node-writer,"
    " single-node-single-writer or single-node-multi-writer (Nomad 1.10 prints"
    " `%!s(MISSING)` for the mode)",
    message="host volumes cannot be mounted with {mode} access mode",
    since=(1, 10, 0),
)
HOST_ATTACHMENT_LEGACY = Condition(
    "host-volume-with-attachment-mode",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:158",
    condition="a host `volume` sets `attachment_mode`",
    message="host volumes cannot have an attachment mode",
    until=(1, 10, 0),
    tag="v1.9.0",
)
HOST_ACCESS_LEGACY = Condition(
    "host-volume-with-access-mode",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:161",
    condition="a host `volume` sets `access_mode`",
    message="host volumes cannot have an access mode",
    until=(1, 10, 0),
    tag="v1.9.0",
)
CSI_ATTACHMENT = Condition(
    "csi-volume-without-attachment-mode",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:200",
    condition="a csi `volume` has no `attachment_mode`",
    message="CSI volumes must have an attachment mode",
)
BLOCK_MOUNT_OPTIONS = Condition(
    "block-device-mount-options",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:203",
    condition='a csi `volume` with `attachment_mode = "block-device"` has a `mount_options` block',
    message="block devices cannot have mount options",
)
CSI_ACCESS = Condition(
    "csi-volume-without-access-mode",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:209",
    condition="a csi `volume` has no `access_mode`",
    message="CSI volumes must have an access mode",
)
CSI_READER_WRITABLE = Condition(
    "csi-volume-reader-not-read-only",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:212",
    condition='a csi `volume` with `access_mode = "single-node-reader-only"` lacks `read_only = true`',
    message="{mode} volumes must be read-only",
)
CSI_ONE_READER = Condition(
    "csi-volume-one-reader",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:215",
    condition='a csi `volume` with `access_mode = "single-node-reader-only"` in a group of `count` > 1,'
    " without `per_alloc = true`",
    message="volume with {mode} access mode allows only one reader",
)
CSI_ONE_READER_OR_WRITER = Condition(
    "csi-volume-one-reader-or-writer",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:220",
    condition='a csi `volume` with `access_mode = "single-node-writer"` in a group of `count` > 1,'
    " without `per_alloc = true`",
    message="volume with {mode} access mode allows only one reader or writer",
)
CSI_MULTI_READER_WRITABLE = Condition(
    "csi-volume-multi-reader-not-read-only",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:224",
    condition='a csi `volume` with `access_mode = "multi-node-reader-only"` lacks `read_only = true`',
    message="{mode} volumes must be read-only",
)
CSI_ONE_WRITER = Condition(
    "csi-volume-one-writer",
    code=HG285,
    nomad="VolumeRequest.Validate",
    source=f"{V}:228",
    condition='a csi `volume` with `access_mode = "multi-node-single-writer"`, not `read_only`, in a group'
    " of `count` > 1, without `per_alloc = true`",
    message="volume with {mode} access mode allows only one writer",
)

HOST_ACCESS_MODES = (
    "",
    "single-node-reader-only",
    "single-node-writer",
    "single-node-single-writer",
    "single-node-multi-writer",
)
"""What a host volume may ask for since dynamic host volumes (all per node); "" is any."""
MODE_PRINTED_SINCE = (1, 11, 1)
"""Before it, `HOST_ACCESS_MODE`'s Sprintf had no argument: Go printed ``%!s(MISSING)``."""
READ_ONLY_FIX = "set `read_only = true`, or use a mode that allows writing"
ONE_CLAIM_FIX = "set `per_alloc = true` to give each allocation its own volume, or use `count = 1`"


@rule(HG285)
def volume_requests(ctx: Context) -> None:
    """`VolumeRequest.Validate` for every host and csi volume of every group."""
    job_type = ctx.canonical.type or "service"
    for group in ctx.canonical.task_groups or []:
        canaries = (group.update.canary or 0) if group.update is not None else 0
        for name, volume in (group.volumes or {}).items():
            if volume.type not in ("host", "csi"):
                continue
            where = f"group `{group.name}`, volume `{name}`"
            _common(ctx, volume, job_type, canaries, where)
            if volume.type == "host":
                _host(ctx, volume, where)
            else:
                _csi(ctx, volume, group.count or 0, where)


def _common(ctx: Context, volume: m.VolumeRequest, job_type: str, canaries: int, where: str) -> None:
    if not volume.source:
        reject(
            ctx,
            VOLUME_SOURCE,
            at(ctx, [volume], "source"),
            where=where,
            help="set `source`: the host volume or CSI volume ID to claim",
        )
    if not volume.per_alloc:
        return
    span = at(ctx, [volume], "per_alloc")
    if job_type in ("system", "sysbatch"):
        reject(
            ctx,
            PER_ALLOC_SYSTEM,
            span,
            where=where,
            help="remove `per_alloc`: system allocations have no index to name volumes by",
        )
    if canaries > 0:
        reject(ctx, PER_ALLOC_CANARY, span, where=where, help="remove `per_alloc`, or the group's canaries")
    if volume.sticky:
        reject(
            ctx,
            PER_ALLOC_STICKY,
            at(ctx, [volume], "sticky"),
            where=where,
            help="keep one: `per_alloc` (a volume per allocation) or `sticky` (the same volume again)",
        )


def _host(ctx: Context, volume: m.VolumeRequest, where: str) -> None:
    mode = volume.access_mode
    if volume.mount_options is not None:
        reject(
            ctx,
            HOST_MOUNT_OPTIONS,
            _block_span(ctx, volume.mount_options, volume),
            where=where,
            help="remove `mount_options`: only CSI volumes are mounted by Nomad",
        )
    if volume.attachment_mode:
        reject(
            ctx,
            HOST_ATTACHMENT_LEGACY,
            at(ctx, [volume], "attachment_mode"),
            where=where,
            help="remove `attachment_mode`: it applies to CSI volumes",
        )
    if mode:
        reject(
            ctx,
            HOST_ACCESS_LEGACY,
            at(ctx, [volume], "access_mode"),
            where=where,
            help="remove `access_mode`: before Nomad 1.10 it applies to CSI volumes only",
        )
    if mode == "single-node-reader-only" and not volume.read_only:
        span = at(ctx, [volume], "read_only", "access_mode")
        reject(ctx, HOST_READER_WRITABLE, span, where=where, mode=mode, help=READ_ONLY_FIX)
    if mode not in HOST_ACCESS_MODES:
        printed = mode if ctx.profile.release >= MODE_PRINTED_SINCE else "%!s(MISSING)"
        reject(
            ctx,
            HOST_ACCESS_MODE,
            at(ctx, [volume], "access_mode"),
            where=where,
            mode=printed,
            help="use single-node-reader-only, single-node-writer, single-node-single-writer"
            " or single-node-multi-writer",
        )


def _csi(ctx: Context, volume: m.VolumeRequest, count: int, where: str) -> None:
    attachment, mode = volume.attachment_mode, volume.access_mode
    if not attachment:
        reject(
            ctx,
            CSI_ATTACHMENT,
            ctx.header_span(volume),
            where=where,
            help='set `attachment_mode = "file-system"` (or "block-device")',
        )
    elif attachment == "block-device" and volume.mount_options is not None:
        reject(
            ctx,
            BLOCK_MOUNT_OPTIONS,
            _block_span(ctx, volume.mount_options, volume),
            where=where,
            help="remove `mount_options`: a block device is handed to the task unmounted",
        )
    if not mode:
        reject(
            ctx,
            CSI_ACCESS,
            ctx.header_span(volume),
            where=where,
            help='set `access_mode`, e.g. "single-node-writer"',
        )
        return
    shared = count > 1 and not volume.per_alloc
    read_only_span = at(ctx, [volume], "read_only", "access_mode")
    mode_span = at(ctx, [volume], "access_mode")
    if mode in ("single-node-reader-only", "multi-node-reader-only") and not volume.read_only:
        condition = CSI_READER_WRITABLE if mode.startswith("single") else CSI_MULTI_READER_WRITABLE
        reject(ctx, condition, read_only_span, where=where, mode=mode, help=READ_ONLY_FIX)
    one_claim = {
        "single-node-reader-only": CSI_ONE_READER,
        "single-node-writer": CSI_ONE_READER_OR_WRITER,
        "multi-node-single-writer": CSI_ONE_WRITER,
    }.get(mode)
    if one_claim is CSI_ONE_WRITER and volume.read_only:
        one_claim = None  # readers of a multi-node-single-writer volume may share it
    if one_claim is not None and shared:
        reject(ctx, one_claim, mode_span, where=where, mode=mode, help=ONE_CLAIM_FIX)


def _block_span(ctx: Context, block: m.CSIMountOptions, volume: m.VolumeRequest) -> Span | None:
    """The header of a nested block, else of the volume that holds it."""
    return ctx.header_span(block) if block.span is not None else ctx.header_span(volume)
