"""HG205, HG268-HG289 and HG292-HG294: what Nomad's server refuses when the job is registered;
HG264: what it accepts with a warning.

Each code covers the checks of one Nomad block family; the exact checks, with the Nomad
source line of each, are the conditions of :mod:`hclgpu.checks.server` (docs/validation.md).
All but HG264 are errors: `nomad job validate` and `nomad job run` fail on them.
"""

from __future__ import annotations

from hclgpu.codes.base import Code, E, W

CODES = (
    Code(
        "HG205",
        "invalid-numa",
        E,
        "A `numa` block Nomad refuses",
        """What: a task's `resources { numa { ... } }` names an affinity other than `none`,
`prefer` or `require`, or lists in `devices` a device the task does not request.

Why: Nomad rejects the job at registration: "numa affinity must be one of none, prefer,
or require", "numa device \"amd/gpu\" not requested as task resource"
(`Resources.Validate`, `NUMA.Validate`).

Example:
    resources {
      numa {
        affinity = "sometimes"
        devices  = ["amd/gpu"]
      }
    }

Fix: use one of the three affinities, and list only devices the task asks for in a
`device` block.""",
    ),
    Code(
        "HG268",
        "invalid-job",
        E,
        "A job-level setting Nomad refuses",
        """What: the job itself breaks a rule of `Job.Validate` or of the server's `jobValidate`
hook: an empty job ID or name, an empty or unknown `type`, no group at all, a priority
outside 1-100, an empty datacenter name, two groups with one name, an affinity or spread in
a system job, a `ui` description of 1000 characters or more.

Why: Nomad rejects the job at registration with the message shown; nothing of it is
scheduled.

Example:
    job "web" {
      type     = "services"
      priority = 120
    }

Fix: write what the message asks for: `type` one of service, batch, system, sysbatch;
`priority` from 1 to 100.""",
    ),
    Code(
        "HG269",
        "invalid-group",
        E,
        "A group setting Nomad refuses",
        """What: a group breaks a rule of `TaskGroup.Validate`: an empty label, no task (or,
since 2.0.6, only lifecycle tasks), a negative `count`, two tasks with one name, more than
one `leader` task, an `update` block outside service and system jobs, a `migrate` block
outside service jobs, a `reschedule` block in a system or sysbatch job, an affinity or
spread in a system job, a negative `shutdown_delay`, a `max_run_duration` that is not
positive or not in a batch job; or a group network ignores port collisions off host
networking, repeats a `cni { args }` key or puts `;` in one, or has a `hostname` that is
not a DNS name.

Why: Nomad rejects the job at registration ("Task group web validation failed: ...").

Example:
    job "ops" {
      type = "batch"
      group "run" {
        update { max_parallel = 1 }
      }
    }

Fix: remove the block the job type does not allow, or change what the message names.""",
    ),
    Code(
        "HG270",
        "invalid-restart-policy",
        E,
        "A `restart` policy Nomad refuses",
        """What: a group's restart policy, with the defaults of its job type filled in (service and
system: 2 attempts in 30m, 15s delay, mode fail; batch: 3 attempts in 24h), has an
unknown `mode`, 0 attempts with mode `delay`, an `interval` under 5s, or more `attempts`
x `delay` than fits in `interval`.

Why: Nomad rejects the job at registration (`RestartPolicy.Validate`): "Nomad can't
restart the TaskGroup 10 times in an interval of 1m0s with a delay of 15s".

Example:
    restart {
      attempts = 10
      interval = "1m"
    }

Fix: lower `attempts` or `delay`, or lengthen `interval`.""",
    ),
    Code(
        "HG271",
        "invalid-reschedule-policy",
        E,
        "A `reschedule` policy Nomad refuses",
        """What: a group's reschedule policy, merged over the job's and the defaults of the job
type, is ambiguous (`attempts` with `unlimited = true`, as a service job's default is),
has a `delay` or `max_delay` under 5s, an unknown `delay_function`, an `interval` under
15s, or cannot fit its attempts in its interval; or the group is in a system job (before
Nomad 1.11, which reports that as HG269 and refuses sysbatch policies too).

Why: Nomad rejects the job at registration (`ReschedulePolicy.Validate`): "Nomad can only
make 4 attempts in 20s with initial delay 5s and delay function \"constant\"".

Example:
    reschedule {
      attempts = 3
      interval = "1h"
    }   # in a service job: unlimited stays true

Fix: set `unlimited = false` with `attempts`, or drop `attempts`; keep delays at 5s or
more.""",
    ),
    Code(
        "HG272",
        "invalid-update-strategy",
        E,
        "An `update` block Nomad refuses",
        """What: a group's update strategy, merged over the job's and the defaults, breaks
`UpdateStrategy.Validate`: unknown `health_check`, negative `max_parallel` or `canary`,
`auto_promote` without canaries, `min_healthy_time` not below `healthy_deadline`,
`healthy_deadline` not below `progress_deadline`, a non-positive `stagger`.

Why: Nomad rejects the job at registration.

Example:
    update {
      min_healthy_time = "10m"
      healthy_deadline = "5m"
    }

Fix: keep min_healthy_time < healthy_deadline < progress_deadline (or progress_deadline
0).""",
    ),
    Code(
        "HG273",
        "invalid-migrate-strategy",
        E,
        "A `migrate` block Nomad refuses",
        """What: a service group's migrate strategy has a negative `max_parallel`, an empty or
unknown `health_check`, a negative `min_healthy_time` or `healthy_deadline`, or a
`min_healthy_time` above its `healthy_deadline`.

Why: Nomad rejects the job at registration (`MigrateStrategy.Validate`).

Example:
    migrate {
      health_check = "tasks"
    }

Fix: use `health_check = "checks"` or `"task_states"`, and durations that fit.""",
    ),
    Code(
        "HG274",
        "invalid-periodic",
        E,
        "A `periodic` block Nomad refuses",
        """What: an enabled `periodic` block sets both `cron` and `crons`, sets neither, names an
unknown `time_zone`, or has a cron expression (in `cron` or any of `crons`) Nomad cannot
parse.

Why: Nomad rejects the job at registration (`PeriodicConfig.Validate`).

Example:
    periodic {
      crons     = ["0 * * * *"]
      time_zone = "Mars/Olympus"
    }

Fix: write one of `cron`/`crons`, a five-field (or six/seven-field) expression, and an
IANA time zone.""",
    ),
    Code(
        "HG275",
        "invalid-parameterized",
        E,
        "A `parameterized` or `dispatch_payload` block Nomad refuses",
        """What: `payload` is not optional, required or forbidden; a meta key is both required and
optional; or a task's `dispatch_payload { file }` points outside the allocation
directory.

Why: Nomad rejects the job at registration (`ParameterizedJobConfig.Validate`,
`DispatchPayloadConfig.Validate`).

Example:
    parameterized {
      payload       = "needed"
      meta_required = ["x"]
      meta_optional = ["x"]
    }

Fix: use one of the three payload values and keep the two meta lists apart.""",
    ),
    Code(
        "HG276",
        "invalid-disconnect",
        E,
        "A `disconnect` block Nomad refuses",
        """What: a group's `disconnect` block has a negative `lost_after` or
`stop_on_client_after`, sets both, uses `stop_on_client_after` outside service and batch
jobs, or names an unknown `reconcile`. Nomad 1.8 and 1.9 also refuse the group attributes
it replaced when misused: a negative `max_client_disconnect` or
`stop_after_client_disconnect`, both at once, either next to a `disconnect` block, and
`prevent_reschedule_on_lost` with a `disconnect` block or with reschedule attempts (1.10
and later ignore those attributes: HG258).

Why: Nomad rejects the job at registration (`DisconnectStrategy.Validate`,
`TaskGroup.Validate`, `Job.Validate`).

Example:
    disconnect {
      lost_after           = "1h"
      stop_on_client_after = "30m"
    }

Fix: keep one of the two durations; `reconcile` is best_score, longest_running,
keep_original or keep_replacement.""",
    ),
    Code(
        "HG277",
        "invalid-spread",
        E,
        "A `spread` block Nomad refuses",
        """What: a spread has no `attribute`, a weight outside 1-100 (0 included), a target value
twice, a target percent over 100, or target percents summing over 100.

Why: Nomad rejects the job at registration (`Spread.Validate`).

Example:
    spread {
      attribute = "${node.datacenter}"
      target "dc1" { percent = 70 }
      target "dc2" { percent = 50 }
    }

Fix: make the target percents add up to at most 100.""",
    ),
    Code(
        "HG278",
        "invalid-task",
        E,
        "A task setting Nomad refuses",
        """What: a task breaks a rule of `Task.Validate` or of a block it holds: no name or
`driver`, the name `alloc`, a negative `kill_timeout` or `shutdown_delay`, a
`kill_timeout` longer than the group's progress deadline (10m by default in service
jobs), two templates with one destination, a `distinct_hosts`/`distinct_property`
constraint at task level; an `action` without a command, with a name Nomad refuses or
defined twice; `resources` with negative `cores` or `secrets`, or `secrets` above
`memory`; a `csi_plugin` without `id`, of an unknown `type`, or staging inside its
`mount_dir`; a `schedule { cron }` whose `start` or `end` is not six and two fields
without steps or lists (checked by Nomad Enterprise; the Community Edition refuses any
schedule, HG289).

Why: Nomad rejects the job at registration ("Task web validation failed: ...").

Example:
    task "web" {
      kill_timeout = "15m"   # service job: progress_deadline defaults to 10m
    }

Fix: do what the message says; for kill_timeout, raise `update { progress_deadline }`
above it or shorten it.""",
    ),
    Code(
        "HG279",
        "invalid-lifecycle",
        E,
        "A `lifecycle` block Nomad refuses",
        """What: a task's `lifecycle { hook }` is not prestart, poststart or poststop.

Why: Nomad rejects the job at registration (`TaskLifecycleConfig.Validate`: "invalid
hook: ...").

Example:
    lifecycle {
      hook = "before"
    }

Fix: use prestart, poststart or poststop.""",
    ),
    Code(
        "HG280",
        "invalid-logs-or-disk",
        E,
        "A `logs` or `ephemeral_disk` setting Nomad refuses",
        """What: `logs { max_files }` is below 1 or `max_file_size` below 1 MB, the logs of the
group's tasks (files x size) do not fit below `ephemeral_disk { size }`, or that size is
under 10 MB.

Why: Nomad rejects the job at registration (`LogConfig.Validate`,
`EphemeralDisk.Validate`).

Example:
    ephemeral_disk { size = 5 }

Fix: raise the disk size, or keep fewer or smaller log files.""",
    ),
    Code(
        "HG281",
        "invalid-template",
        E,
        "A `template` block Nomad refuses",
        """What: a template has neither `source` nor `data`, no `destination`, a destination
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
    ),
    Code(
        "HG282",
        "invalid-artifact",
        E,
        "An `artifact` block Nomad refuses",
        """What: an artifact has no `source`, an unknown `mode`, a destination outside the
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
    ),
    Code(
        "HG283",
        "invalid-service",
        E,
        "A `service` block Nomad refuses",
        """What: a service has an unknown `address_mode`, `provider`, `on_update` or Consul
`kind`, an `address` without `address_mode = "auto"`, an `identity` without `aud`, or a
`connect` block with provider nomad; a task service uses an alloc address mode, a `connect`
block or another task's name; a group service uses `address_mode = "driver"`; two services
of a group (or a task) share name and port; or a group mixes providers.

Why: Nomad rejects the job at registration (`Service.Validate`,
`TaskGroup.validateServices`, and the task's `validateServices`).

Example:
    service {
      name     = "web"
      provider = "k8s"
    }

Fix: use provider consul or nomad; address_mode auto, host, driver, alloc or alloc_ipv6
(alloc and alloc_ipv6 in group services, driver in task services).""",
    ),
    Code(
        "HG284",
        "invalid-service-check",
        E,
        "A service `check` Nomad refuses",
        """What: a check has an unknown `type`; needs a port and has none; is an http check
without a relative `path` that parses, or a script check without `command`; has an interval
or timeout under 1s; an unknown `initial_status`, `address_mode` or `on_update`, or one that
conflicts with `check_restart`; a negative `check_restart` limit or grace; a Consul-only
setting (`expose`, thresholds, TLS, `ignore_warnings`, driver mode) with provider nomad;
`expose` or a threshold on a type that has none; `notes` over 255 bytes; a `task` that is
not a task of the group (or, in a task service, not its own); or a name used twice in one
task service. Also a tcp check on a Connect sidecar service, and a script check in a group
service without `task`.

Why: Nomad rejects the job at registration (`Service.Validate` and the `ServiceCheck`
validators, `TaskGroup.validateServices`, the task's `validateServices`).

Example:
    check {
      type     = "http"
      path     = "/health"
      interval = "500ms"
      timeout  = "2s"
    }

Fix: use an interval of at least 1s, and give the check (or its service) a `port`.""",
    ),
    Code(
        "HG285",
        "invalid-volume",
        E,
        "A `volume` or `volume_mount` Nomad refuses",
        """What: a group volume has no `source`, uses `per_alloc` in a system job, with canaries
or with `sticky`; a host volume has `mount_options`, an access mode other than the
single-node ones (before 1.10: any access or attachment mode), or a reader mode without
`read_only`; a CSI volume lacks `access_mode` or `attachment_mode`, is a block device with
`mount_options`, has a read-only mode without `read_only`, or has a single-claim mode in a
group of several allocations without `per_alloc`; or a task's `volume_mount` names a
volume the group does not declare, or has an unknown `propagation_mode`.

Why: Nomad rejects the job at registration (`VolumeRequest.Validate`,
`VolumeMount.Validate`, `Task.Validate`).

Example:
    volume_mount {
      volume      = "data"   # no volume \"data\" in the group
      destination = "/data"
    }

Fix: declare the volume in the group, or mount one that is declared.""",
    ),
    Code(
        "HG286",
        "invalid-identity",
        E,
        "An `identity` or `vault` block Nomad refuses",
        """What: an identity has a name outside `[a-zA-Z0-9-_]{1,128}`, an empty audience, a
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
    ),
    Code(
        "HG287",
        "count-outside-scaling",
        E,
        "A group count outside its `scaling` bounds",
        """What: a group's `count` is below its `scaling { min }` or above its `scaling { max }`,
or a bound is negative, or `max` is below `min`.

Why: Nomad rejects the job at registration: "Scaling policy invalid: task group count
must not be greater than maximum count in scaling policy".

Example:
    count = 10
    scaling {
      min = 1
      max = 5
    }

Fix: keep `count` between `min` and `max`.""",
    ),
    Code(
        "HG288",
        "invalid-constraint-attribute",
        E,
        "A constraint `attribute` Nomad's server refuses",
        """What: since Nomad 1.11.2 a constraint's `attribute` must be a literal or one
interpolation of `${node.unique.id}`, `${node.datacenter}`, `${node.unique.name}`,
`${node.class}`, `${node.pool}`, `${attr.*}`, `${meta.*}` or `${device.*}`, with both
braces; a `distinct_property` limit must be a number of 1 or more.

Why: Nomad rejects the job at registration (`validateConstraintAttribute`,
`Constraint.Validate`).

Example:
    constraint {
      attribute = "${node.region}"
      value     = "eu"
    }

Fix: use one of the targets Nomad knows.""",
    ),
    Code(
        "HG289",
        "requires-enterprise",
        E,
        "A feature the Community Edition server refuses",
        """What: the job uses what only Nomad Enterprise accepts: `numa` with affinity prefer or
require, a task `schedule`, a `multiregion` block with regions, a Vault `namespace`, a
Vault or Consul `cluster` other than "default".

Why: A Community Edition server rejects the job at registration: "numa scheduling
requires Nomad Enterprise", "non-default Vault cluster requires Nomad Enterprise" (the
admission hooks of nomad/job_endpoint_hook_*_ce.go). On Enterprise it is accepted. Which
one a cluster runs is a fact of the cluster: HG289 is reported only when the profile says
`enterprise = false` (in hclgpu.toml, or `--no-enterprise`).

Example:
    resources {
      numa { affinity = "require" }
    }

Fix: run it on Nomad Enterprise (and say so: `enterprise = true`), or remove the block.""",
    ),
    Code(
        "HG292",
        "invalid-connect",
        E,
        "A Consul Connect block Nomad refuses",
        """What: a service's `connect` block, or the group around it, breaks a rule of Nomad's
server: a `connect` block that is not exactly one of `sidecar_service`, `native` and
`gateway`; a gateway that is not exactly one of ingress, terminating and mesh, or whose
listeners, services, TLS files or bind addresses are incomplete; a transparent proxy with
an unparsable CIDR or user ID, with network `dns` but not `no_dns`, or beside another
`connect` block; a sidecar, gateway or exposed check in a group without exactly one bridge
or CNI network (gateways may use host); upper case in a sidecar's service or group name;
two upstreams on one local address; a native service without its task or port; a mesh
gateway without `port`; an exposed check outside a group sidecar service, or on a dynamic
port; a hand-written `connect-proxy:<service>` task with services, `leader`, or no such
sidecar service.

Why: Nomad rejects the job at registration (`ConsulConnect.Validate` and the gateway
blocks' `Validate`, nomad/structs/services.go and connect.go; `Task.Validate`; the
`jobConnectHook` and `jobExposeCheckHook` admission hooks,
nomad/job_endpoint_hook_connect.go and job_endpoint_hook_expose_check.go). The hooks'
mutators stop the registration at their first error, and their validators report only
their first one, so a fix can uncover the next.

Example:
    network {
      mode = "host"
    }
    service {
      name = "api"
      connect {
        sidecar_service {}
      }
    }

Fix: give the group one `network { mode = "bridge" }`, or write what the message asks.""",
    ),
    Code(
        "HG293",
        "invalid-secret",
        E,
        "A task `secret` block Nomad refuses",
        """What: a task's `secret "<name>"` block has a name that is not 1-128 letters, digits or
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
    ),
    Code(
        "HG294",
        "invalid-vault-or-consul",
        E,
        "A `vault` or `consul` setting Nomad's admission hooks refuse",
        """What: a `consul` block or a workload identity breaks a rule of the server's Consul
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
    ),
    Code(
        "HG264",
        "server-warning",
        W,
        "What Nomad's server accepts with a warning",
        """What: the job registers, but Nomad's server answers with a warning. Each warning is
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
    ),
)
