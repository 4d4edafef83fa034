"""What a task is given to reach other systems, as Nomad's server validates it (HG286, HG293).

A task's workload identities (`WorkloadIdentity.Validate` and the default-identity checks
of `Task.Validate`, nomad/structs/workload_id.go and structs.go), its `vault` block
(`Vault.Validate`) and its `secret` blocks (`Secret.Validate` and `Task.Validate`, Nomad
1.11 and later). The rules read the canonical job: a job-level `vault` block is already
copied into the tasks that have none, as jobspec2 does.

Identities are the subtle part: Nomad moves the default identity (no name, or "default")
out of the task's list twice over, once in jobspec2 and once in the server's
`Task.Canonicalize`, so what the server validates is not the list the file wrote; see
:func:`default_and_named_identities`.
"""

from __future__ import annotations

import re

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.server import Condition, at, reject
from hclgpu.codes.base import Code, E
from hclgpu.ir import models as m
from hclgpu.source import Span

HG286 = Code(
    "HG286",
    "invalid-identity",
    E,
    summary="An `identity` or `vault` block Nomad refuses",
    doc="""What: an identity has a name outside `[a-zA-Z0-9-_]{1,128}`, an empty audience, a
`change_mode`/`change_signal` mismatch, a negative `ttl`, or `filepath` without
`file = true`; the default identity (an `identity` block without a name) has a `ttl`,
or a task has three or more of them; a `vault` block's change mode is unknown or
`signal` without `change_signal`, or (Nomad 1.8 and 1.9) its `policies` hold "root".

Why: Nomad rejects the job at registration (`WorkloadIdentity.Validate`,
`Vault.Validate`, `Task.Validate`).

Example:
    vault {
      change_mode = "signal"
    }

Fix: add `change_signal = "SIGHUP"`, or use change_mode restart or noop.""",
)


HG293 = Code(
    "HG293",
    "invalid-secret",
    E,
    summary="A task `secret` block Nomad refuses",
    doc="""What: a task's `secret "<name>"` block has a name that is not 1-128 letters, digits or
underscores, no `provider` or `path`, an `env` block with the nomad or vault provider, a
`config` block with a plugin provider, or uses Vault in a task without a `vault` block
(the job's counts); or two secrets of a task share a name.

Why: Nomad rejects the job at registration (`Secret.Validate`, `Task.Validate`, Nomad
1.11 and later).

Example:
    secret "db-password" {
      provider = "vault"
      path     = "secret/db"
    }

Fix: name it `db_password`, and give the task a `vault` block.""",
)


S = "nomad/structs/structs.go"
W = "nomad/structs/workload_id.go"

VAULT_SIGNAL = Condition(
    "vault-signal-without-signal",
    code=HG286,
    nomad="Vault.Validate",
    source=f"{S}:10530",
    condition='a `vault` block has `change_mode = "signal"` without `change_signal`',
    message='Signal must be specified when using change mode "signal"',
)
VAULT_MODE = Condition(
    "vault-change-mode",
    code=HG286,
    nomad="Vault.Validate",
    source=f"{S}:10534",
    condition="a `vault` block's `change_mode` is not noop, restart or signal",
    message="Unknown change mode {mode!r}",
)
VAULT_ROOT_POLICY = Condition(
    "vault-root-policy",
    code=HG286,
    nomad="Vault.Validate",
    source=f"{S}:10508",
    condition='a `vault` block\'s `policies` holds "root" (from 1.10 on the agent drops `policies`)',
    message='Can not specify "root" policy',
    until=(1, 10, 0),
    tag="v1.9.0",
)
IDENTITY_NAME = Condition(
    "identity-name",
    code=HG286,
    nomad="WorkloadIdentity.Validate",
    source=f"{W}:459",
    condition="an `identity` name does not match ^[a-zA-Z0-9-_]{1,128}$",
    message="invalid name {name!r}. Must match regex ^[a-zA-Z0-9-_]{{1,128}}$",
)
IDENTITY_AUDIENCE = Condition(
    "identity-empty-audience",
    code=HG286,
    nomad="WorkloadIdentity.Validate",
    source=f"{W}:465",
    condition="a named `identity { aud }` holds an empty string (the default identity's audience is"
    " always nomadproject.io)",
    message="an empty string is an invalid audience ({index})",
)
IDENTITY_SIGNAL_MODE = Condition(
    "identity-signal-without-mode",
    code=HG286,
    nomad="WorkloadIdentity.Validate",
    source=f"{W}:473",
    condition="`change_signal` on an identity whose `change_mode` is noop, restart or unset",
    message='can only use change_signal={signal!r} with change_mode="signal"',
)
IDENTITY_SIGNAL = Condition(
    "identity-signal-without-signal",
    code=HG286,
    nomad="WorkloadIdentity.Validate",
    source=f"{W}:478",
    condition='`change_mode = "signal"` on an identity without `change_signal`',
    message='change_signal must be specified when using change_mode="signal"',
)
IDENTITY_MODE = Condition(
    "identity-change-mode",
    code=HG286,
    nomad="WorkloadIdentity.Validate",
    source=f"{W}:482",
    condition="an identity's `change_mode` is not noop, restart, signal or empty",
    message="invalid change_mode: {mode}",
)
IDENTITY_DEFAULT_TTL = Condition(
    "identity-default-ttl",
    code=HG286,
    nomad="WorkloadIdentity.Validate",
    source=f"{W}:486",
    condition="the default identity (an `identity` block without `name`, or named default) has a `ttl`"
    " above 0",
    message="ttl for default identity not yet supported",
    since=(1, 9, 0),
)
IDENTITY_TTL = Condition(
    "identity-negative-ttl",
    code=HG286,
    nomad="WorkloadIdentity.Validate",
    source=f"{W}:490",
    condition="an identity's `ttl` < 0",
    message="ttl must be >= 0",
)
IDENTITY_FILEPATH = Condition(
    "identity-filepath-without-file",
    code=HG286,
    nomad="WorkloadIdentity.Validate",
    source=f"{W}:494",
    condition="an identity sets `filepath` without `file = true`",
    message="file parameter must be true in order to specify filepath",
    since=(1, 9, 0),
)
IDENTITY_DEFAULT_TWICE = Condition(
    "identity-default-twice",
    code=HG286,
    nomad="Task.Validate",
    source=f"{S}:8410",
    condition="a task has three or more default `identity` blocks (no `name`, or named default): jobspec2"
    " keeps"
    " the first, the server replaces it by the last, the others are duplicates (with two, the second"
    " silently wins)",
    message="Duplicate default identities found",
)
SECRET_TWICE = Condition(
    "secret-defined-twice",
    code=HG293,
    nomad="Task.Validate",
    source=f"{S}:8421",
    condition="two `secret` blocks of a task have one label (job-level secrets are appended to every task)",
    message="Duplicate secret {name!r} found",
    since=(1, 11, 0),
)
SECRET_VAULT = Condition(
    "secret-vault-without-vault",
    code=HG293,
    nomad="Task.Validate",
    source=f"{S}:8427",
    condition='a secret has `provider = "vault"` in a task without a `vault` block (a job-level `vault`'
    " counts)",
    message='Secret {name!r} has provider "vault" but no vault block',
    since=(1, 11, 0),
)
SECRET_NAMELESS = Condition(
    "secret-without-name",
    code=HG293,
    nomad="Secret.Validate",
    source=f"{S}:10598",
    condition='a secret is labelled with the empty string (`secret "" {}`)',
    message="secret name cannot be empty",
    since=(1, 11, 0),
)
SECRET_NAME = Condition(
    "secret-name",
    code=HG293,
    nomad="Secret.Validate",
    source=f"{S}:10602",
    condition="a secret's label does not match ^[a-zA-Z0-9_]{1,128}$ (no dashes or dots)",
    message="secret name must match regex ^[a-zA-Z0-9_]{{1,128}}$",
    since=(1, 11, 0),
)
SECRET_PROVIDER = Condition(
    "secret-without-provider",
    code=HG293,
    nomad="Secret.Validate",
    source=f"{S}:10606",
    condition="a secret has no `provider`",
    message="secret provider cannot be empty",
    since=(1, 11, 0),
)
SECRET_PATH = Condition(
    "secret-without-path",
    code=HG293,
    nomad="Secret.Validate",
    source=f"{S}:10610",
    condition="a secret has no `path`",
    message="secret path cannot be empty",
    since=(1, 11, 0),
)
SECRET_ENV = Condition(
    "secret-env-with-builtin-provider",
    code=HG293,
    nomad="Secret.Validate",
    source=f"{S}:10615",
    condition="a secret of the nomad or vault provider has an `env` block",
    message="{provider} provider cannot use the env block",
    since=(1, 11, 0),
)
SECRET_CONFIG = Condition(
    "secret-config-with-plugin-provider",
    code=HG293,
    nomad="Secret.Validate",
    source=f"{S}:10619",
    condition="a secret of a provider other than nomad and vault (a plugin) has a `config` block",
    message="custom plugin provider {provider} cannot use the config block",
    since=(1, 11, 0),
)

IDENTITY_NAME_PATTERN = re.compile(r"[a-zA-Z0-9\-_]{1,128}")
SECRET_NAME_PATTERN = re.compile(r"[a-zA-Z0-9_]{1,128}")
BUILTIN_SECRET_PROVIDERS = ("nomad", "vault")
DEFAULT_IDENTITY = "default"


@rule(HG286)
def identities_and_vault(ctx: Context) -> None:
    """`Vault.Validate`, then the identities as `Task.Validate` sees them after two moves."""
    validates_default = ctx.profile.release >= (1, 9, 0)  # 1.8 skipped Task.Identity
    for _, task in ctx.canonical_tasks():
        where = f"task `{task.name}`"
        if task.vault is not None:
            _vault(ctx, task.vault, where)
        default, named = default_and_named_identities(task)
        if default is not None and validates_default:
            _identity(ctx, default, f"{where}, identity `{DEFAULT_IDENTITY}`")
        for identity in named:
            if is_default(identity):
                reject(
                    ctx,
                    IDENTITY_DEFAULT_TWICE,
                    ctx.header_span(identity),
                    where=where,
                    help="keep one `identity` block without a name; name the others",
                )
            _identity(ctx, identity, f"{where}, identity `{identity.name or DEFAULT_IDENTITY}`")


def is_default(identity: m.WorkloadIdentity) -> bool:
    """Unnamed identities become "default" (`WorkloadIdentity.Canonicalize`)."""
    return identity.name in ("", DEFAULT_IDENTITY)


def default_and_named_identities(
    task: m.Task,
) -> tuple[m.WorkloadIdentity | None, list[m.WorkloadIdentity]]:
    """`Task.Identity` and `Task.Identities` as `Task.Validate` sees them.

    jobspec2's normalizeJob moves the first default identity block into `Task.Identity`;
    the server's `Task.Canonicalize` then moves the last default one left in the list there
    too, replacing the first without a word. Whatever default identities remain in the list
    are duplicates. None when the task writes no default identity (the server's own default
    identity is valid)."""
    default = task.identity
    named = list(task.identities or [])
    if default is None:
        first = next((i for i, identity in enumerate(named) if is_default(identity)), None)
        if first is not None:
            default = named.pop(first)
    last = max((i for i, identity in enumerate(named) if is_default(identity)), default=None)
    if last is not None:
        default = named.pop(last)
    return default, named


def _vault(ctx: Context, vault: m.Vault, where: str) -> None:
    for policy in vault.policies or []:
        if policy == "root":
            reject(
                ctx,
                VAULT_ROOT_POLICY,
                at(ctx, [vault], "policies"),
                where=where,
                help="ask for the policies the task needs, not root",
            )
    span = at(ctx, [vault], "change_mode")
    if vault.change_mode == "signal" and not vault.change_signal:
        reject(ctx, VAULT_SIGNAL, span, where=where, help='add `change_signal = "SIGHUP"` (or the signal)')
    elif vault.change_mode not in (None, "noop", "restart", "signal"):
        reject(ctx, VAULT_MODE, span, where=where, mode=vault.change_mode, help="use noop, restart or signal")


def _identity(ctx: Context, identity: m.WorkloadIdentity, where: str) -> None:
    """`WorkloadIdentity.Validate`, after its Canonicalize (a default identity's name and audience)."""
    default = is_default(identity)
    if not default and not IDENTITY_NAME_PATTERN.fullmatch(identity.name):
        reject(
            ctx,
            IDENTITY_NAME,
            at(ctx, [identity], "name"),
            where=where,
            name=identity.name,
            help="use letters, digits, - and _ only",
        )
    for index, audience in enumerate([] if default else identity.audience or [], 1):
        if audience == "":
            reject(
                ctx,
                IDENTITY_AUDIENCE,
                at(ctx, [identity], "aud"),
                where=where,
                index=index,
                help="remove the empty audience",
            )
    _identity_change_mode(ctx, identity, where)
    ttl = identity.ttl or 0
    if ttl > 0 and default:
        reject(
            ctx,
            IDENTITY_DEFAULT_TTL,
            at(ctx, [identity], "ttl"),
            where=where,
            help="remove `ttl`, or give the identity a `name` (and an `aud`)",
        )
    if ttl < 0:
        reject(ctx, IDENTITY_TTL, at(ctx, [identity], "ttl"), where=where, help="use a ttl of 0 or more")
    if identity.filepath and not identity.file:
        reject(
            ctx,
            IDENTITY_FILEPATH,
            at(ctx, [identity], "filepath"),
            where=where,
            help="add `file = true`, or remove `filepath`",
        )


def _identity_change_mode(ctx: Context, identity: m.WorkloadIdentity, where: str) -> None:
    mode = identity.change_mode
    if mode in ("", "noop", "restart"):
        if identity.change_signal:
            reject(
                ctx,
                IDENTITY_SIGNAL_MODE,
                at(ctx, [identity], "change_signal"),
                where=where,
                signal=identity.change_signal.upper(),  # WorkloadIdentity.Canonicalize
                help='set `change_mode = "signal"`, or remove `change_signal`',
            )
    elif mode == "signal":
        if not identity.change_signal:
            reject(
                ctx,
                IDENTITY_SIGNAL,
                at(ctx, [identity], "change_mode"),
                where=where,
                help='add `change_signal = "SIGHUP"` (or the signal)',
            )
    else:
        reject(
            ctx,
            IDENTITY_MODE,
            at(ctx, [identity], "change_mode"),
            where=where,
            mode=mode,
            help="use noop, restart or signal",
        )


@rule(HG293)
def task_secrets(ctx: Context) -> None:
    """`Task.Validate`'s secret loop: duplicates, Vault without a vault block, then each secret."""
    for _, task in ctx.canonical_tasks():
        where = f"task `{task.name}`"
        seen: set[str] = set()
        for secret in task.secrets or []:
            if secret.name in seen:
                reject(
                    ctx,
                    SECRET_TWICE,
                    ctx.label_span(secret),
                    where=where,
                    name=secret.name,
                    help="give each secret its own name",
                )
            seen.add(secret.name)
            if secret.provider == "vault" and task.vault is None:
                reject(
                    ctx,
                    SECRET_VAULT,
                    at(ctx, [secret], "provider"),
                    where=where,
                    name=secret.name,
                    help="add a `vault { }` block to the task (or the job)",
                )
            _secret(ctx, secret, f"{where}, secret `{secret.name}`" if secret.name else f'{where}, secret ""')


def _secret(ctx: Context, secret: m.Secret, where: str) -> None:
    """`Secret.Validate`: every check, all reported."""
    if secret.name == "":
        reject(ctx, SECRET_NAMELESS, ctx.label_span(secret), where=where, help="give the secret a name")
    if not SECRET_NAME_PATTERN.fullmatch(secret.name):
        reject(
            ctx,
            SECRET_NAME,
            ctx.label_span(secret),
            where=where,
            help=f"use letters, digits and _ only, e.g. `{_secret_name_like(secret.name)}`",
        )
    if secret.provider == "":
        reject(
            ctx,
            SECRET_PROVIDER,
            ctx.header_span(secret),
            where=where,
            help='set `provider = "nomad"`, `"vault"` or the name of a secrets plugin',
        )
    if secret.path == "":
        reject(
            ctx,
            SECRET_PATH,
            at(ctx, [secret], "path"),
            where=where,
            help="set the `path` the secret is read from",
        )
    if secret.provider in BUILTIN_SECRET_PROVIDERS:
        if secret.env:
            reject(
                ctx,
                SECRET_ENV,
                _block_span(ctx, secret, "env"),
                where=where,
                provider=secret.provider,
                help="remove the `env` block: only a secrets plugin takes one",
            )
    elif secret.config:
        reject(
            ctx,
            SECRET_CONFIG,
            _block_span(ctx, secret, "config"),
            where=where,
            provider=secret.provider,
            help="remove the `config` block: only the nomad and vault providers take one",
        )


def _block_span(ctx: Context, node: m.Secret, name: str) -> Span | None:
    """The type of the ``name`` block inside ``node``'s block, else ``node``'s header."""
    block = ctx.block_of(node)
    inner = block.body.blocks(name) if block is not None else []
    return inner[0].type_span if inner else ctx.header_span(node)


def _secret_name_like(name: str) -> str:
    return re.sub(r"[^a-zA-Z0-9_]", "_", name)[:128] or "secret"
