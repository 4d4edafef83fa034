"""HG0xx: reading and parsing; HG9xx: internal errors."""

from __future__ import annotations

from hclgpu.codes.base import INFO, Code, E

HG001 = Code(
    "HG001",
    "syntax-error",
    E,
    summary="The file is not valid HCL2 native syntax",
    doc="""What: a token appears where HCL2 does not allow it, for example an attribute
with no `=`, a block label that is not a string, or two attributes on one line.

Why: Nomad refuses to parse the whole file, so nothing in it is scheduled.

Example:
    port "http" static = 8080

Fix: write the attribute inside the block's braces:
    port "http" { static = 8080 }""",
)


HG002 = Code(
    "HG002",
    "unterminated-string",
    E,
    summary="A quoted string is not closed before the end of its line",
    doc="""What: a `"` opens a string but no `"` closes it on the same line.

Why: HCL2 quoted strings cannot span lines; everything after the quote is read as
string text, so the rest of the file makes no sense to the parser.

Example:
    image = "nvcr.io/nvidia/tensorrtserver:19.02-py3

Fix: close the quote, or use a heredoc (`<<EOF ... EOF`) for multi-line text.""",
)


HG003 = Code(
    "HG003",
    "unclosed-heredoc",
    E,
    summary="A heredoc is never closed by its marker",
    doc="""What: `<<EOH` opens a heredoc, but no later line consists of `EOH` alone.

Why: the heredoc swallows the rest of the file.

Example:
    data = <<EOH
    {{ key "config" }}
    EOH-typo

Fix: end the heredoc with a line holding only its marker (leading and trailing
spaces are allowed).""",
)


HG004 = Code(
    "HG004",
    "unexpected-closing-bracket",
    E,
    summary="A closing bracket has no matching opening bracket",
    doc="""What: a `}`, `]` or `)` closes something that was never opened, or closes a
different kind of bracket than the one open.

Why: usually a block was closed twice or a brace was deleted further up.

Example:
    task "rtserver" {
      driver = "docker"
    }
    }

Fix: delete the extra bracket or add the missing opening one.""",
)


HG005 = Code(
    "HG005",
    "unclosed-bracket",
    E,
    summary="An opening bracket is never closed",
    doc="""What: a `{`, `[` or `(` has no matching closing bracket before the end of
the file.

Why: Nomad rejects the file; the block or value has no end.

Example:
    job "train" {
      group "gpu" {
        count = 1
    }

Fix: add the missing closing bracket where the block ends.""",
)


HG006 = Code(
    "HG006",
    "invalid-character",
    E,
    summary="A character that HCL2 does not allow outside strings and comments",
    doc="""What: a character such as `@`, `$` or `;` appears outside any string or comment.

Why: HCL2 has no token that starts with it.

Example:
    count = 2;

Fix: remove the character, or put the text in quotes.""",
)


HG007 = Code(
    "HG007",
    "invalid-escape",
    E,
    summary="A backslash escape in a quoted string is not one HCL2 knows",
    doc="""What: HCL2 knows `\\n`, `\\r`, `\\t`, `\\"`, `\\\\`, `\\uNNNN` and
`\\UNNNNNNNN`; any other character after a backslash is an error, and so is a
`\\u`/`\\U` escape naming no character UTF-8 can encode: a surrogate (`\\uD800`
to `\\uDFFF`, even two forming a UTF-16 pair) or a code point above U+10FFFF.

Why: Nomad refuses the file ("The symbol ... is not a valid escape sequence").

Example:
    command = "C:\\bin"

Fix: double the backslash (`"C:\\\\bin"`), or use a heredoc, where backslashes are
literal.""",
)


HG008 = Code(
    "HG008",
    "unterminated-comment",
    E,
    summary="A `/*` comment is never closed by `*/`",
    doc="""What: a block comment starts with `/*` but the file ends before `*/`.

Why: the comment swallows the rest of the file.

Example:
    /* disabled for now
    job "x" {}

Fix: add `*/` where the comment should end.""",
)


HG009 = Code(
    "HG009",
    "brace-on-next-line",
    E,
    summary="A block's `{` starts a new line",
    doc="""What: the opening `{` of a block is on the line after the block's name and
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
)


HG010 = Code(
    "HG010",
    "invalid-utf8",
    E,
    summary="The file is not valid UTF-8",
    doc="""What: a byte sequence in the file does not decode as UTF-8.

Why: HCL2 files must be UTF-8; Nomad refuses other encodings.

Example: a file saved as Latin-1 containing `é` as the single byte 0xE9.

Fix: re-save the file as UTF-8.""",
)


HG011 = Code(
    "HG011",
    "nul-byte",
    E,
    summary="The file contains a NUL byte",
    doc="""What: the file holds a zero byte, which never appears in text.

Why: this is usually a binary file or a UTF-16 file given by mistake.

Example: a job file saved as UTF-16 by an editor.

Fix: re-save the file as UTF-8 text, or remove it from the paths given.""",
)


HG012 = Code(
    "HG012",
    "nesting-too-deep",
    E,
    summary="Brackets or blocks are nested deeper than hclgpu accepts",
    doc="""What: more than 256 brackets, blocks or template interpolations are open at
once.

Why: real job files nest a few levels deep; such depth comes from generated or
corrupt input and would exhaust the stack of every tool that walks the tree.

Example: a value of 10000 nested lists, `[[[[...]]]]`.

Fix: flatten the structure.""",
)


HG013 = Code(
    "HG013",
    "file-too-large",
    E,
    summary="The file is larger than hclgpu reads",
    doc="""What: the file is over 16 MiB (nesting is limited too: see HG012).

Why: no job file is that large; such an input is almost always a mistake, and
reading it would take a lot of memory.

Example: passing a log file or a disk image as a job file.

Fix: pass the job file itself.""",
)


HG014 = Code(
    "HG014",
    "number-too-large",
    E,
    summary="A number literal is larger than hclgpu holds",
    doc="""What: a number in the job file, a var file or a `--var` value has more than
4300 digits, or an exponent that makes it that large (`1e999999`).

Why: Nomad's parser keeps such a number, but no field takes it: counts, ports and
resources are 64-bit, and a `meta` value of thousands of digits is not what anyone
meant. hclgpu computes with numbers of at most 4300 digits, so it reports the literal
instead of guessing. A result past that bound (a multiplication, `parseint`) is an
evaluation error at the expression (HG117, HG116).

Example:
    meta = { build = 1e999999 }

Fix: quote it if it is text (`"1e999999"`); otherwise use a number that fits.""",
)


HG020 = Code(
    "HG020",
    "unreadable-file",
    E,
    summary="An input path cannot be read",
    doc="""What: a path given on the command line does not exist, is not readable, or
is neither a file nor a directory; or a folder met while walking a directory
cannot be listed.

Why: hclgpu cannot check what it cannot read, and a folder skipped in silence
would let "All checks passed" hide its files; the run exits with status 2.

Example: `hclgpu check jobs/missing.nomad.hcl`

Fix: correct the path or its permissions.""",
    fatal=True,
)


HG021 = Code(
    "HG021",
    "no-job-files",
    E,
    summary="A directory given as input holds no job files",
    doc="""What: a directory was searched recursively for `*.hcl`, `*.nomad` and
`*.nomad.hcl` files and none were found.

Why: a lint step that checks nothing should not pass silently.

Example: `hclgpu check src/` where the jobs live in `deploy/`.

Fix: point hclgpu at the directory that holds the job files.""",
    fatal=True,
)


HG022 = Code(
    "HG022",
    "unwritable-file",
    E,
    summary="`hclgpu fmt` cannot write the formatted file",
    doc="""What: the file was formatted, but replacing it failed: its directory is not
writable, the disk is full, or the file is on a read-only file system. Or the file
is a symbolic link that leads out of the tree being formatted (the folder given, or
for a file named, its own folder or the working directory): it is never written
through, since a pull request could aim it at any file of the machine.

Why: the file is left exactly as it was; the other files are still formatted,
and the run exits with status 2.

Example: `hclgpu fmt jobs/` where `jobs/legacy/` belongs to another user.

Fix: make the file's directory writable, format the file as its owner, or format
the file the link points to where it lies.""",
    fatal=True,
)


HG023 = Code(
    "HG023",
    "not-a-job-file",
    INFO,
    summary="A file found in a folder is not a job file, and is skipped",
    doc="""What: walking a folder found a `*.hcl` or `*.nomad` file with no top-level `job`
block: a variable file, a Nomad agent or plugin configuration, a Terraform file. It is
skipped with this note, never reported as an error (a file that does not parse counts as a
job file when one of its lines starts with `job`).

Why: job repositories keep variable files and configuration next to their jobs; checking
them as jobs would fail every run on files that are fine.

Example: `hclgpu check deploy/` where `deploy/prod.vars.hcl` holds `image = "triton:24.05"`.

Fix: nothing to fix. Name the file on the command line to check it as a job anyway, add it
to `exclude` to skip it silently, or `--ignore not-a-job-file` to hide the notes.""",
)


HG901 = Code(
    "HG901",
    "internal-error",
    E,
    summary="hclgpu failed on this input; this is a bug in hclgpu",
    doc="""What: an unexpected exception escaped while processing the file.

Why: this is never the input's fault; the run exits with status 2.

Example: none; every occurrence is a bug.

Fix: please report it with the file that triggers it.""",
    fatal=True,
)
