"""What Nomad's server accepts with a warning (HG264).

`nomad job run` prints the warnings the server answers with and goes on, so the job runs
with a setting that does less than it says. They come from `Job.Warnings`
(nomad/structs/structs.go: services without a `shutdown_delay` from 2.0.1, `auto_promote`
on some groups only), from the admission validators of nomad/job_endpoint_hooks.go
(`memory_max` without memory oversubscription, a Vault identity without a `vault` block)
and from `Job.submissionController` (a job source over `job_max_source_size`).

The server computes them after its mutators, so the job read is the canonical one with
the admission mutators applied (:func:`hclgpu.ir.admission.admit`): the Envoy tasks of
Consul Connect are there, with their 5s `shutdown_delay`. Where the cluster's
configuration decides, the profile says: `memory_max` is reported as ignored only when it
states `memory-oversubscription = false`, and a source is too large for its
`job-max-source-size` (Nomad's default, 1 MB, unless it states another).

`Task.Warnings` adds the named workload identities' (`WorkloadIdentity.Warnings`) and a
template's `vault_grace`. `Job.Warnings`' deprecations (`periodic { cron }`, `iops`, the old
disconnect settings) are HG258's, the task network's HG249 (hclgpu.checks.deprecations,
hclgpu.checks.networks).
"""

from __future__ import annotations

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.server import Condition, at, reject
from hclgpu.codes.base import Code, W
from hclgpu.diagnostics import Edit
from hclgpu.eval.functions.base import go_quote
from hclgpu.ir import models as m
from hclgpu.ir.base import Node

HG264 = Code(
    "HG264",
    "server-warning",
    W,
    summary="What Nomad's server accepts with a warning",
    doc="""What: the job registers, but Nomad's server answers with a warning. Each warning is
its own check, named in the output, and `ignore`, `select` and suppression comments take
that name: `memory-oversubscription-disabled` (`memory_max` while memory oversubscription
is off: reported only when the profile says `memory-oversubscription = false`),
`auto-promote-not-everywhere` (`auto_promote` on some groups with canaries but not all),
`task-services-without-shutdown-delay`, `group-services-without-shutdown-delay` and
`service-task-without-shutdown-delay` (services whose task and group have no
`shutdown_delay`, Nomad 2.0.1 and later), `vault-identity-without-vault` and
`vault-policies-with-identity` (Vault identities and policies that do nothing),
`job-source-too-large` (a job file over the servers' `job_max_source_size`, the profile's
`job-max-source-size`).

Why: `nomad job run` prints these warnings and goes on; the setting then does less than it
says (`memory_max` is ignored, a deployment waits for manual promotion, a service is
deregistered only as its task stops, the job's source is not kept).

Example:
    resources {
      memory     = 512
      memory_max = 1024
    }

Fix: do what the warning says, or enable the feature on the cluster.""",
)


S = "nomad/structs/structs.go"
HOOKS = "nomad/job_endpoint_hooks.go"
SHUTDOWN = "generateTaskGroupServiceShutdownDelayWarnings"


MEMORY_OVERSUBSCRIPTION = Condition(
    "memory-oversubscription-disabled",
    code=HG264,
    nomad="memoryOversubscriptionValidate.Validate",
    source=f"{HOOKS}:643",
    condition="a task sets `memory_max` (any value but 0) while memory oversubscription is off (reported"
    " when the profile states `memory-oversubscription = false`)",
    message='Memory oversubscription is not enabled; Task "{group}.{task}" memory_max value will be'
    " ignored. Update the Scheduler Configuration to allow oversubscription.",
    fact="memory-oversubscription",
)
SOURCE_TOO_LARGE = Condition(
    "job-source-too-large",
    code=HG264,
    nomad="Job.submissionController",
    source=f"{HOOKS}:674",
    condition="the job file is larger than the servers' `job_max_source_size` (the profile's"
    " `job-max-source-size`, Nomad's default 1 MB unless it states another; variable files and"
    " `-var` values, which Nomad adds, are not counted): `nomad job run` registers the job"
    " without its source",
    message="job source size of {size} exceeds maximum of {limit} and will be discarded",
)
VAULT_IDENTITY_UNUSED = Condition(
    "vault-identity-without-vault",
    code=HG264,
    nomad="jobValidate.validateVaultIdentity",
    source=f"{HOOKS}:589",
    condition="a task without a `vault` block has an `identity` whose name starts with `vault_`",
    message="Task {task} has an identity called {identity} but no vault block",
)
VAULT_POLICIES_IGNORED = Condition(
    "vault-policies-with-identity",
    code=HG264,
    nomad="jobValidate.validateVaultIdentity",
    source=f"{HOOKS}:597",
    condition='a task\'s `vault` block sets `policies` and the task has an `identity "vault_<cluster>"`'
    " (one the servers inject from their `default_identity` is not seen)",
    message="Task {task} has a Vault block with policies but uses workload identity to authenticate"
    " with Vault, policies will be ignored",
    tag="v1.9.0",
    until=(1, 10, 0),
)
REFERENCED_TASK_SHUTDOWN = Condition(
    "service-task-without-shutdown-delay",
    code=HG264,
    nomad=SHUTDOWN,
    source=f"{S}:4932",
    condition="a group service names a `task` (a Connect native service its only task) whose"
    " `shutdown_delay` is 0 or unset",
    message="group {group!r} references task {task!r} in a service definition, but the task has no"
    " shutdown_delay set",
    since=(2, 0, 1),
)
TASK_SERVICES_SHUTDOWN = Condition(
    "task-services-without-shutdown-delay",
    code=HG264,
    nomad=SHUTDOWN,
    source=f"{S}:4940",
    condition="a task with `service` blocks has a `shutdown_delay` of 0 or none",
    message="task {task!r} in group {group!r} defines services, but has no shutdown_delay set",
    since=(2, 0, 1),
)
GROUP_SERVICES_SHUTDOWN = Condition(
    "group-services-without-shutdown-delay",
    code=HG264,
    nomad=SHUTDOWN,
    source=f"{S}:4947",
    condition="a group service names no `task` and has no `sidecar_task`, and neither the group nor any"
    " of its tasks has a `shutdown_delay` above 0 (Connect's Envoy tasks have 5s)",
    message="group {group!r} defines services, but neither the group nor any of its tasks have"
    " shutdown_delay set",
    since=(2, 0, 1),
)
AUTO_PROMOTE = Condition(
    "auto-promote-not-everywhere",
    code=HG264,
    nomad="Job.Warnings",
    source=f"{S}:4981",
    condition="a group's `update { auto_promote = true }` (its own or the job's) while another group has"
    " `canary` above 0 without `auto_promote`",
    message="auto_promote must be true for all groups to enable automatic promotion",
)

IDENTITY = "nomad/structs/workload_id.go"
IDENTITY_NO_AUDIENCE = Condition(
    "identity-without-audience",
    code=HG264,
    nomad="WorkloadIdentity.Warnings",
    source=f"{IDENTITY}:508",
    condition="a task's named `identity` (not the default one), or a service's, has no `aud`",
    message="{owner} identities without an audience are insecure",
)
IDENTITY_AUDIENCES = Condition(
    "identity-multiple-audiences",
    code=HG264,
    nomad="WorkloadIdentity.Warnings",
    source=f"{IDENTITY}:510",
    condition="a task's named `identity`, or a service's, lists more than one audience in `aud`",
    message="{owner} while multiple audiences is allowed, it is more secure to use 1 audience per identity",
)
IDENTITY_NO_TTL = Condition(
    "identity-without-expiration",
    code=HG264,
    nomad="WorkloadIdentity.Warnings",
    source=f"{IDENTITY}:515",
    condition="a task's named `identity` has no `ttl` (or 0); so has a service's, once named (the server"
    " names a Consul service's identity: nomad/job_endpoint_hook_implicit_identities.go:87)",
    message="{owner} identities without an expiration are insecure",
)
IDENTITY_ENV = Condition(
    "identity-env-without-restart",
    code=HG264,
    nomad="WorkloadIdentity.Warnings",
    source=f"{IDENTITY}:521",
    condition="a task's named `identity`, or a service's, sets `env = true` with a `change_mode` other than"
    ' "restart"',
    message='{owner} using env=true without change_mode="restart" may result in task not getting updated'
    " identity",
)
VAULT_GRACE = Condition(
    "template-vault-grace",
    code=HG264,
    nomad="Template.Warnings",
    source=f"{S}:9000",
    condition="a `template` sets `vault_grace`, which Nomad ignores",
    message="Template[{index}] VaultGrace has been deprecated as of Nomad 0.11 and ignored since Vault"
    " 0.5. Please remove VaultGrace / vault_grace from template block.",
)

SHUTDOWN_HELP = 'add `shutdown_delay = "5s"`, so that the service is deregistered before the task stops'


@rule(HG264)
def server_warnings(ctx: Context) -> None:
    """The warnings of `Job.Warnings` and the admission validators, on the job the mutators
    leave (:func:`~hclgpu.ir.admission.admit`)."""
    admitted = ctx.admitted
    for group in admitted.task_groups or []:
        _shutdown_delays(ctx, group)
        _service_identities(ctx, group)
        _memory_max(ctx, group)
        for task in group.tasks or []:
            _vault_identities(ctx, task)
            _identities(ctx, task)
            _templates(ctx, task)
    _auto_promote(ctx, admitted)
    _source_size(ctx)


def _shutdown_delays(ctx: Context, group: m.TaskGroup) -> None:
    """`generateTaskGroupServiceShutdownDelayWarnings`: a service should outlive its
    deregistration, so the task behind it needs a `shutdown_delay`."""
    referenced: set[str] = set()
    unscoped = False
    # Nomad also warns of a service's `sidecar_task` without `shutdown_delay` (structs.go:4920),
    # but the agent's SidecarTask.Canonicalize always sets one (0s): no job file reaches it.
    for service in group.services or []:
        if service.task_name:
            referenced.add(service.task_name)
        elif service.connect is None or service.connect.sidecar_task is None:
            unscoped = True
    any_delay = False
    for task in group.tasks or []:
        delay = task.shutdown_delay or 0
        if task.name in referenced and delay == 0:
            reject(
                ctx,
                REFERENCED_TASK_SHUTDOWN,
                at(ctx, [task], "shutdown_delay"),
                group=group.name,
                task=task.name,
                help=SHUTDOWN_HELP,
                fix=_shutdown_delay(ctx, task),
            )
        if delay > 0:
            any_delay = True
        elif task.services:
            reject(
                ctx,
                TASK_SERVICES_SHUTDOWN,
                at(ctx, [task], "shutdown_delay"),
                group=group.name,
                task=task.name,
                help=SHUTDOWN_HELP,
                fix=_shutdown_delay(ctx, task),
            )
    if unscoped and not (group.shutdown_delay or 0) > 0 and not any_delay:
        reject(
            ctx,
            GROUP_SERVICES_SHUTDOWN,
            at(ctx, [group], "shutdown_delay"),
            group=group.name,
            help=f"{SHUTDOWN_HELP} (in the group, or in the task that serves it)",
            fix=_shutdown_delay(ctx, group),
        )


def _shutdown_delay(ctx: Context, node: m.Task | m.TaskGroup) -> tuple[Edit, ...]:
    """`shutdown_delay = "5s"` written in the block (in place of a 0 written there): a guess
    at the delay, so an unsafe fix."""
    from hclgpu.ir.moves import append_line

    written = ctx.written(node, "shutdown_delay", '"5s"')
    block = ctx.block_of(node)
    if written or block is None:
        return written
    return append_line(ctx.source.text, block, 'shutdown_delay = "5s"')


def _memory_max(ctx: Context, group: m.TaskGroup) -> None:
    """Without memory oversubscription the scheduler ignores `memory_max`."""
    for task in group.tasks or []:
        resources = task.resources
        if resources is None or not resources.memory_max_mb:
            continue
        node: Node | None = resources if resources.span is not None else _sidecar_resources(group, task)
        reject(
            ctx,
            MEMORY_OVERSUBSCRIPTION,
            at(ctx, [node], "memory_max"),
            group=group.name,
            task=task.name,
            help="remove `memory_max`, or enable memory oversubscription in the scheduler configuration"
            " (`nomad operator scheduler set-config -memory-oversubscription=true`)",
        )


def _sidecar_resources(group: m.TaskGroup, task: m.Task) -> Node | None:
    """The `sidecar_task { resources }` merged into an Envoy task the server injected."""
    for service in group.services or []:
        connect = service.connect
        if (
            connect is not None
            and connect.sidecar_task is not None
            and task.kind.endswith(f":{service.name}")
        ):
            return connect.sidecar_task.resources or connect.sidecar_task
    return None


def _identities(ctx: Context, task: m.Task) -> None:
    """`Task.Warnings` on each named identity (jobspec2 moves the default one to
    `Task.Identity`, which it does not look at): structs.go:8625."""
    for identity in task.identities or []:
        if identity.name not in ("", "default"):
            owner = f"Identity[{identity.name}]"
            _identity_warnings(ctx, identity, f"task `{task.name}`", owner, named=True)


def _service_identities(ctx: Context, group: m.TaskGroup) -> None:
    """`Service.Warnings` (nomad/structs/services.go:748) of the group's and its tasks'
    services, which `TaskGroup.Warnings` and `Task.Warnings` prefix with the service's
    name. The server names the identity of a Consul service before (jobImplicitIdentitiesHook,
    job_endpoint_hook_implicit_identities.go:87), so the `ttl` warning concerns it too."""
    from hclgpu.checks.naming import service_name

    owned: list[tuple[m.Task | None, m.Service]] = [(None, service) for service in group.services or []]
    owned += [(task, service) for task in group.tasks or [] for service in task.services or []]
    for task, service in owned:  # Task.Warnings does the same for a task's services (:8617)
        identity = service.identity
        if identity is not None:
            name = service_name(ctx.job, group, task, service)
            named = service.provider in ("", "consul") or identity.name not in ("", "default")
            owner = f"Service {go_quote(name)}:"  # names the service: no place before it
            _identity_warnings(ctx, identity, "", owner, named=named)


def _identity_warnings(
    ctx: Context, identity: m.WorkloadIdentity, where: str, owner: str, *, named: bool
) -> None:
    """`WorkloadIdentity.Warnings` (nomad/structs/workload_id.go:500)."""
    audiences = identity.audience or []
    if not audiences:
        reject(ctx, IDENTITY_NO_AUDIENCE, ctx.header_span(identity), where=where, owner=owner, help=_AUD)
    elif len(audiences) > 1:
        reject(ctx, IDENTITY_AUDIENCES, at(ctx, [identity], "aud"), where=where, owner=owner, help=_AUD)
    if named and identity.ttl == 0:
        help = 'set `ttl` (e.g. `ttl = "1h"`): a token that never expires stays valid if it leaks'
        reject(ctx, IDENTITY_NO_TTL, ctx.header_span(identity), where=where, owner=owner, help=help)
    if identity.env and identity.change_mode != "restart":
        help = 'set `change_mode = "restart"`, so that the task reads the renewed token'
        reject(ctx, IDENTITY_ENV, at(ctx, [identity], "env"), where=where, owner=owner, help=help)


_AUD = 'give the identity exactly one audience: `aud = ["..."]`'


def _templates(ctx: Context, task: m.Task) -> None:
    for index, template in enumerate(task.templates or []):
        if template.vault_grace:
            help = "remove `vault_grace`: Nomad ignores it since Vault 0.5"
            reject(
                ctx,
                VAULT_GRACE,
                at(ctx, [template], "vault_grace"),
                where=f"task `{task.name}`",
                index=index,
                help=help,
                fix=ctx.deleted(template, "vault_grace"),
                fix_safe=True,  # Nomad ignores it: the job is the same without it
            )


def _vault_identities(ctx: Context, task: m.Task) -> None:
    """A `vault_*` identity is for a `vault` block; with one, `policies` are for the
    legacy token flow (1.8-1.9), which an identity replaces."""
    identities = task.identities or []
    vault = task.vault
    if vault is None:
        for identity in identities:
            if identity.name.startswith("vault_"):
                reject(
                    ctx,
                    VAULT_IDENTITY_UNUSED,
                    at(ctx, [identity], "name"),
                    task=task.name,
                    identity=identity.name,
                    help="add a `vault` block to the task, or remove the identity",
                )
        return
    wanted = f"vault_{vault.cluster or 'default'}"
    if vault.policies and any(identity.name == wanted for identity in identities):
        reject(
            ctx,
            VAULT_POLICIES_IGNORED,
            at(ctx, [vault], "policies"),
            task=task.name,
            help="remove `policies`: the identity's Vault role decides the policies",
        )


def _auto_promote(ctx: Context, job: m.Job) -> None:
    """Canaries are promoted automatically only when every group with canaries says so."""
    updates = [(index, group.update) for index, group in enumerate(job.task_groups or []) if group.update]
    promoting = [index for index, update in updates if update.auto_promote]
    if not promoting or all(update.auto_promote or not update.canary for _, update in updates):
        return
    originals = ctx.job.task_groups or []
    group = originals[promoting[0]] if promoting[0] < len(originals) else None
    reject(
        ctx,
        AUTO_PROMOTE,
        at(ctx, [group.update if group else None, ctx.job.update], "auto_promote"),
        help="set `auto_promote = true` in every group with canaries, or in none",
    )


def _source_size(ctx: Context) -> None:
    """`nomad job run` sends the file with the job; the server drops a source too large."""
    size, limit = len(ctx.source.text.encode()), ctx.profile.job_max_source_size
    if size > limit:
        reject(
            ctx,
            SOURCE_TOO_LARGE,
            ctx.header_span(ctx.job),
            size=go_bytes(size),
            limit=go_bytes(limit),
            help="shorten the file (move large data to artifacts or templates' sources), or raise"
            " `job_max_source_size` in the servers' configuration",
        )


def go_bytes(size: int) -> str:
    """A size as go-humanize's ``Bytes`` prints it: SI units, one decimal below 10."""
    if size < 10:
        return f"{size} B"
    units = ("B", "kB", "MB", "GB", "TB", "PB", "EB")
    exponent = 0
    while exponent + 1 < len(units) and 1000 ** (exponent + 1) <= size:
        exponent += 1
    value = int(size / 1000**exponent * 10 + 0.5) / 10
    return f"{value:.1f} {units[exponent]}" if value < 10 else f"{value:.0f} {units[exponent]}"
