"""HG24x-HG27x: resources, networks, deprecations and naming.

Ranges: HG240-244 task resources, HG245-254 networks and ports, HG255-264 deprecated or
scheduler-dependent settings, HG265-274 names. Severities follow one rule: an error when
Nomad's server rejects the job at registration and none of Nomad's own accepted parser
fixtures does it; a warning when Nomad accepts the job but it fails or misbehaves later,
or when Nomad only warns; info when only another back end cares.
"""

from __future__ import annotations

from hclgpu.codes.base import INFO, Code, E, W

_RESOURCES = (
    Code(
        "HG240",
        "memory-max-below-memory",
        E,
        "`memory_max` is below `memory`",
        """What: a task's `resources { memory_max = N }` is smaller than its `memory`
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
    ),
    Code(
        "HG241",
        "cpu-and-cores",
        E,
        "A task asks for both `cpu` and `cores`",
        """What: a task's `resources` sets both `cpu` (MHz) and `cores` (whole cores) above zero.

Why: Nomad rejects the job at registration: "Task can only ask for 'cpu' or 'cores'
resource, not both." With `cores` Nomad reserves whole cores and derives the CPU
share from them.

Example:
    resources {
      cpu   = 2000
      cores = 2
    }

Fix: keep one of them: `cores` to pin whole cores, `cpu` to share them.""",
    ),
    Code(
        "HG242",
        "resources-below-minimum",
        E,
        "`cpu` or `memory` is below Nomad's minimum",
        """What: a task's effective `cpu` is below 1 MHz while it reserves no `cores`, or its
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
    ),
)

_NETWORKS = (
    Code(
        "HG245",
        "duplicate-port-label",
        E,
        "A port label is declared twice in one group",
        """What: two `port "<label>"` blocks of a group's `network` blocks share a label, or
a task's `resources { network { port ... } }` reuses a label of the group network.

Why: Nomad rejects the job at registration: "Port label http already in use by
taskgroup network". A label names one port: services, checks, `NOMAD_PORT_<label>`
and docker `ports` refer to it.

Example:
    network {
      port "http" {}
      port "http" { to = 8080 }
    }

Fix: give every port of the group a label of its own.""",
    ),
    Code(
        "HG246",
        "static-port-collision",
        E,
        "The same static port is reserved twice in one group",
        """What: two ports of one group (group or task `network` blocks) ask for the same
`static` host port on the same host network.

Why: Nomad rejects the job at registration: "Static port 8080 already reserved by
taskgroup network:http". One allocation cannot bind a host port twice. (Ports of a
group network may set `ignore_collision = true` to share a port that supports
SO_REUSEPORT.)

Example:
    network {
      port "http"  { static = 8080 }
      port "admin" { static = 8080 }
    }

Fix: use different static ports, drop `static` from one of them to get a dynamic
port, or set `ignore_collision = true` where the program can share the port.""",
    ),
    Code(
        "HG247",
        "port-out-of-range",
        E,
        "A port number is outside 0-65535",
        """What: a port's `static` value is above 65535, or its `to` value is above 65535 or
below -1 (-1 means "same as the host port", for Consul Connect).

Why: Nomad rejects the job at registration with `Port http (70000) cannot be greater
than 65535` or `Port "http" cannot be mapped to negative value -2`.

Example:
    port "http" { static = 80800 }

Fix: use a port number between 1 and 65535.""",
    ),
    Code(
        "HG248",
        "undeclared-port",
        E,
        "A service, check or docker `ports` entry names a port no network declares",
        """What: a `service` or `check` `port`, or an entry of a docker task's
`config { ports = [...] }`, names a port label that no `network` block of the group
declares (for task services: the group's first network or the task's own network).

Why: for a task service Nomad rejects the job at registration (`port label "http"
referenced by services web does not exist`, `validateServices`): an error. A group
service is accepted but fails to register when the allocation starts, and docker
fails to start the task (`Port "http" not found, check network block`) or publishes
nothing when the group has no network ports: those two are warnings.

Example:
    network { port "http" { to = 8080 } }
    service { port = "htpp" }

Fix: correct the label, or declare the port in the group's `network` block.""",
    ),
    Code(
        "HG249",
        "task-network-deprecated",
        W,
        "A `network` block inside a task's `resources` is deprecated",
        """What: a task declares its network in `resources { network { ... } }`.

Why: Nomad warns at registration: "task network resources have been deprecated as of
Nomad 0.12.0. Please configure networking via group network block." Newer features
(bridge and CNI networking, Consul Connect, docker `ports`, `host_network`) work only
with the group `network` block.

Example:
    task "web" {
      resources {
        network {
          port "http" {}
        }
      }
    }

Fix: move the `network` block to the group, and in docker tasks list the ports in
`config { ports = ["http"] }` (with `to = <container port>` on the port) instead of
`port_map`.""",
    ),
    Code(
        "HG250",
        "mbits-deprecated",
        W,
        "`mbits` is deprecated and ignored",
        """What: a group `network` block sets `mbits`.

Why: Nomad warns at registration: "mbits has been deprecated as of Nomad 0.12.0.
Please remove mbits from the network block." Network bandwidth is no longer
scheduled, so the value reserves nothing.

Example:
    network {
      mbits = 100
    }

Fix: remove `mbits`.""",
    ),
)

_DEPRECATIONS = (
    Code(
        "HG255",
        "port-map-unusable",
        W,
        "docker `port_map` cannot map the task's ports",
        """What: a docker task sets `config { port_map { ... } }` but has no task-level
`network` block, or its group network ports are listed in `config { ports = [...] }`.

Why: `port_map` (deprecated since Nomad 0.12) only maps the ports of a task-level
network. With group network ports and no `ports` list, the docker driver refuses to
start the task ("'port_map' cannot map group network ports, use 'ports' instead");
with no network at all, too ("Trying to map ports but no network interface is
available"); with a `ports` list, `port_map` is silently ignored.

Example:
    network { port "http" {} }
    task "web" {
      driver = "docker"
      config {
        port_map { http = 8080 }
      }
    }

Fix: set the container port on the group port (`port "http" { to = 8080 }`), list
it in `config { ports = ["http"] }` and remove `port_map`.""",
    ),
    Code(
        "HG256",
        "requires-batch-scheduler",
        E,
        "`periodic` or `parameterized` in a job that is not `batch` or `sysbatch`",
        """What: a job with a `periodic` block (not disabled) or a `parameterized` block has a
`type` other than "batch" or "sysbatch"; a job without `type` is a "service" job.

Why: Nomad rejects the job at registration with `Periodic can only be used with
"batch" or "sysbatch" scheduler` or `Parameterized job can only be used with ...`
(`Job.Validate`, nomad/structs/structs.go:4858 and :4870). Nomad's parser accepts
such files; its server does not.

Example:
    job "nightly" {
      periodic { crons = ["0 2 * * *"] }
    }

Fix: add `type = "batch"` (or "sysbatch") to the job.""",
    ),
    Code(
        "HG257",
        "system-count-above-one",
        E,
        "A group of a `system` job has `count` above 1",
        """What: a group of a job with `type = "system"` sets `count` to more than 1.

Why: Nomad rejects the job at registration: "Job task group g has count 3. Count
cannot exceed 1 with system scheduler". The system scheduler runs one allocation of
each group on every eligible node; `count` cannot multiply that.

Example:
    job "agent" {
      type = "system"
      group "collector" {
        count = 3
      }
    }

Fix: remove `count`. To run several copies on each node, add tasks to the group or
use a `service` job.""",
    ),
    Code(
        "HG258",
        "deprecated-field",
        W,
        "An attribute Nomad reports as deprecated",
        """What: the job sets an attribute Nomad warns about at registration:
`periodic { cron }` (use `crons`), task `resources { iops }` (ignored since Nomad
0.9), group `max_client_disconnect` (use `disconnect { lost_after }`),
`stop_after_client_disconnect` (use `disconnect { stop_on_client_after }`) and
`prevent_reschedule_on_lost` (use `disconnect { replace = false }`).

Why: deprecated attributes are removed in a later release, and some (`iops`) already
do nothing. Nomad prints these warnings on `nomad job run`.

Example:
    periodic {
      cron = "0 2 * * *"
    }

Fix: use the replacement the message names.""",
    ),
)

_NAMING = (
    Code(
        "HG265",
        "invalid-service-name",
        E,
        "A service name is not a valid RFC 1123 name",
        """What: a service name (or the default `<job>-<group>-<task>` name of a service
without `name`) is not 1-63 letters, digits and dashes, starting and ending with a
letter or digit. `${...}` runtime variables are allowed and checked as Nomad does,
as if they were a plain word.

Why: Nomad rejects the job at registration: "Service name must be valid per RFC 1123
and can contain only alphanumeric characters or dashes and must be no longer than 63
characters". A default name inherits underscores or dots from the job, group or task
names. Nomad's parser accepts such files; its server does not (`Service.ValidateName`,
nomad/structs/services.go:954).

Example:
    job "web_app" {
      group "api" {
        service { port = "http" }     # named "web_app-api"
      }
    }

Fix: set `name` to a valid name, e.g. `name = "web-app-api"`.""",
    ),
    Code(
        "HG266",
        "invalid-nomad-name",
        E,
        "A job ID or task name that Nomad rejects",
        """What: the job ID (the `job` label) contains a space or a NUL character, a group
or job name contains a NUL character, or a task name contains `/` or `\\`.

Why: Nomad rejects the job at registration: "Job ID contains a space", "Task name
cannot include slashes" (the task name becomes a directory of the allocation).

Example:
    task "fetch/unpack" { }

Fix: use dashes instead: `task "fetch-unpack"`.""",
    ),
    Code(
        "HG267",
        "name-not-dns-label",
        INFO,
        "A job, group or task name is not a DNS label",
        """What: a job, group or task name is not an RFC 1123 DNS label: at most 63 lowercase
letters, digits and dashes, starting and ending with a letter or digit.

Why: Nomad accepts it, but Kubernetes object and container names must be DNS labels,
so the Kubernetes back end has to rewrite the name (lowercase, other characters
replaced by dashes), and the objects it creates will not carry the name written here.
Reported only where the job goes to Kubernetes: `targets = ["kubernetes"]` in the
configuration, `check --target kubernetes`, or `render --target kubernetes`.

Example:
    group "Web_API" { }

Fix: nothing is required; to keep the same name on every back end, use a DNS label
such as `group "web-api"`.""",
    ),
)

CODES: tuple[Code, ...] = (*_RESOURCES, *_NETWORKS, *_DEPRECATIONS, *_NAMING)
