"""The server's admission hooks beyond `Job.Validate` (HG268, HG289, HG294).

Before `structs.Job.Validate`, `nomad job run` and `nomad job validate` pass the job through
the validators of nomad/job_endpoint_hooks.go and its neighbours: `jobValidate` (workload
identities of services and Vault, the total count), `jobVaultHook` and `jobConsulHook`
(Vault and Consul blocks: the Community Edition refuses namespaces and non-default
clusters), `jobSchedHook` (CE refuses task schedules), and the namespace and node pool
hooks. Each validator's errors are collected; the Vault and Consul hooks stop at their
first error, and so do these rules.

Much of what the hooks check is the cluster's state or configuration (the namespace and
node pool existing, Vault being enabled, servers older than 1.7): those conditions are
declared with ``needs`` and never reported. The job read is the canonical one, after the
mutators' defaults: Vault and Consul `cluster` "default", service provider "consul".
"""

from __future__ import annotations

from typing import Any

from hclgpu.checks import rule
from hclgpu.checks.context import Context
from hclgpu.checks.jobs import HG268, HG289
from hclgpu.checks.server import Condition, at, reject
from hclgpu.codes.base import Code, E
from hclgpu.ir import models as m
from hclgpu.ir.base import Node
from hclgpu.ir.service_names import job_services

HG294 = Code(
    "HG294",
    "invalid-vault-or-consul",
    E,
    summary="A `vault` or `consul` setting Nomad's admission hooks refuse",
    doc="""What: a `consul` block or a workload identity breaks a rule of the server's Consul
or identity hooks: a task's `consul { partition }` differs from its group's, or a service
with `provider = "nomad"` has an `identity` without a `name`. (The Vault hook's checks
depend on the servers' Vault configuration, which a job file does not show; see
docs/validation.md.)

Why: Nomad rejects the job at registration (`jobConsulHook` in
nomad/job_endpoint_hook_consul.go, `jobValidate` in nomad/job_endpoint_hooks.go).

Example:
    group "web" {
      consul { partition = "a" }
      task "server" {
        consul { partition = "b" }
      }
    }

Fix: use one partition for the group and its tasks, or write what the message asks.""",
)


HOOKS = "nomad/job_endpoint_hooks.go"
VAULT = "nomad/job_endpoint_hook_vault.go"
VAULT_CE = "nomad/job_endpoint_hook_vault_ce.go"
CONSUL = "nomad/job_endpoint_hook_consul.go"
CONSUL_CE = "nomad/job_endpoint_hook_consul_ce.go"
VALIDATORS = "nomad/job_endpoint_validators.go"
OLD_SERVERS = "a server of the region older than Nomad 1.7.0"
LEGACY_VAULT = "a server Vault config without `default_identity` that refuses unauthenticated use"
LEGACY_CONSUL = "a server Consul config with `allow_unauthenticated = false`"

# ---------------------------------------------------------------- jobValidate (job_endpoint_hooks.go)

Condition(
    "identities-before-nomad-1-7",
    nomad="jobValidate.Validate",
    source=f"{HOOKS}:536",
    condition="a task has more than one `identity` (the implicit ones for Consul and Vault included)",
    message="tasks can only have 1 identity block until all servers are upgraded to {version} or later",
    needs=OLD_SERVERS,
)
TOTAL_COUNT = Condition(
    "job-max-count",
    code=HG268,
    nomad="jobValidate.Validate",
    source=f"{HOOKS}:550",
    condition="the groups' `count`s (1 by default, or `scaling { min }`) add up to more than the servers'"
    " `job_max_count` (the profile's `job-max-count`, Nomad's default 50000 unless it states another)",
    message="total count was greater than configured job_max_count: {total} > {limit}",
    since=(1, 11, 0),
)
Condition(
    "service-identity-before-nomad-1-7",
    nomad="jobValidate.validateServiceIdentity",
    source=f"{HOOKS}:567",
    condition="a group or task service has an `identity` block",
    message="Service {name} in {parent} cannot have an identity until all servers are upgraded to {version}"
    " or later",
    needs=OLD_SERVERS,
)
SERVICE_IDENTITY_NAME = Condition(
    "service-identity-without-name",
    code=HG294,
    nomad="jobValidate.validateServiceIdentity",
    source=f"{HOOKS}:571",
    condition='a service with `provider = "nomad"` has an `identity` without `name` (Consul services'
    " have theirs named by the implicit-identities mutator)",
    message="Service {name} in {parent} has an identity with an empty name",
)
Condition(
    "vault-identity-before-nomad-1-7",
    nomad="jobValidate.validateVaultIdentity",
    source=f"{HOOKS}:599",
    condition='a task with a `vault` block has an `identity "vault_<cluster>"`',
    message="Task {task} cannot have an identity for Vault until all servers are upgraded to {version} or"
    " later",
    needs=OLD_SERVERS,
)
Condition(
    "vault-cluster-without-identity",
    nomad="jobValidate.validateVaultIdentity",
    source=f"{HOOKS}:605",
    condition='a task\'s `vault { cluster }` is not "default" and the task has no'
    ' `identity "vault_<cluster>"`',
    message="Task {task} uses Vault cluster {cluster} but does not have an identity named {identity} and no"
    " default identity is provided in agent configuration",
    needs="no `default_identity` for that Vault cluster in the servers' configuration",
)
Condition(
    "vault-without-policies",
    nomad="jobValidate.validateVaultIdentity",
    source=f"{HOOKS}:587",
    condition="a task's `vault` block on the default cluster has no `policies` and the task no"
    ' `identity "vault_default"`',
    message="Task {task} has a Vault block with an empty list of policies",
    needs="no `default_identity` in the servers' Vault configuration (the legacy token flow)",
    tag="v1.9.0",
    until=(1, 10, 0),
)

# ---------------------------------------------------------------- jobVaultHook

Condition(
    "vault-not-enabled",
    nomad="jobVaultHook.Validate",
    source=f"{VAULT}:31",
    condition="a task has a `vault` block",
    message="Vault {cluster!r} not enabled but used in the job",
    needs="Vault enabled in the servers' configuration for the block's cluster",
)
VAULT_NAMESPACE = Condition(
    "vault-namespace-requires-enterprise",
    code=HG289,
    nomad="jobVaultHook.validateNamespaces",
    source=f"{VAULT_CE}:21",
    condition="a task's `vault` block sets `namespace` (Community Edition; where Vault is enabled, else the"
    " block is refused as not enabled)",
    message="multiple Vault namespaces requires Nomad Enterprise, Namespaces: {namespaces}",
    since=(1, 10, 0),
    fact="enterprise",
)
Condition(
    "vault-namespace-requires-enterprise-legacy",
    nomad="jobVaultHook.validateNamespaces",
    source=f"{VAULT_CE}:26",
    condition="a task's `vault` block sets `namespace` (Community Edition, legacy token flow)",
    message="multiple Vault namespaces requires Nomad Enterprise, Namespaces: {namespaces}",
    needs=LEGACY_VAULT,
    tag="v1.9.0",
    until=(1, 10, 0),
)
VAULT_CLUSTER = Condition(
    "vault-cluster-requires-enterprise",
    code=HG289,
    nomad="jobVaultHook.validateClustersForNamespace",
    source=f"{VAULT_CE}:30",
    condition='a task\'s `vault { cluster }` is not "default" (Community Edition; from 1.10 not reported'
    " beside a Vault `namespace`, which is refused first)",
    message="non-default Vault cluster requires Nomad Enterprise",
    fact="enterprise",
)
Condition(
    "vault-token-missing",
    nomad="jobVaultHook.Validate",
    source=f"{VAULT}:60",
    condition="a task has a `vault` block and the job no `vault_token`",
    message="Vault used in the job but missing Vault token",
    needs=LEGACY_VAULT,
    tag="v1.9.0",
    until=(1, 10, 0),
)
Condition(
    "vault-token-deprecated",
    nomad="jobVaultHook.Validate",
    source=f"{VAULT}:64",
    condition="(warning) a job with a `vault` block is submitted with a Vault token",
    message="Setting a Vault token when submitting a job is deprecated and will be removed in Nomad 1.9."
    " Migrate your Vault configuration to use workload identity",
    needs=LEGACY_VAULT,
    tag="v1.9.0",
    until=(1, 10, 0),
)
Condition(
    "vault-token-lookup",
    nomad="jobVaultHook.Validate",
    source=f"{VAULT}:68",
    condition="the job's Vault token cannot be looked up in Vault",
    message="failed to lookup Vault token: {error}",
    needs=LEGACY_VAULT,
    tag="v1.9.0",
    until=(1, 10, 0),
)
Condition(
    "vault-token-policies",
    nomad="jobVaultHook.validatePolicies",
    source=f"{VAULT}:110",
    condition="the job's Vault token (not a root token) lacks a policy of a task's `vault { policies }`",
    message="Vault token doesn't allow access to the following policies: {policies}",
    needs=LEGACY_VAULT,
    tag="v1.9.0",
    until=(1, 10, 0),
)

# ---------------------------------------------------------------- jobConsulHook

CONSUL_CLUSTER = Condition(
    "consul-cluster-requires-enterprise",
    code=HG289,
    nomad="jobConsulHook.validateCluster",
    source=f"{CONSUL_CE}:62",
    condition='a group or task `consul { cluster }`, or a Consul service\'s `cluster`, is not "default"'
    " (Community Edition)",
    message="non-default Consul cluster requires Nomad Enterprise",
    fact="enterprise",
)
CONSUL_PARTITION = Condition(
    "consul-partition-mismatch",
    code=HG294,
    nomad="jobConsulHook.validateTaskPartitionMatchesGroup",
    source=f"{CONSUL}:29",
    condition="a task's `consul { partition }` and its group's are both set and differ",
    message="task.consul.partition {task!r} must match group.consul.partition {group!r} if both are set",
)
Condition(
    "consul-token-deprecated",
    nomad="jobConsulHook.Validate",
    source=f"{CONSUL_CE}:86",
    condition="(warning) a Consul service or task `consul` block without a workload identity",
    message="Setting a Consul token when submitting a job is deprecated and will be removed in Nomad 1.9."
    " Migrate your Consul configuration to use workload identity",
    needs=LEGACY_CONSUL,
    tag="v1.9.0",
    until=(1, 10, 0),
)

# ---------------------------------------------------------------- jobSchedHook, namespace and node pool

TASK_SCHEDULE = Condition(
    "task-schedule-requires-enterprise",
    code=HG289,
    nomad="jobSchedHook.Validate",
    source="nomad/job_endpoint_hook_sched_ce.go:18",
    condition="a task has a `schedule { cron { ... } }` block (Community Edition)",
    message="task schedules requires Nomad Enterprise",
    fact="enterprise",
)
Condition(
    "namespace-nonexistent",
    nomad="jobNamespaceConstraintCheckHook.Validate",
    source=f"{VALIDATORS}:28",
    condition="`namespace` (default: default, which always exists) names no namespace of the cluster",
    message="job {job!r} is in nonexistent namespace {namespace!r}",
    needs="the namespace existing on the cluster",
)
Condition(
    "namespace-task-driver",
    nomad="jobNamespaceConstraintCheckHook.Validate",
    source=f"{VALIDATORS}:41",
    condition="one task's `driver` is not allowed by the namespace's capabilities",
    message="used task driver {driver!r} is not allowed in namespace {namespace!r}",
    needs="the namespace's enabled and disabled task drivers",
)
Condition(
    "namespace-task-drivers",
    nomad="jobNamespaceConstraintCheckHook.Validate",
    source=f"{VALIDATORS}:46",
    condition="several tasks' `driver`s are not allowed by the namespace's capabilities",
    message="used task drivers {drivers!r} are not allowed in namespace {namespace!r}",
    needs="the namespace's enabled and disabled task drivers",
)
Condition(
    "namespace-network-mode",
    nomad="jobNamespaceConstraintCheckHook.Validate",
    source=f"{VALIDATORS}:62",
    condition="one group network's `mode` (host when unset) is not allowed by the namespace's capabilities",
    message="used group network mode {mode!r} is not allowed in namespace {namespace!r}",
    needs="the namespace's enabled and disabled network modes",
)
Condition(
    "namespace-network-modes",
    nomad="jobNamespaceConstraintCheckHook.Validate",
    source=f"{VALIDATORS}:67",
    condition="several group networks' `mode`s are not allowed by the namespace's capabilities",
    message="used group network modes {modes!r} are not allowed in namespace {namespace!r}",
    needs="the namespace's enabled and disabled network modes",
)
Condition(
    "node-pool-nonexistent",
    nomad="jobNodePoolValidatingHook.Validate",
    source="nomad/job_endpoint_hook_node_pool.go:30",
    condition="`node_pool` names a pool other than default and all (which always exist) that the cluster"
    " lacks",
    message="job {job!r} is in nonexistent node pool {pool!r}",
    needs="the node pool existing on the cluster",
)

ON_ENTERPRISE = "; on Nomad Enterprise, say so: `enterprise = true`"
DEFAULT_CLUSTER = 'remove `cluster` (or write "default")' + ON_ENTERPRISE


@rule(HG268)
def total_count(ctx: Context) -> None:
    """The server refuses a job whose groups together ask for more than `job_max_count`."""
    groups = ctx.canonical.task_groups or []
    total = sum(group.count or 0 for group in groups)
    limit = ctx.profile.job_max_count
    if total <= limit:
        return
    largest = max(groups, key=lambda group: group.count or 0)
    reject(
        ctx,
        TOTAL_COUNT,
        at(ctx, [largest], "count"),
        total=total,
        limit=limit,
        help=f"split the job, or lower the counts to {limit} in all"
        " (or raise `job_max_count` in the servers' configuration)",
    )


@rule(HG294)
def service_identities(ctx: Context) -> None:
    """A Nomad service's identity keeps the name the job gives it, and it must have one."""
    for group, task, service in job_services(ctx.canonical):
        identity = service.identity
        if identity is None or identity.name or service.provider in ("", "consul"):
            continue
        parent = f"task group {group.name}" if task is None else f"task {task.name}"
        reject(
            ctx,
            SERVICE_IDENTITY_NAME,
            at(ctx, [identity], "name"),
            name=service.name,
            parent=parent,
            help='give the identity a `name`, e.g. `name = "nomad-service"`',
        )


@rule(HG289)
def task_schedules(ctx: Context) -> None:
    """The agent keeps a `schedule` only with its `cron` block; CE refuses any it keeps."""
    for _, task in ctx.canonical_tasks():
        if task.schedule is not None and task.schedule.cron is not None:
            reject(
                ctx,
                TASK_SCHEDULE,
                ctx.header_span(task.schedule),
                where=f"task `{task.name}`",
                help="remove the `schedule` block" + ON_ENTERPRISE,
            )
            return  # the hook stops at the first


@rule(HG289)
def vault_blocks(ctx: Context) -> None:
    """`jobVaultHook`: CE refuses a Vault namespace (checked first since 1.10) and a cluster
    other than default, reporting the first it meets."""
    blocks = [(task, task.vault) for _, task in ctx.canonical_tasks() if task.vault is not None]
    namespaced = [(task, vault) for task, vault in blocks if vault.namespace]
    if namespaced and VAULT_NAMESPACE.holds_in(ctx.profile.release):
        task, vault = namespaced[0]
        reject(
            ctx,
            VAULT_NAMESPACE,
            at(ctx, [vault], "namespace"),
            where=f"task `{task.name}`",
            namespaces=", ".join(sorted({vault.namespace or "" for _, vault in namespaced})),
            help="remove `namespace`: the servers' Vault configuration names the namespace" + ON_ENTERPRISE,
        )
        return
    for task, vault in blocks:
        if vault.cluster not in ("", "default"):
            reject(
                ctx,
                VAULT_CLUSTER,
                at(ctx, [vault], "cluster"),
                where=f"task `{task.name}`",
                help=DEFAULT_CLUSTER,
            )
            return


@rule(HG294)
def consul_blocks(ctx: Context) -> None:
    """`jobConsulHook` (CE): clusters other than default, task partitions differing from the
    group's; it stops at the first problem, in its order."""
    for group in ctx.canonical.task_groups or []:
        found = _first_consul_problem(group)
        if found is not None:
            condition, node, attribute, where, values = found
            enterprise = condition is CONSUL_CLUSTER
            reject(
                ctx,
                condition,
                at(ctx, [node], attribute),
                where=where,
                help=DEFAULT_CLUSTER if enterprise else "use the group's partition, or remove the task's",
                **values,
            )
            return


ConsulProblem = tuple[Condition, Node, str, str, dict[str, Any]]


def _first_consul_problem(group: m.TaskGroup) -> ConsulProblem | None:
    """The first refusal of `jobConsulHook.Validate` in one group, in the hook's order."""
    in_group = f"group `{group.name}`"
    group_partition = group.consul.partition if group.consul is not None else ""
    if group.consul is not None and _non_default(group.consul.cluster):
        return CONSUL_CLUSTER, group.consul, "cluster", in_group, {}
    for service in group.services or []:
        if service.provider == "consul" and _non_default(service.cluster):
            return CONSUL_CLUSTER, service, "cluster", f"service `{service.name}`", {}
    for task in group.tasks or []:
        for service in task.services or []:
            if service.provider == "consul" and _non_default(service.cluster):
                return CONSUL_CLUSTER, service, "cluster", f"service `{service.name}`", {}
        consul = task.consul
        if consul is None:
            continue
        in_task = f"task `{task.name}`"
        if consul.partition and group_partition and consul.partition != group_partition:
            values = {"task": consul.partition, "group": group_partition}
            return CONSUL_PARTITION, consul, "partition", in_task, values
        if _non_default(consul.cluster):
            return CONSUL_CLUSTER, consul, "cluster", in_task, {}
    return None


def _non_default(cluster: str | None) -> bool:
    """The mutator sets an unset cluster to "default"; any other is an Enterprise cluster."""
    return cluster not in (None, "", "default")
