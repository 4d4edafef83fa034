"""The files a task gets in its directory, as Nomad's server validates them (HG281, HG282).

`Template.Validate` with its `change_script` and `wait`, and `TaskArtifact.Validate` with
its checksum (nomad/structs/structs.go), which `Task.Validate` calls for each `template`
and `artifact`: something to render or fetch, a destination inside the task directory, a
change mode the client can carry out, file permissions in octal, a go-getter mode, and a
checksum go-getter can verify. The rules read the canonical job (the agent's defaults
filled in: template change mode `restart`, artifact mode `any`), because that is what the
server checks.
"""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.server import Condition, at, escapes_allocation, go_duration, parse_uint_error, reject
from hclgpu.codes.base import Code, E
from hclgpu.ir import models as m
from hclgpu.ir.service_names import RUNTIME_VARIABLE
from hclgpu.source import Span

HG281 = Code(
    "HG281",
    "invalid-template",
    E,
    summary="A `template` block Nomad refuses",
    doc="""What: a template has neither `source` nor `data`, no `destination`, a destination
outside the allocation, an unknown `change_mode`, `change_mode = "signal"` without
`change_signal` (or with `env = true`), `change_mode = "script"` without a script
command, a negative `splay`, `perms` that are not octal, or `wait` with min above max.

Why: Nomad rejects the job at registration (`Template.Validate`).

Example:
    template {
      data        = "x"
      destination = "local/x"
      change_mode = "signal"
    }

Fix: add what the change mode needs, or pick another mode.""",
)


HG282 = Code(
    "HG282",
    "invalid-artifact",
    E,
    summary="An `artifact` block Nomad refuses",
    doc="""What: an artifact has no `source`, an unknown `mode`, a destination outside the
allocation, or a `checksum` option that is empty or not `type:value` with a hex value of
the length its type (md5, sha1, sha256, sha512) needs. A checksum that holds a
`${...}` reference is only checked by the client, once interpolated.

Why: Nomad rejects the job at registration (`TaskArtifact.Validate`).

Example:
    artifact {
      source  = "https://example.com/app.tgz"
      options { checksum = "sha256" }
    }

Fix: write the checksum as `sha256:<64 hex digits>`.""",
)


S = "nomad/structs/structs.go"

TEMPLATE_SOURCE = Condition(
    "template-without-source",
    code=HG281,
    nomad="Template.Validate",
    source=f"{S}:8938",
    condition="a template has neither `source` nor `data`",
    message="Must specify a source path or have an embedded template",
)
TEMPLATE_DESTINATION = Condition(
    "template-without-destination",
    code=HG281,
    nomad="Template.Validate",
    source=f"{S}:8943",
    condition="a template has no `destination`",
    message="Must specify a destination for the template",
)
TEMPLATE_ESCAPES = Condition(
    "template-destination-escapes",
    code=HG281,
    nomad="Template.Validate",
    source=f"{S}:8951",
    condition="a template's `destination` leads out of the allocation directory",
    message="destination escapes allocation directory",
)
TEMPLATE_SIGNAL = Condition(
    "template-signal-without-signal",
    code=HG281,
    nomad="Template.Validate",
    source=f"{S}:8959",
    condition='`change_mode = "signal"` without `change_signal`',
    message="Must specify signal value when change mode is signal",
)
TEMPLATE_SIGNAL_ENV = Condition(
    "template-signal-with-env",
    code=HG281,
    nomad="Template.Validate",
    source=f"{S}:8962",
    condition='`change_mode = "signal"` with `env = true`',
    message="cannot use signals with env var templates",
)
TEMPLATE_SCRIPT = Condition(
    "template-script-without-script",
    code=HG281,
    nomad="Template.Validate",
    source=f"{S}:8966",
    condition='`change_mode = "script"` without a `change_script` block',
    message="must specify change script configuration value when change mode is script",
)
TEMPLATE_SCRIPT_COMMAND = Condition(
    "template-script-without-command",
    code=HG281,
    nomad="ChangeScript.Validate",
    source=f"{S}:9068",
    condition='`change_mode = "script"` with a `change_script` whose `command` is empty',
    message="must specify script path value when change mode is script",
)
TEMPLATE_MODE = Condition(
    "template-change-mode",
    code=HG281,
    nomad="Template.Validate",
    source=f"{S}:8973",
    condition="`change_mode` is not noop, restart, signal or script",
    message="Invalid change mode. Must be one of the following: noop, signal, script, restart",
)
TEMPLATE_SPLAY = Condition(
    "template-negative-splay",
    code=HG281,
    nomad="Template.Validate",
    source=f"{S}:8978",
    condition="`splay` < 0",
    message="Must specify positive splay value",
)
TEMPLATE_PERMS = Condition(
    "template-perms-not-octal",
    code=HG281,
    nomad="Template.Validate",
    source=f"{S}:8984",
    condition="`perms` is not an octal number of at most 12 bits",
    message="Failed to parse {perms!r} as octal: {error}",
)
TEMPLATE_WAIT = Condition(
    "template-wait-min-above-max",
    code=HG281,
    nomad="WaitConfig.Validate",
    source=f"{S}:9126",
    condition="`wait { min }` > `wait { max }`",
    message="wait min {min} is greater than max {max}",
)
ARTIFACT_SOURCE = Condition(
    "artifact-without-source",
    code=HG282,
    nomad="TaskArtifact.Validate",
    source=f"{S}:9893",
    condition="an artifact has an empty `source`",
    message="source must be specified",
)
ARTIFACT_MODE = Condition(
    "artifact-mode",
    code=HG282,
    nomad="TaskArtifact.Validate",
    source=f"{S}:9903",
    condition="an artifact's `mode` is not any, file or dir",
    message="invalid artifact mode {mode!r}; must be one of: any, file, dir",
)
ARTIFACT_ESCAPES = Condition(
    "artifact-destination-escapes",
    code=HG282,
    nomad="TaskArtifact.Validate",
    source=f"{S}:9911",
    condition="an artifact's `destination` leads out of the allocation directory",
    message="destination escapes allocation directory",
)
CHECKSUM_EMPTY = Condition(
    "artifact-checksum-empty",
    code=HG282,
    nomad="TaskArtifact.validateChecksum",
    source=f"{S}:9936",
    condition="an artifact's `options { checksum }` is empty or white space",
    message="checksum value cannot be empty",
)
CHECKSUM_FORMAT = Condition(
    "artifact-checksum-format",
    code=HG282,
    nomad="TaskArtifact.validateChecksum",
    source=f"{S}:9941",
    condition="an artifact's checksum is not `type:value` (one colon)",
    message='checksum must be given as "type:value"; got {checksum!r}',
)
CHECKSUM_HEX = Condition(
    "artifact-checksum-not-hex",
    code=HG282,
    nomad="TaskArtifact.validateChecksum",
    source=f"{S}:9947",
    condition="an artifact's checksum value is not hexadecimal (a character that is not, or an odd length)",
    message="invalid checksum: {error}",
)
CHECKSUM_MD5_FIPS = Condition(
    "artifact-checksum-md5-fips",
    nomad="TaskArtifact.validateChecksum",
    source=f"{S}:9955",
    condition="an artifact's checksum is md5, and the server runs in FIPS 140 mode",
    message="md5 checksums are not supported in FIPS-140 mode",
    since=(2, 0, 5),
    needs="the server running in FIPS 140 mode",
)
CHECKSUM_SHA1_FIPS = Condition(
    "artifact-checksum-sha1-fips",
    nomad="TaskArtifact.validateChecksum",
    source=f"{S}:9960",
    condition="an artifact's checksum is sha1, and the server runs in FIPS 140 mode",
    message="sha1 checksums are not supported in FIPS-140 mode",
    since=(2, 0, 5),
    needs="the server running in FIPS 140 mode",
)
CHECKSUM_TYPE = Condition(
    "artifact-checksum-type",
    code=HG282,
    nomad="TaskArtifact.validateChecksum",
    source=f"{S}:9968",
    condition="an artifact's checksum type is not md5, sha1, sha256 or sha512 (lowercase)",
    message="unsupported checksum type: {type}",
)
CHECKSUM_LENGTH = Condition(
    "artifact-checksum-length",
    code=HG282,
    nomad="TaskArtifact.validateChecksum",
    source=f"{S}:9972",
    condition="an artifact's checksum value is not as long as its type's digest (md5 32 hex digits, sha1 40,"
    " sha256 64, sha512 128)",
    message="invalid {type} checksum: {value}",
)


@rule(HG281)
def templates(ctx: Context) -> None:
    for _, task in ctx.canonical_tasks():
        for index, template in enumerate(task.templates or [], 1):
            _template(ctx, template, f"task `{task.name}`, template {index}")


def _template(ctx: Context, template: m.Template, where: str) -> None:
    if not template.source_path and not template.embedded_tmpl:
        reject(
            ctx,
            TEMPLATE_SOURCE,
            ctx.header_span(template),
            where=where,
            help="set `data` (the template text) or `source` (a file to render)",
        )
    if not template.dest_path:
        reject(
            ctx,
            TEMPLATE_DESTINATION,
            ctx.header_span(template),
            where=where,
            help='set `destination`, e.g. `"local/config.txt"`',
        )
    elif escapes_allocation("task", template.dest_path):
        reject(
            ctx,
            TEMPLATE_ESCAPES,
            at(ctx, [template], "destination"),
            where=where,
            help="keep the destination inside the task directory (local/, secrets/, alloc/)",
        )
    _change_mode(ctx, template, where)
    if (template.splay or 0) < 0:
        reject(
            ctx, TEMPLATE_SPLAY, at(ctx, [template], "splay"), where=where, help="use a splay of 0 or more"
        )
    error = parse_uint_error(template.perms, 8, 12) if template.perms else None
    if error:
        reject(
            ctx,
            TEMPLATE_PERMS,
            at(ctx, [template], "perms"),
            where=where,
            perms=template.perms,
            error=error,
            help='write the mode in octal, e.g. `perms = "0644"`',
        )
    wait = template.wait
    if wait is not None and wait.min is not None and wait.max is not None and wait.min > wait.max:
        reject(
            ctx,
            TEMPLATE_WAIT,
            at(ctx, [wait], "min"),
            where=where,
            min=go_duration(wait.min),
            max=go_duration(wait.max),
            help="keep `min` at or below `max`",
        )


def _change_mode(ctx: Context, template: m.Template, where: str) -> None:
    mode = template.change_mode
    span = at(ctx, [template], "change_mode")
    if mode == "signal":
        if not template.change_signal:
            reject(
                ctx, TEMPLATE_SIGNAL, span, where=where, help='add `change_signal = "SIGHUP"` (or the signal)'
            )
        if template.envvars:
            reject(
                ctx,
                TEMPLATE_SIGNAL_ENV,
                span,
                where=where,
                help='an env template cannot be re-read by a signal: use `change_mode = "restart"`',
            )
    elif mode == "script":
        script = template.change_script
        if script is None:
            reject(
                ctx, TEMPLATE_SCRIPT, span, where=where, help="add a `change_script { command = ... }` block"
            )
        elif not script.command:
            reject(
                ctx,
                TEMPLATE_SCRIPT_COMMAND,
                at(ctx, [script], "command"),
                where=where,
                help="set `command` to the script to run when the template changes",
            )
    elif mode not in ("noop", "restart"):
        reject(ctx, TEMPLATE_MODE, span, where=where, help="use noop, restart, signal or script")


@rule(HG282)
def artifacts(ctx: Context) -> None:
    for _, task in ctx.canonical_tasks():
        for index, artifact in enumerate(task.artifacts or [], 1):
            _artifact(ctx, artifact, f"task `{task.name}`, artifact {index}")


def _artifact(ctx: Context, artifact: m.TaskArtifact, where: str) -> None:
    if not artifact.getter_source:
        reject(
            ctx,
            ARTIFACT_SOURCE,
            at(ctx, [artifact], "source"),
            where=where,
            help="set `source`: the URL or path go-getter fetches",
        )
    if artifact.getter_mode not in (None, "any", "file", "dir"):
        reject(
            ctx,
            ARTIFACT_MODE,
            at(ctx, [artifact], "mode"),
            where=where,
            mode=artifact.getter_mode,
            help='use `mode = "any"`, `"file"` or `"dir"`',
        )
    if artifact.relative_dest and escapes_allocation("task", artifact.relative_dest):
        reject(
            ctx,
            ARTIFACT_ESCAPES,
            at(ctx, [artifact], "destination"),
            where=where,
            help="keep the destination inside the task directory",
        )
    checksum = (artifact.getter_options or {}).get("checksum")
    if checksum is not None and not RUNTIME_VARIABLE.search(checksum):
        _checksum(ctx, checksum, _option_span(ctx, artifact, "checksum"), where)


DIGEST_SIZES = {"md5": 16, "sha1": 20, "sha256": 32, "sha512": 64}
"""Bytes per digest of the checksum types go-getter verifies (`crypto/*.Size`)."""
GO_SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
)
"""What Go's ``strings.TrimSpace`` trims (``unicode.IsSpace``)."""
_HEX_DIGITS = frozenset(b"0123456789abcdefABCDEF")


def _checksum(ctx: Context, checksum: str, span: Span | None, where: str) -> None:
    """``TaskArtifact.validateChecksum``: it stops at the first problem.

    A checksum holding a ``${...}`` reference is not checked at all (`args.ContainsEnv`): it
    is only known once the client interpolates it."""
    check = checksum.strip(GO_SPACE)
    parts = check.split(":")
    help = "write the checksum as `type:value`, e.g. `sha256:` and 64 hex digits"
    if check == "":
        reject(ctx, CHECKSUM_EMPTY, span, where=where, help=help)
    elif len(parts) != 2:
        reject(ctx, CHECKSUM_FORMAT, span, where=where, checksum=check, help=help)
    elif (error := go_hex_error(parts[1])) is not None:
        reject(ctx, CHECKSUM_HEX, span, where=where, error=error, help="write the digest in hexadecimal")
    elif parts[0] not in DIGEST_SIZES:
        reject(ctx, CHECKSUM_TYPE, span, where=where, type=parts[0], help="use md5, sha1, sha256 or sha512")
    elif len(parts[1].encode()) // 2 != DIGEST_SIZES[parts[0]]:
        size = DIGEST_SIZES[parts[0]]
        reject(
            ctx,
            CHECKSUM_LENGTH,
            span,
            where=where,
            type=parts[0],
            value=parts[1],
            help=f"a {parts[0]} digest is {size * 2} hex digits",
        )


def go_hex_error(text: str) -> str | None:
    """The error of Go's ``hex.DecodeString(text)``, None when it decodes.

    It reads the bytes in order and stops at the first that is not a hex digit; only then
    does an odd length count."""
    data = text.encode()
    for byte in data:
        if byte not in _HEX_DIGITS:
            character = chr(byte)  # rune(byte): a byte of a UTF-8 sequence reads as Latin-1
            shown = f" '{character}'" if character.isprintable() else ""
            return f"encoding/hex: invalid byte: U+{byte:04X}{shown}"
    return "encoding/hex: odd length hex string" if len(data) % 2 else None


def _option_span(ctx: Context, artifact: m.TaskArtifact, name: str) -> Span | None:
    """The value of ``name`` in the artifact's `options` block, else the artifact's header."""
    block = ctx.block_of(artifact)
    for options in block.body.blocks("options") if block is not None else []:
        attribute = next((a for a in options.body.attributes() if a.name == name), None)
        if attribute is not None:
            return attribute.value.span
    return ctx.header_span(artifact)
