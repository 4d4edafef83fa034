"""The ``hclgpu`` argument parser: one function per command.

Building every command's parser costs more than a warm ``check`` of a thousand cached
files (argparse formats and translates each help text as it is added), so
:func:`build_parser` adds only the command named on the command line, and all of them
only when none is (``hclgpu --help``, a typo).
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable

from hclgpu import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import TypeAlias

    Subparsers: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]

_EPILOG = """exit status: 0 no errors; 1 errors found (or warnings with --strict);
2 usage error, unreadable input or internal error."""


def _add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=("text", "json", "sarif", "github"),
        default=os.environ.get("HCLGPU_OUTPUT_FORMAT", "text"),
        help="how to print diagnostics (default: text; env HCLGPU_OUTPUT_FORMAT)",
    )
    parser.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto", help="colour in text output"
    )


TARGETS = ("nomad", "kubernetes", "oci", "docker", "compose")


def _add_inputs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--var", "-var", action="append", default=[], metavar="NAME=VALUE", help="set an input variable"
    )
    parser.add_argument(
        "--var-file", "-var-file", action="append", default=[], metavar="FILE",
        help="read variable values from an HCL or JSON file",
    )  # fmt: skip
    parser.add_argument(
        "--allow-fs", action="store_true",
        help="let file functions read outside the job file's directory",
    )  # fmt: skip


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``command`` (a known command name), only that command's part."""
    parser = argparse.ArgumentParser(
        prog="hclgpu",
        description="Check and translate Nomad job files that request GPUs and other accelerators.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"hclgpu {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, add in COMMANDS.items():
        if command is None or command not in COMMANDS or name == command:
            add(commands)
    return parser


def _check_command(commands: Subparsers) -> None:
    check = commands.add_parser(
        "check", help="check job files and report problems", epilog=_EPILOG,
        description="Check job files. PATH is a file, a directory (searched recursively for "
        "*.hcl, *.nomad and *.nomad.hcl) or - for standard input.",
    )  # fmt: skip
    check.add_argument("paths", nargs="+", metavar="PATH")
    _add_format(check)
    check.add_argument("--strict", action="store_true", help="treat warnings as errors for the exit status")
    check.add_argument("--select", default="", metavar="CODES", help="report only these codes (comma list)")
    check.add_argument("--ignore", default="", metavar="CODES", help="do not report these codes (comma list)")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when errors are found")
    check.add_argument("--stdin-filename", default="<stdin>", help="the name reported for standard input")
    check.add_argument(
        "--jobs", "-j", type=_positive_int, default=os.cpu_count() or 1, metavar="N",
        help="worker processes for many files (default: the number of cores)",
    )  # fmt: skip
    check.add_argument(
        "--no-cache", action="store_true",
        help="check every file again (the cache is $XDG_CACHE_HOME/hclgpu/check, ~/.cache/hclgpu/check)",
    )  # fmt: skip
    _add_inputs(check)


def _render_command(commands: Subparsers) -> None:
    render = commands.add_parser(
        "render", help="translate a job file for another system", epilog=_EPILOG,
        description="Translate one job file. Nothing is printed or written when the job has errors.",
    )  # fmt: skip
    render.add_argument("path", metavar="PATH", help="a job file, or - for standard input")
    render.add_argument("--target", required=True, choices=TARGETS, help="what to produce")
    render.add_argument("--out", metavar="DIR", help="write files into DIR instead of printing")
    render.add_argument(
        "--canonicalize", action="store_true", help="apply the defaults Nomad's HTTP agent fills in"
    )
    render.add_argument(
        "--k8s-devices", choices=("plugin", "dra"), default="plugin",
        help="kubernetes: device-plugin resources with node affinity, or DRA resource claims",
    )  # fmt: skip
    render.add_argument(
        "--namespace", type=_dns_label, help="kubernetes: the namespace of every object (a DNS label)"
    )
    render.add_argument(
        "--cpu-mhz-per-core", type=_positive_int, default=1000, metavar="MHZ",
        help="kubernetes: how many of Nomad's cpu MHz make one core (default 1000)",
    )  # fmt: skip
    render.add_argument(
        "--templates", metavar="DIR", help="use DIR/<target>/*.j2 before the built-in templates"
    )
    render.add_argument(
        "--oci-devices", choices=("hook", "cdi", "env"), default="hook",
        help="oci: GPUs through the NVIDIA prestart hook, CDI device names, or environment only",
    )  # fmt: skip
    render.add_argument("--cdi-spec", metavar="FILE", help="oci: apply this CDI spec's edits to config.json")
    render.add_argument("--rootfs", metavar="PATH", help="oci: the root filesystem each bundle uses")
    render.add_argument(
        "--nodes", metavar="INVENTORY",
        help="oci, docker, compose: plan on this node file and use the device IDs chosen on --node",
    )  # fmt: skip
    render.add_argument("--node", metavar="NAME", help="with --nodes: the node the containers run on")
    render.add_argument(
        "--unsupported", choices=("ignore", "warn", "error"), default="warn",
        help="what to do with constructs the target cannot express (HG301)",
    )  # fmt: skip
    _add_format(render)
    _add_inputs(render)


def _dump_command(commands: Subparsers) -> None:
    dump = commands.add_parser("dump", help="print internal representations as JSON")
    dump.add_argument(
        "what", choices=("ast", "ir"), help="ast: the syntax tree with spans; ir: the typed job"
    )
    dump.add_argument("path", metavar="PATH", help="a job file, or - for standard input")
    _add_inputs(dump)
    _add_format(dump)


def _plan_command(commands: Subparsers) -> None:
    plan = commands.add_parser(
        "plan", help="place a job on a node inventory, as Nomad's scheduler would", epilog=_EPILOG,
        description="Dry-run placement: feasible nodes ranked with their scores and devices, and why "
        "every other node is infeasible. Exit 1 when some group cannot be placed.",
    )  # fmt: skip
    plan.add_argument("path", metavar="PATH", help="a job file")
    plan.add_argument(
        "--nodes", required=True, metavar="INVENTORY", help="hclgpu, Nomad or kubectl node file"
    )
    plan.add_argument(
        "--nodes-format", choices=("hclgpu", "nomad", "kubernetes"), help="skip format detection"
    )
    _add_format(plan)
    _add_inputs(plan)


def _fingerprint_command(commands: Subparsers) -> None:
    fingerprint = commands.add_parser(
        "fingerprint", help="this machine's GPUs as a one-node inventory (nvidia-smi)",
        description="Run nvidia-smi (or read its saved CSV or -q -x XML output with --from) and print "
        "the node as the NVIDIA device plugin fingerprints it: Nomad's attribute names and units.",
    )  # fmt: skip
    fingerprint.add_argument("--from", dest="source", metavar="FILE", help="saved nvidia-smi CSV or XML")
    fingerprint.add_argument("--name", default=None, help="the node name (default: this host's name)")
    fingerprint.add_argument("--output", choices=("yaml", "json"), default="yaml")


def _schema_command(commands: Subparsers) -> None:
    schema = commands.add_parser("schema", help="print a JSON Schema of an input format")
    schema.add_argument("what", choices=("inventory",))


def _fmt_command(commands: Subparsers) -> None:
    fmt = commands.add_parser(
        "fmt", help="rewrite job files in the canonical HCL layout", epilog=_EPILOG,
        description="Format job files in place, as nomad fmt does. PATH is a file, a directory or - "
        "(standard input, printed to standard output). Files with syntax errors are never touched.",
    )  # fmt: skip
    fmt.add_argument("paths", nargs="+", metavar="PATH")
    fmt.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 and list files that would change"
    )
    fmt.add_argument("--diff", action="store_true", help="write nothing; print a unified diff of the changes")
    _add_format(fmt)


def _explain_command(commands: Subparsers) -> None:
    explain = commands.add_parser("explain", help="explain a diagnostic code")
    explain.add_argument("code", metavar="CODE", help="a code such as HG001, or its name")


def _rules_command(commands: Subparsers) -> None:
    rules = commands.add_parser("rules", help="list every diagnostic code")
    rules.add_argument("--format", choices=("text", "json"), default="text")


def _lsp_command(commands: Subparsers) -> None:
    lsp = commands.add_parser(
        "lsp", help="run the language server (stdio) for editors",
        description="Serve the Language Server Protocol over stdin/stdout: diagnostics as you type, "
        "hover, completion, formatting, symbols, definitions, references and quick fixes. Variable "
        "files may also come from the client's initializationOptions (varFiles, vars, allowFs).",
    )  # fmt: skip
    lsp.add_argument("--var-file", action="append", default=[], metavar="FILE", help="variable values file")
    lsp.add_argument("--var", action="append", default=[], metavar="NAME=VALUE", help="a variable value")
    lsp.add_argument(
        "--allow-fs", action="store_true", help="let file functions read outside the job's directory"
    )
    lsp.add_argument(
        "--debounce-ms", type=int, default=10, metavar="MS", help="pause after a change before checking (10)"
    )


def _import_command(commands: Subparsers) -> None:
    importer = commands.add_parser(
        "import", help="turn a job in another format into a Nomad job file (HCL)",
        description="Read a job as Nomad API JSON (`nomad job run -output`, `nomad job inspect`, "
        "the HTTP API), Kubernetes manifests (YAML or JSON, one or many documents, a List) or a "
        "Compose file, and print it as a Nomad job file. What a job file cannot say is warned "
        "about at its line in the input: HG301 left out, HG302 approximated.",
    )  # fmt: skip
    importer.add_argument("file", metavar="FILE", help="the input file ('-' for stdin)")
    importer.add_argument(
        "--from", dest="source_format", choices=("nomad-json", "kubernetes", "compose"), required=True
    )
    importer.add_argument("-o", "--output", metavar="FILE", help="write the job file here (atomically)")
    importer.add_argument(
        "--cpu-mhz-per-core", type=_positive_int, default=1000, metavar="MHZ",
        help="kubernetes, compose: MHz of Nomad `cpu` per core of CPU (default 1000, as render)",
    )  # fmt: skip


COMMANDS: dict[str, Callable[[Subparsers], None]] = {
    "check": _check_command,
    "render": _render_command,
    "dump": _dump_command,
    "plan": _plan_command,
    "fingerprint": _fingerprint_command,
    "schema": _schema_command,
    "fmt": _fmt_command,
    "explain": _explain_command,
    "rules": _rules_command,
    "lsp": _lsp_command,
    "import": _import_command,
}
"""Every command, in the order `hclgpu --help` lists them."""


_DNS_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")


def _dns_label(text: str) -> str:
    """An argparse type: an RFC 1123 label, as Kubernetes requires of a namespace (it is
    written into every manifest as it is given)."""
    if not _DNS_LABEL.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a DNS label (at most 63 lowercase letters, digits and '-', "
            "starting and ending with a letter or digit)"
        )
    return text


def _positive_int(text: str) -> int:
    """An argparse type: a whole number above zero (a usage error otherwise)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{value} is not above zero")
    return value
