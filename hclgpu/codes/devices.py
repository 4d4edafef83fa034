"""HG2xx for device requests: names, targets, values, operators, weights, satisfiability."""

from __future__ import annotations

from hclgpu.codes.base import Code, E, W

CODES = (
    Code(
        "HG201",
        "empty-device-name",
        E,
        "A device request has an empty name",
        """What: `device "" { }` (or a name made only of slashes and spaces).

Why: Nomad rejects the job at registration: "device name must be given as one of
the following: type, vendor/type, or vendor/type/name".

Example:
    device "" { count = 1 }

Fix: name the device: `"gpu"`, `"nvidia/gpu"` or `"nvidia/gpu/Tesla T4"`.""",
    ),
    Code(
        "HG202",
        "malformed-device-name",
        W,
        "A device name has empty parts, extra parts or stray spaces",
        """What: the name is split on `/` into vendor, type and model (the rest of the
name). An empty part matches anything, spaces are compared literally, and a fourth
part becomes part of the model (`a/b/c/d` asks for the model `c/d`).

Why: `nvidia//T4` asks for any device type, `nvidia /gpu` for a vendor named
`nvidia ` that no plugin reports: the request silently matches more, or nothing.

Example:
    device "nvidia /gpu" {}

Fix: write `type`, `vendor/type` or `vendor/type/model` without spaces around the
slashes.""",
    ),
    Code(
        "HG203",
        "zero-device-count",
        W,
        "A device request asks for zero devices",
        """What: `count = 0` in a `device` block.

Why: Nomad accepts it, but the scheduler refuses to place it ("invalid request of
zero devices"): the job stays pending.

Example:
    device "nvidia/gpu" { count = 0 }

Fix: ask for at least one device, or remove the block.""",
    ),
    Code(
        "HG204",
        "duplicate-device-request",
        W,
        "A task requests the same device twice",
        """What: two `device` blocks with the same name in one task.

Why: each block is a separate request; the task needs both satisfied, which is
rarely what was meant (usually `count` should have been raised).

Example:
    device "nvidia/gpu" {}
    device "nvidia/gpu" {}

Fix: merge the blocks and set `count`.""",
    ),
    Code(
        "HG210",
        "unresolvable-device-target",
        W,
        "A target inside a device block that Nomad never resolves there",
        """What: inside `device`, only `${device.ids}`, `${device.model}`,
`${device.vendor}`, `${device.type}` and `${device.attr.<name>}` resolve. Node
targets (`${node.*}`, `${attr.*}`, `${meta.*}`) and anything else are "not found".

Why: a constraint on a target that is never found never matches (the device is
never placed); an affinity on it never scores.

Example:
    device "nvidia/gpu" {
      constraint { attribute = "${attr.kernel.name}"  value = "linux" }
    }

Fix: move node constraints to the task, group or job; use `${device.*}` here.""",
    ),
    Code(
        "HG211",
        "device-target-outside-device",
        W,
        "A `${device.*}` target in a job, group or task constraint",
        """What: a constraint or affinity outside any `device` block refers to
`${device.*}`.

Why: node constraints resolve targets against the node, where `${device.*}` does
not exist: the constraint never matches.

Example:
    task "t" {
      constraint { attribute = "${device.model}"  value = "A100" }
    }

Fix: move it inside the `device` block it is about.""",
    ),
    Code(
        "HG212",
        "spaces-in-target",
        W,
        "Spaces inside `${ }` of a constraint or affinity target",
        """What: `"${ device.model }"` is kept as written, spaces included.

Why: Nomad compares targets literally: `${ device.model }` is not
`${device.model}`; inside a device it never resolves, and the server rejects it in a
node constraint.

Example:
    affinity { attribute = "${ device.vendor }"  value = "nvidia" }

Fix: remove the spaces: `"${device.vendor}"`.""",
    ),
    Code(
        "HG213",
        "unknown-device-attribute",
        W,
        "A `${device.attr.X}` that the NVIDIA plugin does not report",
        """What: the NVIDIA device plugin reports `memory`, `bar1`, `power`, `cores_clock`,
`memory_clock`, `pci_bandwidth`, `driver_version`, `display_state` and
`persistence_mode` (names are case-sensitive).

Why: an attribute that does not exist is "not found": a constraint on it never
matches, an affinity never scores.

Example:
    constraint { attribute = "${device.attr.memory_mb}"  operator = ">="  value = "16 GiB" }

Fix: use one of the reported names (the help suggests the closest).""",
    ),
    Code(
        "HG214",
        "unitless-value",
        W,
        "A number without a unit compared with an attribute that has one",
        """What: `memory`, `bar1` (MiB), `power` (W), `cores_clock`, `memory_clock` (MHz) and
`pci_bandwidth` (MB/s) carry units; a plain number has none.

Why: Nomad compares a unit value only with a value of the same unit family: `16384`
against `16130 MiB` is "not comparable", so `>=` is false, and so is `!=`.

Example:
    constraint { attribute = "${device.attr.memory}"  operator = ">="  value = "16384" }

Fix: write the unit: `"16384 MiB"` or `"16 GiB"`.""",
    ),
    Code(
        "HG215",
        "unknown-unit",
        W,
        "A value that ends in something that is not one of Nomad's units",
        """What: units are case-sensitive and only `KiB`..`EiB`, `kB`/`KB`..`EB`, their `/s`
rates, `MHz`, `GHz`, `mW`, `W`, `kW`, `MW` and `GW` exist (no `B`, `Hz`, `gb`).

Why: with an unknown unit the whole value silently becomes a string, which never
compares with a number.

Example:
    value = "16 gb"

Fix: use the unit the help suggests (`"16 GB"` or `"16 GiB"`).""",
    ),
    Code(
        "HG216",
        "unit-family-mismatch",
        W,
        "A value whose unit belongs to another family than the attribute's",
        """What: bytes, byte rates, hertz and watts are different families.

Why: values of different families are not comparable, so the comparison is false.

Example:
    constraint { attribute = "${device.attr.memory}"  operator = ">="  value = "2 GHz" }

Fix: use a unit of the attribute's family.""",
    ),
    Code(
        "HG217",
        "trailing-space-in-value",
        W,
        "A value with a unit and a trailing space",
        """What: Nomad looks for a unit only when the last character is a letter.

Why: `"5 GiB "` ends in a space, so it is the string `5 GiB `, which never compares
with a number.

Example:
    value = "5 GiB "

Fix: remove the trailing space.""",
    ),
    Code(
        "HG218",
        "bool-like-value",
        W,
        "A value Nomad reads as a bool",
        """What: `t`, `T`, `f`, `F`, `TRUE`, `true`, `False`... are parsed as bools, not
strings (but `1` and `0` are numbers).

Why: compared with a string attribute, a bool is not comparable: the constraint is
false.

Example:
    constraint { attribute = "${device.attr.display_state}"  value = "T" }

Fix: if a string is meant, it cannot be written this way; match it with `regexp`.""",
    ),
    Code(
        "HG219",
        "unit-overflow",
        W,
        "A value too large for Nomad's 64-bit arithmetic",
        """What: Nomad multiplies integer values by their unit in int64: from 8 EiB
(2^63 bytes) on, the result wraps around.

Why: `16 EiB` then compares as less than `1 KiB`.

Example:
    value = "16 EiB"

Fix: use a smaller value, or write it as a float (`"16.0 EiB"`), which Nomad
compares exactly.""",
    ),
    Code(
        "HG220",
        "unknown-operator",
        E,
        "An operator Nomad does not know",
        """What: operators are `=`, `==`, `is`, `!=`, `not`, `<`, `<=`, `>`, `>=`, `regexp`,
`version`, `semver`, `set_contains`, `set_contains_all`, `set_contains_any`,
`is_set`, `is_not_set`, `distinct_hosts` and `distinct_property`.

Why: Nomad rejects the job at registration ("Unknown constraint type").

Example:
    operator = "=~"

Fix: use one of the operators (the help suggests the closest).""",
    ),
    Code(
        "HG221",
        "operator-not-allowed-here",
        E,
        "An operator that this kind of constraint or affinity does not take",
        """What: `distinct_hosts` and `distinct_property` are not allowed in a device
constraint; affinities take neither those nor `is_set`/`is_not_set`.

Why: Nomad rejects the job at registration.

Example:
    device "nvidia/gpu" { constraint { distinct_hosts = true } }

Fix: move `distinct_*` to the job or group; write affinities with a comparison.""",
    ),
    Code(
        "HG222",
        "invalid-regexp",
        E,
        "A `regexp` that Go's RE2 engine does not accept",
        """What: Nomad compiles the pattern with Go's `regexp` (RE2 syntax): no lookaround,
no backreferences, no possessive quantifiers or atomic groups.

Why: Nomad rejects the job at registration.

Example:
    regexp = "^(?!Tesla).*"

Fix: rewrite the pattern without the unsupported construct (or use `!=`).""",
    ),
    Code(
        "HG223",
        "invalid-version-constraint",
        E,
        "A `version` or `semver` constraint that does not parse",
        """What: `version` takes hashicorp/go-version constraints (`">= 1.2, < 2"`,
`"~> 1.0"`), `semver` strict semantic versions.

Why: Nomad rejects the job at registration.

Example:
    version = "=> 535"

Fix: write the constraint in go-version syntax (`">= 535"`).""",
    ),
    Code(
        "HG224",
        "missing-value",
        E,
        "An operator that needs a value has none",
        """What: comparisons and the `set_contains*` operators need a `value`.

Why: Nomad rejects the job at registration ("requires an RTarget").

Example:
    constraint { attribute = "${device.model}"  operator = "set_contains" }

Fix: add the value.""",
    ),
    Code(
        "HG225",
        "value-not-allowed",
        E,
        "`is_set` or `is_not_set` with a value",
        """What: `is_set` and `is_not_set` test only whether the attribute exists.

Why: Nomad rejects the job at registration when a value is given.

Example:
    constraint { attribute = "${device.attr.power}"  operator = "is_set"  value = "true" }

Fix: remove the value.""",
    ),
    Code(
        "HG226",
        "dropped-shortcut",
        W,
        "A constraint shortcut attribute that Nomad silently drops",
        """What: a constraint accepts `set_contains_all = X`, `set_contains_any = X`,
`is_set = X` and `is_not_set = X` as attributes, but ignores them: the constraint
becomes `attribute = ""`, operator `=`.

Why: the constraint no longer says what was written, and the server then rejects it
for its empty value ("Operator "=" requires an RTarget"), reported beside this as
HG224.

Example:
    constraint { attribute = "${device.attr.x}"  set_contains_all = "a,b" }

Fix: write `operator = "set_contains_all"` and `value = "a,b"`.""",
    ),
    Code(
        "HG230",
        "zero-affinity-weight",
        E,
        "An affinity with weight zero",
        """What: `weight = 0`.

Why: Nomad rejects the job at registration ("Affinity weight cannot be zero").

Example:
    affinity { attribute = "${device.model}"  value = "A100"  weight = 0 }

Fix: use a weight between -100 and 100 other than 0, or remove the affinity.""",
    ),
    Code(
        "HG231",
        "affinity-weight-out-of-range",
        E,
        "An affinity weight outside -100..100",
        """What: the weight Nomad stores is outside [-100, 100].

Why: Nomad rejects the job at registration.

Example:
    weight = 120

Fix: use a weight between -100 and 100.""",
    ),
    Code(
        "HG232",
        "affinity-weight-wraps",
        W,
        "An affinity weight outside -128..127 that Nomad wraps around",
        """What: Nomad stores the weight in an 8-bit integer: 200 becomes -56, -129 becomes
127, with no error.

Why: the stored weight may pass validation with the opposite meaning: a strong
preference becomes an aversion.

Example:
    weight = 200

Fix: use a weight between -100 and 100.""",
    ),
    Code(
        "HG233",
        "fractional-affinity-weight",
        W,
        "An affinity weight with a fraction",
        """What: Nomad cuts the fraction off (`-50.7` becomes `-50`).

Why: the weight used is not the one written.

Example:
    weight = 12.5

Fix: write a whole number.""",
    ),
    Code(
        "HG235",
        "contradictory-constraints",
        W,
        "Constraints on one device target that no value can satisfy together",
        """What: two constraints of one device request on the same target exclude each
other (`memory >= 8 GiB` and `memory < 4 GiB`, `model = "A100"` and
`model = "T4"`, `model = "A100"` and `regexp = "^Tesla"`).

Why: no device can ever match: the task is never placed.

Example:
    constraint { attribute = "${device.attr.memory}"  operator = ">="  value = "8 GiB" }
    constraint { attribute = "${device.attr.memory}"  operator = "<"   value = "4 GiB" }

Fix: fix the bounds or remove one constraint.""",
    ),
    Code(
        "HG236",
        "device-model-excluded",
        W,
        "The model in the device name is excluded by the request's own constraint",
        """What: `device "nvidia/gpu/Tesla T4"` asks for one model, and a constraint on
`${device.model}` rules that model out.

Why: no device can match both: the task is never placed.

Example:
    device "nvidia/gpu/Tesla T4" {
      constraint { attribute = "${device.model}"  value = "A100" }
    }

Fix: keep the model in one place.""",
    ),
    Code(
        "HG237",
        "affinity-never-matches",
        W,
        "An affinity that the request's constraints make impossible",
        """What: an affinity prefers a value that the same request's constraints (or its
name) already exclude.

Why: the affinity never scores; it only costs scheduling time and misleads readers.

Example:
    device "nvidia/gpu/Tesla T4" {
      affinity { attribute = "${device.model}"  value = "A100"  weight = 50 }
    }

Fix: remove the affinity or the conflicting constraint.""",
    ),
)
