"""HG1xx: evaluation, variables, functions and decoding to the job model."""

from __future__ import annotations

from hclgpu.codes.base import Code, E

HG101 = Code(
    "HG101",
    "unknown-argument",
    E,
    summary="An argument that this block does not take",
    doc="""What: an attribute whose name the block's schema does not have, often a typo
(`contraint`, `memroy`) or a field Nomad removed: job `vault_token` and `consul_token`
(Nomad 1.10), service and check `id` (Nomad 1.3); for those the message names the release.

Why: Nomad decodes job files strictly and refuses the whole file.

Example:
    resources { memroy = 256 }

Fix: use the name the help suggests, or remove the argument.""",
)


HG102 = Code(
    "HG102",
    "unknown-block",
    E,
    summary="A block type that is not expected here",
    doc="""What: a nested block whose type the enclosing block does not have, or one
placed at the wrong level (a `device` directly in a `task`).

Why: Nomad rejects the file ("Unsupported block type").

Example:
    task "t" { device "nvidia/gpu" {} }

Fix: move the block where it belongs (`device` goes inside `resources`) or fix
its name.""",
)


HG103 = Code(
    "HG103",
    "missing-argument",
    E,
    summary="A required argument is missing",
    doc="""What: the block needs an argument that is not set, such as `max` in a group
`scaling` block or `hook` in `lifecycle`.

Why: Nomad rejects the file ("Missing required argument").

Example:
    scaling { min = 1 }

Fix: add the argument.""",
)


HG104 = Code(
    "HG104",
    "duplicate-block",
    E,
    summary="A block that may appear only once appears again",
    doc="""What: a second `resources`, `vault`, `ephemeral_disk`, `env`... block where
Nomad allows one, or a second `job` in a file.

Why: Nomad rejects the file instead of merging the blocks.

Example:
    resources { cpu = 500 }
    resources { memory = 256 }

Fix: merge the blocks into one.""",
)


HG105 = Code(
    "HG105",
    "wrong-labels",
    E,
    summary="A block has too few or too many labels",
    doc="""What: a block such as `device`, `task` or `port` needs a label (its name)
that is missing, or a block has labels it does not take.

Why: Nomad rejects the file ("Missing name for ..." / "Extraneous label").

Example:
    device { count = 1 }

Fix: name the block: `device "nvidia/gpu" { count = 1 }`.""",
)


HG106 = Code(
    "HG106",
    "unsuitable-value",
    E,
    summary="A value of the wrong type or out of range for its field",
    doc="""What: a list where a string is expected, a word where a number is, a
negative count, or a duration Go cannot parse (`"5 minutes"`).

Why: Nomad rejects the file ("Unsuitable value type").

Example:
    header { Authorization = "Basic x" }    # needs a list: ["Basic x"]

Fix: write the value in the type the field takes.""",
)


HG107 = Code(
    "HG107",
    "file-outside-job-directory",
    E,
    summary="A file function reads outside the folder it reads from",
    doc="""What: `file()`, `fileset()` and the other file functions may read only inside
the folder they resolve relative paths from unless `--allow-fs` is given: the working
directory, as Nomad's CLI resolves them (an editor's workspace root), or the job file's
folder under `file-base = "job-folder"`. A `fileset()`
pattern that climbs out (`../**/*`, or through a linked directory) fails before
anything outside is listed.

Why: a CI job that lints an untrusted job file must not copy `/etc/passwd` or
a private key into rendered output, nor list the runner's directories.

Example:
    env { KEY = file("../../secrets/key.pem") }

Fix: keep the files the job needs inside that folder, or pass `--allow-fs` when the
job is trusted.""",
)


HG108 = Code(
    "HG108",
    "missing-job",
    E,
    summary="The file has no `job` block",
    doc="""What: a job file must hold exactly one `job "<id>" { ... }` block.

Why: Nomad rejects the file ("Missing job block").

Example: a file with only `variable` blocks.

Fix: add the job block, or check the file is a job file.""",
)


HG109 = Code(
    "HG109",
    "duplicate-argument",
    E,
    summary="An argument is set twice in the same block",
    doc="""What: the same attribute name appears twice in one block.

Why: HCL rejects the file ("Attribute redefined").

Example:
    count = 1
    count = 2

Fix: keep one of them.""",
)


HG110 = Code(
    "HG110",
    "unset-variable",
    E,
    summary="A declared variable has no value",
    doc="""What: a `variable` block with no `default`, and no value from `--var`, a var
file or `NOMAD_VAR_<name>`.

Why: Nomad refuses the file even if nothing uses the variable.

Example:
    variable "image" {}

Fix: give a default or pass `--var image=...`.""",
)


HG111 = Code(
    "HG111",
    "undeclared-variable",
    E,
    summary="A reference to a variable or local that is not declared",
    doc="""What: `var.x` or `local.x` where no `variable "x"` / local `x` exists, or a
`--var` / var-file value for a variable the job does not declare.

Why: Nomad rejects the file.

Example:
    image = var.imgae

Fix: fix the name (the help suggests the closest one) or declare it.""",
)


HG112 = Code(
    "HG112",
    "invalid-variable-value",
    E,
    summary="A variable's value does not match its type",
    doc="""What: a default, `--var`, var-file or environment value that cannot be
converted to the variable's `type`.

Why: Nomad rejects the file.

Example:
    variable "gpus" { type = number }     # --var gpus=two

Fix: pass a value of the declared type.""",
)


HG113 = Code(
    "HG113",
    "failed-validation",
    E,
    summary="A variable's value fails one of its validation rules",
    doc="""What: a `validation { condition, error_message }` rule of the variable
evaluated to false for the value in use.

Why: Nomad rejects the file with the rule's error message.

Example:
    validation { condition = var.gpus > 0, error_message = "Need a GPU." }

Fix: pass a value the rule accepts.""",
)


HG114 = Code(
    "HG114",
    "local-cycle",
    E,
    summary="Local values depend on each other in a cycle",
    doc="""What: `local.a` uses `local.b`, which (directly or not) uses `local.a`.

Why: no order of evaluation exists; Nomad gives up with an error.

Example:
    locals { a = local.b, b = local.a }

Fix: compute one of them from variables or constants.""",
)


HG115 = Code(
    "HG115",
    "unknown-function",
    E,
    summary="A call to a function Nomad does not have, or where no call is allowed",
    doc="""What: a function name that is not in jobspec2's function table (for example
`timestamp()` or `regex()`, which Terraform has and Nomad does not), or any call in
a variable's default, a var file or a `--var` value, which must be constants.

Why: Nomad rejects the file ("Call to unknown function").

Example:
    name = uppercase(var.name)

Fix: use the function the help suggests.""",
)


HG116 = Code(
    "HG116",
    "function-call-failed",
    E,
    summary="A function call failed or has wrong arguments",
    doc="""What: wrong number or type of arguments, or the function failed on the value
(a missing file, bad JSON, an index out of range).

Why: Nomad rejects the file ("Error in function call").

Example:
    port = parseint("80a", 10)

Fix: correct the argument the diagnostic points at.""",
)


HG117 = Code(
    "HG117",
    "invalid-expression",
    E,
    summary="An expression cannot be evaluated",
    doc="""What: an operator applied to the wrong type, an attribute or index that does
not exist, a null in a template, a non-bool condition. Also loops past hclgpu's
budget (1,000,000 elements in one file), templates past 16 MiB of text, and file
functions past theirs (1,000,000 steps: patterns a `fileset()` pattern's braces
stand for, entries tested, files looked at; 256 MiB read).

Why: Nomad rejects the file; a loop or a template that large would hold up the check
(and Nomad's parser) for minutes.

Example:
    count = "two" * 2

Fix: correct the expression at the location shown.""",
)


HG119 = Code(
    "HG119",
    "invalid-dynamic-block",
    E,
    summary="A `dynamic` block is malformed",
    doc="""What: a `dynamic` block without one label, `for_each` or exactly one
`content` block, with a non-identifier `iterator`, or with a `for_each` value that
is not a collection.

Why: Nomad rejects the file.

Example:
    dynamic "device" { for_each = 2  content {} }

Fix: `for_each` takes a list, set or map; put the block body in `content`.""",
)


HG120 = Code(
    "HG120",
    "duplicate-definition",
    E,
    summary="A variable or local value is defined twice",
    doc="""What: two `variable` blocks with the same name, or the same local name in
two `locals` blocks.

Why: Nomad rejects the file.

Example:
    locals { a = 1 }
    locals { a = 2 }

Fix: rename or remove one.""",
)


HG121 = Code(
    "HG121",
    "invalid-declaration",
    E,
    summary="A variable declaration or var file is malformed",
    doc="""What: an invalid variable name or type expression, a validation rule whose
condition does not refer to the variable or whose message is not a sentence, or
a var file that declares variables instead of setting them.

Why: Nomad rejects the file.

Example:
    variable "gpus" { type = integer }

Fix: use a valid type (`number`) or message.""",
)


HG122 = Code(
    "HG122",
    "invalid-scaling-policy",
    E,
    summary="A scaling policy has the wrong name or type",
    doc="""What: a task `scaling` block named other than "cpu" or "mem", a task policy
whose `type` does not match its name, or a group policy whose `type` is not
"horizontal".

Why: Nomad rejects the file.

Example:
    task "t" { scaling "gpu" { ... } }

Fix: use `scaling "cpu"` or `scaling "mem"` in tasks and a horizontal policy in
groups.""",
)
