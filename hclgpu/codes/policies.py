"""HG4xx: the team's own policies (Rego rules run by ``check --policy DIR``), and the policies themselves."""

from __future__ import annotations

from hclgpu.codes.base import Code, E, W

HG401 = Code(
    "HG401",
    "policy-denied",
    E,
    summary="A `deny` or `violation` rule of a team policy matched the job",
    doc="""What: a Rego rule named `deny`, `violation` (or `deny_...`, `violation_...`) in
one of the `--policy` directories produced a message for this job. The message
starts with the rule's package and name, and the finding is located at the part
of the file that produced the `path` the rule gave (a `violation` object's
`path`), or at the job block when it gave none.

Why: the policy is the team's own rule ("every GPU task sets `memory_max`");
`check` fails as the policy says it must.

Example:
    # samples/policies/gpu_memory.rego
    violation contains {"msg": msg, "path": path} if { ... }

Fix: change the job as the message says, or suppress it where the team agrees
(`# hclgpu-ignore: HG401` on the line before).""",
)


HG402 = Code(
    "HG402",
    "policy-warning",
    W,
    summary="A `warn` rule of a team policy matched the job",
    doc="""What: a Rego rule named `warn` (or `warn_...`) in one of the `--policy`
directories produced a message for this job, with the rule's package and name.

Why: the policy marks something worth a look that does not fail the run (it
does with `--strict`).

Example:
    warn contains "the job has no `team` in its meta" if { not input.Job.Meta.team }

Fix: change the job, or suppress the warning (`# hclgpu-ignore: HG402`).""",
)


HG410 = Code(
    "HG410",
    "policy-syntax-error",
    E,
    summary="A policy file cannot be compiled",
    doc="""What: a `.rego` file in a `--policy` directory is not valid Rego v1. The
error is located in the policy file, at the line and column the engine names.
Rego v0 rule heads (`deny[msg] { ... }`) are refused as OPA 1.0 refuses them.

Why: no job can be checked against a policy that does not compile; the run
stops with exit status 2 before any job is read.

Example:
    deny[msg] {
      msg := "no"
    }

Fix: write Rego v1 (`deny contains msg if { ... }`); `opa fmt --v0-v1` rewrites
old policies.""",
    fatal=True,
)


HG411 = Code(
    "HG411",
    "policy-runtime-error",
    E,
    summary="A policy rule failed while evaluating the job",
    doc="""What: evaluating a rule raised an error (two values for one complete rule, a
conflicting object key, an unknown function): the message names the rule and
the engine's error.

Why: the policy's verdict on this job is unknown, so the run cannot pass; the
exit status is 2, as for any input that could not be processed.

Example:
    deny := "a" if { true }
    deny := "b" if { true }

Fix: correct the policy; the job itself may be fine.""",
    fatal=True,
)


HG412 = Code(
    "HG412",
    "policy-timeout",
    E,
    summary="A policy took longer than the time limit on a job",
    doc="""What: evaluating the policies on this job ran past `--policy-timeout`
(seconds, per job file; 10 by default) and was stopped; the message names the
rule that was running.

Why: Rego can express work that never ends in practice (nested iteration over
large ranges); a run must not hang on it in CI or in the editor.

Example:
    deny contains n if {
      n := count([1 | some i in numbers.range(1, 100000); some j in numbers.range(1, 100000)])
    }

Fix: make the rule cheaper, or raise the limit if the work is real.""",
    fatal=True,
)


HG413 = Code(
    "HG413",
    "policy-unusable",
    E,
    summary="The policy directories cannot be used",
    doc="""What: a `--policy` directory does not exist or holds no `.rego` file, a
policy file cannot be read, or the Rego engine is not installed (`pip install
'hclgpu[policy]'`).

Why: checking without the policies the team asked for would pass jobs that
should fail; the run stops with exit status 2.

Example:
    hclgpu check --policy policies/ jobs/       # policies/ is empty

Fix: point `--policy` (or `policy` in `[tool.hclgpu]`) at the directory of
`.rego` files, or install the engine.""",
    fatal=True,
)


HG414 = Code(
    "HG414",
    "policy-memory-limit",
    E,
    summary="A policy took more memory than the limit on a job",
    doc="""What: while evaluating the policies on this job, the policy engine's process
grew past its memory limit (1 GiB of resident memory) and was stopped; the
message names the rule that was running and the limit.

Why: a rule can build values as large as it likes (a comprehension over a
large range holds every element); in CI, next to other jobs, a policy must not
take the machine's memory. The time limit alone would let a rule take gigabytes
before it ends.

Example:
    deny contains n if {
      n := count([i | some i in numbers.range(1, 100000000)])
    }

Fix: make the rule build smaller values: count or test elements as they are
found rather than collecting them all first.""",
    fatal=True,
)


HG415 = Code(
    "HG415",
    "policy-unsupported-builtin",
    E,
    summary="A policy calls a built-in function the policy engine does not provide",
    doc="""What: a `.rego` file calls a built-in that OPA has but the policy engine
(rego-cpp) does not provide: `http.send`, the `net.*` functions (CIDR tests,
`net.lookup_ip_addr`), GraphQL, JSON schema, `rego.metadata.*` and
`rego.parse_module`, `providers.aws.sign_req`, and some others depending on
how the engine was built. The error is located at the call in the policy file.

Why: in rego-cpp such a call is undefined, so a rule that depends on it
never matches, or matches whatever happens: a rule that asks a registry with
`http.send` would pass every job. hclgpu runs policies offline, in CI and in
the editor: nothing may reach the network. The run stops with exit status 2
before any job is read.

Example:
    deny contains "the registry refuses the image" if {
      response := http.send({"method": "get", "url": url})
      response.status_code != 200
    }

Fix: give the rule the data it needs in the policy itself (a set of approved
registries, a list of CIDRs written out), or test with string built-ins
(`startswith`, `regex.match`) instead.""",
    fatal=True,
)
