"""The registry of diagnostic codes.

Every diagnostic hclgpu can emit is declared here once: its stable id, a kebab-case
name, its default severity, a one-line summary and a longer doc shown by
``hclgpu explain``. Codes are never reused; ranges: HG0xx syntax and input, HG1xx
schema and evaluation, HG2xx semantics, HG3xx target support, HG9xx internal.
"""

from __future__ import annotations

from dataclasses import dataclass

from hclgpu.diagnostics import Severity


@dataclass(frozen=True, slots=True)
class Code:
    id: str
    name: str
    severity: Severity
    summary: str
    doc: str
    fatal: bool = False
    """A fatal code means the input could not be read at all: exit status 2."""


_E, _W = Severity.ERROR, Severity.WARNING

_ALL = (
    Code(
        "HG001",
        "syntax-error",
        _E,
        "The file is not valid HCL2 native syntax",
        """What: a token appears where HCL2 does not allow it, for example an attribute
with no `=`, a block label that is not a string, or two attributes on one line.

Why: Nomad refuses to parse the whole file, so nothing in it is scheduled.

Example:
    port "http" static = 8080

Fix: write the attribute inside the block's braces:
    port "http" { static = 8080 }""",
    ),
    Code(
        "HG002",
        "unterminated-string",
        _E,
        "A quoted string is not closed before the end of its line",
        """What: a `"` opens a string but no `"` closes it on the same line.

Why: HCL2 quoted strings cannot span lines; everything after the quote is read as
string text, so the rest of the file makes no sense to the parser.

Example:
    image = "nvcr.io/nvidia/tensorrtserver:19.02-py3

Fix: close the quote, or use a heredoc (`<<EOF ... EOF`) for multi-line text.""",
    ),
    Code(
        "HG003",
        "unclosed-heredoc",
        _E,
        "A heredoc is never closed by its marker",
        """What: `<<EOH` opens a heredoc, but no later line consists of `EOH` alone.

Why: the heredoc swallows the rest of the file.

Example:
    data = <<EOH
    {{ key "config" }}
    EOH-typo

Fix: end the heredoc with a line holding only its marker (leading and trailing
spaces are allowed).""",
    ),
    Code(
        "HG004",
        "unexpected-closing-bracket",
        _E,
        "A closing bracket has no matching opening bracket",
        """What: a `}`, `]` or `)` closes something that was never opened, or closes a
different kind of bracket than the one open.

Why: usually a block was closed twice or a brace was deleted further up.

Example:
    task "rtserver" {
      driver = "docker"
    }
    }

Fix: delete the extra bracket or add the missing opening one.""",
    ),
    Code(
        "HG005",
        "unclosed-bracket",
        _E,
        "An opening bracket is never closed",
        """What: a `{`, `[` or `(` has no matching closing bracket before the end of
the file.

Why: Nomad rejects the file; the block or value has no end.

Example:
    job "train" {
      group "gpu" {
        count = 1
    }

Fix: add the missing closing bracket where the block ends.""",
    ),
    Code(
        "HG006",
        "invalid-character",
        _E,
        "A character that HCL2 does not allow outside strings and comments",
        """What: a character such as `@`, `$` or `;` appears outside any string or comment.

Why: HCL2 has no token that starts with it.

Example:
    count = 2;

Fix: remove the character, or put the text in quotes.""",
    ),
    Code(
        "HG007",
        "invalid-escape",
        _E,
        "A backslash escape in a quoted string is not one HCL2 knows",
        """What: HCL2 knows `\\n`, `\\r`, `\\t`, `\\"`, `\\\\`, `\\uNNNN` and
`\\UNNNNNNNN`; any other character after a backslash is an error.

Why: Nomad refuses the file ("The symbol ... is not a valid escape sequence").

Example:
    command = "C:\\bin"

Fix: double the backslash (`"C:\\\\bin"`), or use a heredoc, where backslashes are
literal.""",
    ),
    Code(
        "HG008",
        "unterminated-comment",
        _E,
        "A `/*` comment is never closed by `*/`",
        """What: a block comment starts with `/*` but the file ends before `*/`.

Why: the comment swallows the rest of the file.

Example:
    /* disabled for now
    job "x" {}

Fix: add `*/` where the comment should end.""",
    ),
    Code(
        "HG009",
        "brace-on-next-line",
        _W,
        "A block's `{` starts a new line",
        """What: the opening `{` of a block is on the line after the block's name and
labels.

Why: some HCL tools accept this layout, but Nomad's parser rejects it ("A block
definition must have block content delimited by `{` and `}`, starting on the same
line as the block header"), so the job never reaches the scheduler.

Example:
    job "train"
    {
      datacenters = ["dc1"]
    }

Fix: move the `{` to the end of the header line: `job "train" {`.""",
    ),
    Code(
        "HG010",
        "invalid-utf8",
        _E,
        "The file is not valid UTF-8",
        """What: a byte sequence in the file does not decode as UTF-8.

Why: HCL2 files must be UTF-8; Nomad refuses other encodings.

Example: a file saved as Latin-1 containing `é` as the single byte 0xE9.

Fix: re-save the file as UTF-8.""",
    ),
    Code(
        "HG011",
        "nul-byte",
        _E,
        "The file contains a NUL byte",
        """What: the file holds a zero byte, which never appears in text.

Why: this is usually a binary file or a UTF-16 file given by mistake.

Example: a job file saved as UTF-16 by an editor.

Fix: re-save the file as UTF-8 text, or remove it from the paths given.""",
    ),
    Code(
        "HG012",
        "nesting-too-deep",
        _E,
        "Brackets or blocks are nested deeper than hclgpu accepts",
        """What: more than 256 brackets, blocks or template interpolations are open at
once.

Why: real job files nest a few levels deep; such depth comes from generated or
corrupt input and would exhaust the stack of every tool that walks the tree.

Example: a value of 10000 nested lists, `[[[[...]]]]`.

Fix: flatten the structure.""",
    ),
    Code(
        "HG013",
        "file-too-large",
        _E,
        "The file is larger than hclgpu reads",
        """What: the file is over 64 MiB.

Why: no job file is that large; such an input is almost always a mistake, and
reading it would take a lot of memory.

Example: passing a log file or a disk image as a job file.

Fix: pass the job file itself.""",
    ),
    Code(
        "HG020",
        "unreadable-file",
        _E,
        "An input path cannot be read",
        """What: a path given on the command line does not exist, is not readable, or
is neither a file nor a directory.

Why: hclgpu cannot check what it cannot read; the run exits with status 2.

Example: `hclgpu check jobs/missing.nomad.hcl`

Fix: correct the path or its permissions.""",
        fatal=True,
    ),
    Code(
        "HG021",
        "no-job-files",
        _E,
        "A directory given as input holds no job files",
        """What: a directory was searched recursively for `*.hcl`, `*.nomad` and
`*.nomad.hcl` files and none were found.

Why: a lint step that checks nothing should not pass silently.

Example: `hclgpu check src/` where the jobs live in `deploy/`.

Fix: point hclgpu at the directory that holds the job files.""",
        fatal=True,
    ),
    # ---- HG1xx: evaluation and decoding -------------------------------------------
    Code(
        "HG101",
        "unknown-argument",
        _E,
        "An argument that this block does not take",
        """What: an attribute whose name the block's schema does not have, often a typo
(`contraint`, `memroy`) or a field removed from Nomad (`vault_token`).

Why: Nomad decodes job files strictly and refuses the whole file.

Example:
    resources { memroy = 256 }

Fix: use the name the help suggests, or remove the argument.""",
    ),
    Code(
        "HG102",
        "unknown-block",
        _E,
        "A block type that is not expected here",
        """What: a nested block whose type the enclosing block does not have, or one
placed at the wrong level (a `device` directly in a `task`).

Why: Nomad rejects the file ("Unsupported block type").

Example:
    task "t" { device "nvidia/gpu" {} }

Fix: move the block where it belongs (`device` goes inside `resources`) or fix
its name.""",
    ),
    Code(
        "HG103",
        "missing-argument",
        _E,
        "A required argument is missing",
        """What: the block needs an argument that is not set, such as `max` in a group
`scaling` block or `hook` in `lifecycle`.

Why: Nomad rejects the file ("Missing required argument").

Example:
    scaling { min = 1 }

Fix: add the argument.""",
    ),
    Code(
        "HG104",
        "duplicate-block",
        _E,
        "A block that may appear only once appears again",
        """What: a second `resources`, `vault`, `ephemeral_disk`, `env`... block where
Nomad allows one, or a second `job` in a file.

Why: Nomad rejects the file instead of merging the blocks.

Example:
    resources { cpu = 500 }
    resources { memory = 256 }

Fix: merge the blocks into one.""",
    ),
    Code(
        "HG105",
        "wrong-labels",
        _E,
        "A block has too few or too many labels",
        """What: a block such as `device`, `task` or `port` needs a label (its name)
that is missing, or a block has labels it does not take.

Why: Nomad rejects the file ("Missing name for ..." / "Extraneous label").

Example:
    device { count = 1 }

Fix: name the block: `device "nvidia/gpu" { count = 1 }`.""",
    ),
    Code(
        "HG106",
        "unsuitable-value",
        _E,
        "A value of the wrong type or out of range for its field",
        """What: a list where a string is expected, a word where a number is, a
negative count, or a duration Go cannot parse (`"5 minutes"`).

Why: Nomad rejects the file ("Unsuitable value type").

Example:
    header { Authorization = "Basic x" }    # needs a list: ["Basic x"]

Fix: write the value in the type the field takes.""",
    ),
    Code(
        "HG107",
        "file-outside-job-directory",
        _E,
        "A file function reads outside the job file's directory",
        """What: `file()`, `fileset()` and the other file functions may read only inside
the directory tree of the job file unless `--allow-fs` is given.

Why: a CI job that lints an untrusted job file must not copy `/etc/passwd` or
a private key into rendered output.

Example:
    env { KEY = file("../../secrets/key.pem") }

Fix: keep the files the job needs beside it, or pass `--allow-fs` when the job
is trusted.""",
    ),
    Code(
        "HG108",
        "missing-job",
        _E,
        "The file has no `job` block",
        """What: a job file must hold exactly one `job "<id>" { ... }` block.

Why: Nomad rejects the file ("Missing job block").

Example: a file with only `variable` blocks.

Fix: add the job block, or check the file is a job file.""",
    ),
    Code(
        "HG109",
        "duplicate-argument",
        _E,
        "An argument is set twice in the same block",
        """What: the same attribute name appears twice in one block.

Why: HCL rejects the file ("Attribute redefined").

Example:
    count = 1
    count = 2

Fix: keep one of them.""",
    ),
    Code(
        "HG110",
        "unset-variable",
        _E,
        "A declared variable has no value",
        """What: a `variable` block with no `default`, and no value from `--var`, a var
file or `NOMAD_VAR_<name>`.

Why: Nomad refuses the file even if nothing uses the variable.

Example:
    variable "image" {}

Fix: give a default or pass `--var image=...`.""",
    ),
    Code(
        "HG111",
        "undeclared-variable",
        _E,
        "A reference to a variable or local that is not declared",
        """What: `var.x` or `local.x` where no `variable "x"` / local `x` exists, or a
`--var` / var-file value for a variable the job does not declare.

Why: Nomad rejects the file.

Example:
    image = var.imgae

Fix: fix the name (the help suggests the closest one) or declare it.""",
    ),
    Code(
        "HG112",
        "invalid-variable-value",
        _E,
        "A variable's value does not match its type",
        """What: a default, `--var`, var-file or environment value that cannot be
converted to the variable's `type`.

Why: Nomad rejects the file.

Example:
    variable "gpus" { type = number }     # --var gpus=two

Fix: pass a value of the declared type.""",
    ),
    Code(
        "HG113",
        "failed-validation",
        _E,
        "A variable's value fails one of its validation rules",
        """What: a `validation { condition, error_message }` rule of the variable
evaluated to false for the value in use.

Why: Nomad rejects the file with the rule's error message.

Example:
    validation { condition = var.gpus > 0, error_message = "Need a GPU." }

Fix: pass a value the rule accepts.""",
    ),
    Code(
        "HG114",
        "local-cycle",
        _E,
        "Local values depend on each other in a cycle",
        """What: `local.a` uses `local.b`, which (directly or not) uses `local.a`.

Why: no order of evaluation exists; Nomad gives up with an error.

Example:
    locals { a = local.b, b = local.a }

Fix: compute one of them from variables or constants.""",
    ),
    Code(
        "HG115",
        "unknown-function",
        _E,
        "A call to a function Nomad does not have, or where no call is allowed",
        """What: a function name that is not in jobspec2's function table (for example
`timestamp()` or `regex()`, which Terraform has and Nomad does not), or any call in
a variable's default, a var file or a `--var` value, which must be constants.

Why: Nomad rejects the file ("Call to unknown function").

Example:
    name = uppercase(var.name)

Fix: use the function the help suggests.""",
    ),
    Code(
        "HG116",
        "function-call-failed",
        _E,
        "A function call failed or has wrong arguments",
        """What: wrong number or type of arguments, or the function failed on the value
(a missing file, bad JSON, an index out of range).

Why: Nomad rejects the file ("Error in function call").

Example:
    port = parseint("80a", 10)

Fix: correct the argument the diagnostic points at.""",
    ),
    Code(
        "HG117",
        "invalid-expression",
        _E,
        "An expression cannot be evaluated",
        """What: an operator applied to the wrong type, an attribute or index that does
not exist, a null in a template, a non-bool condition.

Why: Nomad rejects the file.

Example:
    count = "two" * 2

Fix: correct the expression at the location shown.""",
    ),
    Code(
        "HG119",
        "invalid-dynamic-block",
        _E,
        "A `dynamic` block is malformed",
        """What: a `dynamic` block without one label, `for_each` or exactly one
`content` block, with a non-identifier `iterator`, or with a `for_each` value that
is not a collection.

Why: Nomad rejects the file.

Example:
    dynamic "device" { for_each = 2  content {} }

Fix: `for_each` takes a list, set or map; put the block body in `content`.""",
    ),
    Code(
        "HG120",
        "duplicate-definition",
        _E,
        "A variable or local value is defined twice",
        """What: two `variable` blocks with the same name, or the same local name in
two `locals` blocks.

Why: Nomad rejects the file.

Example:
    locals { a = 1 }
    locals { a = 2 }

Fix: rename or remove one.""",
    ),
    Code(
        "HG121",
        "invalid-declaration",
        _E,
        "A variable declaration or var file is malformed",
        """What: an invalid variable name or type expression, a validation rule whose
condition does not refer to the variable or whose message is not a sentence, or
a var file that declares variables instead of setting them.

Why: Nomad rejects the file.

Example:
    variable "gpus" { type = integer }

Fix: use a valid type (`number`) or message.""",
    ),
    Code(
        "HG122",
        "invalid-scaling-policy",
        _E,
        "A scaling policy has the wrong name or type",
        """What: a task `scaling` block named other than "cpu" or "mem", a task policy
whose `type` does not match its name, or a group policy whose `type` is not
"horizontal".

Why: Nomad rejects the file.

Example:
    task "t" { scaling "gpu" { ... } }

Fix: use `scaling "cpu"` or `scaling "mem"` in tasks and a horizontal policy in
groups.""",
    ),
    Code(
        "HG901",
        "internal-error",
        _E,
        "hclgpu failed on this input; this is a bug in hclgpu",
        """What: an unexpected exception escaped while processing the file.

Why: this is never the input's fault; the run exits with status 2.

Example: none; every occurrence is a bug.

Fix: please report it with the file that triggers it.""",
        fatal=True,
    ),
)

CODES: dict[str, Code] = {code.id: code for code in _ALL}
BY_NAME: dict[str, Code] = {code.name: code for code in _ALL}


def lookup(key: str) -> Code | None:
    """Find a code by id (`HG001`, case-insensitive) or by name (`syntax-error`)."""
    return CODES.get(key.upper()) or BY_NAME.get(key.lower())
