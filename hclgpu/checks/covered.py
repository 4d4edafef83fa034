"""Server checks that rules written before the server registry already report.

Those rules (devices, operators, values, affinities, resources, networks, naming,
deprecations) carry more than one Nomad check each and word their findings themselves,
so they do not go through :func:`~hclgpu.checks.server.reject`; the checks they mirror are
declared here so that docs/validation.md lists every server check in one table.
"""

from __future__ import annotations

from hclgpu.checks.server import Condition

S = "nomad/structs/structs.go"
IDS: set[str] = set()
"""The conditions declared here (their tests are those of the older rules)."""


def _declare(*rows: tuple[str, str, str, str, str, str]) -> None:
    for ident, code, nomad, source, condition, message in rows:
        IDS.add(Condition(ident, code, nomad, source, condition, message).id)


_declare(
    ("device-name-format", "HG201", "RequestedDevice.Validate", f"{S}:3132",
     "a `device` label is empty or not type, vendor/type or vendor/type/name",
     "device name must be given as one of the following: type, vendor/type, or vendor/type/name"),
    ("device-constraint-operator", "HG221", "RequestedDevice.Validate", f"{S}:3139",
     "a device constraint uses distinct_hosts or distinct_property",
     "Constraint {index} validation failed: using unsupported operand {operator!r}"),
    ("constraint-set-contains-value", "HG224", "Constraint.Validate", f"{S}:10037",
     "a set_contains constraint has no `value`", "Set contains constraint requires an RTarget"),
    ("constraint-regexp", "HG222", "Constraint.Validate", f"{S}:10041",
     "a regexp constraint's `value` does not compile", "Regular expression failed to compile: {error}"),
    ("constraint-version", "HG223", "Constraint.Validate", f"{S}:10045",
     "a version constraint's `value` does not parse", "Version constraint is invalid: {error}"),
    ("constraint-semver", "HG223", "Constraint.Validate", f"{S}:10049",
     "a semver constraint's `value` does not parse", "Semver constraint is invalid: {error}"),
    ("constraint-is-set-value", "HG225", "Constraint.Validate", f"{S}:10063",
     "is_set or is_not_set with a `value`", "Operator {operator!r} does not support an RTarget"),
    ("constraint-operator-value", "HG224", "Constraint.Validate", f"{S}:10067",
     "a comparison operator without a `value`", "Operator {operator!r} requires an RTarget"),
    ("constraint-operator", "HG220", "Constraint.Validate", f"{S}:10070",
     "an unknown constraint `operator`", "Unknown constraint type {operator!r}"),
    ("constraint-attribute", "HG224", "Constraint.Validate", f"{S}:10077",
     "a constraint without `attribute` (other than distinct_hosts)",
     "no attribute provided but is required by operator"),
    ("affinity-operator", "HG220", "Affinity.Validate", f"{S}:10190",
     "an unknown affinity `operator`, or one affinities do not take",
     "Unknown affinity operator {operator!r}"),
    ("affinity-weight-zero", "HG230", "Affinity.Validate", f"{S}:10200",
     "an affinity `weight` of 0", "Affinity weight cannot be zero"),
    ("affinity-weight-range", "HG231", "Affinity.Validate", f"{S}:10204",
     "an affinity `weight` outside -100..100", "Affinity weight must be within the range [-100,100]"),
    ("cpu-and-cores", "HG241", "Resources.Validate", f"{S}:2424",
     "`cpu` and `cores` both above 0", "Task can only ask for 'cpu' or 'cores' resource, not both."),
    ("memory-max-below-memory", "HG240", "Resources.Validate", f"{S}:2466",
     "`memory_max` below `memory` (300 by default), other than 0 and -1",
     "MemoryMaxMB value ({max}) should be larger than MemoryMB value ({memory})"),
    ("minimum-cpu", "HG242", "Resources.MeetsMinResources", f"{S}:2602",
     "`cpu` below 1 without `cores`", "minimum CPU value is 1; got {cpu}"),
    ("minimum-memory", "HG242", "Resources.MeetsMinResources", f"{S}:2605",
     "`memory` below 10", "minimum MemoryMB value is 10; got {memory}"),
    ("port-label-twice", "HG245", "TaskGroup.validateNetworks", f"{S}:7324",
     "two ports of a group's networks have one label", "Port label {label} already in use by {other}"),
    ("static-port-twice", "HG246", "TaskGroup.validateNetworks", f"{S}:7341",
     "two ports reserve one static port (without ignore_collision)",
     "Static port {port} already reserved by {other}"),
    ("port-above-65535", "HG247", "TaskGroup.validateNetworks", f"{S}:7345",
     "a static port above 65535", "Port {label} ({port}) cannot be greater than 65535"),
    ("port-mapped-negative", "HG247", "TaskGroup.validateNetworks", f"{S}:7354",
     "a port's `to` below 0 (-1 excepted)", "Port {label!r} cannot be mapped to negative value {to}"),
    ("port-mapped-above-65535", "HG247", "TaskGroup.validateNetworks", f"{S}:7357",
     "a port's `to` above 65535", "Port {label!r} cannot be mapped to a port ({to}) greater than 65535"),
    ("task-service-port", "HG248", "validateServices", f"{S}:8589",
     "a task service or check names a port that is not a label of the group's first network or the task's",
     "port label {label!r} referenced by services {services} does not exist"),
    ("task-check-numeric-port", "HG248", "validateServices", f"{S}:8533",
     'a task check uses a numeric port without `address_mode = "driver"`',
     'check {name!r} cannot use a numeric port {port} without setting address_mode="driver"'),
    ("periodic-needs-batch", "HG256", "Job.Validate", f"{S}:4858",
     "an enabled `periodic` block in a job that is not batch or sysbatch",
     'Periodic can only be used with "batch" or "sysbatch" scheduler'),
    ("parameterized-needs-batch", "HG256", "Job.Validate", f"{S}:4870",
     "a `parameterized` block in a job that is not batch or sysbatch",
     'Parameterized job can only be used with "batch" or "sysbatch" scheduler'),
    ("system-count-above-one", "HG257", "Job.Validate", f"{S}:4841",
     "a system job's group `count` above 1",
     "Job task group {group} has count {count}. Count cannot exceed 1 with system scheduler"),
    ("service-name", "HG265", "Service.ValidateName", "nomad/structs/services.go:954",
     "a service name (or its default) outside RFC 1123 letters, digits and dashes",
     "Service name must be valid per RFC 1123 and can contain only alphanumeric characters or dashes"),
    ("job-id-space", "HG266", "Job.Validate", f"{S}:4746",
     "the job ID contains a space", "Job ID contains a space"),
    ("job-id-nul", "HG266", "Job.Validate", f"{S}:4748",
     "the job ID contains a NUL character", "Job ID contains a null character"),
    ("group-name-nul", "HG266", "TaskGroup.Validate", f"{S}:7117",
     "a group name contains a NUL character", "Task group name contains null character"),
    ("task-name-slash", "HG266", "Task.Validate", f"{S}:8216",
     "a task name contains / or \\", "Task name cannot include slashes"),
)  # fmt: skip
